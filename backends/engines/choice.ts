/**
 * `stage(fn, { engine })`: which engine runs a traced program.
 * - an engine's name ('tfjs', 'onnx', 'onnx-web'): that engine, or an error naming why it cannot
 *   run the program (ONNX: onnxruntime-node missing, the nodes that do not lower and why, or the
 *   runtime refusing the lowered model). A call whose values ORT cannot compute as tfjs does (a
 *   run the lowering makes fail on purpose, or an index out of range) is run by the tfjs
 *   executor, whose result or error is eager's; `inspect().engine.lastCall` says so.
 * - 'auto' (the default): the first engine of ENGINES that does not decline the program
 *   (Engine.declinesAuto) and can prepare it. Where that is not the fallback and runs
 *   synchronously, the program's first calls time it against the fallback and keep the faster
 *   (engine_trial.ts); `inspect()` says which and why, with the figures.
 * Under a gradient tape (tf.grad around a staged call) the tfjs engine always runs: autodiff
 * needs tfjs kernels. `staged(...)` runs Runner.run, `staged.run(...)` Runner.runAsync; a runner
 * with no run (async-only: onnx-web) leaves synchronous calls to the fallback under 'auto'.
 * `inspect().engine.lastCall` is the engine that ran the last call.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Graph, Program } from '../graph/graph';
import type { LoweringNames } from '../onnx_model/lower';
import { isTapeOn } from '../staging/tape';
import { type Engine, type EngineChoice, isRefusal, type Refusal, type Runner } from './engine';
import { EngineTrial } from './engine_trial';
import { onnxEngine } from './onnx/engine';
import { onnxWebEngine } from './onnx_web/engine';
import type { SessionOptions } from './onnx/runtime';
import { runOnTfjs, runOnTfjsAsync, tfjsEngine } from './tfjs/engine';

/** The engines, in the order 'auto' tries them. The last runs every program: the fallback. */
const ENGINES = [onnxEngine, onnxWebEngine, tfjsEngine] as const;
const FALLBACK: Engine = ENGINES[ENGINES.length - 1];

export type EngineName = (typeof ENGINES)[number]['name'];
export type EngineOption = EngineName | 'auto';

/** What a choice keeps besides what inspect() shows: the graph's name for errors, the measurement under way. */
const graphNames = new WeakMap<EngineChoice, string>();
const trials = new WeakMap<EngineChoice, EngineTrial>();
/** Asynchronous runs under way per runner: a runner the measurement drops is freed after them. */
const inFlight = new WeakMap<Runner, Set<Promise<unknown>>>();

export function chooseEngine(program: Program, option: EngineOption, names: LoweringNames,
                             session: SessionOptions = {}): EngineChoice {
  const choice = choose(program, option, names, { names, onnx: session });
  graphNames.set(choice, names.graph || 'this function');
  return choice;
}

function choose(program: Program, option: EngineOption, names: LoweringNames, context: { names: LoweringNames; onnx: SessionOptions }): EngineChoice {
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
    if (isRefusal(prepared)) {
      first ??= prepared;
      continue;
    }
    const choice: EngineChoice = { engine: engine.name, runner: prepared, ...(first && { reason: first.refused }), ...(first?.unsupported && { unsupported: first.unsupported }) };
    if (engine !== FALLBACK && prepared.run !== undefined) startTrial(choice, program, engine, prepared);
    return choice;
  }
  throw new Error(`autograph-ts internal: no engine runs ${names.graph || 'this function'}`);
}

/**
 * 'auto' with two engines that run the program synchronously: the measurement (engine_trial.ts).
 * Until it decides, `engine` and `runner` are the likelier winner's (asynchronous calls run it).
 */
function startTrial(choice: EngineChoice, program: Program, engine: Engine, runner: Runner): void {
  const fallback = { engine: FALLBACK.name, runner: FALLBACK.prepare(program, { names: {}, onnx: {} }) as Runner };
  const slower = engine.likelySlower?.(program);
  const candidates = [{ engine: engine.name, runner }, fallback] as const;
  trials.set(choice, new EngineTrial(slower === undefined ? candidates : [fallback, candidates[0]]));
  Object.assign(choice, {
    ...(slower === undefined ? {} : fallback),
    reason: `engine 'auto' times ${engine.name} against ${FALLBACK.name} on this graph's first calls and keeps the faster` +
      `${slower === undefined ? '' : ` (until then ${FALLBACK.name}: ${slower})`}`,
    measurement: { samples: {}, decided: false },
  });
}

