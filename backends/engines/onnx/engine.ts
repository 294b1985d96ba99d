/**
 * The ONNX engine: runs a staged Program as one ONNX Runtime session.
 *
 * A Program is lowered once (lower.ts) and its session created on first use; inputs are read from
 * their tfjs tensors (a tensor's data never changes, so its ORT copy is kept while the tensor
 * lives: weights passed on every call are copied once), outputs become new tfjs tensors on the
 * active backend, and variables assigned in the graph get their new values after the run.
 */
import * as tf from '@tensorflow/tfjs-core';
import { type DataType, type Graph, graphStats, type Program } from '../../graph/graph';
import type { LoweredModel, LoweringNames, LoweringProblem } from '../../onnx_model/lower';
import { describeProblems, lowerProgram } from '../../onnx_model/lower';
import type { Engine, Refusal, Runner } from '../engine';
import type { Segment } from './segments';
import { rootWhere, runSegments, splitAtHostNodes, splitsIntoSegments } from './segments';
import type { OrtTensor, SessionOptions } from './runtime';
import { onnxRuntimeMissing, ortTensor } from './runtime';
import { TunedSession } from './threads';
import { largestKernelWork, work } from './work';
import { locateError, siteLocation } from '../../../runtime/user_frames';
import { typedArrayFor, typedData } from '../../common/typed_data';

/** ORT copies of tfjs tensor data, by the tensor's dataId (never reused for other data). */
const ortCopies = new WeakMap<object, OrtTensor>();

function toOrt(t: tf.Tensor): OrtTensor {
  const view = wasmHeapView(t);
  if (view !== undefined) return ortTensor(t.dtype as 'float32' | 'int32' | 'bool', view, t.shape);
  let copy = ortCopies.get(t.dataId);
  if (copy === undefined || copy.dims.length !== t.shape.length || copy.dims.some((d, i) => d !== t.shape[i])) {
    copy = ortTensor(t.dtype as 'float32' | 'int32' | 'bool', typedData(t), t.shape);
    ortCopies.set(t.dataId, copy);
  }
  return copy;
}

interface WasmBackendInternals {
  dataIdMap?: { get(dataId: object): { memoryOffset?: number } | undefined };
  wasm?: { HEAPU8?: Uint8Array };
}

/**
 * On tfjs-wasm, a view of `t`'s data where it lives, in the wasm heap: ORT reads it in place (a
 * copy out of the heap per call cost a training step's weights 0.5 MB each way). Valid until the
 * heap grows, which cannot happen during a synchronous ORT run; so made anew for each run and
 * never kept. (tfjs-backend-wasm's own fields, as of tfjs 4.22: anything missing, and the copy is
 * used.)
 */
function wasmHeapView(t: tf.Tensor): ArrayBufferView | undefined {
  if (t.size === 0 || tf.getBackend() !== 'wasm') return undefined;
  const backend = tf.backend() as unknown as WasmBackendInternals;
  const offset = backend.dataIdMap?.get(t.dataId)?.memoryOffset;
  const heap = backend.wasm?.HEAPU8;
  if (typeof offset !== 'number' || heap === undefined) return undefined;
  const Typed = typedArrayFor(t.dtype);
  if (Typed === undefined || offset % Typed.BYTES_PER_ELEMENT !== 0 || offset + t.size * Typed.BYTES_PER_ELEMENT > heap.byteLength) return undefined;
  return new Typed(heap.buffer as ArrayBuffer, heap.byteOffset + offset, t.size);
}

/** A tfjs tensor of ORT's result: its dims are ORT's (a recorded dim may be unknown, -1). */
function fromOrt(value: OrtTensor, dtype: DataType): tf.Tensor {
  return tf.tensor(value.data as tf.TypedArray, [...value.dims], dtype);
}

export class OnnxRunner implements Runner {
  private session: TunedSession | undefined;

  /** `heaviestOperator`: work.ts largestKernelWork of the lowered program (for threads.ts). */
  constructor(readonly model: LoweredModel, private readonly options: SessionOptions, private readonly heaviestOperator: number) {}

  /** Variables are assigned after a run, and a single session has no host nodes. */
  readonly failedRunChangesNothing = true;

  get threads(): string[] {
    return this.session === undefined ? [] : [this.session.threads];
  }

  /** Runs on `args` (one per root parameter); returns new tensors owned by the caller. */
  run(program: Program, args: tf.Tensor[]): tf.Tensor[] {
    this.session ??= new TunedSession(this.model.bytes, this.options, this.heaviestOperator);
    const { inputs, variableInputs, outputs, variableOutputs } = this.model;
    const feeds: Record<string, OrtTensor> = {};
    inputs.forEach((io, i) => (feeds[io.name] = toOrt(args[i])));
    for (const io of variableInputs) feeds[io.name] = toOrt(program.variables[io.variable]);
    let results: Record<string, OrtTensor>;
    try {
      results = this.session.run(feeds, [...outputs.map((o) => o.name), ...variableOutputs.map((o) => o.name)]);
    } catch (error) {
      this.locate(error, program);
      throw error;
    }
    const tensors = outputs.map((o) => fromOrt(results[o.name], o.dtype));
    for (const o of variableOutputs) {
      const value = fromOrt(results[o.name], o.dtype);
      program.variables[o.variable].assign(value);
      value.dispose();
    }
    return tensors;
  }

