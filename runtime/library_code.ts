/**
 * Whether the code running now is autograph-ts's own or the user's, known by construction: the
 * staging engine marks its entry points (the operators' staging hooks, a trace, the patches a
 * trace installs, what a staged list answers) as its own, and the user's code it calls back (a
 * branch, a loop body, the traced function) as the user's. Decisions that depend on who reads a
 * value (a staged list's dims, the dims shape relaxation watches) ask `inLibraryCode()` — never a
 * stack frame's file path, which differs between CommonJS, ES modules, bundles and minified code.
 * (The wrappers add one stack frame each: error locations look a bounded number of frames deep.)
 */

let depth = 0;

/** Whether autograph-ts's own code is running (not a callback into the user's). */
export function inLibraryCode(): boolean {
  return depth > 0;
}

/** fn.apply(thisArg, args) as autograph-ts's own code. */
export function callAsLibrary<T>(fn: (...args: never[]) => T, thisArg: unknown, args: readonly unknown[]): T {
  depth++;
  try {
    return fn.apply(thisArg, args as never[]);
  } finally {
    depth--;
  }
}

/** Runs fn as autograph-ts's own code. */
export function asLibrary<T>(fn: () => T): T {
  return callAsLibrary(fn, undefined, []);
}

/** The user's function each userCallback wrapper runs. */
const callbacks = new WeakMap<object, (...args: never[]) => unknown>();

/** `callback` (the user's code), running as the user's whenever autograph-ts calls it. */
export function userCallback<F extends (...args: never[]) => unknown>(callback: F): F {
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    const outer = depth;
    depth = 0;
    try {
      return callback.apply(this, args as never[]);
    } finally {
      depth = outer;
    }
  } as unknown as F;
  callbacks.set(wrapper, callback);
  return wrapper;
}

/** The user's function a userCallback wrapper runs (the function itself when it is none). */
export function unwrapCallback<F extends (...args: never[]) => unknown>(fn: F): F {
  return (callbacks.get(fn) as F | undefined) ?? fn;
}

/** `value`, and when it is a function, one that runs as autograph-ts's own code. */
export function ownCode<T>(value: T): T {
  if (typeof value !== 'function') return value;
  const fn = value as unknown as (...args: unknown[]) => unknown;
  return function (this: unknown, ...args: unknown[]): unknown {
    depth++;
    try {
      return fn.apply(this, args);
    } finally {
      depth--;
    }
  } as unknown as T;
}
