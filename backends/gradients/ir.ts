/**
 * Plain-data helpers for the gradient builders: graphs written node by node (the parts of a
 * backward loop that are not traced: counters, pops, accumulations), graphs inlined into others,
 * nodes inserted before a given node, and the value specs the builders ask about.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Graph, KernelNode, Node, Program, TensorSpec, ValueRef } from '../graph/graph';
import { eliminateDeadNodes } from '../optimize/dead_code';
import { rewriteGraph } from '../optimize/rewrite';

export const SCALAR_INT: TensorSpec = { shape: [], dtype: 'int32' };

/** Values gradients flow through: float tensors (not lists, not ints or bools). */
export function isDifferentiable(spec: TensorSpec): boolean {
  return !spec.list && spec.dtype === 'float32';
}

/** The spec of a list of `spec` values. */
export function listOf(spec: TensorSpec): TensorSpec {
  return { shape: [...spec.shape], dtype: spec.dtype, list: (spec.list ?? 0) + 1 };
}

/** The spec of the elements of list `spec`. */
export function elementOf(spec: TensorSpec): TensorSpec {
  const depth = (spec.list ?? 0) - 1;
  return depth > 0 ? { shape: [...spec.shape], dtype: spec.dtype, list: depth } : { shape: [...spec.shape], dtype: spec.dtype };
}

export function specOfRef(graph: Graph, ref: ValueRef): TensorSpec {
  return graph.nodes[ref.node].outputs[ref.output];
}

export const refKey = (ref: ValueRef): string => `${ref.node}:${ref.output}`;

/** Appends nodes to a graph (built outside the tracer: plain data). */
export class GraphWriter {
  constructor(readonly graph: Graph = { numParams: 0, nodes: [], results: [] }) {}

  add(node: Node): number {
    return this.graph.nodes.push(node) - 1;
  }

  /** The Input node of parameter `param` (added on first use). */
  param(param: number, spec: TensorSpec): ValueRef {
    const found = this.graph.nodes.findIndex((n) => n.kind === 'Input' && n.param === param);
    if (found >= 0) return { node: found, output: 0 };
    return { node: this.add({ kind: 'Input', param, outputs: [spec] }), output: 0 };
  }

  kernel(op: string, inputs: ValueRef[], output: TensorSpec, attrs: KernelNode['attrs'] = {},
         inputNames: string[] = inputs.length === 2 ? ['a', 'b'] : ['x']): ValueRef {
    return { node: this.add({ kind: 'Kernel', op, inputs, inputNames, variadic: false, attrs, multiOutput: false,
      outputs: [output] }), output: 0 };
  }

  constant(constant: number, spec: TensorSpec): ValueRef {
    return { node: this.add({ kind: 'Constant', constant, outputs: [spec] }), output: 0 };
  }
}

/** A value of `spec` that stands for "nothing here": zeros, or an empty list. */
export function zeroNode(spec: TensorSpec): Node {
  if (spec.list) return { kind: 'List', op: 'EmptyTensorList', inputs: [], outputs: [spec] };
  if (spec.dtype === 'string' || spec.dtype === 'complex64') {
    throw new Error(`autograph-ts internal: no zero value of dtype ${spec.dtype} for a gradient`);
  }
  return { kind: 'Kernel', op: 'Fill', inputs: [], inputNames: [], variadic: false,
    attrs: { shape: [...spec.shape], value: 0, dtype: spec.dtype }, multiOutput: false, outputs: [{ ...spec }] };
}

/**
 * Appends the nodes of `source` to `target`, its parameters bound to `params` (references in
 * target); returns the references of source's results in target. Sub-graphs are shared, not copied.
 */
