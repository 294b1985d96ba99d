/**
 * Kernels of a tfjs backend that return a wrong result, fixed where autograph-ts calls kernels
 * itself: the recording backend while tracing (recording_backend.ts) and the executor when a graph
 * runs (execution_plan.ts). Eager tfjs calls outside a trace are left as tfjs makes them.
 *
 * - wasm GatherV2 on an empty input returns its internal 4-D shape ([1, 1, 1, 0] for row 0 of a
 *   [2, 0] matrix, where cpu gives [0]). A staged `for (const row of m)` takes rows with GatherV2,
 *   so an empty row would become a rank-4 value: the inner loop over it ran once and the program
 *   returned a [2, 1, 1, 1, 0] tensor where eager code returns [0, 0].
 */
import * as tf from '@tensorflow/tfjs-core';

export function fixedKernelFunc(kernelName: string, backendName: string, fn: tf.KernelFunc): tf.KernelFunc {
  if (kernelName === 'GatherV2' && backendName === 'wasm') {
    const reshape = tf.getKernel('Reshape', backendName)?.kernelFunc;
    if (reshape !== undefined) return gatherKeepingEmptyShapes(fn, reshape);
  }
  return fn;
}

function gatherKeepingEmptyShapes(fn: tf.KernelFunc, reshape: tf.KernelFunc): tf.KernelFunc {
  return (args) => {
    const out = fn(args) as tf.TensorInfo;
    if (tf.util.sizeFromShape(out.shape) !== 0) return out;
    const { x, indices } = args.inputs as { x: tf.TensorInfo; indices: tf.TensorInfo };
    const axis = tf.util.parseAxisParam(Number(args.attrs?.axis ?? 0), x.shape)[0];
    const { outputShape } = tf.backend_util.segment_util.collectGatherOpShapeInfo(
      x as tf.Tensor, indices as tf.Tensor, axis, Number(args.attrs?.batchDims ?? 0));
    if (tf.util.arraysEqual(outputShape, out.shape)) return out;
    // A reshape shares the (empty) data; dropping the wrong-shaped handle keeps one reference.
    const reshaped = reshape({ inputs: { x: out }, attrs: { shape: outputShape }, backend: args.backend }) as tf.TensorInfo;
    (args.backend as tf.KernelBackend).disposeData(out.dataId);
    return reshaped;
  };
}
