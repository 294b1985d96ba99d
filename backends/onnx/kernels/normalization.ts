/**
 * FusedBatchNorm (tf.batchNorm, tf.layers.batchNormalization at inference): element-wise, with
 * mean, variance, offset and scale broadcast over x as tfjs does:
 * (x - mean) * scale / sqrt(variance + epsilon) + offset.
 */
import { OnnxType } from '../onnx_proto';
import type { LoweringTable } from './lowering';
import { castTo, FLOAT_ONLY } from './lowering';

export const normalizationKernels: LoweringTable = {
  FusedBatchNorm: (g, inputs, attrs, outs, node) => {
    const byName = new Map(node.inputNames.map((n, i) => [n, castTo(g, inputs[i], FLOAT_ONLY)]));
    const F = OnnxType.FLOAT;
    const shape = outs[0].shape;
    const x = byName.get('x')!;
    const variance = byName.get('variance')!;
    const centered = g.op('Sub', [x, byName.get('mean')!], {}, F, shape);
    const scale = byName.get('scale');
    const scaled = scale === undefined ? centered : g.op('Mul', [centered, scale], {}, F, shape);
    const deviation = g.op('Sqrt', [g.op('Add', [variance, g.scalar(Number(attrs.varianceEpsilon ?? 0.001), F)], {}, F,
      variance.shape)], {}, F, variance.shape);
    const normalized = g.op('Div', [scaled, deviation], {}, F, shape);
    const offset = byName.get('offset');
    return offset === undefined ? normalized : g.op('Add', [normalized, offset], {}, F, shape);
  },
};
