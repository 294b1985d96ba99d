/**
 * What an engine is: something that prepares a traced program to run — a runner, or a named
 * refusal — and runs it. Engines live one folder each (engines/tfjs/, engines/onnx/); choice.ts
 * holds the list of them and picks one per traced program.
 *
 * To add an engine: a folder engines/<name>/ whose engine.ts exports an `Engine`, and one line in
 * choice.ts's ENGINES (its place in that list is its priority under `engine: 'auto'`).
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { Program } from '../graph/graph';
import type { LoweringNames, LoweringProblem } from '../onnx_model/lower';
import type { SessionOptions } from './onnx/runtime';

/** What `prepare` is told besides the program. */
export interface PrepareContext {
  /** Names for what the engine builds (the function's name, inputs, outputs). */
  names: LoweringNames;
  /** `stage(fn, { onnx })`: ONNX Runtime session options. */
  onnx: SessionOptions;
}

/** A prepared program: runs it, synchronously or not, until disposed. */
export interface Runner {
  /**
   * Runs on `args` (one per root parameter); returns new tensors owned by the caller. Absent on
   * engines that can only run asynchronously (onnxruntime-web): a synchronous call of a program
   * they run is the fallback engine's (choice.ts).
   */
  run?(program: Program, args: tf.Tensor[]): tf.Tensor[];
  /** The same, as a Promise (`staged.run(...)`): every engine has it. */
  runAsync(program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]>;
  /** For inspect(): ORT sessions' threads per operator and how they were chosen (engines that have threads). */
  readonly threads?: string[];
  /**
   * Whether a failed run changed nothing (no host callbacks ran, no variable was assigned): then
   * the fallback engine runs the same call, and its error (or result) is the call's.
   */
  readonly failedRunChangesNothing?: boolean;
  /**
   * After a failed run: why this runner can never run its program (the program then stays on the
   * tfjs executor for good); undefined when only this run failed.
   */
  unusableAfter?(error: unknown): string | undefined;
  /**
   * True while the runner still measures its own settings (ORT's threads per operator,
   * onnx/threads.ts): its calls then are not timed for 'auto''s choice of engine (engine_trial.ts).
   */
  readonly settling?: boolean;
  dispose(): void;
}

/** Why an engine cannot run a program. */
export interface Refusal {
  refused: string;
  /** Nodes that do not lower to the engine's format, with the reason for each. */
  unsupported?: LoweringProblem[];
}

export interface Engine<Name extends string = string> {
  readonly name: Name;
  /**
   * Under `engine: 'auto'`: why this engine should not run `program` here although it could (a
   * backend it was not measured on, a check only the fallback makes); undefined to try it. Where
   * it runs synchronously, 'auto' then times it against the fallback engine (engine_trial.ts).
   */
  declinesAuto?(program: Program): string | undefined;
  /**
   * Under `engine: 'auto'`: why this engine is likely slower than the fallback on `program` (a
   * rule about the graph's shape), or undefined. Only a first guess: the calls before the
   * measurement has decided, and asynchronous calls while there is none, run the guessed engine.
   */
  likelySlower?(program: Program): string | undefined;
  prepare(program: Program, context: PrepareContext): Runner | Refusal;
}

export const isRefusal = (prepared: Runner | Refusal): prepared is Refusal => 'refused' in prepared;

/** Which engine runs a program, and why (inspect().engine, without the runner). */
export interface EngineChoice {
  engine: string;
  /** Why a preferred engine is not used (lowering problems, onnxruntime-node missing, 'auto' judged it too light). */
  reason?: string;
  /** `stage(fn, { engine })` named this engine (a synchronous call it cannot make is then an error, not the fallback's). */
  asked?: boolean;
  /** Nodes that do not lower to ONNX, with the reason for each. */
  unsupported?: LoweringProblem[];
  runner?: Runner;
  /** In inspect(): the ORT sessions' threads per operator and how they were chosen (none before a first run). */
  threads?: string[];
  /**
   * Under 'auto', where two engines can run the program: their timings on its first calls (ms per
   * call, warm-ups left out) and whether they have decided (`reason` then says which won and why).
   */
  measurement?: { samples: Record<string, number[]>; decided: boolean };
  /** The engine that ran the last call of this graph, and why when it is not `engine` (a gradient tape, a failed run). */
  lastCall?: { engine: string; async: boolean; reason?: string };
}
