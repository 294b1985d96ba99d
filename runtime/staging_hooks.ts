/**
 * The seam between the operators (runtime/) and the staging engine (backends/).
 *
 * While `stage(fn)` traces fn, the staging engine installs a StagingHooks object and EVERY
 * operator call is delegated to it, with the operator's own arguments: the engine decides per
 * call whether the value at hand is a tensor (record an If/While node) or a plain JS value (run
 * the JS statement, i.e. unroll it into the trace). Outside a trace no hooks are installed and
 * the operators run their eager path (operators.ts), which never touches this module again.
 * The hooks are installed by the one owner of a trace, backends/staging/trace_context.ts (runTrace).
 */
import { callAsLibrary, userCallback } from './library_code';
import type { ArrayPredicate } from './names';
import type { LoopOptions, OperatorOptions } from './options';

export type Thunk<T = unknown> = () => T;
export type GetState = () => unknown[];
export type SetState = (values: unknown[]) => void;

export interface StagingHooks {
  ifStmt(cond: unknown, body: Thunk<void>, orelse: Thunk<void>, getState: GetState,
         setState: SetState, symbolNames: string[], nouts: number, opts?: OperatorOptions): void;
  whileStmt(test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState,
            symbolNames: string[], opts?: LoopOptions): void;
  doWhileStmt(test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState,
              symbolNames: string[], opts?: LoopOptions): void;
  forStmt(iterable: unknown, extraTest: Thunk | undefined, body: (item: unknown) => void,
          getState: GetState, setState: SetState, symbolNames: string[], opts?: LoopOptions): void;
  forInStmt(object: unknown, extraTest: Thunk | undefined, body: (key: string) => void,
            getState: GetState, setState: SetState, symbolNames: string[], opts?: LoopOptions): void;
  ifExp(cond: unknown, whenTrue: Thunk, whenFalse: Thunk, opts?: OperatorOptions): unknown;
  and(left: Thunk, right: Thunk, opts?: OperatorOptions): unknown;
  or(left: Thunk, right: Thunk, opts?: OperatorOptions): unknown;
  not(value: unknown, opts?: OperatorOptions): unknown;
  assert(cond: unknown, message: unknown, opts?: OperatorOptions): void;
  newList(items: unknown[], opts?: OperatorOptions): unknown[];
  recursiveCall(fn: (...args: never[]) => unknown, args: unknown[], opts: OperatorOptions | undefined, receiver: unknown): unknown;
  observeFields(object: object, keys: string[], name: string, opts?: OperatorOptions): void;
  /** `xs.some(f)` & co. on an array (or list) whose callback may return a tensor (array_predicates.ts; not sort). */
  /** `xs.forEach(f)` on a list (runtime/list_iteration.ts): a staged loop carrying what f assigns (opts.state). */
  forEachItem?(list: unknown[], callback: (this: unknown, item: unknown, index: unknown, array: unknown) => unknown, thisArg: unknown,
               opts?: OperatorOptions): void;
  /** `[a, ...xs]` with a list among the spread parts (runtime/list_iteration.ts): a new list of the items. */
  spreadItems?(parts: unknown[], spreads: readonly number[], opts?: OperatorOptions): unknown[];
  /** Whether `array` (of `array.push(v)`, v promoted) is held in a field a staged statement carries: it takes v. */
  takesPromoted?(array: unknown[]): boolean;
  arrayPredicate(receiver: unknown[], method: ArrayPredicate, callback: (...args: unknown[]) => unknown, args: unknown[],
                 opts?: OperatorOptions): unknown;
}

let active: StagingHooks | undefined;

/** The hooks of the trace in progress, if any. Hot path: a single module-variable read. */
export function activeStaging(): StagingHooks | undefined {
  return active;
}

/**
 * Runs fn with hooks installed (nesting restores the outer trace's hooks). Each hook runs as
 * autograph-ts's own code, and the closures it is handed (branches, loop bodies and tests, state
 * getters) as the user's (library_code.ts).
 */
export function withStaging<T>(hooks: StagingHooks | undefined, fn: () => T): T {
  const previous = active;
  active = hooks === undefined ? undefined : asLibraryHooks(hooks);
  try {
    return fn();
  } finally {
    active = previous;
  }
}

function asLibraryHooks(hooks: StagingHooks): StagingHooks {
  return new Proxy(hooks, {
    get(target, key) {
      const hook = Reflect.get(target, key) as unknown;
      if (typeof hook !== 'function') return hook;
      return (...args: unknown[]): unknown => callAsLibrary(hook as (...a: unknown[]) => unknown, target,
        args.map((a) => (typeof a === 'function' ? userCallback(a as (...x: never[]) => unknown) : a)));
    },
  });
}
