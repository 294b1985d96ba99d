/**
 * Runs a compiled Program.
 *
 * Direct mode (the normal case) calls each kernel function on the active backend, as the engine
 * would but without its bookkeeping (scopes, tensor objects, profiling): values are TensorInfos
 * counted by the backend's reference counts, released right after their last use. Only the
 * results become tf.Tensors.
 *
 * Engine mode is used when a gradient tape is recording (a staged function called inside
 * tf.grad / tf.variableGrads / optimizer.minimize): every kernel goes through
 * tf.engine().runKernel so autodiff sees it, and If/While run the taken path kernel by kernel.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Program } from '../../graph/graph';
import type { CallStep, CheckStep, IfStep, KernelStep, ListStep, Plan, PrintStep, Step, WhileStep } from './execution_plan';
import { tripCount } from './counted_loops';
import { compile, FunctionPlans } from './execution_plan';
import { callRandomOp } from '../../kernels/random_ops';
import { formatPrint, rebuildError } from './host_callbacks';
import { pastTimeBudget, tooManyIterations } from '../../common/errors';
import { locateError, noteIteration, siteLocation } from '../../../runtime/user_frames';

/** Where the user's code made the node a failed step ran: its captured site, or the origin of an
 * If/While/Check the transformer named. */
function siteOf(program: Program, step: Step): { location: string; name?: string } | undefined {
  const node = step.node;
  if (node === undefined) return undefined;
  if ((node.kind === 'Kernel' || node.kind === 'List') && node.site !== undefined) {
    const site = program.sites?.[node.site];
    if (site !== undefined) return siteLocation(site);
  }
  return 'origin' in node && typeof node.origin === 'string' ? { location: node.origin } : undefined;
}
import { engineInternals } from '../../kernels/engine_internals';
import { countListElement, ListValue, releaseList } from './tensor_lists';
import { RowCopy, wasmRowCopy } from './wasm_rows';

type Value = tf.TensorInfo;

const loopOrigin = (step: WhileStep): string | undefined => (step.node?.kind === 'While' ? step.node.origin : undefined);

/** `stage(fn, { maximumIterations })` exceeded: the error names the loop's line, its first frame too. */
function loopLimitError(limit: number, step: WhileStep): Error {
  const origin = step.node?.kind === 'While' ? step.node.origin : undefined;
  const error = tooManyIterations(limit, origin);
  locateError(error, origin === undefined ? undefined : { location: origin }, 'the staged loop');
  return error;
}

/** `stage(fn, { timeBudgetMs })` exceeded in an asynchronous run: named like loopLimitError. */
function timeBudgetError(budget: number, started: number, iterations: number, step: WhileStep): Error {
  const origin = step.node?.kind === 'While' ? step.node.origin : undefined;
  const error = pastTimeBudget(budget, performance.now() - started, iterations, origin);
  locateError(error, origin === undefined ? undefined : { location: origin }, 'the staged loop');
  return error;
}

/** Read once: tf.* goes through a module getter on every access (hot path). */
const Tensor = tf.Tensor;

const engine = engineInternals;

/** Compiled plans per backend name ('' = engine mode), cached on the program. */
const plans = new WeakMap<Program, Map<string, Plan>>();

export function planFor(program: Program, backendName: string | undefined): Plan {
  let byBackend = plans.get(program);
  if (byBackend === undefined) plans.set(program, (byBackend = new Map()));
  const key = backendName ?? '';
  let plan = byBackend.get(key);
  if (plan === undefined) {
    const functions = program.functions === undefined ? undefined : new FunctionPlans(program.functions, backendName);
    byBackend.set(key, (plan = compile(program.graph, backendName, functions)));
  }
  return plan;
}

/**
 * Runs the program on `args` (one tensor per root parameter); returns new tensors owned by the
 * caller. Under a gradient tape, through the engine (tfjs records each kernel on the tape); the
 * tfjs engine (engine.ts) first tries the gradient of the whole program.
 */
export function execute(program: Program, args: tf.Tensor[]): tf.Tensor[] {
  if (engine().isTapeOn()) {
    const plan = planFor(program, undefined);
    return new EngineRun(program).run(plan, args, true);
  }
  const backendName = tf.getBackend();
  const backend = tf.engine().backend;
  const outs = new DirectRun(program, backend, backendName).run(planFor(program, backendName), args);
  return resultTensors(outs, backend);
}

/**
 * execute() as a Promise whose loop tests, branch conditions and checks are read with the
 * backend's asynchronous read (no synchronous GPU readback on webgl / webgpu); the kernels run as
 * in execute(). Under a gradient tape, execute() itself (autodiff is synchronous).
 */
export async function executeAsync(program: Program, args: tf.Tensor[]): Promise<tf.Tensor[]> {
  if (engine().isTapeOn()) return execute(program, args);
  const backendName = tf.getBackend();
  const backend = tf.engine().backend;
  const run = new DirectRun(program, backend, backendName);
  if (program.timeBudgetMs !== undefined) run.startedAt = performance.now();
  const outs = await run.runAsync(planFor(program, backendName), args);
  return resultTensors(outs, backend);
}

function resultTensors(outs: Value[], backend: tf.KernelBackend): tf.Tensor[] {
  // (List values are results only of programs made by gradients/program_gradient.ts.)
  return outs.map((info) => (info instanceof Tensor || info instanceof ListValue ? info as tf.Tensor
    : engine().makeTensorFromTensorInfo(info, backend)));
}

