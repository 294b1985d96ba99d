/**
 * Loop-invariant code motion: a pure kernel node of a While body (or cond) whose inputs do not
 * change between iterations (loop invariants, constants, other invariant nodes) is computed once
 * before the loop and passed in as a new invariant parameter.
 */
import type { Graph, Node, ValueRef, WhileNode } from '../graph/graph';
import { forEachGraph, rewriteGraph } from './rewrite';

export function hoistLoopInvariants(root: Graph): void {
  forEachGraph(root, (graph) => {
    rewriteGraph(graph, (node, index, r) => {
      if (node.kind !== 'While') {
        r.keep(index);
        return;
      }
      const inputs = node.inputs.map((x) => r.map(x));
      const loop: WhileNode = { ...node, inputs };
      for (const sub of [loop.body, loop.cond]) hoistFrom(sub, loop, r.emit);
      // The loop's inputs are new references already: emit it as is.
      const at = r.emit(loop);
      r.replace(index, loop.outputs.map((_, output) => ({ node: at, output })));
    });
  });
}

/**
 * Moves the invariant kernels of `sub` (a cond or body of `loop`) into the enclosing graph via
 * `emit`, adding a parameter to both sub-graphs and an input to the loop for each one that the
 * loop still uses.
 */
function hoistFrom(sub: Graph, loop: WhileNode, emit: (node: Node) => number): void {
  const outer = new Map<number, ValueRef>(); // sub node index -> value in the enclosing graph
  sub.nodes.forEach((n, i) => {
    if (n.kind === 'Input' && n.param >= loop.loopVars) outer.set(i, loop.inputs[n.param]);
    if (n.kind === 'Constant') outer.set(i, { node: emit({ ...n }), output: 0 });
  });
  const hoisted = new Map<number, ValueRef>();
  sub.nodes.forEach((n, i) => {
    if (n.kind !== 'Kernel' || n.multiOutput || !n.inputs.every((x) => outer.has(x.node))) return;
    const at = emit({ ...n, inputs: n.inputs.map((x) => outer.get(x.node)!) });
    outer.set(i, { node: at, output: 0 });
    hoisted.set(i, { node: at, output: 0 });
  });
  if (hoisted.size === 0) return;
  rewriteGraph(sub, (n, i, r) => {
    const value = hoisted.get(i);
    if (value === undefined) {
      r.keep(i);
      return;
    }
    const param = loop.inputs.length;
    loop.inputs = [...loop.inputs, value];
    loop.body.numParams = loop.cond.numParams = param + 1;
    const at = r.emit({ kind: 'Input', param, outputs: n.outputs });
    r.replace(i, [{ node: at, output: 0 }]);
  });
}
