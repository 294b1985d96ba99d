/**
 * A program whose top level holds host nodes (Random draws, Print, Check) runs as segments: the
 * nodes between two host nodes are one ONNX model, each host node runs on the JS side (by the
 * tfjs executor, so draws, output and errors are exactly the executor's), in graph order, and so
 * does a top-level If that holds one. A host node inside a loop body is never split out: such a
 * graph does not lower at all.
 *
 * Order is what the graph says: a Check that fails stops the run before any later segment (its
 * prints and variable assignments do not happen); variables assigned by a segment are assigned
 * back before the next one reads them. Values cross segments as tfjs tensors; constants are
 * copied into every segment that reads them.
 */
import * as tf from '@tensorflow/tfjs-core';
import { runOnTfjs, runOnTfjsAsync } from '../tfjs/engine';
import type { Graph, Node, Program, TensorSpec, ValueRef } from '../../graph/graph';
import { hasSideEffects, nodeInputs } from '../../graph/graph';

const HOST_KINDS = new Set<Node['kind']>(['Random', 'Print', 'Check']);

/** Whether `graph` or a sub-graph of it (at any depth) holds a host node. */
function hasHostNode(graph: Graph): boolean {
  return graph.nodes.some((n) => HOST_KINDS.has(n.kind) ||
    (n.kind === 'If' && (hasHostNode(n.then) || hasHostNode(n.else))) ||
    (n.kind === 'While' && (hasHostNode(n.cond) || hasHostNode(n.body))));
}

/**
 * A node the JS side runs: a host node, or an If holding one (`if (x.less(0)) throw ...` is an If
 * whose branch is a Check; a print under a tensor condition the same): the tfjs executor runs that
 * If whole. (A loop holding one is not split: the graph then does not lower.)
 */
const isHostNode = (node: Node): boolean =>
  HOST_KINDS.has(node.kind) || (node.kind === 'If' && (hasHostNode(node.then) || hasHostNode(node.else)));

/** Whether `graph` runs as segments (a host node at its top level). */
export const splitsIntoSegments = (graph: Graph): boolean => graph.nodes.some(isHostNode);

/** One part of the split program: its own Program over values of the root graph. */
export interface Segment {
  kind: 'onnx' | 'host';
  /** Parameters and results of `program` are these values of the root graph. */
  program: Program;
  inputs: ValueRef[];
  outputs: ValueRef[];
  /** The root graph's index of each node of `program` (its parameters: the node they stand for). */
  rootNodes: number[];
}

const key = (r: ValueRef): string => `${r.node}:${r.output}`;

/**
 * The root graph of `program` cut at its host nodes, or undefined when it has none at the top
 * level. (Host nodes inside sub-graphs are the caller's to refuse.)
 */
export function splitAtHostNodes(program: Program): Segment[] | undefined {
  const { graph } = program;
  if (!splitsIntoSegments(graph)) return undefined;
  // Ranges of node indices: runs of ordinary nodes, and each host node alone.
  const ranges: { kind: Segment['kind']; nodes: number[] }[] = [];
  graph.nodes.forEach((node, index) => {
    if (node.kind === 'Input' || node.kind === 'Constant') return;   // materialized where used
    const kind = isHostNode(node) ? 'host' : 'onnx';
    const last = ranges[ranges.length - 1];
    if (kind === 'onnx' && last?.kind === 'onnx') last.nodes.push(index);
    else ranges.push({ kind, nodes: [index] });
  });
  // Values each range's nodes read, and values read after it (by later ranges or as results).
  const reads = ranges.map((r) => r.nodes.flatMap((i) => nodeInputs(graph.nodes[i])));
  const segments: Segment[] = [];
  ranges.forEach((range, k) => {
    const own = new Set(range.nodes);
    const readLater = new Set([...reads.slice(k + 1).flat(), ...graph.results].map(key));
    const outputs: ValueRef[] = [];
    for (const i of range.nodes) {
      graph.nodes[i].outputs.forEach((_, output) => {
        if (readLater.has(key({ node: i, output }))) outputs.push({ node: i, output });
      });
    }
    if (range.kind === 'onnx' && outputs.length === 0 && !range.nodes.some((i) => hasSideEffects(graph.nodes[i]))) return;
    const inputs = [...new Map(reads[k].filter((r) => !own.has(r.node) && graph.nodes[r.node].kind !== 'Constant')
      .map((r) => [key(r), r])).values()];
    segments.push({ kind: range.kind, inputs, outputs, ...subProgram(program, range.nodes, inputs, outputs) });
  });
  return segments;
}

