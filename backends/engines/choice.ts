/**
 * `stage(fn, { engine })`: which engine runs a traced program.
 * - an engine's name ('tfjs', 'onnx', 'onnx-web'): that engine; an error naming why when it cannot
 *   run the program (ONNX: onnxruntime-node missing, or the nodes that do not lower and why).
 * - 'auto' (the default): the first engine of ENGINES that does not decline the program
 *   (Engine.declinesAuto: a cost judgement) and can prepare it; `inspect()` says which and why.
 * Under a gradient tape (tf.grad around a staged call) the tfjs engine always runs: autodiff
 * needs tfjs kernels. `staged(...)` runs Runner.run, `staged.run(...)` Runner.runAsync; a runner
 * with no run (async-only: onnx-web) leaves synchronous calls to the fallback under 'auto'.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { Program } from '../graph/graph';
import type { LoweringNames } from '../onnx_model/lower';
import { isTapeOn } from '../staging/tape';
import { type Engine, type EngineChoice, isRefusal, type Refusal, type Runner } from './engine';
import { onnxEngine } from './onnx/engine';
import { onnxWebEngine } from './onnx_web/engine';
import type { SessionOptions } from './onnx/runtime';
import { runOnTfjs, runOnTfjsAsync, tfjsEngine } from './tfjs/engine';

/** The engines, in the order 'auto' tries them. The last runs every program: the fallback. */
const ENGINES = [onnxEngine, onnxWebEngine, tfjsEngine] as const;
const FALLBACK: Engine = ENGINES[ENGINES.length - 1];

export type EngineName = (typeof ENGINES)[number]['name'];
export type EngineOption = EngineName | 'auto';

export function chooseEngine(program: Program, option: EngineOption, names: LoweringNames,
                             session: SessionOptions = {}): EngineChoice {
  const context = { names, onnx: session };
  if (option !== 'auto') {
    const engine: Engine | undefined = ENGINES.find((e) => e.name === option);
    if (engine === undefined) throw new Error(`autograph-ts: no engine '${option}' (engines: ${ENGINES.map((e) => e.name).join(', ')}, auto)`);
    const prepared = engine.prepare(program, context);
    if (isRefusal(prepared)) throw new Error(`autograph-ts: engine '${option}' cannot run ${names.graph || 'this function'}: ${prepared.refused}`);
    return { engine: engine.name, runner: prepared, asked: true, ...(engine === ENGINES[0] ? {} : { reason: `engine '${option}' was asked for` }) };
  }
  let first: Refusal | undefined;
  for (const engine of ENGINES) {
    const declined = engine.declinesAuto?.(program);
    const prepared = declined !== undefined ? { refused: declined } : engine.prepare(program, context);
    if (!isRefusal(prepared)) {
      return { engine: engine.name, runner: prepared, ...(first && { reason: first.refused }), ...(first?.unsupported && { unsupported: first.unsupported }) };
    }
    first ??= prepared;
  }
  throw new Error(`autograph-ts internal: no engine runs ${names.graph || 'this function'}`);
}

/** Runs `program` on the chosen engine. */
export function runOn(choice: EngineChoice | undefined, program: Program, args: tf.Tensor[]): tf.Tensor[] {
  const runner = choice?.runner;
  if (runner === undefined || isTapeOn()) return runOnTfjs(program, args);
  if (runner.run === undefined) {
    if (choice!.asked === true) {
      throw new Error(`autograph-ts: engine '${choice!.engine}' runs only asynchronously: call \`staged.run(...)\` (a Promise) instead of \`staged(...)\``);
    }
    return runOnTfjs(program, args);   // 'auto' chose an async-only engine: synchronous calls run here
  }
  if (choice!.engine === FALLBACK.name || runner.failedRunChangesNothing !== true) return runner.run(program, args);
  try {
    return runner.run(program, args);
  } catch (error) {
    fallBackAfter(choice!, runner, program, error);
    return runOnTfjs(program, args);
  }
}

/** runOn() as a Promise: `staged.run(...)`, on every engine (Runner.runAsync). */
export async function runOnAsync(choice: EngineChoice | undefined, program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]> {
  const runner = choice?.runner;
  if (runner === undefined || isTapeOn()) return runOnTfjsAsync(program, args);
  if (choice!.engine === FALLBACK.name || runner.failedRunChangesNothing !== true) return runner.runAsync(program, args);
  try {
    return await runner.runAsync(program, args);
  } catch (error) {
    fallBackAfter(choice!, runner, program, error);
    return runOnTfjsAsync(program, args);
  }
}

/**
 * A failed run changed nothing (Runner.failedRunChangesNothing), so the tfjs executor runs the
 * same program on the same inputs: its error is the one eager code gives ("index 3 is out of
 * range of a list of length 2", "Pass at least one tensor to tf.stack") at the user's line,
 * where ORT's names an ONNX node. Should the executor succeed, the engine failed on something
 * it cannot do, and the executor's result is the program's.
 */
function fallBackAfter(choice: EngineChoice, runner: Runner, program: Program, error: unknown): void {
  const unusable = runner.unusableAfter?.(error);
  if (unusable === undefined) return;
  // The program stays on the fallback engine from now on, and inspect() says why.
  runner.dispose();
  Object.assign(choice, { engine: FALLBACK.name, runner: FALLBACK.prepare(program, { names: {}, onnx: {} }), reason: unusable });
}
