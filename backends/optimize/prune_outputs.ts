/**
 * Unused outputs of If and While nodes: an If output nothing reads is dropped from both branches;
 * a While loop variable is dropped when nothing reads its output and neither the test nor the
 * rest of the loop needs it. What this removes most: the iteration counter and accumulators a
 * loop got for a gradient that was never taken (gradients/while_gradient.ts prepares them when
 * the loop is recorded under a gradient tape), and the extra If outputs likewise.
 *
 * Graphs are pruned outermost first: dropping an outer loop variable can leave the nodes of its
 * body that computed it, and the outputs of control flow there, unused.
 */
import { Graph, hasSideEffects, IfNode, Node, nodeInputs, WhileNode } from '../graph/graph';
import { eliminateDeadNodes } from './dead_code';
import { rewriteGraph } from './rewrite';

export function pruneControlFlowOutputs(graph: Graph): void {
  eliminateDeadNodes(graph);
  graph.nodes.forEach((node, index) => {
    if (node.kind !== 'If' && node.kind !== 'While') return;
    const used = usedOutputs(graph, index);
    const kept = node.kind === 'If' ? keptIfOutputs(node, used) : keptLoopVars(node, used);
    if (kept.length < node.outputs.length) {
      if (node.kind === 'If') dropIfOutputs(node, kept);
      else dropLoopVars(node, kept);
      const renumber = new Map(kept.map((k, i) => [k, i]));
      const move = (r: { node: number; output: number }) => (r.node === index ? { node: index, output: renumber.get(r.output)! } : r);
      for (const n of graph.nodes) if ('inputs' in n) n.inputs = n.inputs.map(move);
      graph.results = graph.results.map(move);
    }
    for (const sub of node.kind === 'If' ? [node.then, node.else] : [node.cond, node.body]) pruneControlFlowOutputs(sub);
  });
}

function usedOutputs(graph: Graph, index: number): Set<number> {
  const used = new Set<number>();
  for (const n of graph.nodes) for (const r of nodeInputs(n)) if (r.node === index) used.add(r.output);
  for (const r of graph.results) if (r.node === index) used.add(r.output);
  return used;
}

function keptIfOutputs(node: IfNode, used: Set<number>): number[] {
  return node.outputs.flatMap((_, k) => (used.has(k) ? [k] : []));
}

function dropIfOutputs(node: IfNode, kept: number[]): void {
  node.outputs = kept.map((k) => node.outputs[k]);
  for (const branch of [node.then, node.else]) {
    branch.results = kept.map((k) => branch.results[k]);
    eliminateDeadNodes(branch);
  }
}

/** The parameters a graph's live nodes and results read (side effects are live). */
function paramsRead(graph: Graph, results: { node: number; output: number }[]): Set<number> {
  const live = new Array<boolean>(graph.nodes.length).fill(false);
  for (const r of results) live[r.node] = true;
  const params = new Set<number>();
  for (let i = graph.nodes.length - 1; i >= 0; i--) {
    const node: Node = graph.nodes[i];
    if (hasSideEffects(node)) live[i] = true;
    if (!live[i]) continue;
    if (node.kind === 'Input') params.add(node.param);
    for (const r of nodeInputs(node)) live[r.node] = true;
  }
  return params;
}

/** Loop variables needed: read after the loop, by the test, or by what computes needed ones (to a fixed point). */
function keptLoopVars(node: WhileNode, used: Set<number>): number[] {
  const n = node.loopVars;
  const needed = new Set([...used]);
  for (const p of paramsRead(node.cond, node.cond.results)) if (p < n) needed.add(p);
  for (;;) {
    const before = needed.size;
    for (const p of paramsRead(node.body, [...needed].map((k) => node.body.results[k]))) if (p < n) needed.add(p);
    if (needed.size === before) break;
  }
  return Array.from({ length: n }, (_, k) => k).filter((k) => needed.has(k));
}

function dropLoopVars(node: WhileNode, kept: number[]): void {
  const n = node.loopVars;
  const removed = n - kept.length;
  const renumber = (p: number): number => (p >= n ? p - removed : kept.indexOf(p));
  node.inputs = node.inputs.filter((_, j) => j >= n || kept.includes(j));
  node.outputs = kept.map((k) => node.outputs[k]);
  node.body.results = kept.map((k) => node.body.results[k]);
  node.loopVars = kept.length;
  for (const sub of [node.cond, node.body]) {
    eliminateDeadNodes(sub);
    rewriteGraph(sub, (x, i, r) => {
      if (x.kind !== 'Input') r.keep(i);
      else if (x.param >= n || kept.includes(x.param)) r.keep(i, { ...x, param: renumber(x.param) });
      // else: a dropped loop variable's parameter, read by nothing live
    });
    sub.numParams -= removed;
  }
}