/**
 * Whether `option` names an engine that must run every call itself: one other than the fallback,
 * asked for by name (it runs the calls, or says why it cannot, from the first call on). Under
 * 'auto' or the fallback, a call may be served without an engine (cache/trace_results.ts).
 */
export function runsEveryCallItself(option: EngineOption): boolean {
  return option !== 'auto' && option !== FALLBACK.name;
}

/** Records which engine ran the call (inspect().engine.lastCall). */
function ran(choice: EngineChoice, engine: string, async: boolean, reason?: string): void {
  choice.lastCall = { engine, async, ...(reason === undefined ? {} : { reason }) };
}

const UNDER_TAPE = 'under a gradient tape (tf.grad around the call): autodiff needs the tfjs kernels';

/** Runs `program` on the chosen engine. */
export function runOn(choice: EngineChoice | undefined, program: Program, args: tf.Tensor[]): tf.Tensor[] {
  const runner = choice?.runner;
  if (choice === undefined || runner === undefined) return runOnTfjs(program, args);
  if (isTapeOn()) {
    ran(choice, FALLBACK.name, false, UNDER_TAPE);
    return runOnTfjs(program, args);
  }
  const trial = trials.get(choice);
  if (trial !== undefined) return runMeasured(choice, trial, program, args);
  if (runner.run === undefined) {
    if (choice.asked === true) {
      throw new Error(`autograph-ts: engine '${choice.engine}' runs only asynchronously: call \`staged.run(...)\` (a Promise) instead of \`staged(...)\``);
    }
    // 'auto' chose an async-only engine: synchronous calls run here.
    ran(choice, FALLBACK.name, false, `${choice.engine} runs only asynchronously (staged.run(...)): a synchronous call runs the ${FALLBACK.name} executor`);
    return runOnTfjs(program, args);
  }
  const engine = choice.engine;
  if (engine === FALLBACK.name || runner.failedRunChangesNothing !== true) {
    const results = runner.run(program, args);
    ran(choice, engine, false);
    return results;
  }
  try {
    const results = runner.run(program, args);
    ran(choice, engine, false);
    return results;
  } catch (error) {
    const reason = afterFailedRun(choice, runner, program, error);
    const results = runOnTfjs(program, args);
    ran(choice, FALLBACK.name, false, reason);
    return results;
  }
}

/** runOn() as a Promise: `staged.run(...)`, on every engine (Runner.runAsync). Not measured: it runs the choice of the moment. */
export async function runOnAsync(choice: EngineChoice | undefined, program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]> {
  const runner = choice?.runner;
  if (choice === undefined || runner === undefined) return runOnTfjsAsync(program, args);
  if (isTapeOn()) {
    ran(choice, FALLBACK.name, true, UNDER_TAPE);
    return runOnTfjsAsync(program, args);
  }
  const engine = choice.engine;
  if (engine === FALLBACK.name || runner.failedRunChangesNothing !== true) {
    const results = await tracked(runner, runner.runAsync(program, args));
    ran(choice, engine, true);
    return results;
  }
  try {
    const results = await tracked(runner, runner.runAsync(program, args));
    ran(choice, engine, true);
    return results;
  } catch (error) {
    const reason = afterFailedRun(choice, runner, program, error);
    const results = await runOnTfjsAsync(program, args);
    ran(choice, FALLBACK.name, true, reason);
    return results;
  }
}

/** One call of the measurement: the candidate whose turn it is runs it; once decided, the winner stays. */
function runMeasured(choice: EngineChoice, trial: EngineTrial, program: Program, args: tf.Tensor[]): tf.Tensor[] {
  const k = trial.next();
  const { engine, runner } = trial.candidates[k];
  let results: tf.Tensor[];
  try {
    results = trial.run(k, program, args);
  } catch (error) {
    if (engine === FALLBACK.name || runner.failedRunChangesNothing !== true) throw error;
    const unusable = runner.unusableAfter?.(error);
    if (unusable !== undefined) settle(choice, trial, 1 - k, `${engine} cannot run it: ${unusable}`);
    const fallen = runOnTfjs(program, args);
    ran(choice, FALLBACK.name, false, `${engine} failed on this call's values, so the ${FALLBACK.name} executor ran it: ${messageOf(error)}`);
    return fallen;
  }
  // A candidate other than the executor (whose kernels are eager's) must give eager's numbers on the calls it is timed
  // on, to the last bit (ORT's MatMul, Tanh, Sigmoid may differ there): else the executor runs the program from now on.
  if (engine !== FALLBACK.name && !hasEffects(program.graph)) {
    const reference = runOnTfjs(program, args);
    const differs = firstDifference(results, reference);
    if (differs !== undefined) {
      tf.dispose(results);
      settle(choice, trial, trial.candidates.findIndex((c) => c.engine === FALLBACK.name),
        `${engine} computes other numbers than the ${FALLBACK.name} executor (eager's kernels) on this graph (${differs}), so 'auto' keeps eager's`);
      ran(choice, FALLBACK.name, false);
      return reference;
    }
    tf.dispose(reference);
  }
  ran(choice, engine, false);
  choice.measurement = { samples: trial.samples(), decided: trial.verdict !== undefined };
  if (trial.verdict !== undefined) settle(choice, trial, trial.verdict.winner, trial.verdict.why);
  return results;
}