/**
 * Reads of a value back to JS that decide what runs next (loop tests, branch conditions, checks,
 * list indices, a counted loop's start and bound): a sync point with the device on webgl / webgpu.
 * Counted, for specs and benchmarks.
 */
let readbacks = 0;
export const executorReadbacks = (): number => readbacks;

/** Backends whose data lives in JS-visible memory: a read there is no device round trip. */
const HOST_MEMORY_BACKENDS = new Set(['cpu', 'wasm', 'tensorflow']);

/** The numbers read from program constants (a counted loop's bound and step): constants never change. */
const constantNumbers = new WeakMap<tf.Tensor, number>();
const constantSets = new WeakMap<Program, Set<tf.Tensor>>();

const planReads = new WeakMap<Plan, boolean>();

/** Whether a run of `plan` reads a value back to decide what runs next (else runAsync runs it as run()). */
function readsBack(plan: Plan): boolean {
  let reads = planReads.get(plan);
  if (reads === undefined) {
    reads = plan.steps.some((s) => s.kind === 'If' || s.kind === 'While' || s.kind === 'Check' || s.kind === 'Print' || s.kind === 'Call' ||
      (s.kind === 'List' && (s.op === 'TensorListGetItem' || s.op === 'TensorListSetItem')));
    planReads.set(plan, reads);
  }
  return reads;
}

function isConstant(program: Program, value: Value): value is tf.Tensor {
  if (!(value instanceof Tensor)) return false;
  let set = constantSets.get(program);
  if (set === undefined) constantSets.set(program, (set = new Set(program.constants)));
  return set.has(value);
}

type ScalarReader = (value: Value) => number;

/**
 * How to read the first element of a value on this backend (loop and branch conditions, row
 * indices): on cpu straight from its data store (readSync converts, and copies bools twice); on
 * wasm from its heap; elsewhere readSync.
 */
function scalarReader(backend: tf.KernelBackend, backendName: string): ScalarReader {
  const generic = (value: Value): number => {
    if (value instanceof Tensor) return value.dataSync()[0] as number;
    return (backend.readSync(value.dataId) as ArrayLike<number>)[0];
  };
  if (backendName === 'cpu') {
    const data = (backend as unknown as { data: { get(id: object): { values?: unknown } | undefined } }).data;
    return (value) => {
      const values = data.get(value.dataId)?.values;
      return ArrayBuffer.isView(values) ? (values as unknown as ArrayLike<number>)[0] : generic(value);
    };
  }
  if (backendName === 'wasm') {
    // Straight from the heap (readSync copies the bytes into a new buffer first). The views are
    // looked up per read: they are replaced when the wasm memory grows.
    const wasm = backend as unknown as {
      wasm?: { HEAPU8?: Uint8Array; HEAP32?: Int32Array; HEAPF32?: Float32Array };
      dataIdMap?: { get(id: object): { memoryOffset?: number | null; dtype?: string } | undefined };
    };
    if (wasm.wasm?.HEAPU8 === undefined || wasm.wasm.HEAP32 === undefined || wasm.wasm.HEAPF32 === undefined ||
        wasm.dataIdMap === undefined) return generic;
    const heap = wasm.wasm;
    const table = wasm.dataIdMap;
    return (value) => {
      const entry = table.get(value.dataId);
      const offset = entry?.memoryOffset;
      if (offset == null) return generic(value);
      switch (entry!.dtype) {
        case 'bool': return heap.HEAPU8![offset];
        case 'int32': return heap.HEAP32![offset >>> 2];
        case 'float32': return heap.HEAPF32![offset >>> 2];
        default: return generic(value);
      }
    };
  }
  return generic;
}

type KernelArgs = NonNullable<KernelStep['args']>;

class DirectRun {
  private readonly read: ScalarReader;

  private readonly hostMemory: boolean;

  private readonly copyRow: RowCopy | undefined;

  /** When an asynchronous run with a time budget (Program.timeBudgetMs) started. */
  startedAt?: number;
  /** The counter's value in the current iteration of the innermost counted loop running (Row steps on it read nothing). */
  private counterValue: number | undefined;

  constructor(private readonly program: Program, private readonly backend: tf.KernelBackend, backendName: string) {
    this.read = scalarReader(backend, backendName);
    this.hostMemory = HOST_MEMORY_BACKENDS.has(backendName);
    this.copyRow = wasmRowCopy(backend, backendName);
  }

  /** A value read back to decide what runs next (counted: `readbacks`). */
  private test(value: Value): number {
    readbacks++;
    return this.read(value);
  }

  /** test() without a synchronous device read: awaited on backends whose data is on a device. */
  private async testAsync(value: Value): Promise<number> {
    if (this.hostMemory) return this.test(value);
    readbacks++;
    const data = value instanceof Tensor ? await value.data() : await this.backend.read(value.dataId);
    return (data as ArrayLike<number>)[0];
  }

  private release(value: Value): void {
    if (value instanceof Tensor) value.dispose();
    else if (value instanceof ListValue) releaseList(value as ListValue<Value>, (item) => this.release(item));
    else this.backend.disposeData(value.dataId);
  }

