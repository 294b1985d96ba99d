/**
 * Compiles a Graph into an execution plan for one backend: every value gets a slot, every kernel
 * node its kernel function (looked up once), and every step the list of slots whose last use it
 * is, so the executor frees each intermediate as early as possible. Everything the executor would
 * otherwise work out per call (which results are handed over, kernel argument objects, the row
 * extraction below) is decided here, once per graph and backend.
 *
 * Row extraction: `for (const row of t)` stages as GatherV2(t, i) on the loop counter (what the
 * graph says, for exporters). On backends whose Gather is a per-element JS loop (cpu) but whose
 * first-axis Slice is a view, the plan runs such a gather as Slice + Reshape of row i, which is
 * what eager iteration (tf.unstack) does: a 'Row' step. On GPU backends (webgl, webgpu) the same
 * step serves a gather whose index is the counter of the counted loop whose body it is in: the
 * executor knows the counter's value without reading it back, and Slice reads one row where the
 * gather kernel repacks all of x on every step (webgl: the sample's RNN ran 4x slower than eager).
 * On wasm, whose Gather indexes every element and whose Slice reads all of x back first, a Row
 * step copies the row's bytes on the heap (wasm_rows.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import { type CountedLoop, countedLoop } from './counted_loops';
import { fixedKernelFunc } from '../../kernels/kernel_fixes';
import { ensureShapeKernel, SHAPE_KERNEL } from '../../kernels/shape_kernel';
import { type Attrs, type Graph, hasUnknownDims, type KernelNode, type ListOp, type Node, type PrintPart, type RandomArg, type RandomOp, type TensorSpec } from '../../graph/graph';

export type Slot = number;

interface StepBase {
  /** Slots (owned by this run) to release after the step. */
  free: Slot[];
  /** The node the step runs, for errors (set after compiling: never read on the hot path). */
  node?: Node;
}

export interface KernelStep extends StepBase {
  kind: 'Kernel';
  op: string;
  fn: tf.KernelFunc | undefined;
  ins: Slot[];
  names: string[];
  variadic: boolean;
  attrs: Attrs;
  outs: Slot[];
  /** Shape of the inputs object: {x}, {a, b}, an array, or other names. */
  inputsKind: 'x' | 'ab' | 'variadic' | 'named';
  /**
   * The kernel's argument object ({inputs, attrs, backend}), built by the executor on the first
   * run on a backend instance and refilled per call: kernels do not keep it.
   */
  args?: { inputs: Record<string, unknown> | unknown[]; attrs: Attrs; backend: unknown };
}
/**
 * GatherV2(x, i) of one row of x along axis 0 (i a scalar int32), run as Slice + Reshape when i is
 * in range; otherwise the gather kernel `fn` runs (and reports the bad index as it would).
 */
export interface RowStep extends StepBase {
  kind: 'Row';
  x: Slot;
  index: Slot;
  rows: number;
  /** Slice sizes: [1, ...row shape]. */
  size: number[];
  rowShape: number[];
  /** The index is the enclosing counted loop's counter: its value is known without a readback. */
  counter: boolean;
  /** Whether reading the index is cheap here (host memory); if not, an index not known runs the gather kernel. */
  readsIndex: boolean;
  /** The row is copied on the wasm heap (wasm_rows.ts) instead of sliced. */
  heapCopy: boolean;
  slice: tf.KernelFunc;
  reshape: tf.KernelFunc;
  fn: tf.KernelFunc;
  attrs: Attrs;
  out: Slot;
}
export interface ReadVariableStep extends StepBase { kind: 'ReadVariable'; variable: number; out: Slot }
export interface AssignVariableStep extends StepBase { kind: 'AssignVariable'; variable: number; value: Slot }
export interface RandomStep extends StepBase { kind: 'Random'; op: RandomOp; ins: Slot[]; args: RandomArg[]; out: Slot }
export interface IfStep extends StepBase { kind: 'If'; cond: Slot; ins: Slot[]; then: Plan; else: Plan; outs: Slot[] }
export interface WhileStep extends StepBase {
  kind: 'While'; ins: Slot[]; loopVars: number; cond: Plan; body: Plan; outs: Slot[];
  /** A loop whose trip count is known when it starts (counted_loops.ts): its test is not run per iteration. */
  counted?: CountedLoop;
}
export interface ListStep extends StepBase {
  kind: 'List'; op: ListOp; ins: Slot[]; outs: Slot[];
  /** TensorListStack / TensorListConcat: the axis and the kernel that joins the elements (Pack /
   * Concat; undefined in engine mode). */
  axis?: number;
  join?: tf.KernelFunc;
  /** A Concat with attrs.emptyRows: what an empty list joins to (no rows) instead of an error. */
  noRows?: TensorSpec;
}
export interface PrintStep extends StepBase { kind: 'Print'; ins: Slot[]; parts: PrintPart[] }
/** A call of a function graph (staged recursion); its plan is compiled on the first call. */
export interface CallStep extends StepBase { kind: 'Call'; ins: Slot[]; outs: Slot[]; callee: () => Plan }
export interface CheckStep extends StepBase { kind: 'Check'; pred: Slot; error: number }

