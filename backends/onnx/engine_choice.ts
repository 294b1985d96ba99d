/**
 * `stage(fn, { engine })`: which engine runs a traced program.
 * - 'tfjs': the tfjs kernel executor.
 * - 'onnx': ONNX Runtime; an error when onnxruntime-node is missing or the graph does not lower
 *   (the error lists the nodes and why).
 * - 'auto' (the default): ONNX Runtime when onnxruntime-node is installed, the graph lowers completely and the
 *   active tfjs backend is one where ORT was measured faster (AUTO_BACKENDS), else the tfjs
 *   executor; `inspect()` says which and why.
 * Under a gradient tape (tf.grad around a staged call) the tfjs executor always runs: autodiff
 * needs tfjs kernels.
 */
import * as tf from '@tensorflow/tfjs-core';
import { execute } from '../executor';
import type { Program } from '../graph';
import type { EngineChoice } from './engine';
import { prepareOnnx } from './engine';
import type { LoweringNames } from './lower';
import type { SessionOptions } from './runtime';

export type EngineOption = 'tfjs' | 'onnx' | 'auto';

/**
 * Backends on which 'auto' prefers ONNX Runtime. Measured (bench/onnx.ts, wasm, 2 cores): ORT is
 * faster than the tfjs executor on every graph tried, from one scalar op (0.95x the time) through
 * collatz (0.3x) and the 10,000-op scalar chain (0.15x) to the RNNs (0.1-0.25x); tfjs's cpu
 * kernels are slower than wasm's. Native TensorFlow (tfjs-node) and GPU backends are not measured:
 * there 'auto' keeps the tfjs executor.
 */
const AUTO_BACKENDS = new Set(['wasm', 'cpu']);

export function chooseEngine(program: Program, option: EngineOption, names: LoweringNames,
                             session: SessionOptions = {}): EngineChoice {
  if (option === 'tfjs') return { engine: 'tfjs', reason: "engine 'tfjs' was asked for" };
  if (option === 'auto' && !AUTO_BACKENDS.has(tf.getBackend())) {
    return { engine: 'tfjs', reason: `engine 'auto' keeps the tfjs executor on backend '${tf.getBackend()}' (ONNX Runtime is preferred on ${[...AUTO_BACKENDS].join(', ')})` };
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
  return choice.runner.run(program, args);
}
