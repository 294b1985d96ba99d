/**
 * Rewrites a graph node by node: each old node is kept (inputs renumbered), replaced by values
 * emitted earlier, or dropped; new nodes can be emitted in between. Results are renumbered last.
 */
import type { Graph, Node, ValueRef } from '../graph/graph';

export interface Rewriter {
  /** The new reference of an old value. */
  map(ref: ValueRef): ValueRef;
  /** Appends a node whose inputs are already new references; returns its new index. */
  emit(node: Node): number;
  /** Emits old node `index` (or `node` in its place) with its inputs renumbered. */
  keep(index: number, node?: Node): number;
  /** Old node `index`'s outputs are now `outputs` (new references). */
  replace(index: number, outputs: ValueRef[]): void;
}

export function rewriteGraph(graph: Graph, visit: (node: Node, index: number, r: Rewriter) => void): void {
  const nodes: Node[] = [];
  const mapped: (ValueRef[] | undefined)[] = [];
  const r: Rewriter = {
    map(ref) {
      const outs = mapped[ref.node];
      if (outs === undefined) throw new Error(`autograph-ts internal: node %${ref.node} was removed but is still used`);
      return outs[ref.output];
    },
    emit(node) {
      nodes.push(node);
      return nodes.length - 1;
    },
    keep(index, node = graph.nodes[index]) {
      const copy = 'inputs' in node ? { ...node, inputs: node.inputs.map((x) => r.map(x)) } : { ...node };
      const at = r.emit(copy as Node);
      mapped[index] = node.outputs.map((_, output) => ({ node: at, output }));
      return at;
    },
    replace(index, outputs) {
      mapped[index] = outputs;
    },
  };
  graph.nodes.forEach((node, index) => visit(node, index, r));
  graph.results = graph.results.map((x) => r.map(x));
  graph.nodes = nodes;
}

/** Calls fn on every sub-graph of graph, innermost first. */
export function forEachSubgraph(graph: Graph, fn: (g: Graph) => void): void {
  for (const node of graph.nodes) {
    if (node.kind === 'If') {
      forEachSubgraph(node.then, fn);
      fn(node.then);
      forEachSubgraph(node.else, fn);
      fn(node.else);
    } else if (node.kind === 'While') {
      forEachSubgraph(node.cond, fn);
      fn(node.cond);
      forEachSubgraph(node.body, fn);
      fn(node.body);
    }
  }
}

/** fn on graph and all its sub-graphs, innermost first. */
export function forEachGraph(graph: Graph, fn: (g: Graph) => void): void {
  forEachSubgraph(graph, fn);
  fn(graph);
}