export type Step = KernelStep | RowStep | ReadVariableStep | AssignVariableStep | RandomStep | IfStep | WhileStep |
  ListStep | PrintStep | CheckStep | CallStep;

/**
 * The plans of a program's function graphs (Program.functions) for one backend, each compiled
 * when first called: a function graph calls itself, so compiling it eagerly would never end.
 */
export class FunctionPlans {
  private readonly plans: Plan[] = [];

  constructor(private readonly functions: readonly Graph[], private readonly backendName: string | undefined) {}

  plan(index: number): Plan {
    return (this.plans[index] ??= compile(this.functions[index], this.backendName, this));
  }
}

export interface Plan {
  numSlots: number;
  /** Slot of each parameter, -1 when the parameter is unused. */
  paramSlots: Slot[];
  /** [slot, constant index] pairs filled before the steps run. */
  constantSlots: [Slot, number][];
  steps: Step[];
  resultSlots: Slot[];
  /** Slots written by steps: the run owns (and must release or hand over) their values. */
  owned: boolean[];
  /** Per result: the run hands its owned value over (else the caller gets a new reference). */
  handOver: boolean[];
  /** Slots to clear after a run (parameters, constants, results): the frame is reused. */
  leftover: Slot[];
  /** The value array of a run, reused by the next run of this plan unless one is in progress. */
  frame?: unknown[];
  busy?: boolean;
}

/** Backends whose GatherV2 is a per-element JS loop while a first-axis Slice is cheap. */
const ROW_SLICE_BACKENDS = new Set(['cpu']);
/** Backends whose rows are copied on the heap (both Gather and Slice cost per element there). */
const ROW_COPY_BACKENDS = new Set(['wasm']);
/** Backends where a read of the index would cost a device sync: Row steps only on a known counter there. */
const COUNTER_ROW_BACKENDS = new Set(['webgl', 'webgpu']);

// Long on purpose (~125 lines): compileNode is one switch over node kinds that shares the slot
// table and frees being built here; a plan is compiled once per program and backend.
/**
 * Compiles `graph` for `backendName` (undefined: engine mode, kernels dispatched by name);
 * `functions`: the plans of the program's function graphs (staged recursion); `counter`: for the
 * body of a counted loop, the parameter that is its counter.
 */
