/**
 * `stage(fn, { engine })`: which engine runs a traced program.
 * - 'tfjs': the tfjs kernel executor.
 * - 'onnx': ONNX Runtime; an error when onnxruntime-node is missing or the graph does not lower
 *   (the error lists the nodes and why).
 * - 'auto' (the default): ONNX Runtime when onnxruntime-node is installed, the graph lowers
 *   completely, the active tfjs backend is one where ORT was measured faster (AUTO_BACKENDS) and
 *   the graph is not a loop branching on small values (AUTO_MIN_BRANCHING_LOOP_WORK) nor a light
 *   graph that would run as segments around random draws, prints or checks (AUTO_MIN_SPLIT_WORK),
 *   else the tfjs executor; `inspect()` says which and why.
 * Under a gradient tape (tf.grad around a staged call) the tfjs executor always runs: autodiff
 * needs tfjs kernels.
 */
import * as tf from '@tensorflow/tfjs-core';
import { execute } from '../executor';
import type { Graph, Program } from '../graph';
import type { EngineChoice } from './engine';
import { OnnxRunner, prepareOnnx } from './engine';
import { splitsIntoSegments } from './segments';
import { work } from './work';
import type { LoweringNames } from './lower';
import type { SessionOptions } from './runtime';

export type EngineOption = 'tfjs' | 'onnx' | 'auto';

/**
 * Backends on which 'auto' prefers ONNX Runtime. Measured (bench/onnx.ts, wasm, 2 shared cores):
 * ORT is as fast as the tfjs executor on one scalar op and faster from there on: the 10,000-op
 * scalar chain ~6x, the RNNs ~6-10x, an MLP training step more; tfjs's cpu kernels are slower
 * than wasm's. Native TensorFlow (tfjs-node) and GPU backends are not measured:
 * there 'auto' keeps the tfjs executor.
 */
const AUTO_BACKENDS = new Set(['wasm', 'cpu']);

/**
 * The exception: a loop whose body branches (an If per iteration) on small values. ORT runs each
 * If as a sub-graph call, and with a few scalar kernels per iteration that is as slow as the tfjs
 * executor or slower (collatz: ~1.1 ms vs ~1.0 ms CPU time); 'auto' keeps such graphs on tfjs. A
 * body doing more (the greedy decoder's 256-wide step: 5-10x faster in ORT) is not affected.
 */
const AUTO_MIN_BRANCHING_LOOP_WORK = 1e4;

/**
 * A graph split into segments around host nodes (segments.ts) pays a session run and tensor
 * copies per segment. Measured (wasm, CPU time, a random draw between two segments): 3 scalar ops
 * ~5x slower in ORT, 4 chained 32x32 matMuls (work 1.3e5) 1.15x slower, 64x64 (1e6) 1.2x faster,
 * 256x256 2x faster: 'auto' splits from this much work on.
 */
const AUTO_MIN_SPLIT_WORK = 5e5;

const hasIf = (graph: Graph): boolean => graph.nodes.some((n) =>
  n.kind === 'If' || (n.kind === 'While' && (hasIf(n.cond) || hasIf(n.body))));

/** A loop (at any depth) that branches each iteration on little work. */
function lightBranchingLoop(graph: Graph): boolean {
  return graph.nodes.some((n) => {
    if (n.kind === 'If') return lightBranchingLoop(n.then) || lightBranchingLoop(n.else);
    if (n.kind !== 'While') return false;
    return (hasIf(n.body) && work(n.body) + work(n.cond) < AUTO_MIN_BRANCHING_LOOP_WORK) || lightBranchingLoop(n.body);
  });
}

export function chooseEngine(program: Program, option: EngineOption, names: LoweringNames,
                             session: SessionOptions = {}): EngineChoice {
  if (option === 'tfjs') return { engine: 'tfjs', reason: "engine 'tfjs' was asked for" };
  if (option === 'auto' && !AUTO_BACKENDS.has(tf.getBackend())) {
    return { engine: 'tfjs', reason: `engine 'auto' keeps the tfjs executor on backend '${tf.getBackend()}' (ONNX Runtime is preferred on ${[...AUTO_BACKENDS].join(', ')})` };
  }
  if (option === 'auto' && lightBranchingLoop(program.graph)) {
    return { engine: 'tfjs', reason: "engine 'auto' keeps the tfjs executor for a loop that branches on small values " +
      '(ONNX Runtime runs an If per iteration as a sub-graph call: no faster there)' };
  }
  if (option === 'auto' && splitsIntoSegments(program.graph) && work(program.graph) < AUTO_MIN_SPLIT_WORK) {
    return { engine: 'tfjs', reason: "engine 'auto' keeps the tfjs executor for a light graph with random draws, prints or checks " +
      '(they run on the JS side between ONNX segments, and each segment costs a session run)' };
  }
  const choice = prepareOnnx(program, names, session);
  if (option === 'onnx') {
    if (choice.engine !== 'onnx') throw new Error(`autograph-ts: engine 'onnx' cannot run ${names.graph || 'this function'}: ${choice.reason}`);
    return choice;
  }
  return choice;
}

/** Runs `program` on the chosen engine. */
export function runOn(choice: EngineChoice | undefined, program: Program, args: tf.Tensor[]): tf.Tensor[] {
  if (choice?.runner === undefined || (tf.engine() as unknown as { isTapeOn(): boolean }).isTapeOn()) return execute(program, args);
  if (!(choice.runner instanceof OnnxRunner)) return choice.runner.run(program, args);
  try {
    return choice.runner.run(program, args);
  } catch (ortError) {
    if (!choice.runner.loaded) {
      // ORT could not load the lowered model (a lowering bug): the program stays on the tfjs
      // executor from now on, and inspect() says why.
      choice.runner.dispose();
      Object.assign(choice, { engine: 'tfjs', runner: undefined,
        reason: `onnxruntime could not load the lowered graph: ${ortError instanceof Error ? ortError.message : String(ortError)}` });
    }
    // A failed ORT run changed nothing (variables are assigned after a run; a single session has no
    // host nodes), so the tfjs executor runs the same program on the same inputs: its error is the
    // one eager code gives ("index 3 is out of range of a list of length 2", "Pass at least one
    // tensor to tf.stack") at the user's line, where ORT's names an ONNX node. Should the executor
    // succeed, ORT failed on something it cannot do, and the executor's result is the program's.
    return execute(program, args);
  }
}