  /** An element kept in a new list cell: shared and counted (a hole stays one). */
  private shareItem(item: Value | undefined): Value | undefined {
    if (item === undefined) return undefined;
    countListElement(item, 1);
    return this.share(item);
  }

  /** A reference the caller owns to a value it does not own (parameter or constant). */
  private share(value: Value): Value {
    if (value instanceof ListValue) {
      value.refs++;
      return value;
    }
    this.backend.incRef(value.dataId);
    return { dataId: value.dataId, shape: value.shape, dtype: value.dtype };
  }

  /**
   * Runs `plan`; `params` are borrowed; the results, owned by the caller, are written to `out`
   * (a new array when not given) from index 0.
   */
  run(plan: Plan, params: readonly Value[], out: Value[] = new Array(plan.resultSlots.length)): Value[] {
    const frame = this.enter(plan, params);
    const steps = plan.steps;
    let i = 0;
    try {
      for (; i < steps.length; i++) {
        const step = steps[i];
        if (step.kind === 'Kernel') this.kernel(step, frame);
        else if (step.kind === 'If' || step.kind === 'Call') {
          // Run here, not in step(): a staged recursion nests a run per call and per branch, and
          // one JS frame per level lets it go as deep as the eager recursion does.
          const sub = step.kind === 'Call' ? step.callee() : this.test(frame[step.cond]!) ? step.then : step.else;
          const outs = this.run(sub, paramsOf(step.ins, frame));
          for (let k = 0; k < outs.length; k++) frame[step.outs[k]] = outs[k];
        } else this.step(step, frame);
        this.releaseFreed(step.free, frame);
      }
      return this.finish(plan, frame, out);
    } catch (error) {
      this.fail(plan, frame, steps[i], error);
      throw error;
    } finally {
      if (frame === plan.frame) plan.busy = false;
    }
  }

  /** run() whose reads that decide what runs next are awaited (testAsync). */
  async runAsync(plan: Plan, params: readonly Value[], out: Value[] = new Array(plan.resultSlots.length)): Promise<Value[]> {
    if (!readsBack(plan)) return this.run(plan, params, out);
    const frame = this.enter(plan, params);
    const steps = plan.steps;
    let i = 0;
    try {
      for (; i < steps.length; i++) {
        const step = steps[i];
        if (step.kind === 'Kernel') this.kernel(step, frame);
        else if (step.kind === 'If' || step.kind === 'While' || step.kind === 'Check' || step.kind === 'List' || step.kind === 'Print' ||
                 step.kind === 'Call') {
          await this.stepAsync(step, frame);
        }
        else this.step(step, frame);
        this.releaseFreed(step.free, frame);
      }
      return this.finish(plan, frame, out);
    } catch (error) {
      this.fail(plan, frame, steps[i], error);
      throw error;
    } finally {
      if (frame === plan.frame) plan.busy = false;
    }
  }

  /** Releases the slots a step was the last reader of. */
  private releaseFreed(free: readonly number[], frame: (Value | undefined)[]): void {
    for (let j = 0; j < free.length; j++) {
      this.release(frame[free[j]]!);
      frame[free[j]] = undefined;
    }
  }

  /** The frame of a run of `plan`, holding its parameters and constants. */
  private enter(plan: Plan, params: readonly Value[]): (Value | undefined)[] {
    // The plan's frame is reused run after run; a run inside a run of the same plan (or one
    // started while an async run awaits) gets its own.
    let frame = plan.frame as (Value | undefined)[] | undefined;
    if (frame === undefined || plan.busy) {
      frame = new Array(plan.numSlots);
      if (plan.frame === undefined) plan.frame = frame;
    }
    plan.busy = true;
    const { paramSlots, constantSlots } = plan;
    for (let i = 0; i < paramSlots.length; i++) if (paramSlots[i] >= 0) frame[paramSlots[i]] = params[i];
    const constants = this.program.constants;
    for (let i = 0; i < constantSlots.length; i++) frame[constantSlots[i][0]] = constants[constantSlots[i][1]];
    return frame;
  }

  /** Hands the results over to `out` and clears the frame for the next run. */
  private finish(plan: Plan, frame: (Value | undefined)[], out: Value[]): Value[] {
    const { resultSlots, handOver, leftover } = plan;
    for (let i = 0; i < resultSlots.length; i++) {
      const v = frame[resultSlots[i]]!;
      // An owned value is handed over once; a repeated result or a borrowed one gets a new reference.
      out[i] = handOver[i] ? v : this.share(v);
    }
    for (let i = 0; i < leftover.length; i++) frame[leftover[i]] = undefined;
    return out;
  }

  /** After `failed` threw: the error gains the user's line, and the values the run owns are released. */
  private fail(plan: Plan, frame: (Value | undefined)[], failed: Step | undefined, error: unknown): void {
    // A kernel's error (tfjs's own message) gains the user's line; Check errors are the user's own.
    if (failed !== undefined && (failed.kind === 'Kernel' || failed.kind === 'Row' || failed.kind === 'List')) {
      locateError(error, siteOf(this.program, failed), `the staged ${failed.kind === 'Row' ? 'GatherV2' : failed.op}`);
    }
    const owned = plan.owned;
    for (let s = 0; s < frame.length; s++) if (owned[s] && frame[s] !== undefined) this.release(frame[s]!);
    frame.fill(undefined);
  }