  /**
   * An ORT run error names the nodes it failed in ("... Loop node. Name:'loop' Status Message: ...
   * Gather node. Name:'GatherV2_3' ..."): the innermost one's kernel gives the user's line, as
   * the tfjs executor gives it ("in user code: the staged GatherV2 at model.ts:9:5").
   */
  private locate(error: unknown, program: Program): void {
    const message = error instanceof Error ? error.message : String(error);
    const names = [...message.matchAll(/Name:'([^']*)'/g)].map((m) => m[1]);
    const kernel = names.reverse().map((n) => this.model.nodeKernels.get(n)).find((k) => k !== undefined);
    if (kernel === undefined) return;
    const site = kernel.site === undefined ? undefined : program.sites?.[kernel.site];
    locateError(error, site === undefined ? undefined : siteLocation(site), `the staged ${kernel.op}`);
  }

  async runAsync(program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]> {
    return this.run(program, args);
  }

  /** ORT could not load the lowered model (a lowering bug): the program stays on the tfjs executor. */
  unusableAfter(error: unknown): string | undefined {
    if (this.session?.loaded === true) return undefined;
    return `onnxruntime could not load the lowered graph: ${error instanceof Error ? error.message : String(error)}`;
  }

  dispose(): void {
    this.session?.dispose();
    this.session = undefined;
  }
}

/**
 * The segments of a program with host nodes at its top level (segments.ts): each ONNX segment a
 * session of its own, host nodes run by the tfjs executor in between.
 */
class SegmentedRunner implements Runner {
  constructor(private readonly segments: Segment[], private readonly runners: (OnnxRunner | undefined)[]) {}

  run(program: Program, args: tf.Tensor[]): tf.Tensor[] {
    return runSegments(program, this.segments, args, (k, ins) => this.runners[k]!.run(this.segments[k].program, ins));
  }

  async runAsync(program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]> {
    return this.run(program, args);
  }

  get threads(): string[] {
    return this.runners.flatMap((r) => r?.threads ?? []);
  }

  dispose(): void {
    this.runners.forEach((r) => r?.dispose());
  }
}

/** Lowers `program` for the ONNX engine, or says why it cannot run there. */
export function prepareOnnx(program: Program, names: LoweringNames = {}, options: SessionOptions = {}): Runner | Refusal {
  const missing = onnxRuntimeMissing();
  if (missing !== undefined) return { refused: missing };
  const segments = splitAtHostNodes(program);
  const parts = segments?.map((s) => s.program) ?? [program];
  const problems: LoweringProblem[] = [];
  const runners = parts.map((part, k) => {
    if (segments !== undefined && segments[k].kind === 'host') return undefined;
    const partNames = segments === undefined ? names : { ...names, graph: `${names.graph || 'staged'}_part${k}`, inputs: undefined, outputs: undefined };
    const lowered = lowerProgram(part, partNames);
    if (!lowered.ok) {
      // Problems point into the program as the user staged it: a segment's node %i is the root's node %j.
      problems.push(...lowered.problems.map((p) => ({ ...p, where: segments === undefined ? p.where : rootWhere(p.where, segments[k]) })));
      return undefined;
    }
    return new OnnxRunner(lowered.model, options, largestKernelWork(part.graph));
  });
  if (problems.length > 0) {
    runners.forEach((r) => r?.dispose());
    return { refused: `the graph does not lower to ONNX: ${describeProblems(problems)}`, unsupported: problems };
  }
  return segments === undefined ? runners[0]! : new SegmentedRunner(segments, runners);
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

/** Why 'auto' keeps `program` off ONNX Runtime although it may lower (see the constants above). */
/** Why a program with loops and `stage(fn, { maximumIterations })` does not run here. */
function loopLimitRefusal(program: Program): string | undefined {
  if (program.maximumIterations === undefined || graphStats(program.graph).whiles === 0) return undefined;
  return `maximumIterations (${program.maximumIterations}) is checked by the tfjs executor only: ONNX Runtime's ` +
    'Loop cannot raise the error that names the loop';
}

function declinesAuto(program: Program): string | undefined {
  const limited = loopLimitRefusal(program);
  if (limited !== undefined) return `engine 'auto' keeps the tfjs executor: ${limited}`;
  if (!AUTO_BACKENDS.has(tf.getBackend())) {
    return `engine 'auto' keeps the tfjs executor on backend '${tf.getBackend()}' (ONNX Runtime is preferred on ${[...AUTO_BACKENDS].join(', ')})`;
  }
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
  declinesAuto,
  prepare: (program, context) => {
    const limited = loopLimitRefusal(program);
    if (limited !== undefined) return { refused: limited };
    const prepared = prepareOnnx(program, context.names, context.onnx);
    if ('refused' in prepared) tellOnceRuntimeMissing();
    return prepared;
  },
};
