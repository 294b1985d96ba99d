/**
 * A tensor's data as the typed array of its dtype. tfjs does not promise one: on the cpu backend a
 * float32 tensor made by an int32 kernel (`tf.oneHot(...).toFloat()`, tf.norm's exponent: a no-op
 * cast there) keeps its Int32Array. ORT refuses that for float32, and a weights file written from
 * its bytes reads back other numbers (2 became 2.8e-45).
 */
import type * as tf from '@tensorflow/tfjs-core';

export type TypedArrayConstructor = Float32ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

/** The typed array that holds `dtype` (bool as bytes); undefined for complex64 and string. */
export function typedArrayFor(dtype: tf.DataType): TypedArrayConstructor | undefined {
  return dtype === 'float32' ? Float32Array : dtype === 'int32' ? Int32Array : dtype === 'bool' ? Uint8Array : undefined;
}

/** `t`'s data in the typed array of its dtype: its own array when it is one, else a converted copy. */
export function typedData(t: tf.Tensor): Float32Array | Int32Array | Uint8Array {
  const data = t.dataSync() as unknown as ArrayLike<number>;
  const Typed = typedArrayFor(t.dtype);
  if (Typed === undefined) throw new Error(`autograph-ts internal: no typed array for dtype ${t.dtype}`);
  return data instanceof Typed ? data : Typed.from(data);
}