  private kernel(step: KernelStep, vals: (Value | undefined)[]): void {
    let args = step.args as KernelArgs | undefined;
    if (args === undefined || args.backend !== this.backend) {
      const inputs = step.inputsKind === 'variadic' ? [] : step.inputsKind === 'x' ? { x: undefined }
        : step.inputsKind === 'ab' ? { a: undefined, b: undefined } : {};
      args = step.args = { inputs, attrs: step.attrs, backend: this.backend };
    }
    const { ins } = step;
    // The common input names get monomorphic stores; others a keyed store per input.
    switch (step.inputsKind) {
      case 'x':
        (args.inputs as { x: Value }).x = vals[ins[0]]!;
        break;
      case 'ab': {
        const inputs = args.inputs as { a: Value; b: Value };
        inputs.a = vals[ins[0]]!;
        inputs.b = vals[ins[1]]!;
        break;
      }
      case 'variadic': {
        const inputs = args.inputs as Value[];
        for (let i = 0; i < ins.length; i++) inputs[i] = vals[ins[i]]!;
        break;
      }
      default: {
        const inputs = args.inputs as Record<string, Value>;
        const names = step.names;
        for (let i = 0; i < ins.length; i++) inputs[names[i]] = vals[ins[i]]!;
      }
    }
    const out = step.fn!(args as unknown as Parameters<tf.KernelFunc>[0]);
    const outs = step.outs;
    if (Array.isArray(out)) {
      for (let i = 0; i < outs.length; i++) vals[outs[i]] = out[i];
      for (let i = outs.length; i < out.length; i++) this.release(out[i]);
    } else {
      vals[outs[0]] = out;
    }
  }

  // Long on purpose (~90 lines): the executor's hot path, one switch over step kinds, kept in one
  // function so that a run calls no helper per step.
  private step(step: Step, vals: (Value | undefined)[]): void {
    switch (step.kind) {
      case 'Kernel':
        this.kernel(step, vals);
        return;
      case 'Row': {
        const x = vals[step.x]!;
        const indexValue = vals[step.index]!;
        const known = step.counter ? this.counterValue : undefined;
        const i = known ?? (step.readsIndex ? this.read(indexValue) : NaN);
        const backend = this.backend;
        if (!(i >= 0 && i < step.rows && Number.isInteger(i))) {
          // Out of range (the kernel says so, as it would have), or an index a GPU backend would have to read back.
          vals[step.out] = step.fn({ inputs: { x, indices: indexValue }, attrs: step.attrs as tf.NamedAttrMap, backend }) as Value;
          return;
        }
        if (step.heapCopy) {
          // (Without the wasm internals it expects, the gather kernel.)
          vals[step.out] = this.copyRow?.(x, i, step.rowShape) ??
            step.fn({ inputs: { x, indices: indexValue }, attrs: step.attrs as tf.NamedAttrMap, backend }) as Value;
          return;
        }
        const begin = new Array<number>(step.size.length).fill(0);
        begin[0] = i;
        const row = step.slice({ inputs: { x }, attrs: { begin, size: step.size }, backend }) as Value;
        vals[step.out] = step.reshape({ inputs: { x: row }, attrs: { shape: step.rowShape }, backend }) as Value;
        this.release(row);
        return;
      }
      case 'ReadVariable': {
        const v = this.program.variables[step.variable];
        vals[step.out] = this.share(v);
        return;
      }
      case 'AssignVariable': {
        const v = this.program.variables[step.variable];
        const value = vals[step.value]!;
        // Variable.assign without its checks (done at trace time): the variable takes its own reference.
        engine().disposeTensor(v);
        (v as { dataId: object }).dataId = value.dataId;
        engine().incRef(v, this.backend);
        return;
      }
      case 'Random': {
        vals[step.out] = callRandomOp(step.op, step.args, step.ins.map((s) => this.tensorOf(vals[s]!)));
        return;
      }
      case 'While':
        this.loop(step, vals);
        return;
      case 'List':
        this.list(step, vals);
        return;
      case 'Print': {
        const tensors = step.ins.map((s) => this.tensorOf(vals[s]!));
        try {
          console.log(...formatPrint(step.parts, tensors));
        } finally {
          tensors.forEach((t, i) => t !== vals[step.ins[i]] && t.dispose());
        }
        return;
      }
      case 'Check': {
        if (!this.test(vals[step.pred]!)) throw rebuildError(this.program.errors[step.error]);
        return;
      }
      case 'If':
      case 'Call':
        throw new Error('autograph-ts internal: If and Call steps run in run()');
    }
  }

