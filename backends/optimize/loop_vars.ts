/**
 * New loop variables for a While node, appended after its existing ones: the invariant parameters
 * (numbered after the loop variables) move up in the test and the body.
 */
import type { Graph, TensorSpec, ValueRef, WhileNode } from '../graph/graph';

/** Adds loop variables starting at `inits` (outer values of `specs`); returns the parameter of the first. */
export function appendLoopVars(loop: WhileNode, inits: ValueRef[], specs: TensorSpec[]): number {
  const first = loop.loopVars;
  const added = inits.length;
  for (const graph of [loop.cond, loop.body]) shiftInvariantParams(graph, first, added);
  loop.inputs = [...loop.inputs.slice(0, first), ...inits, ...loop.inputs.slice(first)];
  loop.outputs = [...loop.outputs, ...specs.map((s) => ({ ...s }))];
  loop.loopVars += added;
  loop.body.numParams = loop.cond.numParams = loop.inputs.length;
  return first;
}

function shiftInvariantParams(graph: Graph, from: number, by: number): void {
  graph.nodes = graph.nodes.map((n) => (n.kind === 'Input' && n.param >= from ? { ...n, param: n.param + by } : n));
}

/** The Input node of parameter `param` in `graph` (added at the end when the graph has none). */
export function paramNode(graph: Graph, param: number, spec: TensorSpec): number {
  const found = graph.nodes.findIndex((n) => n.kind === 'Input' && n.param === param);
  if (found >= 0) return found;
  return graph.nodes.push({ kind: 'Input', param, outputs: [{ ...spec }] }) - 1;
}

/** How many times (node, output) is read in `graph`: by its nodes and as a result. */
export function readsOf(graph: Graph, ref: ValueRef): number {
  const same = (r: ValueRef): boolean => r.node === ref.node && r.output === ref.output;
  let count = graph.results.filter(same).length;
  for (const n of graph.nodes) if ('inputs' in n) count += n.inputs.filter(same).length;
  return count;
}