/** Whether a graph (or one nested in it) assigns variables, draws random numbers, prints or calls a function graph:
 * running it twice to compare would do that twice. */
function hasEffects(graph: Graph): boolean {
  return graph.nodes.some((n) => n.kind === 'AssignVariable' || n.kind === 'Random' || n.kind === 'Print' || n.kind === 'Call' ||
    (n.kind === 'If' && (hasEffects(n.then) || hasEffects(n.else))) || (n.kind === 'While' && (hasEffects(n.cond) || hasEffects(n.body))));
}

/** Where two engines' results differ (a dtype, a shape, or an element, compared bit for bit), else undefined. */
function firstDifference(a: readonly tf.Tensor[], b: readonly tf.Tensor[]): string | undefined {
  for (let r = 0; r < a.length; r++) {
    if (a[r].dtype !== b[r].dtype || a[r].shape.join() !== b[r].shape.join()) return `result ${r}: ${a[r].dtype} [${a[r].shape}] vs ${b[r].dtype} [${b[r].shape}]`;
    const [x, y] = [a[r].dataSync(), b[r].dataSync()];
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return `result ${r}, element ${i}: ${x[i]} vs ${y[i]}`;
  }
  return undefined;
}

/** The measurement is over: candidate `winner` runs the program from now on, the other's runner is freed. */
function settle(choice: EngineChoice, trial: EngineTrial, winner: number, why: string): void {
  trials.delete(choice);
  trial.candidates.forEach((c, i) => { if (i !== winner) disposeWhenIdle(c.runner); });
  const { engine, runner } = trial.candidates[winner];
  const engines = trial.candidates.map((c) => c.engine).join(' and ');
  Object.assign(choice, {
    engine, runner,
    reason: `engine 'auto' timed ${engines} on this graph's first calls: ${why}`,
    measurement: { samples: trial.samples(), decided: true },
  });
}

function tracked<T>(runner: Runner, run: Promise<T>): Promise<T> {
  let runs = inFlight.get(runner);
  if (runs === undefined) inFlight.set(runner, (runs = new Set()));
  runs.add(run);
  const done = (): void => void runs.delete(run);
  run.then(done, done);
  return run;
}

/** Frees `runner` once the asynchronous runs it has under way (started before the measurement decided) are over. */
function disposeWhenIdle(runner: Runner): void {
  const runs = [...(inFlight.get(runner) ?? [])];
  if (runs.length === 0) runner.dispose();
  else void Promise.allSettled(runs).then(() => runner.dispose());
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A failed run changed nothing (Runner.failedRunChangesNothing), so the tfjs executor runs the
 * same program on the same inputs: its error is the one eager code gives ("index 3 is out of
 * range of a list of length 2", "Pass at least one tensor to tf.stack") at the user's line,
 * where ORT's names an ONNX node. Should the executor succeed, the engine failed on values it
 * cannot compute as tfjs does, and the executor's result is the call's.
 * When the runner can never run the program (ORT refused the lowered model): under an engine the
 * user named, an error saying why; under 'auto' the program stays on the fallback from now on,
 * and inspect() says why. Returns why the fallback runs this call.
 */
function afterFailedRun(choice: EngineChoice, runner: Runner, program: Program, error: unknown): string {
  const unusable = runner.unusableAfter?.(error);
  if (unusable === undefined) return `${choice.engine} failed on this call's values, so the ${FALLBACK.name} executor ran it: ${messageOf(error)}`;
  if (choice.asked === true) {
    throw new Error(`autograph-ts: engine '${choice.engine}' cannot run ${graphNames.get(choice) ?? 'this function'}: ${unusable}`);
  }
  runner.dispose();
  trials.delete(choice);   // (an asynchronous call found it out: nothing left to measure)
  Object.assign(choice, { engine: FALLBACK.name, runner: FALLBACK.prepare(program, { names: {}, onnx: {} }), reason: unusable });
  return unusable;
}