/** The nodes `indices` of the root graph as a Program whose parameters are `inputs`, results `outputs`. */
function subProgram(program: Program, indices: number[], inputs: ValueRef[], outputs: ValueRef[]):
  { program: Program; rootNodes: number[] } {
  const { graph } = program;
  const nodes: Node[] = [];
  const rootNodes: number[] = [];
  const refOf = new Map<string, ValueRef>();
  inputs.forEach((r, param) => {
    const spec: TensorSpec = graph.nodes[r.node].outputs[r.output];
    refOf.set(key(r), { node: nodes.length, output: 0 });
    rootNodes.push(r.node);
    nodes.push({ kind: 'Input', param, outputs: [spec] });
  });
  const remap = (r: ValueRef): ValueRef => {
    let mapped = refOf.get(key(r));
    if (mapped === undefined) {
      const source = graph.nodes[r.node];
      if (source.kind !== 'Constant') throw new Error(`autograph-ts internal: segment reads %${r.node} it neither owns nor takes`);
      mapped = { node: nodes.length, output: 0 };
      rootNodes.push(r.node);
      nodes.push({ ...source });
      refOf.set(key(r), mapped);
    }
    return mapped;
  };
  for (const i of indices) {
    const node = graph.nodes[i];
    const copy = 'inputs' in node ? { ...node, inputs: node.inputs.map(remap) } as Node : { ...node };
    node.outputs.forEach((_, output) => refOf.set(key({ node: i, output }), { node: nodes.length, output }));
    rootNodes.push(i);
    nodes.push(copy);
  }
  return { program: { ...program, graph: { numParams: inputs.length, nodes, results: outputs.map(remap) } }, rootNodes };
}

/** A segment to run: its index and its inputs (borrowed); the reply is its outputs (owned by the run). */
interface SegmentCall { segment: number; ins: tf.Tensor[] }

/**
 * Runs split `segments` of `program` on `args`: asks its driver (runSegments, runSegmentsAsync)
 * to run each segment, ONNX ones on ORT, host ones on the tfjs executor.
 */
function* segmentRun(program: Program, segments: Segment[], args: tf.Tensor[]): Generator<SegmentCall, tf.Tensor[], tf.Tensor[]> {
  const { graph } = program;
  const values = new Map<string, tf.Tensor>();   // owned here until handed over or disposed
  const valueOf = (r: ValueRef): tf.Tensor => {
    const node = graph.nodes[r.node];
    if (node.kind === 'Input') return args[node.param];
    return values.get(key(r))!;
  };
  try {
    for (let k = 0; k < segments.length; k++) {
      const outs = yield { segment: k, ins: segments[k].inputs.map(valueOf) };
      segments[k].outputs.forEach((r, i) => values.set(key(r), outs[i]));
    }
    const handed = new Set<tf.Tensor>();
    const results = graph.results.map((r) => {
      const node = graph.nodes[r.node];
      const t = node.kind === 'Constant' ? program.constants[node.constant] : valueOf(r);
      // A value not owned here (an argument, a constant) or returned twice: a new tensor of the same data.
      const mine = values.get(key(r)) === t && !handed.has(t);
      handed.add(t);
      return mine ? t : tf.clone(t);
    });
    for (const v of values.values()) if (!handed.has(v)) v.dispose();
    values.clear();
    return results;
  } catch (error) {
    for (const v of values.values()) v.dispose();
    throw error;
  }
}

export type SegmentRunner<R> = (segment: number, args: tf.Tensor[]) => R;

/** Runs split `segments` of `program` on `args`: ONNX segments with `runOnnx`, host ones with the tfjs executor. */
export function runSegments(program: Program, segments: Segment[], args: tf.Tensor[], runOnnx: SegmentRunner<tf.Tensor[]>): tf.Tensor[] {
  const run = segmentRun(program, segments, args);
  let step = run.next();
  while (!step.done) {
    const { segment, ins } = step.value;
    let outs: tf.Tensor[];
    try {
      outs = segments[segment].kind === 'onnx' ? runOnnx(segment, ins) : runOnTfjs(segments[segment].program, ins);
    } catch (error) {
      run.throw(error);   // frees what the run holds, and rethrows
      throw error;
    }
    step = run.next(outs);
  }
  return step.value;
}

/** runSegments() with ONNX segments run by `runOnnx` asynchronously, host ones by the tfjs executor's async run. */
export async function runSegmentsAsync(program: Program, segments: Segment[], args: tf.Tensor[],
                                       runOnnx: SegmentRunner<Promise<tf.Tensor[]>>): Promise<tf.Tensor[]> {
  const run = segmentRun(program, segments, args);
  let step = run.next();
  while (!step.done) {
    const { segment, ins } = step.value;
    let outs: tf.Tensor[];
    try {
      outs = await (segments[segment].kind === 'onnx' ? runOnnx(segment, ins) : runOnTfjsAsync(segments[segment].program, ins));
    } catch (error) {
      run.throw(error);
      throw error;
    }
    step = run.next(outs);
  }
  return step.value;
}

/** A lowering problem's place in a segment ("node %3 While ... body, node %5") as a place in the root graph. */
export function rootWhere(where: string, segment: Segment): string {
  return where.replace(/^node %(\d+)/, (_, i: string) => `node %${segment.rootNodes[Number(i)]}`);
}
