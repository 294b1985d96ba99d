/**
 * The shape of one kernel lowering: tfjs kernel inputs (already ONNX values of the recorded
 * dtypes), its attrs and recorded outputs -> ONNX values. A lowering may return values of another
 * element type than recorded (e.g. int64 indices): the caller casts them to the recorded dtype.
 */
import type { Attrs, KernelNode } from '../../graph/graph';
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

/**
 * An integer-valued double, or an int64, as JS stores it into an Int32Array (ToInt32: modulo 2^32,
 * as signed). In arithmetic, not Casts: ORT gives -2^31 for a double or int64 out of int32's range.
 * (An int64's Mod by the constant 2^32 cannot fault; a double's modulo is floor division.)
 */
export function wrapToInt32(g: GraphScope, p: Value, shape: number[] = p.shape): Value {
  const T = p.type;
  const two32 = g.scalar(2 ** 32, T);
  const r = T === OnnxType.INT64 ? g.op('Mod', [p, two32], { fmod: 0 }, T, shape)
    : g.op('Sub', [p, g.op('Mul', [g.op('Floor', [g.op('Div', [p, two32], {}, T, shape)], {}, T, shape), two32], {}, T, shape)], {}, T, shape);
  const high = g.op('GreaterOrEqual', [r, g.scalar(2 ** 31, T)], {}, OnnxType.BOOL, shape);
  return g.cast(g.op('Where', [high, g.op('Sub', [r, two32], {}, T, shape), r], {}, T, shape), OnnxType.INT32);
}

/**
 * Any float or double as tfjs stores it into an Int32Array (JS ToInt32): truncated toward zero,
 * modulo 2^32 as signed, NaN and ±Infinity 0 (3e9 -> -1294967296). ORT's Cast gives -2^31 for all
 * of these but the truncation.
 */
export function toInt32(g: GraphScope, x: Value): Value {
  const D = OnnxType.DOUBLE;
  const B = OnnxType.BOOL;
  const d = g.cast(x, D);
  const nonFinite = g.op('Or', [g.op('IsNaN', [d], {}, B, d.shape), g.op('IsInf', [d], {}, B, d.shape)], {}, B, d.shape);
  const finite = g.op('Where', [nonFinite, g.scalar(0, D), d], {}, D, d.shape);
  const truncated = g.op('Mul', [g.op('Sign', [finite], {}, D, d.shape), g.op('Floor', [g.op('Abs', [finite], {}, D, d.shape)], {}, D, d.shape)],
    {}, D, d.shape);
  return wrapToInt32(g, truncated);
}

/**
 * A float or double as tfjs-wasm's kernels convert it to int32 (a C cast as emscripten compiles
 * it): truncated; NaN and values out of int32's range give -2^31.
 */
export function cInt32(g: GraphScope, x: Value): Value {
  const B = OnnxType.BOOL;
  const inRange = g.op('And', [g.op('GreaterOrEqual', [x, g.scalar(-(2 ** 31), x.type)], {}, B, x.shape),
    g.op('Less', [x, g.scalar(2 ** 31, x.type)], {}, B, x.shape)], {}, B, x.shape);
  const safe = g.op('Where', [inRange, x, g.scalar(0, x.type)], {}, x.type, x.shape);
  return g.op('Where', [inRange, g.cast(safe, OnnxType.INT32), g.scalar(-(2 ** 31), OnnxType.INT32)], {}, OnnxType.INT32, x.shape);
}

/**
 * A float kernel on int32 that tfjs records as int32, as the traced-on backend computes it
 * (EdgeSemantics.int32Unary): tfjs-wasm in float32, converted as C does (cInt32: asin(2) = NaN ->
 * -2^31); tfjs-cpu on JS numbers, stored with ToInt32 (1 / 0 = Infinity -> 0).
 */
export function int32Via(g: GraphScope, x: Value, op: (v: Value) => Value): Value {
  return g.model.semantics.int32Unary === 'float32' ? cInt32(g, op(g.cast(x, OnnxType.FLOAT)))
    : toInt32(g, op(g.cast(x, OnnxType.DOUBLE)));
}
