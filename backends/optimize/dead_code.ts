/**
 * Dead node elimination: a node stays if a result depends on it or it has side effects
 * (variable assignment, print, check, or control flow containing one).
 */
import { Graph, hasSideEffects, nodeInputs } from '../graph/graph';
import { forEachGraph, rewriteGraph } from './rewrite';

export function eliminateDeadNodes(root: Graph): void {
  forEachGraph(root, (graph) => {
    const live = new Array<boolean>(graph.nodes.length).fill(false);
    for (const r of graph.results) live[r.node] = true;
    for (let i = graph.nodes.length - 1; i >= 0; i--) {
      const node = graph.nodes[i];
      // Parameters stay: they are the sub-graph's calling convention.
      if (node.kind === 'Input' || hasSideEffects(node)) live[i] = true;
      if (live[i]) for (const r of nodeInputs(node)) live[r.node] = true;
    }
    rewriteGraph(graph, (_node, index, r) => {
      if (live[index]) r.keep(index);
    });
  });
}
