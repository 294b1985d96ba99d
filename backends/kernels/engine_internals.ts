/**
 * The tfjs engine's fields and methods the staging engine uses: public in JS, private in tfjs's
 * typings. Declared once here; every module that reaches into the engine goes through
 * `engineInternals()`.
 */
import * as tf from '@tensorflow/tfjs-core';

export interface EngineInternals {
  /** The active backend's name; the recording backend switches it while a trace runs. */
  backendName: string;
  runKernel(name: string, inputs: unknown, attrs: unknown): tf.Tensor | tf.Tensor[];
  isTapeOn(): boolean;
  makeTensorFromTensorInfo(info: tf.TensorInfo, backend?: tf.KernelBackend): tf.Tensor;
  makeTensorFromDataId(dataId: object, shape: number[], dtype: tf.DataType, backend?: tf.KernelBackend): tf.Tensor;
  disposeTensor(t: tf.Tensor): void;
  incRef(t: tf.Tensor, backend: tf.KernelBackend | null): void;
  state: { registeredVariables: Record<string, tf.Variable> };
}

export const engineInternals = (): EngineInternals => tf.engine() as unknown as EngineInternals;

/** The id the next tensor tfjs makes will have (ids only grow): a tensor with an id below it existed before. */
export const nextTensorId = (): number => (tf.engine().constructor as unknown as { nextTensorId: number }).nextTensorId;
