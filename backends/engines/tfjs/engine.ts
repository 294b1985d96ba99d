/**
 * The tfjs engine: the graph's kernels called directly on the active tfjs backend (executor.ts),
 * or, under a gradient tape, the gradient of the whole program as one tape step
 * (gradients/program_gradient.ts) where it can be built. It runs every program: the fallback of
 * every other engine.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Program } from '../../graph/graph';
import { executeWithGraphGradient, type ProgramExecution } from '../../gradients/program_gradient';
import { isTapeOn } from '../../staging/tape';
import type { Engine, Runner } from '../engine';
import { disposeValue, execute, executeAsync } from './executor';

const execution: ProgramExecution = { run: runOnTfjs, dispose: disposeValue };

/** Runs `program` on `args` with the tfjs kernels; returns new tensors owned by the caller. */
export function runOnTfjs(program: Program, args: tf.Tensor[]): tf.Tensor[] {
  if (isTapeOn()) {
    // (The program before the optimizer's rewrites that tfjs's gradients cannot follow, if any.)
    const differentiable = program.forGradients ?? program;
    return executeWithGraphGradient(differentiable, args, execution) ?? execute(differentiable, args);
  }
  return execute(program, args);
}

/** runOnTfjs() as a Promise, with no synchronous readback of a loop test or branch condition. */
export async function runOnTfjsAsync(program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]> {
  return isTapeOn() ? runOnTfjs(program, args) : executeAsync(program, args);
}

const tfjsRunner: Runner = {
  run: runOnTfjs,
  runAsync: runOnTfjsAsync,
  dispose: () => undefined,
};

export const tfjsEngine: Engine<'tfjs'> = {
  name: 'tfjs',
  prepare: () => tfjsRunner,
};