export function compile(graph: Graph, backendName: string | undefined, functions?: FunctionPlans, counter?: number): Plan {
  const slotOf: number[][] = [];
  let numSlots = 0;
  const owned: boolean[] = [];
  const newSlot = (isOwned: boolean): Slot => {
    owned.push(isOwned);
    return numSlots++;
  };
  const paramSlots: Slot[] = new Array(graph.numParams).fill(-1);
  const constantSlots: [Slot, number][] = [];
  const steps: Step[] = [];
  const ins = (node: Node): Slot[] => ('inputs' in node ? node.inputs.map((r) => slotOf[r.node][r.output]) : []);

  const compileNode = (node: Node, index: number): void => {
    switch (node.kind) {
      case 'Input': {
        const s = newSlot(false);
        paramSlots[node.param] = s;
        slotOf[index] = [s];
        return;
      }
      case 'Constant': {
        const s = newSlot(false);
        constantSlots.push([s, node.constant]);
        slotOf[index] = [s];
        return;
      }
      case 'Kernel': {
        const outs = node.outputs.map(() => newSlot(true));
        slotOf[index] = outs;
        if (node.op === SHAPE_KERNEL) ensureShapeKernel(backendName ?? tf.getBackend());
        const raw = backendName === undefined ? undefined : tf.getKernel(node.op, backendName)?.kernelFunc;
        const fn = raw === undefined || backendName === undefined ? undefined : fixedKernelFunc(node.op, backendName, raw);
        if (backendName !== undefined && fn === undefined) {
          throw new Error(`autograph-ts: kernel '${node.op}' is not registered for backend '${backendName}'`);
        }
        const row = backendName !== undefined && fn !== undefined ? rowStep(node, graph, backendName, fn, ins(node), outs[0], counter) : undefined;
        if (row !== undefined) {
          steps.push(row);
          return;
        }
        const names = node.inputNames;
        const inputsKind = node.variadic ? 'variadic' : names.length === 1 && names[0] === 'x' ? 'x'
          : names.length === 2 && names[0] === 'a' && names[1] === 'b' ? 'ab' : 'named';
        steps.push({ kind: 'Kernel', op: node.op, fn, ins: ins(node), names, variadic: node.variadic,
          attrs: node.attrs, outs, inputsKind, free: [] });
        return;
      }
      case 'ReadVariable': {
        const out = newSlot(true);
        slotOf[index] = [out];
        steps.push({ kind: 'ReadVariable', variable: node.variable, out, free: [] });
        return;
      }
      case 'AssignVariable':
        slotOf[index] = [];
        steps.push({ kind: 'AssignVariable', variable: node.variable, value: ins(node)[0], free: [] });
        return;
      case 'Random': {
        const out = newSlot(true);
        slotOf[index] = [out];
        steps.push({ kind: 'Random', op: node.op, ins: ins(node), args: node.args, out, free: [] });
        return;
      }
      case 'If': {
        const [cond, ...rest] = ins(node);
        const outs = node.outputs.map(() => newSlot(true));
        slotOf[index] = outs;
        steps.push({ kind: 'If', cond, ins: rest, then: compile(node.then, backendName, functions),
          else: compile(node.else, backendName, functions), outs, free: [] });
        return;
      }
      case 'While': {
        const outs = node.outputs.map(() => newSlot(true));
        slotOf[index] = outs;
        const counted = countedLoop(node);
        steps.push({ kind: 'While', ins: ins(node), loopVars: node.loopVars, cond: compile(node.cond, backendName, functions),
          body: compile(node.body, backendName, functions, counted?.counter), outs, free: [], counted });
        return;
      }
      case 'List': {
        const outs = node.outputs.map(() => newSlot(true));
        slotOf[index] = outs;
        const step: ListStep = { kind: 'List', op: node.op, ins: ins(node), outs, free: [] };
        if (node.op === 'TensorListStack' || node.op === 'TensorListConcat') {
          const kernel = node.op === 'TensorListStack' ? 'Pack' : 'Concat';
          step.axis = Number(node.attrs?.axis ?? 0);
          if (node.attrs?.emptyRows === true) step.noRows = { shape: node.outputs[0].shape.map((d) => Math.max(d, 0)), dtype: node.outputs[0].dtype };
          step.join = backendName === undefined ? undefined : tf.getKernel(kernel, backendName)?.kernelFunc;
          if (backendName !== undefined && step.join === undefined) {
            throw new Error(`autograph-ts: kernel '${kernel}' is not registered for backend '${backendName}'`);
          }
        }
        steps.push(step);
        return;
      }
      case 'Print':
        slotOf[index] = [];
        steps.push({ kind: 'Print', ins: ins(node), parts: node.parts, free: [] });
        return;
      case 'Check':
        slotOf[index] = [];
        steps.push({ kind: 'Check', pred: ins(node)[0], error: node.error, free: [] });
        return;
      case 'Call': {
        if (functions === undefined) throw new Error('autograph-ts internal: a Call node outside a program with functions');
        const outs = node.outputs.map(() => newSlot(true));
        slotOf[index] = outs;
        const callee = node.function;
        steps.push({ kind: 'Call', ins: ins(node), outs, callee: () => functions.plan(callee), free: [] });
        return;
      }
    }
  };
  graph.nodes.forEach((node, index) => {
    const first = steps.length;
    compileNode(node, index);
    for (let k = first; k < steps.length; k++) steps[k].node = node;
  });


  const resultSlots = graph.results.map((r) => slotOf[r.node][r.output]);
  // Last use of every owned slot: release it right after that step (or right after it is made).
  const lastUse: number[] = new Array(numSlots).fill(-1);
  steps.forEach((step, i) => {
    for (const s of stepInputs(step)) lastUse[s] = i;
    for (const s of stepOutputs(step)) if (lastUse[s] < i) lastUse[s] = i;
  });
  for (const s of resultSlots) lastUse[s] = Infinity;
  lastUse.forEach((i, s) => {
    if (owned[s] && Number.isFinite(i) && i >= 0) steps[i].free.push(s);
  });
  const handOver = resultSlots.map((s, i) => owned[s] && resultSlots.indexOf(s) === i);
  const leftover = [...new Set([...paramSlots.filter((s) => s >= 0), ...constantSlots.map(([s]) => s), ...resultSlots])];
  return { numSlots, paramSlots, constantSlots, steps, resultSlots, owned, handOver, leftover };
}

