/**
 * The ONNX engine: runs a staged Program as one onnxruntime-node session (runner.ts), lowered
 * once (onnx_model/lower.ts), its session created on first use: a synchronous native session for
 * `staged(...)` where onnxruntime-node has it, the public API for `staged.run(...)`.
 */
import * as tf from '@tensorflow/tfjs-core';
import { type Graph, graphStats, type Program } from '../../graph/graph';
import type { LoweringNames } from '../../onnx_model/lower';
import type { Engine, Refusal, Runner } from '../engine';
import { type AsyncOrtSession, type OrtFlavor, prepareOrt } from './runner';
import { splitsIntoSegments } from './segments';
import type { SessionOptions } from './runtime';
import { onnxRuntimeMissing, ortTensor, publicOrt, sessionOptions, syncSessionsMissing } from './runtime';
import { TunedSession } from './threads';
import { work } from './work';

/** onnxruntime-node: synchronous native sessions where the package has them, the public API for async runs. */
function nodeFlavor(): OrtFlavor {
  const open = async (model: Uint8Array, options: SessionOptions): Promise<AsyncOrtSession> => {
    const ort = publicOrt();
    const session = await ort.InferenceSession.create(model, sessionOptions(options));
    const threads = options.intraOpNumThreads ?? 1;
    return {
      threads: `staged.run: the public API's session, ${threads} thread${threads === 1 ? '' : 's'} per operator` +
        `${options.intraOpNumThreads === undefined ? ' (not measured: set intraOpNumThreads)' : ' (intraOpNumThreads)'}`,
      run: (feeds, outputNames) => session.run(feeds, outputNames),
      tensor: (type, data, dims) => new ort.Tensor(type, data, dims),
      dispose: () => void session.release(),
    };
  };
  if (syncSessionsMissing() !== undefined) return { open };
  return {
    sync: { session: (model, options, heaviest) => new TunedSession(model, options, heaviest), tensor: ortTensor },
    open,
  };
}

/** Lowers `program` for the ONNX engine, or says why it cannot run there. */
export function prepareOnnx(program: Program, names: LoweringNames = {}, options: SessionOptions = {}): Runner | Refusal {
  const missing = onnxRuntimeMissing();
  if (missing !== undefined) return { refused: missing };
  return prepareOrt(program, nodeFlavor(), names, options);
}

/**
 * Backends on which 'auto' prefers ONNX Runtime. Measured (bench/onnx.ts, wasm, 2 shared cores):
 * ORT is as fast as the tfjs executor on one scalar op and faster from there on: the 10,000-op
 * scalar chain ~6x, the RNNs ~6-10x, an MLP training step more; tfjs's cpu kernels are slower
 * than wasm's. Native TensorFlow (tfjs-node) and GPU backends are not measured:
 * there 'auto' keeps the tfjs executor.
 */
const AUTO_BACKENDS = new Set(['wasm', 'cpu']);

/**
 * A guess, not a rule (likelySlowerOnOrt; onnxruntime-node under 'auto' then times both): a loop
 * whose body branches (an If per iteration) on small values. ORT runs each If as a sub-graph
 * call, and with a few scalar kernels per iteration that is as slow as the tfjs executor or slower
 * (collatz: ~1.1 ms vs ~1.0 ms CPU time). A body doing more (the greedy decoder's 256-wide step:
 * 5-10x faster in ORT) is not affected; and a GRU decoder of hidden size 64 this guess held back
 * was 4x faster in ORT (issue 19): hence the measurement.
 */
const AUTO_MIN_BRANCHING_LOOP_WORK = 1e4;

