/**
 * Runs a lowered program on ONNX Runtime: shared by the ONNX engine (onnxruntime-node, onnx/)
 * and the ONNX web engine (onnxruntime-web, onnx_web/). Which runtime is an `OrtFlavor`, handed
 * in by the engine: this module imports neither package, so a bundle never follows one it does
 * not use.
 *
 * Inputs are read from their tfjs tensors (a tensor's data never changes, so its ORT copy is kept
 * while the tensor lives: weights passed on every call are copied once), outputs become new tfjs
 * tensors on the active backend, and variables assigned in the graph get their new values after
 * the run.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { DataType, Program } from '../../graph/graph';
import type { LoweredModel, LoweringNames, LoweringProblem } from '../../onnx_model/lower';
import { describeProblems, lowerProgram } from '../../onnx_model/lower';
import type { Refusal, Runner } from '../engine';
import type { Segment } from './segments';
import { rootWhere, runSegments, runSegmentsAsync, splitAtHostNodes } from './segments';
import { largestKernelWork } from './work';
import type { OrtTensor, SessionOptions } from './runtime';
import { locateError, siteLocation } from '../../../runtime/user_frames';
import { typedArrayFor, typedData } from '../../common/typed_data';

type TensorData = Float32Array | Int32Array | Uint8Array;
type OrtTensorType = 'float32' | 'int32' | 'bool';

/** A session that runs synchronously (onnxruntime-node's native session, threads.ts). */
export interface SyncOrtSession {
  run(feeds: Record<string, OrtTensor>, outputNames: string[]): Record<string, OrtTensor>;
  readonly threads: string;
  readonly loaded: boolean;
  /** While it measures its own settings (threads.ts): its runs are not timed by 'auto'. */
  readonly settling?: boolean;
  dispose(): void;
}

/** A session of the public API (InferenceSession.create + run), and the runtime's tensor class. */
export interface AsyncOrtSession {
  run(feeds: Record<string, OrtTensor>, outputNames: string[]): Promise<Record<string, OrtTensor>>;
  tensor(type: OrtTensorType, data: TensorData, dims: readonly number[]): OrtTensor;
  readonly threads?: string;
  dispose(): void;
}

/** One ONNX Runtime package, as the runner uses it. */
export interface OrtFlavor {
  /** Synchronous sessions, where the runtime has them: `staged(...)` runs there. */
  sync?: {
    session(model: Uint8Array, options: SessionOptions, heaviestOperator: number): SyncOrtSession;
    tensor(type: OrtTensorType, data: ArrayBufferView, dims: readonly number[]): OrtTensor;
  };
  /** An asynchronous session over `model` (loads the runtime on first use). */
  open(model: Uint8Array, options: SessionOptions): Promise<AsyncOrtSession>;
}

/** ORT copies of tfjs tensor data for synchronous sessions, by the tensor's dataId (never reused for other data). */
const ortCopies = new WeakMap<object, OrtTensor>();
/** The same for asynchronous sessions: the data, wrapped per runtime. */
const dataCopies = new WeakMap<object, TensorData>();

function toOrt(t: tf.Tensor, tensor: NonNullable<OrtFlavor['sync']>['tensor']): OrtTensor {
  const view = wasmHeapView(t);
  if (view !== undefined) return tensor(t.dtype as OrtTensorType, view, t.shape);
  let copy = ortCopies.get(t.dataId);
  if (copy === undefined || copy.dims.length !== t.shape.length || copy.dims.some((d, i) => d !== t.shape[i])) {
    copy = tensor(t.dtype as OrtTensorType, typedData(t), t.shape);
    ortCopies.set(t.dataId, copy);
  }
  return copy;
}

/**
 * `t`'s data for an asynchronous run, read without a synchronous readback (a GPU backend's
 * tensor is read with data()). Started for every input before the first await, so that an
 * argument disposed while the run waits has been read already.
 */
async function dataOf(t: tf.Tensor): Promise<TensorData> {
  const kept = dataCopies.get(t.dataId);
  if (kept !== undefined && kept.length === t.size) return kept;
  const Typed = typedArrayFor(t.dtype);
  if (Typed === undefined) throw new Error(`autograph-ts internal: no typed array for dtype ${t.dtype}`);
  const data = (await t.data()) as unknown as ArrayLike<number>;
  const typed = data instanceof Typed ? data : Typed.from(data);
  dataCopies.set(t.dataId, typed);
  return typed;
}

interface WasmBackendInternals {
  dataIdMap?: { get(dataId: object): { memoryOffset?: number } | undefined };
  wasm?: { HEAPU8?: Uint8Array };
}

