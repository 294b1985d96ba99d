/**
 * `stage(fn, { engine })`: which engine runs a traced program.
 * - 'tfjs' (default): the tfjs kernel executor.
 * - 'onnx': ONNX Runtime; an error when onnxruntime-node is missing or the graph does not lower
 *   (the error lists the nodes and why).
 * - 'auto': ONNX Runtime when the graph lowers completely and is heavy enough for a session call
 *   to pay off (estimateWork below), else the tfjs executor; `inspect()` says which and why.
 * Under a gradient tape (tf.grad around a staged call) the tfjs executor always runs: autodiff
 * needs tfjs kernels.
 */
import * as tf from '@tensorflow/tfjs-core';
import { execute } from '../executor';
import type { Graph, Program } from '../graph';
import type { EngineChoice } from './engine';
import { prepareOnnx } from './engine';
import type { LoweringNames } from './lower';
import type { SessionOptions } from './runtime';

export type EngineOption = 'tfjs' | 'onnx' | 'auto';

/**
 * Below this estimated work per call (roughly multiply-adds, see estimateWork), 'auto' keeps the
 * tfjs executor: a session call costs tens of microseconds of copying in and out, which scalar
 * graphs (collatz, chains of scalar ops) never win back.
 */
export const AUTO_MIN_WORK = 2e5;

/** Loops are assumed to run this many times (the trip count is data). */
const ASSUMED_TRIPS = 16;

/** Rough work of one run: output elements of every kernel, matrix products counted as M N K. */
export function estimateWork(graph: Graph, factor = 1): number {
  let work = 0;
  for (const node of graph.nodes) {
    if (node.kind === 'Kernel') {
      const out = node.outputs.reduce((n, o) => n + o.shape.reduce((a, b) => a * b, 1), 0);
      const inner = /MatMul/.test(node.op) ? innerDim(graph, node) : 1;
      work += factor * out * inner;
    } else if (node.kind === 'If') {
      work += Math.max(estimateWork(node.then, factor), estimateWork(node.else, factor));
    } else if (node.kind === 'While') {
      work += estimateWork(node.cond, factor * ASSUMED_TRIPS) + estimateWork(node.body, factor * ASSUMED_TRIPS);
    }
  }
  return work;
}

function innerDim(graph: Graph, node: Extract<Graph['nodes'][number], { kind: 'Kernel' }>): number {
  const a = node.inputs[0] && graph.nodes[node.inputs[0].node].outputs[node.inputs[0].output];
  if (a === undefined || a.shape.length < 2) return 1;
  return a.shape[node.attrs.transposeA ? a.shape.length - 2 : a.shape.length - 1];
}

export function chooseEngine(program: Program, option: EngineOption, names: LoweringNames,
                             session: SessionOptions = {}): EngineChoice {
  if (option === 'tfjs') return { engine: 'tfjs', reason: "engine 'tfjs' was asked for" };
  const choice = prepareOnnx(program, names, session);
  if (option === 'onnx') {
    if (choice.engine !== 'onnx') throw new Error(`autograph-ts: engine 'onnx' cannot run ${names.graph || 'this function'}: ${choice.reason}`);
    return choice;
  }
  if (choice.engine === 'onnx') {
    const work = estimateWork(program.graph);
    if (work < AUTO_MIN_WORK) {
      choice.runner?.dispose();
      return { engine: 'tfjs', reason: `engine 'auto': the graph lowers to ONNX but is light (estimated work ${Math.round(work)} < ${AUTO_MIN_WORK})` };
    }
  }
  return choice;
}

/** Runs `program` on the chosen engine. */
export function runOn(choice: EngineChoice | undefined, program: Program, args: tf.Tensor[]): tf.Tensor[] {
  if (choice?.runner === undefined || (tf.engine() as unknown as { isTapeOn(): boolean }).isTapeOn()) return execute(program, args);
  return choice.runner.run(program, args);
}
