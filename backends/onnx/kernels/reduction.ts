/**
 * Reductions (Sum, Prod, Mean, Max, Min, All, Any, ArgMax, ArgMin). tfjs names the axes `axis`
 * or `reductionIndices`; opset 18 takes them as an int64 input. Edge values as tfjs gives them:
 * int32 sums and products wrap (ORT's int32 ReduceSum / ReduceProd saturate: computed here in
 * int64 or float64), NaN anywhere makes Max / Min NaN (ORT's ReduceMax skips a NaN after the
 * first element), and float32 sums follow the backend's accumulator (EdgeSemantics.floatSum).
 */
import type { Attrs } from '../../graph';
import type { GraphScope, Value } from '../model_builder';
import { Unsupported } from '../model_builder';
import { OnnxType } from '../onnx_proto';
import type { KernelLowering, LoweringTable, Out } from './lowering';
import { axesOf, castTo, NUMERIC, toInt32 } from './lowering';

/** The axes a reduction's attrs name: none given means all; an empty list, none. */
function reducedAxes(x: Value, attrs: Attrs): number[] {
  const given = attrs.axis ?? attrs.reductionIndices;
  return given == null ? x.shape.map((_, i) => i) : axesOf(given, x.shape.length);
}

/** `opType` over `axes` of v, in v's type. */
const over = (g: GraphScope, opType: string, v: Value, axes: number[], attrs: Attrs, out: Out): Value =>
  g.op(opType, [v, g.int64s(axes)], { keepdims: attrs.keepDims ? 1 : 0 }, v.type, out.shape);

/** An int64 as int32 modulo 2^32 (ORT's Cast saturates); the divisor is a constant, so Mod cannot fault. */
function wrapInt64(g: GraphScope, v: Value): Value {
  const L = OnnxType.INT64;
  const m = g.op('Mod', [v, g.scalar(2 ** 32, L)], { fmod: 0 }, L, v.shape);
  const high = g.op('GreaterOrEqual', [m, g.scalar(2 ** 31, L)], {}, OnnxType.BOOL, v.shape);
  return g.cast(g.op('Where', [high, g.op('Sub', [m, g.scalar(2 ** 32, L)], {}, L, v.shape), m], {}, L, v.shape), OnnxType.INT32);
}

/** v with the reduced axes last, in tfjs's order, flattened: [...kept dims, n]. */
function reducedLast(g: GraphScope, v: Value, axes: number[]): Value {
  const kept = v.shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const perm = [...kept, ...axes];
  const t = perm.every((p, i) => p === i) ? v : g.op('Transpose', [v], { perm }, v.type, perm.map((p) => v.shape[p]));
  const shape = [...kept.map((i) => v.shape[i]), axes.reduce((p, a) => p * v.shape[a], 1)];
  return g.op('Reshape', [t, g.int64s(shape)], { allowzero: 1 }, v.type, shape);
}

/** Elements [from, to) of the last axis. */
function part(g: GraphScope, v: Value, from: number, to: number): Value {
  const shape = [...v.shape.slice(0, -1), to - from];
  return g.op('Slice', [v, g.int64s([from]), g.int64s([to]), g.int64s([-1])], {}, v.type, shape);
}

/** Cap on the factors of a tfjs-cpu int32 product multiplied one after another (past it: refused). */
const MAX_SEQUENTIAL_FACTORS = 16;

/**
 * int32 Prod. tfjs-wasm multiplies in int32 (wraps): any order gives the product modulo 2^32, so a
 * tree of wrapping int32 Muls. tfjs-cpu multiplies JS numbers left to right, rounding past 2^53,
 * and stores with ToInt32: the same float64 Muls in that order. (ORT's int32 and int64 ReduceProd
 * saturate.)
 */
function intProduct(g: GraphScope, v: Value, axes: number[], out: Out): Value {
  const flat = reducedLast(g, v, axes);
  let n = flat.shape[flat.shape.length - 1];
  if (n === 0) return g.filled(out.shape, 1, OnnxType.INT32);
  let product: Value;
  if (g.model.semantics.intMultiply === 'float64') {
    if (n > MAX_SEQUENTIAL_FACTORS) {
      throw new Unsupported(`int32 Prod of ${n} values: tfjs-cpu rounds the running product past 2^53 (over ${MAX_SEQUENTIAL_FACTORS} factors not lowered)`);
    }
    const D = OnnxType.DOUBLE;
    const factors = g.cast(flat, D);
    product = part(g, factors, 0, 1);
    for (let i = 1; i < n; i++) product = g.op('Mul', [product, part(g, factors, i, i + 1)], {}, D, product.shape);
    product = toInt32(g, product);
  } else {
    product = flat;
    while (n > 1) {
      if (n % 2 === 1) {
        const one = g.filled([...product.shape.slice(0, -1), 1], 1, OnnxType.INT32);
        product = g.op('Concat', [product, one], { axis: -1 }, OnnxType.INT32, [...product.shape.slice(0, -1), ++n]);
      }
      const half = n / 2;
      product = g.op('Mul', [part(g, product, 0, half), part(g, product, half, n)], {}, OnnxType.INT32, [...product.shape.slice(0, -1), half]);
      n = half;
    }
  }
  return g.op('Reshape', [product, g.int64s(out.shape)], { allowzero: 1 }, OnnxType.INT32, out.shape);
}