export function inlineGraph(target: GraphWriter, source: Graph, params: (ValueRef | undefined)[]): ValueRef[] {
  const mapped: ValueRef[][] = [];
  const ref = (r: ValueRef): ValueRef => {
    const to = mapped[r.node][r.output];
    if (to === undefined) throw new Error(`autograph-ts internal: an unbound parameter of an inlined graph is used`);
    return to;
  };
  source.nodes.forEach((node, i) => {
    if (node.kind === 'Input') {
      mapped[i] = [params[node.param]!]; // unbound parameters must be unused
      return;
    }
    const copy = 'inputs' in node ? { ...node, inputs: node.inputs.map((r) => ref(r)) } : { ...node };
    const at = target.add(copy as Node);
    mapped[i] = node.outputs.map((_, output) => ({ node: at, output }));
  });
  return source.results.map(ref);
}

/**
 * Inserts `nodes` (whose inputs refer to nodes before `at`, or to each other as `-1 - k`) before
 * node `at` of `graph`; every reference to a node at or after `at` moves. Returns the new
 * references of the inserted nodes' first outputs.
 */
export function insertNodes(graph: Graph, at: number, nodes: Node[]): ValueRef[] {
  const shift = nodes.length;
  const move = (r: ValueRef): ValueRef => (r.node >= at ? { node: r.node + shift, output: r.output } : r);
  for (let i = at; i < graph.nodes.length; i++) {
    const node = graph.nodes[i];
    if ('inputs' in node) node.inputs = node.inputs.map((r) => (r.node < 0 ? r : move(r)));
  }
  graph.results = graph.results.map(move);
  graph.nodes.splice(at, 0, ...nodes);
  return nodes.map((_, k) => ({ node: at + k, output: 0 }));
}

/** Replaces the references `-1 - k` in `refs` by `inits[k]`. */
export function bindInits(refs: ValueRef[], inits: ValueRef[]): ValueRef[] {
  return refs.map((r) => (r.node < 0 ? inits[-1 - r.node] : r));
}

/** A placeholder reference to the k-th init node of a prepared gradient (bound by bindInits). */
export const initRef = (k: number): ValueRef => ({ node: -1 - k, output: 0 });

/** Whether graph (or any sub-graph) assigns a variable; returns the first such variable index. */
export function assignedVariable(graph: Graph): number | undefined {
  for (const node of graph.nodes) {
    if (node.kind === 'AssignVariable') return node.variable;
    for (const sub of subgraphs(node)) {
      const v = assignedVariable(sub);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

/** The variables graph (or any sub-graph) reads. */
export function readVariables(graph: Graph, into = new Set<number>()): Set<number> {
  for (const node of graph.nodes) {
    if (node.kind === 'ReadVariable') into.add(node.variable);
    for (const sub of subgraphs(node)) readVariables(sub, into);
  }
  return into;
}

export function subgraphs(node: Node): Graph[] {
  if (node.kind === 'If') return [node.then, node.else];
  if (node.kind === 'While') return [node.cond, node.body];
  return [];
}

/** A new scalar constant in the program's table (kept: it lives as long as the program). */
export function scalarConstant(program: Program, value: number, dtype: 'int32' | 'float32'): number {
  const t = tf.keep(tf.scalar(value, dtype));
  return program.constants.push(t) - 1;
}

/**
 * Drops the nodes of `graph` no result depends on, then the Input nodes nothing refers to any more;
 * returns the parameters still used. What a backward graph reads is what survives this: tfjs's
 * gradient functions save more than they use (Add saves both inputs for their shapes only).
 */
export function pruneUnusedParams(graph: Graph): Set<number> {
  eliminateDeadNodes(graph);
  const used = new Set<number>();
  const mark = (r: ValueRef): void => {
    const node = graph.nodes[r.node];
    if (node.kind === 'Input') used.add(node.param);
  };
  for (const node of graph.nodes) if ('inputs' in node) node.inputs.forEach(mark);
  graph.results.forEach(mark);
  rewriteGraph(graph, (node, index, r) => {
    if (node.kind !== 'Input' || used.has(node.param)) r.keep(index);
  });
  return used;
}
