/**
 * Rough work of a graph, for the engine's choices (engines/choice.ts, threads.ts): output elements of
 * its kernels, matrix products as M N K.
 */
import type { Graph, Node } from '../../graph/graph';

/** Work of one kernel node of `graph`; 0 for other nodes. */
function kernelWork(graph: Graph, node: Node): number {
  if (node.kind !== 'Kernel') return 0;
  const a = node.inputs[0] && graph.nodes[node.inputs[0].node].outputs[node.inputs[0].output];
  const inner = /MatMul/.test(node.op) && a !== undefined && a.shape.length >= 2 ? a.shape[a.shape.length - 1] : 1;
  // An unknown dim (-1, a relaxed graph) counts as 1.
  return node.outputs.reduce((n, o) => n + o.shape.reduce((x, y) => x * Math.abs(y), 1), 0) * Math.abs(inner);
}

/** Rough work of one run of `graph` (a loop body counted once). */
export function work(graph: Graph): number {
  let total = 0;
  for (const node of graph.nodes) {
    total += kernelWork(graph, node);
    if (node.kind === 'If') total += Math.max(work(node.then), work(node.else));
    if (node.kind === 'While') total += work(node.cond) + work(node.body);
  }
  return total;
}

/** The work of the heaviest single kernel at any depth: what one operator could split across threads. */
export function largestKernelWork(graph: Graph): number {
  let largest = 0;
  for (const node of graph.nodes) {
    largest = Math.max(largest, kernelWork(graph, node));
    if (node.kind === 'If') largest = Math.max(largest, largestKernelWork(node.then), largestKernelWork(node.else));
    if (node.kind === 'While') largest = Math.max(largest, largestKernelWork(node.cond), largestKernelWork(node.body));
  }
  return largest;
}