  /** The steps that read a value back, with that read awaited. */
  private async stepAsync(step: IfStep | WhileStep | CheckStep | ListStep | PrintStep | CallStep, vals: (Value | undefined)[]): Promise<void> {
    switch (step.kind) {
      case 'Print': {
        // The printed tensors read asynchronously first: webgl and webgpu keep what read() fetched
        // on the host, so the formatting's own synchronous read finds it there.
        const tensors = step.ins.map((s) => this.tensorOf(vals[s]!));
        try {
          await Promise.all(tensors.map((t) => t.data()));
          console.log(...formatPrint(step.parts, tensors));
        } finally {
          tensors.forEach((t, i) => t !== vals[step.ins[i]] && t.dispose());
        }
        return;
      }
      case 'Call': {
        const outs = await this.runAsync(step.callee(), step.ins.map((slot) => vals[slot]!));
        for (let i = 0; i < outs.length; i++) vals[step.outs[i]] = outs[i];
        return;
      }
      case 'If': {
        const branch = Boolean(await this.testAsync(vals[step.cond]!)) ? step.then : step.else;
        const outs = await this.runAsync(branch, step.ins.map((slot) => vals[slot]!));
        for (let i = 0; i < outs.length; i++) vals[step.outs[i]] = outs[i];
        return;
      }
      case 'While':
        return this.loopAsync(step, vals);
      case 'Check':
        if (!(await this.testAsync(vals[step.pred]!))) throw rebuildError(this.program.errors[step.error]);
        return;
      case 'List':
        return this.list(step, vals, step.op === 'TensorListGetItem' || step.op === 'TensorListSetItem'
          ? await this.testAsync(vals[step.ins[1]]!) : undefined);
    }
  }

  private loop(step: WhileStep, vals: (Value | undefined)[]): void {
    const params = this.loopParams(step, vals);
    const next: Value[] = new Array(step.loopVars);
    const limit = this.program.maximumIterations ?? Infinity;
    let iteration = 0;
    const outerCounter = this.counterValue;
    try {
      const operands = step.counted === undefined ? undefined : this.countedOperands(step, vals).map((v) => this.number(v));
      const trips = operands === undefined ? undefined : this.trips(step, operands);
      if (trips !== undefined) {
        for (let iterations = 0; iterations < trips; iterations++) {
          this.counterValue = operands![0] + iterations * operands![2];
          this.iterate(step, params, next, (iteration = iterations), limit);
        }
      } else {
        this.counterValue = undefined;
        const test: Value[] = [undefined as unknown as Value];
        for (let iterations = 0; ; iterations++) {
          iteration = iterations;
          this.run(step.cond, params, test);
          const go = Boolean(this.test(test[0]));
          this.release(test[0]);
          if (!go) break;
          this.iterate(step, params, next, iterations, limit);
        }
      }
    } catch (error) {
      for (let i = 0; i < step.loopVars; i++) this.release(params[i]);
      noteIteration(error, iteration, loopOrigin(step));
      throw error;
    } finally {
      this.counterValue = outerCounter;
    }
    for (let i = 0; i < step.loopVars; i++) vals[step.outs[i]] = params[i];
  }

  /** loop() with its reads awaited, and its cond and body run by runAsync. */
  private async loopAsync(step: WhileStep, vals: (Value | undefined)[]): Promise<void> {
    const params = this.loopParams(step, vals);
    const next: Value[] = new Array(step.loopVars);
    const limit = this.program.maximumIterations ?? Infinity;
    let iteration = 0;
    const outerCounter = this.counterValue;
    try {
      let trips: number | undefined;
      const operands: number[] = [];
      if (step.counted !== undefined) {
        for (const v of this.countedOperands(step, vals)) operands.push(await this.numberAsync(v));
        trips = this.trips(step, operands);
      }
      for (let iterations = 0; trips === undefined || iterations < trips; iterations++) {
        iteration = iterations;
        this.counterValue = trips === undefined ? undefined : operands[0] + iterations * operands[2];
        if (trips === undefined) {
          const [c] = await this.runAsync(step.cond, params, [undefined as unknown as Value]);
          const go = Boolean(await this.testAsync(c));
          this.release(c);
          if (!go) break;
        }
        if (iterations >= limit) throw loopLimitError(limit, step);
        this.checkTimeBudget(iterations, step);
        await this.runAsync(step.body, params, next);
        for (let i = 0; i < step.loopVars; i++) {
          this.release(params[i]);
          params[i] = next[i];
        }
      }
    } catch (error) {
      for (let i = 0; i < step.loopVars; i++) this.release(params[i]);
      noteIteration(error, iteration, loopOrigin(step));
      throw error;
    } finally {
      this.counterValue = outerCounter;
    }
    for (let i = 0; i < step.loopVars; i++) vals[step.outs[i]] = params[i];
  }

  /** Throws when an asynchronous run has gone past its time budget (checked before each iteration). */
  private checkTimeBudget(iterations: number, step: WhileStep): void {
    const budget = this.program.timeBudgetMs;
    if (this.startedAt === undefined || budget === undefined) return;
    if (performance.now() - this.startedAt > budget) throw timeBudgetError(budget, this.startedAt, iterations, step);
  }

  /**
   * One parameter array for cond and body, updated in place: loop variables first (owned by the
   * loop: it takes a reference to the initial values), then the invariants (borrowed).
   */
  private loopParams(step: WhileStep, vals: (Value | undefined)[]): Value[] {
    const ins = step.ins;
    const params: Value[] = new Array(ins.length);
    for (let i = 0; i < step.loopVars; i++) params[i] = this.share(vals[ins[i]]!);
    for (let i = step.loopVars; i < ins.length; i++) params[i] = vals[ins[i]]!;
    return params;
  }

  /** One run of the body: the loop variables become its results. */
  private iterate(step: WhileStep, params: Value[], next: Value[], iterations: number, limit: number): void {
    if (iterations >= limit) throw loopLimitError(limit, step);
    this.run(step.body, params, next);
    for (let i = 0; i < step.loopVars; i++) {
      this.release(params[i]);
      params[i] = next[i];
    }
  }

