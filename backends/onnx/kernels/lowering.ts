/**
 * The shape of one kernel lowering: tfjs kernel inputs (already ONNX values of the recorded
 * dtypes), its attrs and recorded outputs -> ONNX values. A lowering may return values of another
 * element type than recorded (e.g. int64 indices): the caller casts them to the recorded dtype.
 */
import type { Attrs, KernelNode } from '../../graph';
import type { GraphScope, Value } from '../model_builder';
import { Unsupported } from '../model_builder';
import { OnnxType } from '../onnx_proto';

export interface Out {
  type: OnnxType;
  shape: number[];
}

export type KernelLowering = (g: GraphScope, inputs: Value[], attrs: Attrs, outs: Out[], node: KernelNode) => Value | Value[];

export type LoweringTable = Record<string, KernelLowering>;

/** Casts `v` to the first of `types` unless it already is one of them. */
export function castTo(g: GraphScope, v: Value, types: readonly OnnxType[]): Value {
  return types.includes(v.type) ? v : g.cast(v, types[0]);
}

export const FLOAT_ONLY = [OnnxType.FLOAT] as const;
export const NUMERIC = [OnnxType.FLOAT, OnnxType.INT32] as const;

/** A tfjs axis attribute (number or list; negative counts from the end) as non-negative numbers. */
export function axesOf(value: unknown, rank: number): number[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.map((a) => {
    const n = Number(a);
    if (!Number.isInteger(n)) throw new Unsupported(`axis ${JSON.stringify(value)} is not an integer`);
    return n < 0 ? n + rank : n;
  });
}

export const rankOf = (v: Value): number => v.shape.length;