/**
 * On tfjs-wasm, a view of `t`'s data where it lives, in the wasm heap: ORT reads it in place (a
 * copy out of the heap per call cost a training step's weights 0.5 MB each way). Valid until the
 * heap grows, which cannot happen during a synchronous ORT run; so made anew for each run and
 * never kept, and never used by an asynchronous run. (tfjs-backend-wasm's own fields, as of tfjs
 * 4.22: anything missing, and the copy is used.)
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
  private session: SyncOrtSession | undefined;
  private opened: Promise<AsyncOrtSession> | undefined;
  /** Whether the runtime has loaded the model (a failure before is the lowering's, for good). */
  private loaded = false;

  /** Absent where the flavor has no synchronous sessions (Runner.run). */
  readonly run?: (program: Program, args: tf.Tensor[]) => tf.Tensor[];

  /** `heaviestOperator`: work.ts largestKernelWork of the lowered program (for threads.ts). */
  constructor(readonly model: LoweredModel, private readonly flavor: OrtFlavor, private readonly options: SessionOptions,
              private readonly heaviestOperator: number) {
    if (flavor.sync !== undefined) this.run = (program, args) => this.runSync(program, args, flavor.sync!);
  }

  /** Variables are assigned after a run, and a single session has no host nodes. */
  readonly failedRunChangesNothing = true;

  /** The async session's description (its runtime's threads or providers), once it is open. */
  private asyncThreads: string | undefined;

  get threads(): string[] {
    return [...(this.session === undefined ? [] : [this.session.threads]), ...(this.asyncThreads === undefined ? [] : [this.asyncThreads])];
  }

  /** Runner.settling: before the first synchronous run, or while its session measures its threads. */
  get settling(): boolean {
    return this.session === undefined || this.session.settling === true;
  }

  private names(): string[] {
    return [...this.model.outputs.map((o) => o.name), ...this.model.variableOutputs.map((o) => o.name)];
  }

  private runSync(program: Program, args: tf.Tensor[], sync: NonNullable<OrtFlavor['sync']>): tf.Tensor[] {
    this.session ??= sync.session(this.model.bytes, this.options, this.heaviestOperator);
    const { inputs, variableInputs } = this.model;
    const feeds: Record<string, OrtTensor> = {};
    inputs.forEach((io, i) => (feeds[io.name] = toOrt(args[i], sync.tensor)));
    for (const io of variableInputs) feeds[io.name] = toOrt(program.variables[io.variable], sync.tensor);
    let results: Record<string, OrtTensor>;
    try {
      results = this.session.run(feeds, this.names());
    } catch (error) {
      this.loaded ||= this.session.loaded;
      this.locate(error, program);
      throw error;
    }
    this.loaded = true;
    return this.results(program, results);
  }

  async runAsync(program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]> {
    const { inputs, variableInputs } = this.model;
    const tensors = [...args.slice(0, inputs.length), ...variableInputs.map((io) => program.variables[io.variable])];
    const types = tensors.map((t) => t.dtype as OrtTensorType);
    const dims = tensors.map((t) => [...t.shape]);
    const data = Promise.all(tensors.map(dataOf));
    this.opened ??= this.flavor.open(this.model.bytes, this.options);
    const session = await this.opened;
    this.loaded = true;
    this.asyncThreads = session.threads;
    const values = await data;
    const feeds: Record<string, OrtTensor> = {};
    [...inputs, ...variableInputs].forEach((io, i) => (feeds[io.name] = session.tensor(types[i], values[i], dims[i])));
    let results: Record<string, OrtTensor>;
    try {
      results = await session.run(feeds, this.names());
    } catch (error) {
      this.locate(error, program);
      throw error;
    }
    return this.results(program, results);
  }

  /** The outputs as tfjs tensors; variables assigned by the graph take their new values. */
  private results(program: Program, results: Record<string, OrtTensor>): tf.Tensor[] {
    const tensors = this.model.outputs.map((o) => fromOrt(results[o.name], o.dtype));
    for (const o of this.model.variableOutputs) {
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

  /** ORT could not load the lowered model (a lowering bug, or the runtime missing): the program stays on the tfjs executor. */
  unusableAfter(error: unknown): string | undefined {
    if (this.loaded) return undefined;
    return `onnxruntime could not load the lowered graph: ${error instanceof Error ? error.message : String(error)}`;
  }

  dispose(): void {
    this.session?.dispose();
    this.session = undefined;
    const opened = this.opened;
    this.opened = undefined;
    opened?.then((s) => s.dispose(), () => undefined);
  }
}

/**
 * The segments of a program with host nodes at its top level (segments.ts): each ONNX segment a
 * session of its own, host nodes run by the tfjs executor in between.
 */
export class SegmentedRunner implements Runner {
  readonly run?: (program: Program, args: tf.Tensor[]) => tf.Tensor[];

  constructor(private readonly segments: Segment[], private readonly runners: (OnnxRunner | undefined)[], sync: boolean) {
    if (sync) this.run = (program, args) => runSegments(program, this.segments, args, (k, ins) => this.runners[k]!.run!(this.segments[k].program, ins));
  }

  runAsync(program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]> {
    return runSegmentsAsync(program, this.segments, args, (k, ins) => this.runners[k]!.runAsync(this.segments[k].program, ins));
  }

  get threads(): string[] {
    return this.runners.flatMap((r) => r?.threads ?? []);
  }

  get settling(): boolean {
    return this.runners.some((r) => r?.settling === true);
  }

  dispose(): void {
    this.runners.forEach((r) => r?.dispose());
  }
}

/** Lowers `program` for ORT (`flavor`), split around its top-level host nodes, or says why it cannot run there. */
export function prepareOrt(program: Program, flavor: OrtFlavor, names: LoweringNames, options: SessionOptions): Runner | Refusal {
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
    return new OnnxRunner(lowered.model, flavor, options, largestKernelWork(part.graph));
  });
  if (problems.length > 0) {
    runners.forEach((r) => r?.dispose());
    return { refused: `the graph does not lower to ONNX: ${describeProblems(problems)}`, unsupported: problems };
  }
  return segments === undefined ? runners[0]! : new SegmentedRunner(segments, runners, flavor.sync !== undefined);
}