  /** A counted loop's start, bound and step values (counted_loops.ts). */
  private countedOperands(step: WhileStep, vals: (Value | undefined)[]): Value[] {
    const loop = step.counted!;
    const constants = this.program.constants;
    const bound = 'input' in loop.bound ? vals[step.ins[loop.bound.input]]! : constants[loop.bound.constant];
    return [vals[step.ins[loop.counter]]!, bound, constants[loop.step]];
  }

  private trips(step: WhileStep, [start, bound, by]: number[]): number | undefined {
    return tripCount(step.counted!, start, bound, by);
  }

  /** A scalar's value: program constants read once (they never change), other values each time. */
  private number(value: Value): number {
    if (!isConstant(this.program, value)) return this.test(value);
    let n = constantNumbers.get(value);
    if (n === undefined) constantNumbers.set(value, (n = this.test(value)));
    return n;
  }

  private async numberAsync(value: Value): Promise<number> {
    if (!isConstant(this.program, value)) return this.testAsync(value);
    let n = constantNumbers.get(value);
    if (n === undefined) constantNumbers.set(value, (n = await this.testAsync(value)));
    return n;
  }

  /** `index`: TensorListGetItem's index, when already read. */
  private list(step: ListStep, vals: (Value | undefined)[], index?: number): void {
    switch (step.op) {
      case 'EmptyTensorList':
        vals[step.outs[0]] = ListValue.empty<Value>() as unknown as Value;
        return;
      case 'TensorListPushBack': {
        const list = vals[step.ins[0]] as unknown as ListValue<Value>;
        const item = vals[step.ins[1]]!;
        countListElement(item, 1);
        vals[step.outs[0]] = list.push(this.share(item)) as unknown as Value;
        return;
      }
      case 'TensorListPopBack': {
        const list = vals[step.ins[0]] as unknown as ListValue<Value>;
        if (list.length === 0) throw new ListIndexError('pop() of an empty list');
        const { rest, item } = list.pop();
        vals[step.outs[0]] = this.share(rest as unknown as Value);
        vals[step.outs[1]] = this.share(item);
        return;
      }
      case 'TensorListPopFront': {
        const list = vals[step.ins[0]] as unknown as ListValue<Value>;
        if (list.length === 0) throw new ListIndexError('shift() of an empty list');
        const [first, ...rest] = list.items();
        vals[step.outs[0]] = ListValue.over(ListValue.empty<Value>(), rest.map((item) => this.shareItem(item))) as unknown as Value;
        vals[step.outs[1]] = this.share(present(first, 0));
        return;
      }
      case 'TensorListSetItem': {
        const list = vals[step.ins[0]] as unknown as ListValue<Value>;
        const at = writableIndex(index ?? this.test(vals[step.ins[1]]!));
        const above = list.items().slice(at + 1).map((item) => this.shareItem(item));
        const holes = new Array<undefined>(Math.max(0, at - list.length)).fill(undefined);
        const item = vals[step.ins[2]]!;
        countListElement(item, 1);
        const kept = Math.min(at, list.length);
        const base = kept === 0 ? ListValue.empty<Value>() : this.share(list.prefix(kept) as unknown as Value) as unknown as ListValue<Value>;
        vals[step.outs[0]] = ListValue.over(base, [...holes, this.share(item), ...above]) as unknown as Value;
        return;
      }
      case 'TensorListLength': {
        const list = vals[step.ins[0]] as unknown as ListValue<Value>;
        vals[step.outs[0]] = this.scalar(list.length);
        return;
      }
      case 'TensorListGetItem': {
        const list = vals[step.ins[0]] as unknown as ListValue<Value>;
        const at = checkedIndex(index ?? this.test(vals[step.ins[1]]!), list.length);
        vals[step.outs[0]] = this.share(present(list.at(at), at));
        return;
      }
      case 'TensorListStack':
      case 'TensorListConcat': {
        const items = (vals[step.ins[0]] as unknown as ListValue<Value>).items();
        items.forEach(present);
        if (items.length === 0 && step.noRows !== undefined) {
          const { shape, dtype } = step.noRows;
          vals[step.outs[0]] = { dataId: this.backend.write(new Float32Array(0), shape, dtype), shape, dtype };
          return;
        }
        checkJoinable(step, items);
        vals[step.outs[0]] = step.join!({ inputs: items as unknown as tf.NamedTensorInfoMap,
          attrs: { axis: step.axis! } as unknown as tf.NamedAttrMap, backend: this.backend }) as Value;
        return;
      }
    }
  }

  private scalar(value: number): Value {
    const dataId = this.backend.write(new Int32Array([value]), [], 'int32');
    return { dataId, shape: [], dtype: 'int32' };
  }

  /** A tf.Tensor view of a value for the host callbacks (a new reference, or the tensor itself). */
  private tensorOf(value: Value): tf.Tensor {
    if (value instanceof Tensor) return value;
    this.backend.incRef(value.dataId);
    return engine().makeTensorFromTensorInfo(value, this.backend);
  }
}

