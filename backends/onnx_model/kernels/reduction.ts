/**
 * Reductions (Sum, Prod, Mean, Max, Min, All, Any, ArgMax, ArgMin). tfjs names the axes `axis`
 * or `reductionIndices`; opset 18 takes them as an int64 input. Edge values as tfjs gives them:
 * int32 sums and products wrap (ORT's int32 ReduceSum / ReduceProd saturate: computed here in
 * int64, int32 or float64), NaN anywhere makes Max / Min NaN (ORT's ReduceMax skips a NaN after
 * the first element), and float32 sums and products go left to right in the backend's
 * accumulator (EdgeSemantics.floatSum), not in ORT's order.
 */
import type { Attrs } from '../../graph/graph';
import type { GraphScope, Value } from '../model_builder';
import { Unsupported } from '../model_builder';
import { OnnxType } from '../onnx_proto';
import type { KernelLowering, LoweringTable, Out } from './lowering';
import { axesOf, castTo, NUMERIC, toInt32, wrapToInt32 } from './lowering';

/** The axes a reduction's attrs name: none given means all; an empty list, none. */
function reducedAxes(x: Value, attrs: Attrs): number[] {
  const given = attrs.axis ?? attrs.reductionIndices;
  return given == null ? x.shape.map((_, i) => i) : axesOf(given, x.shape.length);
}

/** `opType` over `axes` of v, in v's type. */
const over = (g: GraphScope, opType: string, v: Value, axes: number[], attrs: Attrs, out: Out): Value =>
  g.op(opType, [v, g.int64s(axes)], { keepdims: attrs.keepDims ? 1 : 0 }, v.type, out.shape);

/** v with the reduced axes last, in tfjs's order, flattened: [...kept dims, n]. */
function reducedLast(g: GraphScope, v: Value, axes: number[]): Value {
  const kept = v.shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const perm = [...kept, ...axes];
  const t = perm.every((p, i) => p === i) ? v : g.op('Transpose', [v], { perm }, v.type, perm.map((p) => v.shape[p]));
  const shape = [...kept.map((i) => v.shape[i]), axes.reduce((p, a) => p * v.shape[a], 1)];
  // (An unknown kept dim is -1 in the target, which ONNX infers; allowzero must then be 0.)
  return g.op('Reshape', [t, g.int64s(shape)], { allowzero: shape.some((d) => d < 0) ? 0 : 1 }, v.type, shape);
}

/** Elements [from, to) of the last axis. */
function part(g: GraphScope, v: Value, from: number, to: number): Value {
  const shape = [...v.shape.slice(0, -1), to - from];
  return g.op('Slice', [v, g.int64s([from]), g.int64s([to]), g.int64s([-1])], {}, v.type, shape);
}

/** Cap on the factors of a product multiplied one after another (past it: refused). */
const MAX_SEQUENTIAL_FACTORS = 16;

/** `flat`'s last axis multiplied left to right in `type` (as tfjs's loops do), each step rounded. */
function productInOrder(g: GraphScope, flat: Value, type: OnnxType, what: string): Value {
  const n = flat.shape[flat.shape.length - 1];
  if (n > MAX_SEQUENTIAL_FACTORS) {
    throw new Unsupported(`${what} Prod of ${n} values: tfjs rounds the running product left to right (over ${MAX_SEQUENTIAL_FACTORS} factors not lowered)`);
  }
  const factors = g.cast(flat, type);
  let product = part(g, factors, 0, 1);
  for (let i = 1; i < n; i++) product = g.op('Mul', [product, part(g, factors, i, i + 1)], {}, type, product.shape);
  return product;
}

/**
 * Prod in tfjs's order (ORT's ReduceProd multiplies in another, and saturates int32 and int64).
 * int32: tfjs-wasm multiplies in int32 (wraps): any order gives the product modulo 2^32, so a tree
 * of wrapping int32 Muls; tfjs-cpu multiplies JS numbers left to right, rounding past 2^53, and
 * stores with ToInt32. float32: left to right in float32 (wasm) or float64 (cpu).
 */
