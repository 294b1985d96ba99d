/**
 * Whether the code running now is autograph-ts's own or the user's, known by construction: the
 * staging engine marks its entry points (the operators' staging hooks, a trace, the patches a
 * trace installs) with `asLibrary`, and the user's code it calls back (a branch, a loop body, the
 * traced function) with `asUser`. Decisions that depend on who reads a value (a staged list's
 * dims, the dims shape relaxation watches) ask `inLibraryCode()` — never a stack frame's file path,
 * which differs between CommonJS, ES modules, bundles and minified code.
 */

let depth = 0;

/** Whether autograph-ts's own code is running (not a callback into the user's). */
export function inLibraryCode(): boolean {
  return depth > 0;
}

/** Runs fn as autograph-ts's own code. */
export function asLibrary<T>(fn: () => T): T {
  depth++;
  try {
    return fn();
  } finally {
    depth--;
  }
}

/** Runs fn (the user's code, called back by autograph-ts) as the user's. */
export function asUser<T>(fn: () => T): T {
  const outer = depth;
  depth = 0;
  try {
    return fn();
  } finally {
    depth = outer;
  }
}

/** `callback`, running as the user's code whenever autograph-ts calls it. */
export function userCallback<F extends (...args: never[]) => unknown>(callback: F): F {
  return function (this: unknown, ...args: Parameters<F>): ReturnType<F> {
    return asUser(() => callback.apply(this, args) as ReturnType<F>);
  } as F;
}
