/**
 * The ONNX engine: runs a staged Program as one ONNX Runtime session.
 *
 * A Program is lowered once (lower.ts) and its session created on first use; inputs are read from
 * their tfjs tensors (a tensor's data never changes, so its ORT copy is kept while the tensor
 * lives: weights passed on every call are copied once), outputs become new tfjs tensors on the
 * active backend, and variables assigned in the graph get their new values after the run.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { DataType, Program } from '../graph';
import type { LoweredModel, LoweringNames, LoweringProblem } from './lower';
import { lowerProgram } from './lower';
import type { Segment } from './segments';
import { rootWhere, runSegments, splitAtHostNodes } from './segments';
import type { OrtTensor, SessionOptions } from './runtime';
import { onnxRuntimeMissing, ortTensor } from './runtime';
import { TunedSession } from './threads';
import { largestKernelWork } from './work';
import { locateError, siteLocation } from '../../runtime/user_frames';
import { typedArrayFor, typedData } from '../typed_data';

export type EngineName = 'tfjs' | 'onnx';

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

/** What runs a program on the ONNX engine: one session, or segments around host nodes. */
export interface ProgramRunner {
  /** Runs on `args` (one per root parameter); returns new tensors owned by the caller. */
  run(program: Program, args: tf.Tensor[]): tf.Tensor[];
  /** Threads per operator of each ORT session, and how that was chosen (threads.ts). */
  readonly threads: string[];
  dispose(): void;
}

export class OnnxRunner implements ProgramRunner {
  private session: TunedSession | undefined;

  /** `heaviestOperator`: work.ts largestKernelWork of the lowered program (for threads.ts). */
  constructor(readonly model: LoweredModel, private readonly options: SessionOptions, private readonly heaviestOperator: number) {}

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

  /** Whether ORT has loaded the model (a session exists). */
  get loaded(): boolean {
    return this.session?.loaded === true;
  }

  dispose(): void {
    this.session?.dispose();
    this.session = undefined;
  }
}

/** Which engine runs a program, and why. */
export interface EngineChoice {
  engine: EngineName;
  /** Why the ONNX engine is not used (lowering problems, onnxruntime-node missing, 'auto' judged it too light). */
  reason?: string;
  /** Nodes that do not lower to ONNX, with the reason for each. */
  unsupported?: LoweringProblem[];
  runner?: ProgramRunner;
  /** In inspect(): the ORT sessions' threads per operator and how they were chosen (none before a first run). */
  threads?: string[];
}

export function describeProblems(problems: LoweringProblem[]): string {
  return problems.map((p) => `${p.op} (${p.where}): ${p.reason}`).join('; ');
}

/**
 * The segments of a program with host nodes at its top level (segments.ts): each ONNX segment a
 * session of its own, host nodes run by the tfjs executor in between.
 */
class SegmentedRunner implements ProgramRunner {
  constructor(private readonly segments: Segment[], private readonly runners: (OnnxRunner | undefined)[]) {}

  run(program: Program, args: tf.Tensor[]): tf.Tensor[] {
    return runSegments(program, this.segments, args, (k, ins) => this.runners[k]!.run(this.segments[k].program, ins));
  }

  get threads(): string[] {
    return this.runners.flatMap((r) => r?.threads ?? []);
  }

  dispose(): void {
    this.runners.forEach((r) => r?.dispose());
  }
}

/** Lowers `program` for the ONNX engine; the choice says why not when it cannot run there. */
export function prepareOnnx(program: Program, names: LoweringNames = {}, options: SessionOptions = {}): EngineChoice {
  const missing = onnxRuntimeMissing();
  if (missing !== undefined) return { engine: 'tfjs', reason: missing };
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
    return { engine: 'tfjs', reason: `the graph does not lower to ONNX: ${describeProblems(problems)}`, unsupported: problems };
  }
  return { engine: 'onnx', runner: segments === undefined ? runners[0] : new SegmentedRunner(segments, runners) };
}
