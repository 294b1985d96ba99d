/**
 * Kernels that move data around: reshape, concat, slice, gather, transpose, pack/unpack, split,
 * pad, tile, reverse, one-hot. Shapes are static in the graph IR, so shape-valued arguments
 * come from the recorded output shapes where that is simpler and exact.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { GraphScope, Value } from '../model_builder';
import { Unsupported } from '../model_builder';
import { OnnxType } from '../onnx_proto';
import type { KernelLowering, LoweringTable } from './lowering';
import { axesOf } from './lowering';
import { where } from './elementwise';
import { isNonNegativeInt } from '../sign_facts';

/** Reshape to the recorded output shape (allowzero: a 0 in the shape is an empty dim, as in tfjs). */
const reshapeTo: KernelLowering = (g, [x], _attrs, outs) =>
  g.op('Reshape', [x, g.int64s(outs[0].shape)], { allowzero: 1 }, x.type, outs[0].shape);

const INT64_MIN = -(2 ** 63);

/** Slice along all axes; negative steps count down (an end below 0 is written as INT64_MIN). */
function slice(g: GraphScope, x: Value, begin: number[], end: number[], steps: number[], shape: number[]): Value {
  const ends = end.map((e, i) => (steps[i] < 0 && e < 0 ? INT64_MIN : e));
  const axes = begin.map((_, i) => i);
  return g.op('Slice', [x, g.int64s(begin), g.int64s(ends), g.int64s(axes), g.int64s(steps)], {}, x.type, shape);
}

/**
 * Indices with negative entries made out of range: ONNX counts them from the end, tfjs rejects
 * them; out of range, ORT's Gather/GatherND fail the run as tfjs's kernels do.
 */
function noNegativeIndices(g: GraphScope, indices: Value, int32Allowed = false): Value {
  // Gather takes int32 indices as they are (a Cast per gather costs in loop bodies); GatherND wants int64.
  const i = int32Allowed && indices.type === OnnxType.INT32 ? indices : g.cast(indices, OnnxType.INT64);
  if (isNonNegativeInt(g.model, indices)) return i;   // (a counted loop's counter: sign_facts.ts)
  const negative = g.op('Less', [i, g.scalar(0, i.type)], {}, OnnxType.BOOL, i.shape);
  return g.op('Where', [negative, g.scalar(2 ** 31 - 1, i.type), i], {}, i.type, i.shape);
}

const gather: KernelLowering = (g, [x, indices], attrs, outs) => {
  if (Number(attrs.batchDims ?? 0) !== 0) throw new Unsupported('GatherV2 with batchDims > 0');
  const [axis] = axesOf(attrs.axis ?? 0, x.shape.length);
  return g.op('Gather', [x, noNegativeIndices(g, indices, true)], { axis }, x.type, outs[0].shape);
};

const unsqueeze = (g: GraphScope, v: Value, axis: number): Value => {
  const shape = [...v.shape];
  shape.splice(axis, 0, 1);
  return g.op('Unsqueeze', [v, g.int64s([axis])], {}, v.type, shape);
};

