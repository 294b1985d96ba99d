/**
 * Matrix products and the kernels around them: BatchMatMul (tfjs's transpose flags become
 * Transposes of the last two axes), _FusedMatMul (bias + activation, what tf.layers' Dense
 * runs), Einsum, Softmax, Cumsum, TopK; the fused activations (shared with the convolutions).
 */
import type { GraphScope, Value } from '../model_builder';
import { Unsupported } from '../model_builder';
import { OnnxType } from '../onnx_proto';
import type { KernelLowering, LoweringTable } from './lowering';
import { leakyRelu, where } from './elementwise';
import { axesOf, castTo, FLOAT_ONLY, NUMERIC } from './lowering';

function transposeLast2(g: GraphScope, v: Value): Value {
  const r = v.shape.length;
  const perm = v.shape.map((_, i) => i);
  [perm[r - 2], perm[r - 1]] = [perm[r - 1], perm[r - 2]];
  return g.op('Transpose', [v], { perm }, v.type, perm.map((p) => v.shape[p]));
}

function matMul(g: GraphScope, a: Value, b: Value, attrs: Record<string, unknown>, shape: number[]): Value {
  if (a.type === OnnxType.INT32 && g.model.semantics.intMultiply === 'float64') {
    // (tfjs-wasm has no int32 matrix product.)
    throw new Unsupported('int32 BatchMatMul: tfjs-cpu sums the products as JS numbers, rounding past 2^53 in its own order');
  }
  let x = castTo(g, a, NUMERIC);
  let y = castTo(g, b, [x.type]);
  // Float matrices with a transpose flag (what gradients of matMul are): Gemm reads them transposed
  // in place. As Transpose + MatMul, ORT fuses them into a FusedMatMul that ran the 128x512 by
  // 128x256 weight gradient of an MLP step single-threaded (~0.17 ms) where Gemm splits it.
  if ((attrs.transposeA || attrs.transposeB) && x.type === OnnxType.FLOAT && x.shape.length === 2 && y.shape.length === 2) {
    return g.op('Gemm', [x, y], { transA: attrs.transposeA ? 1 : 0, transB: attrs.transposeB ? 1 : 0 }, x.type, shape);
  }
  if (attrs.transposeA) x = transposeLast2(g, x);
  if (attrs.transposeB) y = transposeLast2(g, y);
  return g.op('MatMul', [x, y], {}, x.type, shape);
}

/** tfjs's fused activations (backend_util.applyActivation). */
export function activation(g: GraphScope, x: Value, name: string, attrs: Record<string, unknown>, prelu?: Value): Value {
  const s = x.shape;
  switch (name) {
    case 'linear': return x;
    case 'relu': return g.op('Relu', [x], {}, x.type, s);
    case 'relu6': return g.op('Clip', [x, g.scalar(0, x.type), g.scalar(6, x.type)], {}, x.type, s);
    case 'elu': return g.op('Elu', [x], {}, x.type, s);
    case 'sigmoid': return g.op('Sigmoid', [x], {}, x.type, s);
    case 'leakyrelu': return leakyRelu(g, x, Number(attrs.leakyreluAlpha ?? 0.2));
    case 'prelu':
      if (prelu === undefined) throw new Unsupported('prelu activation without weights');
      return g.op('PRelu', [x, castTo(g, prelu, [x.type])], {}, x.type, s);
    default: throw new Unsupported(`fused activation '${name}'`);
  }
}

const fusedMatMul: KernelLowering = (g, inputs, attrs, outs, node) => {
  const byName = new Map(node.inputNames.map((n, i) => [n, inputs[i]]));
  const shape = outs[0].shape;
  let y = matMul(g, byName.get('a')!, byName.get('b')!, attrs, shape);
  const bias = byName.get('bias');
  if (bias !== undefined) y = g.op('Add', [y, castTo(g, bias, [y.type])], {}, y.type, shape);
  const name = String(attrs.activation ?? 'linear');
  y = activation(g, y, name, attrs, byName.get('preluActivationWeights'));
  if ((name !== 'relu' && name !== 'relu6') || g.model.semantics.xnnpackNaN === 'nan') return y;
  // tfjs-wasm's fused relu / relu6 is a clamp that turns NaN into 0 (EdgeSemantics.xnnpackNaN).
  return where(g, g.op('IsNaN', [y], {}, OnnxType.BOOL, shape), g.scalar(0, y.type), y, shape);
};

export const linalgKernels: LoweringTable = {
  BatchMatMul: (g, [a, b], attrs, outs) => matMul(g, a, b, attrs, outs[0].shape),
  _FusedMatMul: fusedMatMul,
  Einsum: (g, inputs, attrs, outs) => {
    const vs = inputs.map((v) => castTo(g, v, FLOAT_ONLY));
    return g.op('Einsum', vs, { equation: String(attrs.equation) }, OnnxType.FLOAT, outs[0].shape);
  },
  Softmax: (g, [x], attrs, outs) => {
    const [axis] = axesOf(attrs.dim ?? -1, x.shape.length);
    return g.op('Softmax', [castTo(g, x, FLOAT_ONLY)], { axis }, OnnxType.FLOAT, outs[0].shape);
  },
  Cumsum: (g, [x], attrs, outs) => {
    const [axis] = axesOf(attrs.axis ?? 0, x.shape.length);
    const v = castTo(g, x, NUMERIC);
    return g.op('CumSum', [v, g.int64s([axis], [])], { exclusive: attrs.exclusive ? 1 : 0, reverse: attrs.reverse ? 1 : 0 },
      v.type, outs[0].shape);
  },
  TopK: (g, [x], attrs, outs) => {
    if (attrs.sorted === false) throw new Unsupported('TopK with sorted: false (tfjs leaves the order to the backend)');
    const v = castTo(g, x, NUMERIC);
    return g.opN('TopK', [v, g.int64s([Number(attrs.k)])], { axis: -1, largest: 1, sorted: 1 },
      [{ type: v.type, shape: outs[0].shape }, { type: OnnxType.INT64, shape: outs[1].shape }]);
  },
};
