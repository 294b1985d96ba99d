/**
 * Reshapes that return their input: to the shape it already has (tfjs's gradients reshape each
 * gradient to its value's shape, mostly a no-op: three per step in the backward loop of BPTT).
 * Their uses read the input instead; in a loop each is one operator call per iteration less.
 * (Identity kernels stay: they are rare, outside loops, and their lowerings are checked as written.)
 */
import type { Graph, KernelNode, Program } from '../graph/graph';
import { forEachGraph, rewriteGraph } from './rewrite';

export function removeNoOpReshapes(program: Program): void {
  forEachGraph(program.graph, (graph: Graph) => {
    rewriteGraph(graph, (node, index, r) => {
      if (node.kind === 'Kernel' && isNoOpReshape(graph, node)) r.replace(index, [r.map(node.inputs[0])]);
      else r.keep(index);
    });
  });
}

function isNoOpReshape(graph: Graph, node: KernelNode): boolean {
  if (node.multiOutput || node.inputs.length !== 1 || node.outputs.length !== 1) return false;
  const input = graph.nodes[node.inputs[0].node].outputs[node.inputs[0].output];
  const output = node.outputs[0];
  if (node.op !== 'Reshape' || input.list !== undefined || input.dtype !== output.dtype) return false;
  // Known dims only: a dim that differs between runs may be another one at run time.
  const known = (shape: readonly number[]): boolean => shape.every((d) => d >= 0);
  return known(input.shape) && known(output.shape) && input.shape.length === output.shape.length &&
    input.shape.every((d, i) => d === output.shape[i]);
}