/** The values of `slots` in `frame`, as a sub-graph's parameters. */
function paramsOf(slots: readonly number[], frame: readonly (Value | undefined)[]): Value[] {
  const params: Value[] = new Array(slots.length);
  for (let i = 0; i < slots.length; i++) params[i] = frame[slots[i]]!;
  return params;
}

/** Engine mode: tensors all the way, every kernel through tf.engine().runKernel (taped). */
class EngineRun {
  constructor(private readonly program: Program) {}

  run(plan: Plan, params: readonly tf.Tensor[], root = false): tf.Tensor[] {
    const vals: (tf.Tensor | undefined)[] = new Array(plan.numSlots);
    const { paramSlots, constantSlots, steps, owned } = plan;
    for (let i = 0; i < paramSlots.length; i++) if (paramSlots[i] >= 0) vals[paramSlots[i]] = params[i];
    for (const [slot, c] of constantSlots) vals[slot] = this.program.constants[c];
    // List values hold no references in engine mode: their tensors belong to the tape's scope.
    const ownedBy = (s: number): boolean => owned[s] && !(vals[s] instanceof tf.Variable) && !(vals[s] instanceof ListValue);
    try {
      for (const step of steps) {
        this.step(step, vals);
        for (const s of step.free) {
          if (ownedBy(s)) vals[s]!.dispose();
          vals[s] = undefined;
        }
      }
    } catch (error) {
      for (let s = 0; s < vals.length; s++) if (ownedBy(s) && vals[s] !== undefined) vals[s]!.dispose();
      throw error;
    }
    const given = new Set<number>();
    void root;
    return plan.resultSlots.map((s) => {
      if (vals[s] instanceof ListValue) return vals[s]!;
      if (ownedBy(s) && !given.has(s)) {
        given.add(s);
        return vals[s]!;
      }
      return tf.clone(vals[s]!);
    });
  }

  /** A counted loop's trip count (counted_loops.ts), read once when the loop starts. */
  private trips(step: WhileStep, vals: (tf.Tensor | undefined)[]): number | undefined {
    const loop = step.counted;
    if (loop === undefined) return undefined;
    const constants = this.program.constants;
    const bound = 'input' in loop.bound ? vals[step.ins[loop.bound.input]]! : constants[loop.bound.constant];
    const [start, end, by] = [vals[step.ins[loop.counter]]!, bound, constants[loop.step]].map((t) => t.dataSync()[0] as number);
    return tripCount(loop, start, end, by);
  }

  private step(step: Step, vals: (tf.Tensor | undefined)[]): void {
    switch (step.kind) {
      case 'Row':
      case 'Kernel': {
        if (step.kind === 'Row') throw new Error('autograph-ts internal: Row steps are for direct runs');
        const inputs = step.variadic ? step.ins.map((s) => vals[s]!)
          : Object.fromEntries(step.names.map((name, i) => [name, vals[step.ins[i]]!]));
        const out = engine().runKernel(step.op, inputs, step.attrs);
        const outs = Array.isArray(out) ? out : [out];
        step.outs.forEach((s, i) => (vals[s] = outs[i]));
        outs.slice(step.outs.length).forEach((t) => t.dispose());
        return;
      }
      case 'ReadVariable':
        // The variable itself, so that tf.variableGrads finds it on the tape.
        vals[step.out] = this.program.variables[step.variable];
        return;
      case 'AssignVariable':
        this.program.variables[step.variable].assign(vals[step.value]!);
        return;
      case 'Random':
        vals[step.out] = callRandomOp(step.op, step.args, step.ins.map((s) => vals[s]!));
        return;
      case 'If': {
        const branch = vals[step.cond]!.dataSync()[0] ? step.then : step.else;
        const outs = this.run(branch, step.ins.map((s) => vals[s]!));
        step.outs.forEach((s, i) => (vals[s] = outs[i]));
        return;
      }
      case 'While': {
        const n = step.loopVars;
        let current = step.ins.slice(0, n).map((s) => (vals[s] instanceof ListValue ? vals[s]! : tf.clone(vals[s]!)));
        const invariants = step.ins.slice(n).map((s) => vals[s]!);
        const limit = this.program.maximumIterations ?? Infinity;
        const trips = this.trips(step, vals);
        for (let iterations = 0; trips === undefined || iterations < trips; iterations++) {
          if (trips === undefined) {
            const [c] = this.run(step.cond, [...current, ...invariants]);
            const go = Boolean(c.dataSync()[0]);
            c.dispose();
            if (!go) break;
          }
          if (iterations >= limit) throw loopLimitError(limit, step);
          const next = this.run(step.body, [...current, ...invariants]);
          // Keep the previous values alive: the tape may still refer to them for the backward pass.
          current = next;
        }
        step.outs.forEach((s, i) => (vals[s] = current[i]));
        return;
      }
      case 'List': {
        // Elements are clones (Identity kernels, on the tape): the run may free the pushed tensor,
        // and what is popped stays connected to what was pushed for the gradient.
        const list = vals[step.ins[0]] as unknown as ListValue<tf.Tensor> | undefined;
        const copy = (item: tf.Tensor): tf.Tensor => (item instanceof ListValue ? item : tf.clone(item));
        switch (step.op) {
          case 'EmptyTensorList':
            vals[step.outs[0]] = ListValue.empty<tf.Tensor>() as unknown as tf.Tensor;
            return;
          case 'TensorListPushBack':
            vals[step.outs[0]] = list!.push(copy(vals[step.ins[1]]!)) as unknown as tf.Tensor;
            return;
          case 'TensorListPopBack': {
            if (list!.length === 0) throw new ListIndexError('pop() of an empty list');
            const { rest, item } = list!.pop();
            vals[step.outs[0]] = rest as unknown as tf.Tensor;
            vals[step.outs[1]] = copy(item);
            return;
          }
          case 'TensorListPopFront': {
            if (list!.length === 0) throw new ListIndexError('shift() of an empty list');
            const [first, ...rest] = list!.items();
            vals[step.outs[0]] = ListValue.over(ListValue.empty<tf.Tensor>(), rest) as unknown as tf.Tensor;
            vals[step.outs[1]] = copy(present(first, 0));
            return;
          }
          case 'TensorListSetItem': {
            const at = writableIndex(vals[step.ins[1]]!.dataSync()[0]);
            const above = list!.items().slice(at + 1);
            const holes = new Array<undefined>(Math.max(0, at - list!.length)).fill(undefined);
            vals[step.outs[0]] = ListValue.over(list!.prefix(Math.min(at, list!.length)),
              [...holes, copy(vals[step.ins[2]]!), ...above]) as unknown as tf.Tensor;
            return;
          }
          case 'TensorListLength':
            vals[step.outs[0]] = tf.scalar(list!.length, 'int32');
            return;
          case 'TensorListGetItem': {
            const at = checkedIndex(vals[step.ins[1]]!.dataSync()[0], list!.length);
            vals[step.outs[0]] = copy(present(list!.at(at), at));
            return;
          }
          case 'TensorListStack':
          case 'TensorListConcat': {
            const items = list!.items();
            items.forEach(present);
            if (items.length === 0 && step.noRows !== undefined) {
              vals[step.outs[0]] = tf.zeros(step.noRows.shape, step.noRows.dtype);
              return;
            }
            checkJoinable(step, items);
            vals[step.outs[0]] = engine().runKernel(step.op === 'TensorListStack' ? 'Pack' : 'Concat', items as unknown as tf.NamedTensorMap,
              { axis: step.axis! } as unknown as tf.NamedAttrMap) as tf.Tensor;
            return;
          }
        }
        return;
      }
      case 'Print':
        console.log(...formatPrint(step.parts, step.ins.map((s) => vals[s]!)));
        return;
      case 'Check':
        if (!vals[step.pred]!.dataSync()[0]) throw rebuildError(this.program.errors[step.error]);
        return;
      case 'Call': {
        const outs = this.run(step.callee(), step.ins.map((s) => vals[s]!));
        step.outs.forEach((s, i) => (vals[s] = outs[i]));
        return;
      }
    }
  }
}

