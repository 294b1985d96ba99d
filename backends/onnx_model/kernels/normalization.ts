/**
 * FusedBatchNorm (tf.batchNorm, tf.layers.batchNormalization at inference): element-wise, with
 * mean, variance, offset and scale broadcast over x as tfjs does:
 * (x - mean) * scale / sqrt(variance + epsilon) + offset.
 */
import type { Value } from '../model_builder';
import { OnnxType } from '../onnx_proto';
import type { LoweringTable } from './lowering';
import { castTo, FLOAT_ONLY } from './lowering';

export const normalizationKernels: LoweringTable = {
  // offset + (x - mean) * scale / sqrt(variance + epsilon) in the traced-on backend's precisions
  // (EdgeSemantics.batchNorm): cpu all on JS numbers, rounded once; tfjs-wasm (x - mean) * scale
  // and sqrt(variance + epsilon) in float32, the division and the offset in double.
  FusedBatchNorm: (g, inputs, attrs, outs, node) => {
    const D = OnnxType.DOUBLE;
    const A = g.model.semantics.batchNorm === 'float64' ? D : OnnxType.FLOAT;
    const byName = new Map(node.inputNames.map((n, i) => [n, castTo(g, inputs[i], FLOAT_ONLY)]));
    const get = (name: string, type: OnnxType): Value | undefined => {
      const v = byName.get(name);
      return v === undefined ? undefined : g.cast(v, type);
    };
    const shape = outs[0].shape;
    const variance = get('variance', A)!;
    const centered = g.op('Sub', [get('x', A)!, get('mean', A)!], {}, A, shape);
    const scale = get('scale', A);
    const scaled = g.cast(scale === undefined ? centered : g.op('Mul', [centered, scale], {}, A, shape), D);
    const deviation = g.op('Sqrt', [g.op('Add', [variance, g.scalar(Number(attrs.varianceEpsilon ?? 0.001), A)], {}, A, variance.shape)],
      {}, A, variance.shape);
    const normalized = g.op('Div', [scaled, g.cast(deviation, D)], {}, D, shape);
    const offset = get('offset', D);
    return g.cast(offset === undefined ? normalized : g.op('Add', [normalized, offset], {}, D, shape), OnnxType.FLOAT);
  },
};
