/**
 * Row i of a value on tfjs-wasm as one copy of its bytes on the wasm heap (a Row step of the
 * execution plan). A first-axis row is contiguous, but tfjs-wasm's GatherV2 computes every
 * element's source index (~33 ns per element on this machine: 0.55 ms per step for a [64, 256]
 * row of an RNN's inputs, 25x the step's other kernels) and its Slice first reads the whole input
 * back into a JS array (readSync copies it). The copy is the bytes the gather would have written.
 */
import type * as tf from '@tensorflow/tfjs-core';

/** Row `i` (in range) of `x`, shaped `rowShape`, as a new value the caller owns. */
export type RowCopy = (x: tf.TensorInfo, i: number, rowShape: number[]) => tf.TensorInfo;

interface WasmInternals {
  wasm?: { HEAPU8?: Uint8Array };
  dataIdMap?: { get(id: object): { memoryOffset?: number | null } | undefined };
  makeOutput?(shape: number[], dtype: tf.DataType): tf.TensorInfo;
}

const BYTES: Partial<Record<tf.DataType, number>> = { float32: 4, int32: 4, bool: 1 };

/** The heap copy on a tfjs-wasm backend instance, or undefined where its internals are not what this expects. */
export function wasmRowCopy(backend: tf.KernelBackend, backendName: string): RowCopy | undefined {
  const internals = backend as unknown as WasmInternals;
  if (backendName !== 'wasm' || internals.wasm?.HEAPU8 === undefined || internals.dataIdMap === undefined ||
      typeof internals.makeOutput !== 'function') return undefined;
  const heap = internals.wasm;
  const table = internals.dataIdMap;
  return (x, i, rowShape) => {
    const bytes = BYTES[x.dtype]! * rowShape.reduce((a, b) => a * b, 1);
    const out = internals.makeOutput!(rowShape, x.dtype);
    const from = table.get(x.dataId)?.memoryOffset;
    const to = table.get(out.dataId)?.memoryOffset;
    if (from == null || to == null) throw new Error('autograph-ts internal: a wasm value without heap memory');
    // (HEAPU8 is read after makeOutput: an allocation that grows the memory replaces it.)
    heap.HEAPU8!.copyWithin(to, from + i * bytes, from + (i + 1) * bytes);
    return out;
  };
}