type Build = (g: GraphScope, x: Value, axes: number[], attrs: Attrs, out: Out) => Value;

/** A reduction over the attrs' axes; over no axes tfjs returns x (ONNX would reduce over all). */
const reduction = (build: Build, types: readonly OnnxType[] = NUMERIC): KernelLowering => (g, [x], attrs, outs) => {
  const axes = reducedAxes(x, attrs);
  const v = castTo(g, x, types);
  return axes.length === 0 ? g.op('Identity', [v], {}, v.type, outs[0].shape) : build(g, v, axes, attrs, outs[0]);
};

/**
 * Sum / Prod. int32 sums wrap on both backends (tfjs-cpu's float64 sum is exact below 2^53):
 * summed in int64, wrapped. Products: intProduct. float32 on cpu: accumulated in float64.
 */
const sumOrProd = (opType: 'ReduceSum' | 'ReduceProd'): Build => (g, v, axes, attrs, out) => {
  const D = OnnxType.DOUBLE;
  const s = g.model.semantics;
  if (v.type === OnnxType.INT32) {
    if (opType === 'ReduceProd') return intProduct(g, v, axes, out);
    return wrapInt64(g, over(g, opType, g.cast(v, OnnxType.INT64), axes, attrs, out));
  }
  if (s.floatSum === 'float64') return g.cast(over(g, opType, g.cast(v, D), axes, attrs, out), v.type);
  return over(g, opType, v, axes, attrs, out);
};

/** Mean: tfjs-wasm sum / n; tfjs-cpu the float64 sum of float32(x / n) (EdgeSemantics.floatSum). */
const mean: Build = (g, v, axes, attrs, out) => {
  if (g.model.semantics.floatSum === 'float32') return over(g, 'ReduceMean', castTo(g, v, [OnnxType.FLOAT]), axes, attrs, out);
  const D = OnnxType.DOUBLE;
  const n = axes.reduce((p, a) => p * v.shape[a], 1);
  const parts = g.cast(g.cast(g.op('Div', [g.cast(v, D), g.scalar(n, D)], {}, D, v.shape), OnnxType.FLOAT), D);
  return g.cast(over(g, 'ReduceSum', parts, axes, attrs, out), OnnxType.FLOAT);
};

/** Max / Min: a NaN anywhere gives NaN in tfjs; ORT's ReduceMax / ReduceMin skip one after the first element. */
const extreme = (opType: 'ReduceMax' | 'ReduceMin'): Build => (g, v, axes, attrs, out) => {
  const reduced = over(g, opType, v, axes, attrs, out);
  if (v.type !== OnnxType.FLOAT) return reduced;
  const nan = g.cast(g.op('IsNaN', [v], {}, OnnxType.BOOL, v.shape), OnnxType.INT32);
  const anyNaN = g.cast(over(g, 'ReduceMax', nan, axes, attrs, out), OnnxType.BOOL);
  return g.op('Where', [anyNaN, g.scalar(NaN, v.type), reduced], {}, v.type, out.shape);
};

/** All / Any: booleans as int32, min / max. */
const logical = (opType: 'ReduceMin' | 'ReduceMax'): Build => (g, v, axes, attrs, out) =>
  g.cast(over(g, opType, v, axes, attrs, out), OnnxType.BOOL);

/** ArgMax/ArgMin: the first index of the extreme value, int64 in ONNX (cast to the recorded int32). */
const arg = (opType: string): KernelLowering => (g, [x], attrs, outs) => {
  const [axis] = axesOf(attrs.axis ?? 0, x.shape.length);
  const v = castTo(g, x, NUMERIC);
  return g.op(opType, [v], { axis, keepdims: 0, select_last_index: 0 }, OnnxType.INT64, outs[0].shape);
};

export const reductionKernels: LoweringTable = {
  Sum: reduction(sumOrProd('ReduceSum')),
  Prod: reduction(sumOrProd('ReduceProd')),
  Mean: reduction(mean),
  Max: reduction(extreme('ReduceMax')),
  Min: reduction(extreme('ReduceMin')),
  All: reduction(logical('ReduceMin'), [OnnxType.INT32]),
  Any: reduction(logical('ReduceMax'), [OnnxType.INT32]),
  ArgMax: arg('ArgMax'),
  ArgMin: arg('ArgMin'),
};
