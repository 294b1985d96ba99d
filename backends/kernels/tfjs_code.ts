/**
 * Whether tfjs's own code is running now, read from the engine's state rather than from stack
 * frames (whose file paths differ between CommonJS, ES modules, bundles and minified code):
 * - every public tfjs op runs inside `ENGINE.startScope('<op>__op')` (tfjs-core's operation.ts,
 *   OP_SCOPE_SUFFIX), and the backward pass of a gradient inside the scope 'backward';
 * - a kernel runs with `state.kernelDepth > 0`;
 * - the engine's own methods that tfjs calls outside an op (disposeTensor reads `size`, runKernel,
 *   makeTensor, ...) are counted by `asEngineCall`, installed on the engine instance while a trace
 *   runs (trace_patches.ts).
 * No user code runs inside an op scope or a kernel, so a read seen there is tfjs's.
 */
import * as tf from '@tensorflow/tfjs-core';

const OP_SCOPE_SUFFIX = '__op';

interface ScopeState {
  kernelDepth: number;
  scopeStack: { name: string }[];
  activeScope: { name: string } | null;
}

const scopeState = (): ScopeState => tf.engine().state as unknown as ScopeState;

let engineCalls = 0;

/** Whether the code running now is tfjs's: an op, a kernel, the backward pass or an engine method. */
export function insideTfjs(): boolean {
  const state = scopeState();
  if (engineCalls > 0 || state.kernelDepth > 0) return true;
  return state.scopeStack.some((s) => s.name.endsWith(OP_SCOPE_SUFFIX) || s.name === 'backward');
}

/** The public tfjs op whose body runs now (its innermost scope), e.g. 'stack'; undefined outside ops. */
export function runningOp(): string | undefined {
  const name = scopeState().activeScope?.name;
  return name?.endsWith(OP_SCOPE_SUFFIX) ? name.slice(0, -OP_SCOPE_SUFFIX.length) : undefined;
}

/** The scope names of a set of ops (`op` + OP_SCOPE_SUFFIX), made once per set. */
const scopeNamesOf = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

/**
 * The outermost of `ops` among the public tfjs ops running now (ops call ops: tf.dropout calls
 * tf.randomUniform), or undefined. Asked on every kernel a trace runs: it allocates nothing (the
 * scope names are compared whole, not sliced).
 */
export function runningOpOf(ops: ReadonlySet<string>): string | undefined {
  let names = scopeNamesOf.get(ops);
  if (names === undefined) scopeNamesOf.set(ops, (names = new Set([...ops].map((op) => op + OP_SCOPE_SUFFIX))));
  const stack = scopeState().scopeStack;
  for (let i = 0; i < stack.length; i++) {
    const name = stack[i].name;
    if (names.has(name)) return name.slice(0, -OP_SCOPE_SUFFIX.length);
  }
  return undefined;
}

/**
 * `method` of the engine, counted as tfjs's code while it runs (see the header). Called for every
 * op while a trace runs: it forwards up to four arguments (every engine method it wraps takes
 * fewer; a missing one arrives as undefined, as when the caller leaves it out) and allocates
 * nothing, where a rest parameter would allocate an array per call.
 */
export function asEngineCall<F extends (...args: never[]) => unknown>(method: F): F {
  const call = method as unknown as (this: unknown, a: unknown, b: unknown, c: unknown, d: unknown) => unknown;
  return function (this: unknown, a: unknown, b: unknown, c: unknown, d: unknown): unknown {
    engineCalls++;
    try {
      return call.call(this, a, b, c, d);
    } finally {
      engineCalls--;
    }
  } as unknown as F;
}