/**
 * A graph split into segments around host nodes (segments.ts) pays a session run and tensor
 * copies per segment. Measured (wasm, CPU time, a random draw between two segments): 3 scalar ops
 * ~5x slower in ORT, 4 chained 32x32 matMuls (work 1.3e5) 1.15x slower, 64x64 (1e6) 1.2x faster,
 * 256x256 2x faster: the guess splits from this much work on.
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

/** Why a program with loops and `stage(fn, { maximumIterations })` does not run here. */
export function loopLimitRefusal(program: Program): string | undefined {
  if ((program.maximumIterations === undefined && program.timeBudgetMs === undefined) || graphStats(program.graph).whiles === 0) return undefined;
  const limits = [
    ...(program.maximumIterations === undefined ? [] : [`maximumIterations (${program.maximumIterations})`]),
    ...(program.timeBudgetMs === undefined ? [] : [`timeBudgetMs (${program.timeBudgetMs})`]),
  ];
  return `${limits.join(' and ')} ${limits.length > 1 ? 'are' : 'is'} checked by the tfjs executor only: ONNX Runtime's ` +
    'Loop cannot raise the error that names the loop';
}

/** Why 'auto' never tries ONNX Runtime (node or web) on `program`: a loop limit only the executor checks, a backend not measured. */
export function declinesAutoOnBackend(program: Program): string | undefined {
  const limited = loopLimitRefusal(program);
  if (limited !== undefined) return `engine 'auto' keeps the tfjs executor: ${limited}`;
  if (!AUTO_BACKENDS.has(tf.getBackend())) {
    return `engine 'auto' keeps the tfjs executor on backend '${tf.getBackend()}' (ONNX Runtime is preferred on ${[...AUTO_BACKENDS].join(', ')})`;
  }
  return undefined;
}

/**
 * Why ONNX Runtime is likely no faster than the tfjs executor on `program` (see the constants
 * above): onnxruntime-node's first guess, before 'auto' has timed both (engine_trial.ts); the
 * choice itself for onnxruntime-web, whose asynchronous runs are not timed.
 */
export function likelySlowerOnOrt(program: Program): string | undefined {
  if (lightBranchingLoop(program.graph)) {
    return "engine 'auto' keeps the tfjs executor for a loop that branches on small values " +
      '(ONNX Runtime runs an If per iteration as a sub-graph call: no faster there)';
  }
  if (splitsIntoSegments(program.graph) && work(program.graph) < AUTO_MIN_SPLIT_WORK) {
    return "engine 'auto' keeps the tfjs executor for a light graph with random draws, prints or checks " +
      '(they run on the JS side between ONNX segments, and each segment costs a session run)';
  }
  return undefined;
}

/** Why 'auto' keeps `program` off ONNX Runtime where it is not timed (onnxruntime-web's asynchronous runs). */
export const declinesAutoLike = (program: Program): string | undefined =>
  declinesAutoOnBackend(program) ?? likelySlowerOnOrt(program);

const inNode = (): boolean => typeof process !== 'undefined' && typeof process.versions?.node === 'string';

let toldRuntimeMissing = false;

/**
 * A program ONNX Runtime would have run (not declined) while onnxruntime-node is missing: said
 * once per process, not only in inspect(), since the tfjs executor is much slower.
 */
function tellOnceRuntimeMissing(): void {
  const missing = onnxRuntimeMissing();
  if (missing === undefined || toldRuntimeMissing) return;
  toldRuntimeMissing = true;
  console.warn(`autograph-ts: staged graphs run on the tfjs executor: ${missing}. \`npx autograph-ts doctor\` checks the install.`);
}

/** ONNX Runtime (onnxruntime-node): the program lowered to an ONNX model, one session per model. */
export const onnxEngine: Engine<'onnx'> = {
  name: 'onnx',
  declinesAuto: (program) => (inNode() ? declinesAutoOnBackend(program)
    : "engine 'auto' outside Node leaves onnxruntime-node (a Node addon) to the 'onnx-web' engine"),
  likelySlower: likelySlowerOnOrt,
  prepare: (program, context) => {
    const limited = loopLimitRefusal(program);
    if (limited !== undefined) return { refused: limited };
    const prepared = prepareOnnx(program, context.names, context.onnx);
    if ('refused' in prepared) tellOnceRuntimeMissing();
    return prepared;
  },
};
