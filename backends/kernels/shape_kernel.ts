/**
 * A 'Shape' kernel (TF's op name): the dims of its input as an int32 vector, read when the graph
 * runs. tfjs has no such op (its shapes are JS numbers), so a dim the staged control flow needs as a
 * tensor — the row count of `for (const row of t)` — would be a constant of the traced dims, and a
 * graph relaxed to unknown dims (backends/staging/shape_relaxation.ts) would keep the traced count.
 * Registered for each backend a trace or an execution plan uses; constant folding turns it into a
 * constant where its input's dims are all known (optimize/constant_folding.ts).
 */
import * as tf from '@tensorflow/tfjs-core';

export const SHAPE_KERNEL = 'Shape';

const registered = new Set<string>();

/** Registers the Shape kernel for `backendName` (once). */
export function ensureShapeKernel(backendName: string): void {
  if (registered.has(backendName)) return;
  registered.add(backendName);
  if (tf.getKernel(SHAPE_KERNEL, backendName) !== undefined) return;
  tf.registerKernel({
    kernelName: SHAPE_KERNEL,
    backendName,
    kernelFunc: ({ inputs, backend }) => {
      const x = (inputs as { x: tf.TensorInfo }).x;
      const shape = [x.shape.length];
      const dataId = (backend as tf.KernelBackend).write(Int32Array.from(x.shape), shape, 'int32');
      return { dataId, shape, dtype: 'int32' };
    },
  });
}

/** The dims of `x` as an int32 vector (a Shape node when traced). */
export function shapeTensor(x: tf.Tensor): tf.Tensor1D {
  // (While tracing, the backend is the recording twin, which wraps the real backend's Shape.)
  if (tf.getKernel(SHAPE_KERNEL, tf.getBackend()) === undefined) ensureShapeKernel(tf.getBackend());
  return tf.engine().runKernel(SHAPE_KERNEL, { x }, {}) as tf.Tensor1D;
}
