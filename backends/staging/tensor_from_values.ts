/**
 * `tf.scalar(steps)`, `tf.tensor1d([i, j])`, `tf.fill([2], k)` while tracing, where `steps`, `i`,
 * `k` are promoted JS values (numbers or booleans that a staged loop or conditional carries as
 * scalar tensors: runtime/promoted_values.ts). Eagerly these functions read JS values; in the
 * graph the value is only known when it runs, so the tensor is built from it with ops that the
 * trace records: each value cast to the dtype eager gives (float32 for numbers, bool for
 * booleans, or the dtype asked for), stacked and reshaped, or broadcast for tf.fill. A call
 * without a tensor among its values is tfjs's own. Installed by trace_patches.ts.
 */
import * as tf from '@tensorflow/tfjs-core';

type OpFn = (...args: unknown[]) => tf.Tensor;

/** The ops, with the position of their values argument. */
export const TENSOR_FROM_VALUES_OPS: ReadonlyMap<string, number> = new Map([['scalar', 0], ['tensor', 0], ['tensor1d', 0],
  ['tensor2d', 0], ['tensor3d', 0], ['tensor4d', 0], ['tensor5d', 0], ['tensor6d', 0], ['fill', 1]]);

/** `op` (one of TENSOR_FROM_VALUES_OPS) on `args`: tfjs's `original` unless a value is a scalar tensor. */
export function tensorFromValues(op: string, original: OpFn, args: unknown[]): tf.Tensor {
  if (op === 'fill') {
    const [shape, value, dtype] = args as [number[], unknown, tf.DataType | undefined];
    if (!isScalarTensor(value)) return original(...args);
    return tf.broadcastTo(castScalar(value, dtype ?? dtypeOf(value)), shape);
  }
  const [values, ...rest] = args;
  const leaves = scalarLeaves(values);
  if (leaves === undefined) return original(...args);
  const dtype = (op === 'scalar' ? rest[0] : rest[1]) as tf.DataType | undefined ?? dtypeOf(leaves[0]);
  const shape = op === 'scalar' ? [] : (rest[0] as number[] | undefined) ?? nestedShape(values);
  if (leaves.length === 0 || dtype === 'string' || dtype === 'complex64') return original(...args);
  const stacked = tf.stack(leaves.map((v) => (v instanceof tf.Tensor ? castScalar(v, dtype) : tf.scalar(v as number, dtype))));
  return tf.reshape(stacked, shape);
}

const isScalarTensor = (v: unknown): v is tf.Tensor => v instanceof tf.Tensor && v.rank === 0;

/** The dtype eager tfjs infers from a JS value (a promoted bool tensor stood for a boolean). */
function dtypeOf(v: unknown): tf.DataType {
  if (v instanceof tf.Tensor) return v.dtype === 'bool' ? 'bool' : 'float32';
  return typeof v === 'boolean' ? 'bool' : typeof v === 'string' ? 'string' : 'float32';
}

function castScalar(t: tf.Tensor, dtype: tf.DataType): tf.Tensor {
  return tf.reshape(t.dtype === dtype ? t : tf.cast(t, dtype), []);
}

/** The leaves of nested arrays of numbers/booleans when at least one is a scalar tensor; else undefined. */
function scalarLeaves(values: unknown): unknown[] | undefined {
  if (isScalarTensor(values)) return [values];
  if (!Array.isArray(values)) return undefined;
  const leaves: unknown[] = [];
  let tensors = 0;
  const visit = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.every(visit);
    if (isScalarTensor(v)) tensors++;
    else if (typeof v !== 'number' && typeof v !== 'boolean') return false;
    leaves.push(v);
    return true;
  };
  return visit(values) && tensors > 0 ? leaves : undefined;
}

/** The shape of nested arrays, as tfjs infers it (the first element of each level). */
function nestedShape(values: unknown): number[] {
  const shape: number[] = [];
  for (let v = values; Array.isArray(v); v = v[0]) shape.push(v.length);
  return shape;
}