export const shapeKernels: LoweringTable = {
  Reshape: reshapeTo,
  ExpandDims: reshapeTo,
  // Constants of the recorded shape (a product with 0 would keep NaN and Infinity).
  ZerosLike: (g, [x], _attrs, outs) => g.filled(outs[0].shape, 0, x.type),
  OnesLike: (g, [x], _attrs, outs) => g.filled(outs[0].shape, 1, x.type),
  // autograph-ts's own kernel (backends/kernels/shape_kernel.ts): int64 here, cast to the recorded int32.
  Shape: (g, [x], _attrs, outs) => g.op('Shape', [x], {}, OnnxType.INT64, outs[0].shape),
  Tile: (g, [x], attrs, outs) => g.op('Tile', [x, g.int64s((attrs.reps as number[]).map(Number))], {}, x.type, outs[0].shape),
  Transpose: (g, [x], attrs, outs) => g.op('Transpose', [x], { perm: (attrs.perm as number[]).map(Number) }, x.type, outs[0].shape),
  Concat: (g, inputs, attrs, outs) => {
    const [axis] = axesOf(attrs.axis ?? 0, outs[0].shape.length);
    const parts = inputs.map((v) => g.cast(v, outs[0].type));
    return parts.length === 1 ? g.op('Identity', parts, {}, parts[0].type, outs[0].shape)
      : g.op('Concat', parts, { axis }, outs[0].type, outs[0].shape);
  },
  Pack: (g, inputs, attrs, outs) => {
    const [axis] = axesOf(attrs.axis ?? 0, outs[0].shape.length);
    const parts = inputs.map((v) => unsqueeze(g, g.cast(v, outs[0].type), axis));
    return parts.length === 1 ? g.op('Identity', parts, {}, parts[0].type, outs[0].shape)
      : g.op('Concat', parts, { axis }, outs[0].type, outs[0].shape);
  },
  Unpack: (g, [x], attrs, outs) => {
    const [axis] = axesOf(attrs.axis ?? 0, x.shape.length);
    return outs.map((o, i) => g.op('Gather', [x, g.int64s([i], [])], { axis }, x.type, o.shape));
  },
  SplitV: (g, [x], attrs, outs) => {
    const [axis] = axesOf(attrs.axis ?? 0, x.shape.length);
    const sizes = outs.map((o) => o.shape[axis]);
    return g.opN('Split', [x, g.int64s(sizes)], { axis }, outs.map((o) => ({ type: x.type, shape: o.shape })));
  },
  Slice: (g, [x], attrs, outs) => {
    // tfjs keeps the user's arguments as attrs: `x.slice(0, 1)` has numbers; a short list means 0s.
    const [begin] = tf.slice_util.parseSliceParams({ shape: x.shape } as unknown as tf.Tensor,
      attrs.begin as number | number[], attrs.size as number | number[] | undefined);
    const shape = outs[0].shape;
    return slice(g, x, begin, begin.map((b, i) => b + shape[i]), begin.map(() => 1), shape);
  },
  StridedSlice: (g, [x], attrs, outs) => {
    if (x.type === OnnxType.INT32 && outs[0].type !== OnnxType.INT32) {
      // tfjs-wasm gives int32 data a float32 dtype (its bits read as floats): not an ONNX op.
      throw new Unsupported('StridedSlice of int32: tfjs-wasm returns the int32 bits as float32');
    }
    const a = attrs as Record<string, number | number[]>;
    const info = tf.slice_util.sliceInfo(x.shape, a.begin as number[], a.end as number[], a.strides as number[],
      Number(a.beginMask ?? 0), Number(a.endMask ?? 0), Number(a.ellipsisMask ?? 0), Number(a.newAxisMask ?? 0),
      Number(a.shrinkAxisMask ?? 0));
    if (info.begin.length !== x.shape.length) throw new Unsupported('StridedSlice whose slice spec does not cover every axis');
    const sizes = info.begin.map((b, i) => Math.max(0, Math.ceil((info.end[i] - b) / info.strides[i])));
    const sliced = slice(g, x, info.begin, info.end, info.strides, sizes);
    return g.op('Reshape', [sliced, g.int64s(outs[0].shape)], { allowzero: 1 }, x.type, outs[0].shape);
  },
  Reverse: (g, [x], attrs, outs) => {
    // `tf.reverse(x)` without an axis reverses every axis (tfjs keeps dims undefined).
    const dims = new Set(attrs.dims == null ? x.shape.map((_, i) => i) : axesOf(attrs.dims, x.shape.length));
    const begin = x.shape.map((d, i) => (dims.has(i) ? d - 1 : 0));
    const end = x.shape.map((d, i) => (dims.has(i) ? -1 : d));
    return slice(g, x, begin, end, x.shape.map((_, i) => (dims.has(i) ? -1 : 1)), outs[0].shape);
  },
  GatherV2: gather,
  GatherNd: (g, [x, indices], _attrs, outs) =>
    g.op('GatherND', [x, noNegativeIndices(g, indices)], {}, x.type, outs[0].shape),
  PadV2: (g, [x], attrs, outs) => {
    const paddings = (attrs.paddings as number[][]).map((p) => p.map(Number));
    const pads = [...paddings.map((p) => p[0]), ...paddings.map((p) => p[1])];
    const value = g.scalar(Number(attrs.constantValue ?? 0), x.type);
    return g.op('Pad', [x, g.int64s(pads), value], { mode: 'constant' }, x.type, outs[0].shape);
  },
  OneHot: (g, [indices], attrs, outs) => {
    // indices == [0, depth) along a new last axis, then onValue / offValue: a negative or
    // out-of-range index gives an all-off row as in tfjs (ORT's OneHot counts negatives from the end).
    const depth = Number(attrs.depth);
    const shape = outs[0].shape;
    const idx = g.op('Unsqueeze', [g.cast(indices, OnnxType.INT64), g.int64s([-1])], {}, OnnxType.INT64, [...indices.shape, 1]);
    const hot = g.op('Equal', [idx, g.int64s([...Array(depth).keys()])], {}, OnnxType.BOOL, shape);
    // tfjs-wasm takes the values as int32 for any dtype (EdgeSemantics.oneHotValues); cpu stores them into the dtype.
    // (cpu fills a Float32Array, read as int32 with ToInt32: 2^31 - 1 -> 2^31 -> -2^31.)
    const type = outs[0].type;
    const value = (v: unknown): Value => g.scalar(g.model.semantics.oneHotValues === 'int32' ? Number(v) | 0
      : type === OnnxType.INT32 ? Math.fround(Number(v)) | 0 : Number(v), type);
    return where(g, hot, value(attrs.onValue ?? 1), value(attrs.offValue ?? 0), shape);
  },
};