function product(g: GraphScope, v: Value, axes: number[], out: Out): Value {
  const flat = reducedLast(g, v, axes);
  let n = flat.shape[flat.shape.length - 1];
  if (n === 0) return g.filled(out.shape, 1, v.type);
  const D = OnnxType.DOUBLE;
  const s = g.model.semantics;
  let result: Value;
  if (v.type === OnnxType.FLOAT) {
    result = g.cast(productInOrder(g, flat, s.floatSum === 'float64' ? D : OnnxType.FLOAT, 'float32'), OnnxType.FLOAT);
  } else if (s.intMultiply === 'float64') {
    result = toInt32(g, productInOrder(g, flat, D, 'int32'));
  } else {
    result = flat;
    while (n > 1) {
      if (n % 2 === 1) {
        const one = g.filled([...result.shape.slice(0, -1), 1], 1, OnnxType.INT32);
        result = g.op('Concat', [result, one], { axis: -1 }, OnnxType.INT32, [...result.shape.slice(0, -1), ++n]);
      }
      const half = n / 2;
      result = g.op('Mul', [part(g, result, 0, half), part(g, result, half, n)], {}, OnnxType.INT32, [...result.shape.slice(0, -1), half]);
      n = half;
    }
  }
  return g.op('Reshape', [result, g.int64s(out.shape)], { allowzero: 1 }, result.type, out.shape);
}

/** x with -0 made +0 (an element-wise Where on the reduced result: ORT's optimizer drops an added 0). */
function positiveZero(g: GraphScope, x: Value): Value {
  const zero = g.scalar(0, x.type);
  return g.op('Where', [g.op('Equal', [x, zero], {}, OnnxType.BOOL, x.shape), zero, x], {}, x.type, x.shape);
}

/** A dims product, -1 when one of them is unknown. */
const dimsProduct = (dims: number[]): number => (dims.some((d) => d < 0) ? -1 : dims.reduce((p, d) => p * d, 1));

/**
 * A float sum in tfjs's order: from 0, left to right over the reduced elements, each step rounded
 * to `type` (float32 on wasm, float64 on cpu), as CumSum's last element (ORT's ReduceSum adds in
 * another order: 1e8 + 33 ones - 1e8 + ... gave 24.4 where tfjs-wasm gives -1.19979). Starting
 * from 0, a sum of -0s is +0, as tfjs gives it. Unknown dims (a relaxed graph) are supported where
 * the reduced axes lead: the reduced count may be unknown, or the kept dims, not both.
 */
function sumInOrder(g: GraphScope, v: Value, axes: number[], type: OnnxType, out: Out): Value {
  const sorted = [...axes].sort((a, b) => a - b);
  const unknown = v.shape.some((d) => d < 0);
  if (sorted.every((a, i) => a === i) && (axes.length < v.shape.length || unknown)) {
    // Leading axes (a bias gradient: Sum over the batch): the same order as rows [n, rest] added
    // one after another — CumSum down axis 0 adds whole rows (vectorized), with no Transpose
    // (measured on an MLP step's [128, 256]: 85 -> ~15 us).
    const n = dimsProduct(sorted.map((a) => v.shape[a]));
    const rest = dimsProduct(v.shape.slice(sorted.length));
    if (n < 0 && rest < 0) throw new Unsupported('a float Sum over unknown dims that keeps unknown dims (tfjs\'s order needs one of them)');
    if (out.shape.filter((d) => d < 0).length > 1 || (unknown && out.shape.includes(0))) {
      throw new Unsupported('a float Sum whose result has more than one unknown dim');
    }
    if (n === 0) return g.filled(out.shape, 0, type);
    let rows = g.op('Reshape', [g.cast(v, type), g.int64s([n, rest])], { allowzero: unknown ? 0 : 1 }, type, [n, rest]);
    // An unknown count may be 0 at run time: tfjs's sum starts from 0, so a row of zeros first.
    if (n < 0) rows = g.op('Concat', [g.filled([1, rest], 0, type), rows], { axis: 0 }, type, [-1, rest]);
    const running = g.op('CumSum', [rows, g.int64s([0], [])], {}, type, rows.shape);
    const last = g.op('Slice', [running, g.int64s([-1]), g.int64s([2 ** 62]), g.int64s([0])], {}, type, [1, rest]);
    const sum = g.op('Reshape', [last, g.int64s(out.shape)], { allowzero: unknown ? 0 : 1 }, type, out.shape);
    return n < 0 ? sum : positiveZero(g, sum);
  }
  const trailing = sorted.every((a, i) => a === v.shape.length - sorted.length + i);
  if (unknown && !(trailing && dimsProduct(sorted.map((a) => v.shape[a])) >= 0 && v.shape.filter((d) => d < 0).length === 1)) {
    throw new Unsupported('a float Sum on unknown dims over axes that neither lead nor trail with a known count');
  }
  // (Trailing axes need no Transpose: the kept dims, one of them unknown, stay as they are.)
  const flat = g.cast(reducedLast(g, v, axes), type);
  const n = flat.shape[flat.shape.length - 1];
  if (n === 0) return g.filled(out.shape, 0, type);
  const running = g.op('CumSum', [flat, g.int64s([flat.shape.length - 1], [])], {}, type, flat.shape);
  return positiveZero(g, g.op('Reshape', [part(g, running, n - 1, n), g.int64s(out.shape)],
    { allowzero: out.shape.some((d) => d < 0) ? 0 : 1 }, type, out.shape));
}