/** A 'Row' step for a GatherV2 of one row along axis 0, where the backend profits from it. */
function rowStep(node: KernelNode, graph: Graph, backendName: string, fn: tf.KernelFunc, slots: Slot[],
                 out: Slot, counter: number | undefined): RowStep | undefined {
  if (node.op !== 'GatherV2' || node.inputs.length !== 2) return undefined;
  const indexNode = graph.nodes[node.inputs[1].node];
  const onCounter = counter !== undefined && indexNode.kind === 'Input' && indexNode.param === counter;
  const heapCopy = ROW_COPY_BACKENDS.has(backendName);
  if (!ROW_SLICE_BACKENDS.has(backendName) && !heapCopy && !(onCounter && COUNTER_ROW_BACKENDS.has(backendName))) return undefined;
  const x = graph.nodes[node.inputs[0].node].outputs[node.inputs[0].output];
  const index = graph.nodes[node.inputs[1].node].outputs[node.inputs[1].output];
  const axis = Number(node.attrs.axis ?? 0);
  if (node.inputNames[0] !== 'x' || node.inputNames[1] !== 'indices' || index.shape.length !== 0 ||
      index.dtype !== 'int32' || x.shape.length === 0 || (axis !== 0 && axis !== -x.shape.length) ||
      Number(node.attrs.batchDims ?? 0) !== 0 || !['float32', 'int32', 'bool'].includes(x.dtype) ||
      hasUnknownDims(x)) return undefined; // (the slice sizes are the row's dims)
  const slice = tf.getKernel('Slice', backendName)?.kernelFunc;
  const reshape = tf.getKernel('Reshape', backendName)?.kernelFunc;
  if (slice === undefined || reshape === undefined) return undefined;
  return { kind: 'Row', x: slots[0], index: slots[1], rows: x.shape[0], size: [1, ...x.shape.slice(1)],
    rowShape: x.shape.slice(1), counter: onCounter, readsIndex: ROW_SLICE_BACKENDS.has(backendName) || heapCopy, heapCopy, slice, reshape, fn, attrs: node.attrs, out, free: [] };
}

function stepInputs(step: Step): Slot[] {
  switch (step.kind) {
    case 'Row':
      return [step.x, step.index];
    case 'Kernel':
    case 'Random':
    case 'While':
    case 'List':
    case 'Print':
    case 'Call':
      return step.ins;
    case 'If':
      return [step.cond, ...step.ins];
    case 'AssignVariable':
      return [step.value];
    case 'Check':
      return [step.pred];
    case 'ReadVariable':
      return [];
  }
}

function stepOutputs(step: Step): Slot[] {
  switch (step.kind) {
    case 'Kernel':
    case 'If':
    case 'While':
    case 'List':
    case 'Call':
      return step.outs;
    case 'ReadVariable':
    case 'Random':
    case 'Row':
      return [step.out];
    default:
      return [];
  }
}
