/**
 * 2-D convolutions and pooling. tfjs is channels-last (NHWC, filters [h, w, in, out]), ONNX
 * channels-first (NCHW, weights [out, in/group, h, w]): the lowering transposes around the op.
 * Padding, strides and dilations come from tfjs's own computeConv2DInfo / computePool2DInfo, so
 * 'same', 'valid', explicit pads and dimRoundingMode mean what they mean in tfjs.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Attrs } from '../../graph';
import type { GraphScope, Value } from '../model_builder';
import { Unsupported } from '../model_builder';
import { OnnxType } from '../onnx_proto';
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
  if (!fused) return y;
  const bias = byName.get('bias');
  if (bias !== undefined) y = g.op('Add', [y, castTo(g, bias, FLOAT_ONLY)], {}, OnnxType.FLOAT, outs[0].shape);
  return activation(g, y, String(attrs.activation ?? 'linear'), attrs, byName.get('preluActivationWeights'));
};

const pool = (opType: 'MaxPool' | 'AveragePool'): KernelLowering => (g, [input], attrs) => {
  // int32 max pools (tfjs-cpu) as doubles, exact (float32 rounds 2^31 - 1 to 2^31).
  const x = opType === 'MaxPool' && input.type === OnnxType.INT32 ? g.cast(input, OnnxType.DOUBLE) : castTo(g, input, FLOAT_ONLY);
  channelsLast(attrs);
  const info = tf.backend_util.computePool2DInfo(x.shape as [number, number, number, number], pair(attrs.filterSize),
    pair(attrs.strides ?? 1), 1, attrs.pad as 'same', attrs.dimRoundingMode as 'round' | undefined);
  // (Pools take no group, and opset 18's AveragePool no dilations: tfjs pools are not dilated.)
  const { group: _group, dilations: _dilations, ...common } = convAttrs(info, 1);
  const extra = opType === 'AveragePool' ? { count_include_pad: 0 } : {};
  const nchw = [info.batchSize, info.outChannels, info.outHeight, info.outWidth];
  return toNHWC(g, g.op(opType, [toNCHW(g, x)], { ...common, ...extra }, x.type, nchw));
};

export const convKernels: LoweringTable = {
  Conv2D: conv(false, false),
  FusedConv2D: conv(false, true),
  DepthwiseConv2dNative: conv(true, false),
  FusedDepthwiseConv2D: conv(true, true),
  MaxPool: pool('MaxPool'),
  AvgPool: pool('AveragePool'),
};
