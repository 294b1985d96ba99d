/**
 * 2-D convolutions and pooling. tfjs is channels-last (NHWC, filters [h, w, in, out]), ONNX
 * channels-first (NCHW, weights [out, in/group, h, w]): the lowering transposes around the op.
 * Padding, strides and dilations come from tfjs's own computeConv2DInfo / computePool2DInfo, so
 * 'same', 'valid', explicit pads and dimRoundingMode mean what they mean in tfjs.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Attrs } from '../../graph/graph';
import type { GraphScope, Value } from '../model_builder';
import { Unsupported } from '../model_builder';
import { OnnxType } from '../onnx_proto';
import { failRunIf, where } from './elementwise';
import { activation } from './linalg';
import type { KernelLowering, LoweringTable } from './lowering';
import { castTo, FLOAT_ONLY } from './lowering';

type ConvInfo = ReturnType<typeof tf.backend_util.computeConv2DInfo>;

const transpose = (g: GraphScope, v: Value, perm: number[]): Value =>
  g.op('Transpose', [v], { perm }, v.type, perm.map((p) => v.shape[p]));

const toNCHW = (g: GraphScope, v: Value): Value => transpose(g, v, [0, 3, 1, 2]);
const toNHWC = (g: GraphScope, v: Value): Value => transpose(g, v, [0, 2, 3, 1]);

function channelsLast(attrs: Attrs): void {
  if (attrs.dataFormat !== undefined && attrs.dataFormat !== 'NHWC' && attrs.dataFormat !== 'channelsLast') {
    throw new Unsupported(`dataFormat ${String(attrs.dataFormat)}`);
  }
}

const pair = (v: unknown): [number, number] => (Array.isArray(v) ? [Number(v[0]), Number(v[1])] : [Number(v), Number(v)]);

function convInfo(x: Value, filterShape: number[], attrs: Attrs, depthwise: boolean): ConvInfo {
  channelsLast(attrs);
  return tf.backend_util.computeConv2DInfo(x.shape as [number, number, number, number],
    filterShape as [number, number, number, number], pair(attrs.strides ?? 1), pair(attrs.dilations ?? 1),
    attrs.pad as 'same', attrs.dimRoundingMode as 'round' | undefined, depthwise);
}

const convAttrs = (info: ConvInfo, group: number) => ({
  strides: [info.strideHeight, info.strideWidth],
  dilations: [info.dilationHeight, info.dilationWidth],
  pads: [info.padInfo.top, info.padInfo.left, info.padInfo.bottom, info.padInfo.right],
  kernel_shape: [info.filterHeight, info.filterWidth],
  group,
});

/** Conv2D / DepthwiseConv2dNative (and their fused forms: + bias, activation). */
const conv = (depthwise: boolean, fused: boolean): KernelLowering => (g, inputs, attrs, outs, node) => {
  const byName = new Map(node.inputNames.map((n, i) => [n, inputs[i]]));
  const x = castTo(g, byName.get('x')!, FLOAT_ONLY);
  const filter = castTo(g, byName.get('filter')!, FLOAT_ONLY);
  const info = convInfo(x, filter.shape, attrs, depthwise);
  const [fh, fw, inC, k] = filter.shape;
  // Weights as [out, in/group, h, w]; depthwise: out channel c * multiplier + m, group = in channels.
  const w = depthwise
    ? transpose(g, g.op('Reshape', [filter, g.int64s([fh, fw, 1, inC * k])], {}, filter.type, [fh, fw, 1, inC * k]), [3, 2, 0, 1])
    : transpose(g, filter, [3, 2, 0, 1]);
  const nchw = [info.batchSize, info.outChannels, info.outHeight, info.outWidth];
  let y = g.op('Conv', [toNCHW(g, x), w], convAttrs(info, depthwise ? inC : 1), OnnxType.FLOAT, nchw);
  y = toNHWC(g, y);
  if (!fused) return xnnpackClamp(g, y);
  const bias = byName.get('bias');
  if (bias !== undefined) y = g.op('Add', [y, castTo(g, bias, FLOAT_ONLY)], {}, OnnxType.FLOAT, outs[0].shape);
  return activation(g, xnnpackClamp(g, y), String(attrs.activation ?? 'linear'), attrs, byName.get('preluActivationWeights'));
};

/** NaN -> -Infinity on tfjs-wasm, whose XNNPACK clamps conv and pool outputs (EdgeSemantics.xnnpackNaN). */
function xnnpackClamp(g: GraphScope, y: Value): Value {
  if (y.type !== OnnxType.FLOAT || g.model.semantics.xnnpackNaN === 'nan') return y;
  return where(g, g.op('IsNaN', [y], {}, OnnxType.BOOL, y.shape), g.scalar(-Infinity, y.type), y, y.shape);
}

type PoolInfo = ReturnType<typeof tf.backend_util.computePool2DInfo>;

/**
 * tfjs-cpu's average pool: the window's in-bounds values added row by row on JS numbers, divided
 * by their count, rounded once to float32 (ORT's float32 AveragePool cancels differently: 0.5
 * for 0.1 + 1e7 - 1e7 + 2.2 over 4, tfjs 0.575; it has no double kernel). As the sum of the
 * window's shifted views of x padded with zeros, in double.
 */
