/**
 * Fused kernels (_FusedMatMul, FusedConv2D, FusedDepthwiseConv2D: a matmul or convolution, a bias
 * and an activation in one call) have no registered gradient in tfjs: its ops differentiate them
 * with customGrad, or unfuse them while a tape records. A branch or loop body is traced with the
 * tape suspended, so it may hold them (tf.layers.dense does); before such a sub-graph is
 * differentiated, each is rewritten in place into its parts, whose gradients are registered.
 */
import { StagingError } from '../common/errors';
import type { Attrs, Graph, KernelNode, Node, ValueRef } from '../graph/graph';
import { insertNodes } from './ir';

const CORE: Record<string, { op: string; inputs: [string, string]; attrs: string[] }> = {
  _FusedMatMul: { op: 'BatchMatMul', inputs: ['a', 'b'], attrs: ['transposeA', 'transposeB'] },
  FusedConv2D: { op: 'Conv2D', inputs: ['x', 'filter'], attrs: ['strides', 'pad', 'dataFormat', 'dilations', 'dimRoundingMode'] },
  FusedDepthwiseConv2D: {
    op: 'DepthwiseConv2dNative', inputs: ['x', 'filter'], attrs: ['strides', 'pad', 'dataFormat', 'dilations', 'dimRoundingMode'],
  },
};

const ACTIVATIONS: Record<string, string> = { relu: 'Relu', relu6: 'Relu6', elu: 'Elu', sigmoid: 'Sigmoid', leakyrelu: 'LeakyRelu', prelu: 'Prelu' };

export function isFused(node: Node): node is KernelNode {
  return node.kind === 'Kernel' && node.op in CORE;
}

/** Rewrites fused kernel node `index` of `graph` into core op, bias add and activation (the node itself becomes the last). */
export function unfuse(graph: Graph, index: number, origin: string | undefined): void {
  const node = graph.nodes[index] as KernelNode;
  const core = CORE[node.op];
  const input = (name: string): ValueRef | undefined => node.inputs[node.inputNames.indexOf(name)];
  const spec = { ...node.outputs[0] };
  const activation = String(node.attrs.activation ?? 'linear');
  if (activation !== 'linear' && !(activation in ACTIVATIONS)) {
    throw new StagingError(`autograph-ts: cannot differentiate the fused activation '${activation}' of ` +
      `'${node.op}'${origin ? ` (in the staged code at ${origin})` : ''}.`);
  }
  const kernel = (op: string, inputs: ValueRef[], inputNames: string[], attrs: Attrs = {}): KernelNode =>
    ({ kind: 'Kernel', op, inputs, inputNames, variadic: false, attrs, multiOutput: false, outputs: [{ ...spec }] });
  const parts: KernelNode[] = [];
  const coreAttrs = Object.fromEntries(core.attrs.filter((k) => k in node.attrs).map((k) => [k, node.attrs[k]]));
  parts.push(kernel(core.op, core.inputs.map((n) => input(n)!), [...core.inputs], coreAttrs));
  const bias = input('bias');
  if (bias !== undefined) parts.push(kernel('Add', [{ node: -parts.length, output: 0 }, bias], ['a', 'b']));
  // Inserted nodes refer to each other as -1 - k (see insertNodes); the last part replaces the node.
  const last: KernelNode = activation === 'linear'
    ? (parts.pop() as KernelNode)
    : activation === 'prelu'
      ? kernel('Prelu', [{ node: -parts.length, output: 0 }, input('preluActivationWeights')!], ['x', 'alpha'])
      : kernel(ACTIVATIONS[activation], [{ node: -parts.length, output: 0 }], ['x'],
        activation === 'leakyrelu' ? { alpha: node.attrs.leakyreluAlpha ?? 0.2 } : {});
  const refs = insertNodes(graph, index, parts);
  const bind = (r: ValueRef): ValueRef => (r.node < 0 ? refs[-1 - r.node] : r);
  for (const part of parts) part.inputs = part.inputs.map(bind);
  Object.assign(node, { ...last, inputs: last.inputs.map(bind) });
}
