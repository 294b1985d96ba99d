/**
 * The first call of a new trace served by the trace's own values. A trace runs every kernel on the
 * call's own tensors (recording_backend.ts), so where the graph is straight-line code of pure
 * kernels, the tensors fn returned while it was traced ARE the call's results: eager's, computed
 * by the same kernels. Running the graph again would compute them a second time, after an
 * optimization and an engine's preparation that this one call does not need (#20: the first call
 * within 2x of one eager call). The graph is optimized and its engine chosen on the next call.
 *
 * Only where nothing else could differ: every node a parameter, a constant, a variable read or
 * update, or a kernel (no If/While, whose traced values are stand-ins; no random draw, print, check
 * or list, which act per run); every result a distinct kernel output of this trace. The trace
 * updated the variables for real: those updates are then kept (the call's, as eager made them)
 * instead of undone for the graph to make again. The tensors are handed over out of the trace's
 * scope, tracked by the caller's (a tf.tidy around the call frees them as it frees a run's results).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Graph } from '../graph/graph';

/** Result tensors of a trace, held past the end of its scope. */
export interface HeldResults {
  infos: tf.TensorInfo[];
  backend: tf.KernelBackend;
}

const SERVED_KINDS = new Set(['Input', 'Constant', 'ReadVariable', 'AssignVariable', 'Kernel']);

/** Whether the trace's `results` (per graph result, in order) are the call's results (see the header). */
export function traceValuesAreResults(graph: Graph, results: readonly (tf.Tensor | undefined)[]): boolean {
  // (A loop: every node of the first call's trace.)
  const nodes = graph.nodes;
  for (let i = 0; i < nodes.length; i++) if (!SERVED_KINDS.has(nodes[i].kind)) return false;
  const seen = new Set<tf.Tensor>();
  return graph.results.every((ref, i) => {
    const t = results[i];
    if (t === undefined || seen.has(t) || t.isDisposed) return false;
    seen.add(t);
    return graph.nodes[ref.node].kind === 'Kernel';
  });
}

/** Keeps the tensors' data past the end of the trace's scope (call before it ends). */
export function holdResults(tensors: readonly tf.Tensor[]): HeldResults {
  const backend = tf.engine().backend;
  for (const t of tensors) backend.incRef(t.dataId);
  return { infos: tensors.map((t) => ({ dataId: t.dataId, shape: [...t.shape], dtype: t.dtype })), backend };
}

/** The held results as tensors of the current scope (call after the trace's scope ended). */
export function takeResults(held: HeldResults): tf.Tensor[] {
  // (The tensor takes over the hold's reference to its data: makeTensorFromTensorInfo adds none.)
  const engine = tf.engine();
  return held.infos.map((info) => engine.makeTensorFromTensorInfo(info, held.backend));
}

/** Frees held results nobody took (through tensors: the engine's accounting of the data goes with them). */
export function releaseResults(held: HeldResults): void {
  tf.dispose(takeResults(held));
}
