/**
 * Releases the constants that no Constant node refers to any more and renumbers the rest. Tracing
 * captures a new constant per use of a JS number (`y.mul(0.999)` in a loop of 5,000 captures 5,000
 * scalars); CSE merges their nodes, folding replaces others, and without this the program would
 * keep every one of those tensors alive for as long as the staged function lives.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { ConstantNode, Program } from '../graph/graph';
import { forEachGraph } from './rewrite';

export function pruneConstants(program: Program): void {
  const nodes = new Set<ConstantNode>();
  // (program.forGradients shares the constants table.)
  for (const root of [program.graph, program.forGradients?.graph]) {
    if (root === undefined) continue;
    forEachGraph(root, (graph) => {
      for (const node of graph.nodes) if (node.kind === 'Constant') nodes.add(node);
    });
  }
  const used = new Array<boolean>(program.constants.length).fill(false);
  for (const node of nodes) used[node.constant] = true;
  if (used.every(Boolean)) return;
  const renumber: number[] = [];
  const kept: tf.Tensor[] = [];
  program.constants.forEach((t, i) => {
    if (used[i]) renumber[i] = kept.push(t) - 1;
    else t.dispose();
  });
  for (const node of nodes) node.constant = renumber[node.constant];
  program.constants.length = 0;
  for (const t of kept) program.constants.push(t);
}