/** A list index out of range when the graph runs (the trace could not know the list's length). */
export class ListIndexError extends RangeError {
  constructor(what: string) {
    super(`autograph-ts: ${what} (a list of tensors in the staged graph)`);
    this.name = 'RangeError';
  }
}

function checkedIndex(index: number, length: number): number {
  if (!(Number.isInteger(index) && index >= 0 && index < length)) {
    throw new ListIndexError(`index ${index} is out of range of a list of length ${length}`);
  }
  return index;
}

/** An index written (`xs[i] = v`): from 0 on; past the end leaves holes, as a JS array does. */
function writableIndex(index: number): number {
  if (!(Number.isInteger(index) && index >= 0 && index < 2 ** 31 - 1)) {
    throw new ListIndexError(`an element is written at index ${index}, which is not an index of a list`);
  }
  return index;
}

/** An element read: a hole (written past, never written) is undefined eagerly, which a list of tensors cannot give. */
function present<T>(item: T | undefined, index: number): T {
  if (item === undefined) {
    throw new ListIndexError(`element ${index} is read but was never written (eagerly undefined: an element written past ` +
      'the end of an array leaves holes before it)');
  }
  return item;
}

/** The list is not empty and its elements agree in shape (Stack), or in every dim but the axis
 * (Concat), as tf.stack / tf.concat check. */
function checkJoinable(step: ListStep, items: readonly tf.TensorInfo[]): void {
  // tfjs's own error for an empty array: stacking an empty list fails as eagerly.
  if (items.length === 0) throw new Error(`Pass at least one tensor to ${step.op === 'TensorListStack' ? 'tf.stack' : 'concat'}`);
  const first = items[0].shape;
  const skip = step.op === 'TensorListConcat' ? step.axis! : -1;
  for (const item of items) {
    if (item.shape.length !== first.length || item.shape.some((d, i) => i !== skip && d !== first[i])) {
      throw new Error(`autograph-ts: ${step.op === 'TensorListStack' ? 'tf.stack' : 'tf.concat'} of a list whose elements ` +
        `have the shapes [${first}] and [${item.shape}]`);
    }
  }
}

/** Frees a value execute() returned: a tensor, or a list of them. */
export function disposeValue(value: tf.Tensor | ListValue<unknown>): void {
  if (value instanceof ListValue) {
    const backend = tf.engine().backend;
    releaseList(value, (item) => {
      if (item instanceof Tensor) item.dispose();
      else if (item instanceof ListValue) disposeValue(item);
      else backend.disposeData((item as Value).dataId);
    });
  } else {
    value.dispose();
  }
}
