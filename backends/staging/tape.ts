/**
 * tfjs's gradient tape, as the staging engine sees it: the one declaration of the engine's tape
 * state, whether a tape is recording, running code with no tape, and the `xs` of the gradients in
 * progress. Below the tracer: the trace core, the gradients and the engines all read the tape
 * through this module, and nothing here knows how a gradient is built (see gradients/).
 */
import * as tf from '@tensorflow/tfjs-core';

/** A step on tfjs's tape (tfjs's own TapeNode, private in its typings). */
export interface TapeNode {
  id: number;
  kernelName: string;
  inputs: Record<string, tf.Tensor>;
  outputs: tf.Tensor[];
  saved: tf.Tensor[] | { dispose(): void }[];
  gradient: (dys: (tf.Tensor | null)[]) => Record<string, () => tf.Tensor>;
}

/** The fields of tfjs's engine state that hold the tape. */
export interface TapeState {
  gradientDepth: number;
  kernelDepth: number;
  activeTape: TapeNode[] | null;
  nextTapeNodeId: number;
}

export const tapeState = (): TapeState => tf.engine().state as unknown as TapeState;

export function isTapeOn(): boolean {
  const state = tapeState();
  return state.gradientDepth > 0 && state.kernelDepth === 0;
}

/** Runs fn with no gradient tape recording (a tf.grad inside fn starts a tape of its own). */
export function withoutTape<T>(fn: () => T): T {
  const state = tapeState();
  const depth = state.gradientDepth;
  const tape = state.activeTape;
  state.gradientDepth = 0;
  try {
    return fn();
  } finally {
    state.gradientDepth = depth;
    state.activeTape = tape;
  }
}

/**
 * The `xs` of every tf.grad / tf.variableGrads / optimizer step in progress (all go through
 * Engine.gradients): what the tape will differentiate with respect to. A control-flow node only
 * differentiates with respect to its inputs that depend on them (tfjs prunes the tape the same way).
 */
const gradientSources: tf.Tensor[][] = [];
let sourcesWatched = false;

/**
 * Wraps Engine.gradients (once, for the life of the process) so that gradientSources knows the
 * `xs` of the gradients in progress. Installed by trace_context.ts when it is loaded: before any
 * staged function exists, so that a tf.grad around a staged call is seen too.
 */
export function watchGradientSources(): void {
  if (sourcesWatched) return;
  sourcesWatched = true;
  const engine = tf.engine() as unknown as { gradients(...args: unknown[]): unknown };
  const gradients = engine.gradients;
  engine.gradients = function (this: unknown, ...args: unknown[]): unknown {
    gradientSources.push(args[1] as tf.Tensor[]);
    try {
      return gradients.apply(this, args);
    } finally {
      gradientSources.pop();
    }
  };
}

/** Ids of the tensors that depend on a gradient source, through the steps on the active tape. */
export function dependentsOfSources(): Set<number> {
  const ids = new Set<number>();
  for (const xs of gradientSources) for (const x of xs) ids.add(x.id);
  for (const node of tapeState().activeTape ?? []) {
    if (Object.values(node.inputs).some((t) => t != null && ids.has(t.id))) for (const o of node.outputs) ids.add(o.id);
  }
  return ids;
}