/** How many elements each result of a reduction over `axes` of v sums, as a `type` scalar (read at run time when a dim is unknown). */
function count(g: GraphScope, v: Value, axes: number[], type: OnnxType): Value {
  const n = dimsProduct(axes.map((a) => v.shape[a]));
  if (n >= 0) return g.scalar(n, type);
  const dims = g.op('Gather', [g.op('Shape', [v], {}, OnnxType.INT64, [v.shape.length]), g.int64s(axes)], { axis: 0 },
    OnnxType.INT64, [axes.length]);
  return g.cast(g.op('ReduceProd', [dims, g.int64s([0])], { keepdims: 0 }, OnnxType.INT64, []), type);
}

type Build = (g: GraphScope, x: Value, axes: number[], attrs: Attrs, out: Out) => Value;

/** A reduction over the attrs' axes; over no axes tfjs returns x (ONNX would reduce over all). */
const reduction = (build: Build, types: readonly OnnxType[] = NUMERIC): KernelLowering => (g, [x], attrs, outs) => {
  const axes = reducedAxes(x, attrs);
  const v = castTo(g, x, types);
  return axes.length === 0 ? g.op('Identity', [v], {}, v.type, outs[0].shape) : build(g, v, axes, attrs, outs[0]);
};

/**
 * Sum. int32 sums wrap on both backends (tfjs-cpu's float64 sum is exact below 2^53): summed in
 * int64, wrapped. float32: sumInOrder, in float32 (wasm) or float64 (cpu).
 */
const sum: Build = (g, v, axes, attrs, out) => {
  if (v.type === OnnxType.INT32) return wrapToInt32(g, over(g, 'ReduceSum', g.cast(v, OnnxType.INT64), axes, attrs, out));
  const type = g.model.semantics.floatSum === 'float64' ? OnnxType.DOUBLE : OnnxType.FLOAT;
  return g.cast(sumInOrder(g, v, axes, type, out), OnnxType.FLOAT);
};

/** Mean: tfjs-wasm sum / n; tfjs-cpu the float64 sum of float32(x / n) (EdgeSemantics.floatSum). */
const mean: Build = (g, v, axes, _attrs, out) => {
  const F = OnnxType.FLOAT;
  if (g.model.semantics.floatSum === 'float32') {
    return g.op('Div', [sumInOrder(g, castTo(g, v, [F]), axes, F, out), count(g, v, axes, F)], {}, F, out.shape);
  }
  const D = OnnxType.DOUBLE;
  const parts = g.cast(g.op('Div', [g.cast(v, D), count(g, v, axes, D)], {}, D, v.shape), F);
  return g.cast(sumInOrder(g, parts, axes, D, out), F);
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
  Sum: reduction(sum),
  Prod: reduction((g, v, axes, _attrs, out) => product(g, v, axes, out)),
  Mean: reduction(mean),
  Max: reduction(extreme('ReduceMax')),
  Min: reduction(extreme('ReduceMin')),
  All: reduction(logical('ReduceMin'), [OnnxType.INT32]),
  Any: reduction(logical('ReduceMax'), [OnnxType.INT32]),
  ArgMax: arg('ArgMax'),
  ArgMin: arg('ArgMin'),
};