function averageInDouble(g: GraphScope, x: Value, info: PoolInfo): Value {
  const D = OnnxType.DOUBLE;
  const { top, left, bottom, right } = info.padInfo;
  const [n, h, w, c] = x.shape;
  const { strideHeight: sh, strideWidth: sw, outHeight: oh, outWidth: ow } = info;
  const padded = g.op('Pad', [g.cast(x, D), g.int64s([0, top, left, 0, 0, bottom, right, 0]), g.scalar(0, D)], { mode: 'constant' }, D,
    [n, h + top + bottom, w + left + right, c]);
  const shape = [n, oh, ow, c];
  let sum: Value | undefined;
  for (let ky = 0; ky < info.filterHeight; ky++) {
    for (let kx = 0; kx < info.filterWidth; kx++) {
      const view = g.op('Slice', [padded, g.int64s([ky, kx]), g.int64s([ky + (oh - 1) * sh + 1, kx + (ow - 1) * sw + 1]), g.int64s([1, 2]),
        g.int64s([sh, sw])], {}, D, shape);
      sum = sum === undefined ? view : g.op('Add', [sum, view], {}, D, shape);
    }
  }
  const inBounds = (o: number, stride: number, pad: number, k: number, size: number): number =>
    [...Array(k).keys()].filter((i) => o * stride - pad + i >= 0 && o * stride - pad + i < size).length;
  const counts = [...Array(oh).keys()].flatMap((r) => [...Array(ow).keys()].map((q) =>
    inBounds(r, sh, top, info.filterHeight, h) * inBounds(q, sw, left, info.filterWidth, w)));
  const count = g.model.initializer(D, [1, oh, ow, 1], new Uint8Array(Float64Array.from(counts).buffer), 'count');
  return g.cast(g.op('Div', [sum!, count], {}, D, shape), OnnxType.FLOAT);
}

const pool = (opType: 'MaxPool' | 'AveragePool'): KernelLowering => (g, [input], attrs) => {
  // int32 max pools (tfjs-cpu) as doubles, exact (float32 rounds 2^31 - 1 to 2^31).
  let x = opType === 'MaxPool' && input.type === OnnxType.INT32 ? g.cast(input, OnnxType.DOUBLE) : castTo(g, input, FLOAT_ONLY);
  if (opType === 'MaxPool' && x.type === OnnxType.FLOAT && g.model.semantics.maxPoolNaN === 'skip') {
    // tfjs-cpu: the max of the window's other values (-Infinity if all are NaN).
    x = where(g, g.op('IsNaN', [x], {}, OnnxType.BOOL, x.shape), g.scalar(-Infinity, x.type), x, x.shape);
  } else if (opType === 'MaxPool' && x.type === OnnxType.FLOAT) {
    // tfjs-wasm (XNNPACK): a NaN's effect depends on its place in the window ((NaN, 1) gives
    // -Infinity, (1, NaN) gives 1), which is not reproduced: an input with a NaN fails the ORT run
    // and the tfjs executor computes the pool.
    x = failRunIf(g, g.op('IsNaN', [x], {}, OnnxType.BOOL, x.shape), x);
  }
  channelsLast(attrs);
  const info = tf.backend_util.computePool2DInfo(x.shape as [number, number, number, number], pair(attrs.filterSize),
    pair(attrs.strides ?? 1), 1, attrs.pad as 'same', attrs.dimRoundingMode as 'round' | undefined);
  // (Pools take no group, and opset 18's AveragePool no dilations: tfjs pools are not dilated.)
  const { group: _group, dilations: _dilations, ...common } = convAttrs(info, 1);
  const extra = opType === 'AveragePool' ? { count_include_pad: 0 } : {};
  const nchw = [info.batchSize, info.outChannels, info.outHeight, info.outWidth];
  let input4 = toNCHW(g, x);
  const [top, left, bottom, right] = common.pads;
  if (opType === 'MaxPool' && common.pads.some((p) => p > 0)) {
    // ORT's MaxPool pads with -FLT_MAX (a window of -Infinity and padding gave -3.4e38): padded here with -Infinity.
    const [n, c, h, w] = input4.shape;
    input4 = g.op('Pad', [input4, g.int64s([0, 0, top, left, 0, 0, bottom, right]), g.scalar(-Infinity, x.type)], { mode: 'constant' },
      x.type, [n, c, h + top + bottom, w + left + right]);
    common.pads = [0, 0, 0, 0];
  }
  if (opType === 'AveragePool' && g.model.semantics.floatSum === 'float64') return averageInDouble(g, x, info);
  return xnnpackClamp(g, toNHWC(g, g.op(opType, [input4], { ...common, ...extra }, x.type, nchw)));
};

export const convKernels: LoweringTable = {
  Conv2D: conv(false, false),
  FusedConv2D: conv(false, true),
  DepthwiseConv2dNative: conv(true, false),
  FusedDepthwiseConv2D: conv(true, true),
  MaxPool: pool('MaxPool'),
  AvgPool: pool('AveragePool'),
};
