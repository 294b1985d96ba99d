/**
 * The state of one trace: the stack of graphs being built and the program's tables. It listens to
 * every kernel the recording backend runs and turns it into a node; a tensor it has not seen
 * produced in the trace is a function argument (bound up front), a variable read, or a captured
 * constant.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Attrs, AttrValue, Graph, IfNode, KernelNode, ListNode, Node, Program, RandomArg, RandomOp, TensorSpec, ValueRef, WhileNode } from '../graph/graph';
import { GraphBuilder, specOf, ValueTable } from '../graph/builder';
import type { KernelListener, NamedInputs } from './recording_backend';
import { engineInternals } from '../kernels/engine_internals';
import { StagingError, userFrame } from '../common/errors';
import { nodeBuiltin } from '../common/node_host';
import { captureSite } from '../../runtime/user_frames';
import { wrappedUserInput, promotedInt32Input, taintInt32Data } from '../../runtime/promoted_values';
import { displayName } from '../../runtime/names';
import { withoutTape } from './tape';
import { TraceFacts } from './staged_values';
import { auditDims, type DimRead, watchDims } from './dim_reads';
import { ListRecorder } from './staged_lists';

/**
 * Appends an If or While node to the current graph, like Tracer.define; `inputs` are the tensors
 * the trace used for the node's inputs (undefined where unknown); returns the refs of `outputs`.
 */
export type ControlFlowDefiner = (tracer: Tracer, node: IfNode | WhileNode, outputs: tf.Tensor[],
                                  inputs: (tf.TensorInfo | undefined)[]) => ValueRef[];

export class Tracer implements KernelListener {
  readonly root = new GraphBuilder();
  current = this.root;

  /** Whether `t` is a value of the current graph or of one enclosing it (not only of a branch or body traced before). */
  isVisible(t: tf.TensorInfo): boolean {
    for (let b: GraphBuilder | undefined = this.current; b !== undefined; b = b.parent) if (b.values.get(t) !== undefined) return true;
    return false;
  }

  /** Whether the trace is inside a staged statement (a branch or a loop body). */
  get nested(): boolean {
    return this.current !== this.root;
  }
  readonly program: Program = { graph: this.root.graph, constants: [], variables: [], errors: [] };
  /** >0 while the engine runs helper ops whose kernels are not part of the user's program. */
  paused = 0;
  /** What this trace knows about its tensors beyond the graph (placeholders, negations, ...). */
  readonly facts = new TraceFacts();
  /**
   * A loop variable or an If output changed dims: the graph has unknown dims inside, and the
   * concrete stand-in the trace went on with may have been baked into later nodes. stage() then
   * traces again with the other stand-ins (variant 1) and compares (backends/staging/shape_relaxation.ts).
   */
  changingDims = false;
  /** Reads of unknown dims by the user's code (see dim_reads.ts): the graph depends on them. */
  readonly dimReads: string[] = [];
  private readonly unwatch: (() => void)[] = [];
  /** Records the List nodes of arrays that staged loops grow (staged_lists.ts). */
  readonly lists: ListRecorder = new ListRecorder(this);

  private readonly constantIndex = new ValueTable<number>();
  /** Scalar constants by dtype and value (scalarKey): one program constant per value. */
  private readonly scalarConstants = new Map<string, number>();
  /** The last scalar the engine made from values, and its value (onScalarMade). */
  private readonly lastScalar: { dataId: object | undefined; value: number } = { dataId: undefined, value: 0 };

  private readonly variableIndex = new Map<tf.Variable, number>();
  /** Current dataId of every variable: a tensor with it is a read of the variable. */
  private readonly variableByData = new Map<object, tf.Variable>();
  /** Variables assigned during the trace, with a reference to their value before it. */
  private readonly assigned = new Map<tf.Variable, object>();
  /** The sub-graph that was being traced when each tensor of the user's program was made. */
  private readonly madeIn = new WeakMap<object, GraphBuilder>();

  /**
   * @param variant which stand-in a value of changing dims takes where the trace goes on with one:
   *   0 the first (a loop's initial value, the branch the condition takes), 1 the other (the value
   *   after one iteration, the other branch)
   */
  /**
   * Reads of dims by the user's code, per graph (audited traces only, see dim_reads.ts): after the
   * comparison, a read of a dim that turned out unknown makes the graph depend on it.
   */
  readonly audit?: Map<Graph, DimRead[]>;

  /**
   * How an If or While node is appended: `define`, or, where the trace's creator hands one in,
   * a definer that also puts it on an active gradient tape (gradients/taped_control_flow.ts).
   * Handed in from above so that the trace core never imports the gradients.
   */
  private readonly controlFlowDefiner: ControlFlowDefiner;

  constructor(readonly variant: 0 | 1 = 0, audit = false, defineControlFlow?: ControlFlowDefiner) {
    if (audit) this.audit = new Map();
    this.controlFlowDefiner = defineControlFlow ?? ((tracer, node, outputs) => tracer.define(node, outputs));
    for (const v of Object.values(engineInternals().state.registeredVariables)) this.variableByData.set(v.dataId, v);
  }

  get backend(): tf.KernelBackend {
    return tf.engine().backend;
  }

  /** Reports reads of `t`'s unknown dims (UNKNOWN_DIM in `pattern`) by the user's code until the trace ends. */
  watchDims(t: tf.Tensor, pattern: readonly number[], name: string): void {
    this.unwatch.push(watchDims(t, pattern, name, (read) => this.dimReads.push(read)));
  }

  /** Records the user's reads of `t`'s dims against the value of the graph that holds it. */
  auditTensor(t: tf.Tensor): void {
    this.unwatch.push(auditDims(t, (dim, location) => {
      for (let b: GraphBuilder | undefined = this.current; b !== undefined; b = b.parent) {
        const ref = b.values.get(t);
        if (ref === undefined) continue;
        let reads = this.audit!.get(b.graph);
        if (reads === undefined) this.audit!.set(b.graph, (reads = []));
        reads.push({ ref, dim, location });
        return;
      }
    }));
  }

  unwatchDims(): void {
    for (const undo of this.unwatch.splice(0)) undo();
  }

  // ---- kernels ------------------------------------------------------------------------------

  onKernel(kernelName: string, inputs: NamedInputs, attrs: Record<string, unknown> | undefined,
           outputs: tf.TensorInfo | tf.TensorInfo[]): void {
    if (this.paused > 0) return;
    // (Once per recorded kernel: plain loops, no intermediate arrays.)
    const names: string[] = [];
    const present: tf.TensorInfo[] = [];
    if (Array.isArray(inputs)) {
      for (let i = 0; i < inputs.length; i++) {
        if (inputs[i] == null) continue;
        names.push(String(i));
        present.push(inputs[i]);
      }
    } else {
      for (const name in inputs) {
        const t = inputs[name];
        if (t == null) continue;
        names.push(name);
        present.push(t);
      }
    }
    const outs = Array.isArray(outputs) ? outputs : [outputs];
    followPromotedInt32(kernelName, present, outs);
    for (let i = 0; i < present.length; i++) refuseWrapped(kernelName, present[i]);
    const refs = new Array<ValueRef>(present.length);
    for (let i = 0; i < present.length; i++) refs[i] = this.resolve(present[i]);
    const specs = new Array<TensorSpec>(outs.length);
    for (let i = 0; i < outs.length; i++) specs[i] = specOf(outs[i]);
    const node: KernelNode = {
      kind: 'Kernel',
      op: kernelName,
      inputs: refs,
      inputNames: names,
      variadic: Array.isArray(inputs),
      attrs: copyAttrs(kernelName, attrs),
      multiOutput: Array.isArray(outputs),
      outputs: specs,
    };
    this.defineAtSite(node, outs);
    this.lists.onKernel(kernelName, present, outs);
  }

  /**
   * define(), remembering where the user's code made the node when it is recorded inside an
   * If/While body (whose errors depend on the data): a captured stack costs microseconds and is
   * formatted only for an error. Straight-line nodes fail while tracing already, at the user's line.
   */
  defineAtSite(node: KernelNode | ListNode, outputs: readonly tf.TensorInfo[]): ValueRef[] {
    if (this.current !== this.root) node.site = (this.program.sites ??= []).push(captureSite()) - 1;
    return this.define(node, outputs);
  }

  /** Appends an If or While node (see controlFlowDefiner). */
  defineControlFlow(node: IfNode | WhileNode, outputs: tf.Tensor[], inputs: (tf.TensorInfo | undefined)[]): ValueRef[] {
    return this.controlFlowDefiner(this, node, outputs, inputs);
  }

  /** Appends a node to the current graph and binds its outputs to the tensors that hold them. */
  define(node: Node, outputs: readonly tf.TensorInfo[]): ValueRef[] {
    const b = this.current;
    const index = b.add(node);
    const refs = new Array<ValueRef>(outputs.length);
    for (let output = 0; output < outputs.length; output++) {
      const ref = { node: index, output };
      b.values.set(outputs[output], ref);
      refs[output] = ref;
    }
    return refs;
  }

  /** The node output holding `info` in the current graph (capturing it if it lives outside). */
  resolve(info: tf.TensorInfo): ValueRef {
    const b = this.current;
    // A variable used as itself is that variable: several variables may share a dataId (tf.variable(t)
    // twice from one tensor), so the data alone would name the wrong one.
    if (info instanceof tf.Variable) return this.readVariable(info);
    const variable = this.variableByData.get(info.dataId);
    if (variable !== undefined && variable.dtype === info.dtype && variable.shape.length === info.shape.length &&
        variable.shape.every((d, i) => d === info.shape[i])) {
      return this.readVariable(variable);
    }
    const local = b.values.get(info);
    if (local !== undefined) return local;
    const constant = this.constantIndex.get(info);
    if (constant !== undefined) return this.constantNode(constant, info);
    const outer = b.parent === undefined ? undefined : this.lookupOuter(b.parent, info, b);
    if (outer !== undefined) return outer;
    const only = this.facts.conditionOnly.get(info);
    if (only !== undefined) throw new StagingError(only.misuse);
    // (b.values, the root's when b is the root, has no value for info: looked up above.)
    const home = this.madeIn.get(info) ?? (b !== this.root && this.root.values.get(info) !== undefined ? this.root : undefined);
    if (home !== undefined && !b.isWithin(home)) throw escapedTensor(home, b);
    if ('listSpec' in info) throw new Error('autograph-ts internal: a list value that no graph holds');
    return this.constantRef(info);
  }

  /**
   * Every tensor made while tracing (trace_patches hooks the engine): one made while a branch or
   * loop body was traced belongs to that sub-graph. A tensor the tracer does not find in the
   * current graph or the graphs around it is a constant only if it was made outside every
   * sub-graph; one from a sub-graph that has ended (kept in an array, an object, a closure, a
   * variable that is not state) has no value outside it: using it is an error, never a constant.
   */
  onTensorMade(t: tf.Tensor, evenIfPaused = false): void {
    if (this.audit !== undefined && this.paused === 0) this.auditTensor(t);
    if ((this.paused === 0 || evenIfPaused) && this.current !== this.root) this.madeIn.set(t, this.current);
    this.lists.onTensorMade(t);
  }

  /** The value of `info` in `b`, captured into `inner` (b's sub-graph) through the graphs between; undefined if b has none. */
  private lookupOuter(b: GraphBuilder, info: tf.TensorInfo, inner: GraphBuilder): ValueRef | undefined {
    const found = b.values.get(info) ?? (b.parent === undefined ? undefined : this.lookupOuter(b.parent, info, b));
    if (found === undefined) return undefined;
    const ref = inner.addCapture(found, specOf(info), info);
    inner.values.set(info, ref);
    return ref;
  }

  // ---- constants ----------------------------------------------------------------------------

  /** A Constant node for a tensor created outside the recorded kernels (or outside the trace). */
  constantRef(info: tf.TensorInfo): ValueRef {
    let index = this.constantIndex.get(info);
    if (index === undefined) {
      const key = this.scalarKey(info);
      index = key === undefined ? undefined : this.scalarConstants.get(key);
      if (index === undefined) {
        // The program holds its own reference: the tensor may be disposed by the user or the trace.
        const backend = this.backend;
        backend.incRef(info.dataId);
        const t = engineInternals().makeTensorFromTensorInfo({ dataId: info.dataId, shape: [...info.shape], dtype: info.dtype }, backend);
        tf.keep(t);
        index = this.program.constants.push(t) - 1;
        if (key !== undefined) this.scalarConstants.set(key, index);
      }
      this.constantIndex.set(info, index);
    }
    return this.constantNode(index, info);
  }

  /**
   * A Constant node of program constant `index` for `info`. (One per use: shape relaxation compares
   * two traces node by node, and a constant computed from a dim must stay where it was used.)
   */
  private constantNode(index: number, info: tf.TensorInfo): ValueRef {
    const ref = { node: this.current.add({ kind: 'Constant', constant: index, outputs: [specOf(info)] }), output: 0 };
    this.current.values.set(info, ref);
    return ref;
  }

  /**
   * A scalar's dtype and value (-0 apart from 0), for scalarConstants; undefined for other tensors.
   * (A JS number becomes a new tensor on every use: `y.mul(0.999)` 5,000 times is 5,000 tensors of
   * one value, one constant of the program. CSE would merge them later; merged here, the trace
   * keeps one tensor for them, not 5,000.)
   */
  private scalarKey(info: tf.TensorInfo): string | undefined {
    if (info.shape.length !== 0 || (info.dtype !== 'float32' && info.dtype !== 'int32' && info.dtype !== 'bool')) return undefined;
    const v = info.dataId === this.lastScalar.dataId ? this.lastScalar.value : this.readScalar(info);
    return `${info.dtype}:${Object.is(v, -0) ? '-0' : String(v)}`;
  }

  /**
   * A tensor the engine made from `values` (trace_patches.ts): a scalar's value is kept until the
   * next one, for scalarKey. tfjs makes the scalar of a JS number (`y.mul(0.999)`) just before the
   * kernel that uses it: its value is then known without reading it back from the backend.
   */
  onScalarMade(t: tf.Tensor, values: unknown): void {
    if (t.shape.length !== 0) return;
    const typed = t.dtype === 'float32' ? values instanceof Float32Array : t.dtype === 'int32' ? values instanceof Int32Array
      : t.dtype === 'bool' && values instanceof Uint8Array;
    if (!typed || (values as ArrayLike<number>).length !== 1) return;
    this.lastScalar.dataId = t.dataId;
    this.lastScalar.value = (values as ArrayLike<number>)[0];
  }

  /** A new tensor that only the engine knows (for placeholders and converted JS values). */
  makeConstant(values: tf.TensorLike, shape: number[], dtype: tf.DataType): tf.Tensor {
    this.paused++;
    try {
      return tf.tensor(values, shape, dtype);
    } finally {
      this.paused--;
    }
  }

  /**
   * A copy of `t` with a data buffer of its own. Loop variables and control-flow outputs must not
   * share identity with any other tensor of the trace, or uses of one would resolve to the other.
   */
  freshCopy(t: tf.TensorInfo): tf.Tensor {
    const backend = this.backend;
    const values = backend.readSync(t.dataId) as unknown as { slice(): unknown };
    const dataId = backend.write(values.slice() as tf.backend_util.BackendValues, [...t.shape], t.dtype);
    return engineInternals().makeTensorFromDataId(dataId, [...t.shape], t.dtype, backend);
  }

  /** The value of a scalar, read from the backend (the engine's read is forbidden while tracing). */
  readScalar(t: tf.TensorInfo): number {
    return Number((this.backend.readSync(t.dataId) as ArrayLike<number>)[0]);
  }

  // ---- variables ----------------------------------------------------------------------------

  private variableRef(v: tf.Variable): number {
    let index = this.variableIndex.get(v);
    if (index === undefined) {
      index = this.program.variables.push(v) - 1;
      this.variableIndex.set(v, index);
    }
    return index;
  }

  private readVariable(v: tf.Variable): ValueRef {
    const b = this.current;
    const index = this.variableRef(v);
    const cached = b.variableReads.get(index);
    if (cached !== undefined && cached.dataId === v.dataId) return cached.ref;
    const [ref] = this.define({ kind: 'ReadVariable', variable: index, outputs: [specOf(v)] }, [v]);
    b.variableReads.set(index, { dataId: v.dataId, ref });
    return ref;
  }

  /** A variable created while tracing: it is state from now on, not a value of the graph. */
  onVariableCreated(v: tf.Variable): void {
    this.variableByData.set(v.dataId, v);
  }

  /** Records `v.assign(value)`; `assign` performs the real assignment (the trace runs for real). */
  onAssign(v: tf.Variable, value: tf.Tensor, assign: () => void): void {
    const ref = this.resolve(value);
    if (!this.assigned.has(v)) {
      this.backend.incRef(v.dataId);
      this.assigned.set(v, v.dataId);
    }
    const oldDataId = v.dataId;
    assign();
    if (this.variableByData.get(oldDataId) === v) this.variableByData.delete(oldDataId);
    this.variableByData.set(v.dataId, v);
    const index = this.variableRef(v);
    this.current.add({ kind: 'AssignVariable', variable: index, inputs: [ref], outputs: [] });
    this.current.variableReads.set(index, { dataId: v.dataId, ref });
  }

  /** After a sub-graph that may assign variables ran, reads must go to the variables again. */
  forgetVariableReads(): void {
    this.current.variableReads.clear();
  }

  /**
   * Keeps every variable's value from the trace: the trace's values are the call's results
   * (cache/trace_results.ts), so its assignments are the call's, as eager made them. Releases the
   * values from before the trace (held for restoreVariables).
   */
  keepAssignedVariables(): void {
    const engine = engineInternals();
    for (const [v, dataId] of this.assigned) engine.makeTensorFromDataId(dataId, [...v.shape], v.dtype, this.backend).dispose();
    this.assigned.clear();
  }

  /** Puts every variable assigned while tracing back to its value from before the trace. */
  restoreVariables(): void {
    const engine = engineInternals();
    for (const [v, dataId] of this.assigned) {
      engine.disposeTensor(v);
      (v as unknown as { dataId: object }).dataId = dataId;
      engine.incRef(v, this.backend);
      this.backend.disposeData(dataId);
    }
    this.assigned.clear();
  }

  // ---- host nodes ---------------------------------------------------------------------------

  recordRandom(op: RandomOp, args: unknown[], out: tf.Tensor): void {
    const inputs: ValueRef[] = [];
    const recorded: RandomArg[] = args.map((a) => {
      if (a instanceof tf.Tensor) return { input: inputs.push(this.resolve(a)) - 1 };
      return { value: plainValue(a, op) };
    });
    // Trailing undefined arguments (an absent seed) stay absent.
    while (recorded.length > 0 && 'value' in recorded[recorded.length - 1] &&
           (recorded[recorded.length - 1] as { value: AttrValue }).value === undefined) recorded.pop();
    this.define({ kind: 'Random', op, inputs, args: recorded, outputs: [specOf(out)] }, [out]);
    this.onTensorMade(out, true); // drawn while paused, but the user's value all the same
  }

  recordPrint(args: unknown[], verbose: boolean): void {
    const inputs: ValueRef[] = [];
    const parts = args.map((a) => {
      if (a instanceof tf.Tensor) return { input: inputs.push(this.resolve(a)) - 1, verbose };
      return { text: typeof a === 'string' ? a : inspect(a) };
    });
    this.current.add({ kind: 'Print', inputs, parts, outputs: [] });
  }

  /** A Check node: at run time, throws a new `error` (same class and message) when pred is false. */
  recordCheck(pred: ValueRef, error: Error, origin: string | undefined): void {
    const index = this.program.errors.push(error) - 1;
    this.current.add({ kind: 'Check', inputs: [pred], error: index, origin, outputs: [] });
  }

  // ---- sub-graphs ---------------------------------------------------------------------------

  /**
   * Runs fn with a new sub-graph of the current one as the current graph. A gradient tape recording
   * the enclosing function is suspended: the sub-graph's kernels are not steps of that function
   * (its If/While node is, with the gradient of gradients/tape.ts).
   */
  inSubgraph<T>(builder: GraphBuilder, fn: () => T): T {
    refuseDeepNesting(builder);
    const previous = this.current;
    this.current = builder;
    try {
      return withoutTape(fn);
    } finally {
      this.current = previous;
    }
  }
}

/**
 * Staged conditionals and loops nested deeper than this are refused. Real code nests a few
 * levels; what nests without end is a function calling itself under a tensor condition (staged
 * recursion), which a trace would unroll into ~1,000 nested Ifs over tens of seconds until the JS
 * stack breaks, and whose graph would fail past that depth when it runs.
 */
const MAX_NESTING = 100;

function refuseDeepNesting(builder: GraphBuilder): void {
  let depth = 0;
  for (let b: GraphBuilder | undefined = builder; b !== undefined; b = b.parent) depth++;
  if (depth <= MAX_NESTING) return;
  throw new StagingError(`autograph-ts: staged conditionals and loops nest more than ${MAX_NESTING} deep, at ` +
    `${builder.label}. A function that calls itself under a tensor condition is staged as recursion when a call repeats ` +
    'an earlier call\'s arguments (the same tensor shapes and dtypes, the same JS values); this one\'s differ on every ' +
    'call (a JS number that counts the depth, a shape that grows), so the trace would unroll it without end. Keep the ' +
    'arguments\' shapes and JS values the same from call to call, or stage it as a loop with the recursion\'s state as ' +
    'loop variables.');
}

function escapedTensor(home: GraphBuilder, user: GraphBuilder): StagingError {
  const where = userFrame();
  let top = user;
  while (top.parent !== undefined) top = top.parent;
  if (top.label.startsWith('the recursive function')) {
    return new StagingError(`autograph-ts: a tensor computed in ${home.label} is used in ${top.label}` +
      `${where ? ` (${where})` : ''}, which a staged recursion runs as a graph of its own: it sees only its arguments. ` +
      'Pass the tensor as an argument.');
  }
  return new StagingError(`autograph-ts: a tensor computed in ${home.label} is used outside it, in ${user.label}` +
    `${where ? ` (${where})` : ''}. A staged branch or loop body passes values out only through the variables it ` +
    'assigns: a tensor it stores elsewhere (an array element, an object property, a push, a closure) keeps no ' +
    'value after it. Assign the tensor to a variable declared before the if/loop (e.g. ' +
    '`let y = ...; if (c) y = ...;`), or build the array after the loop.');
}

/** util.inspect in Node; elsewhere (a browser) String(value). */
const inspect = (value: unknown): string => nodeBuiltin('util')?.inspect(value) ?? String(value);

function plainValue(value: unknown, where: string): AttrValue {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'string' ||
      typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((v) => plainValue(v, where));
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, plainValue(v, where)]));
  }
  throw new StagingError(`autograph-ts: cannot record a ${typeof value} argument of '${where}' in a staged graph`);
}

function copyAttrs(kernelName: string, attrs: Record<string, unknown> | undefined): Attrs {
  const out: Attrs = {};
  if (attrs == null) return out;
  for (const k in attrs) {
    const v = attrs[k];
    if (v instanceof tf.Tensor) {
      throw new StagingError(`autograph-ts: kernel '${kernelName}' has a tensor attribute '${k}'; it cannot be staged`);
    }
    out[k] = plainValue(v, kernelName);
  }
  return out;
}

/**
 * Kernels whose int32 inputs are where tfjs parses a JS number as int32 (indices, segment ids), or
 * that convert explicitly: a promoted int32 counter there computes what the JS number did.
 */
const INT32_SLOTS = new Set(['GatherV2', 'GatherNd', 'OneHot', 'ScatterNd', 'SparseToDense', 'UnsortedSegmentSum',
  'Bincount', 'DenseBincount', 'Cast']);
/** Kernels whose int32 results differ in value from the float32 ones eager code computes. */
const INT32_DIFFERS = new Set(['FloorDiv', 'RealDiv', 'Pow']);

/**
 * A JS counter promoted to an int32 tensor (runtime/promoted_values.ts) that a user's tfjs call
 * computes with: eagerly the counter was a JS number, which tfjs makes float32, so an int32 result
 * computed from it is float32 eagerly. Such results are followed (same values, so far) up to a
 * kernel whose int32 result would differ in value — an integer division, a power — where it is an
 * error naming the counter, never that result. tf.cast ends it (the conversion is explicit).
 */
/**
 * A tfjs op of the user's given a promoted value computed from an int32 product that may wrap (`x.sub(rng.next())` where
 * the RNG's `state * 16807 % m` wraps in int32): the op would compute from another number than eager's, which no later
 * check sees. Refused, naming the value.
 */
function refuseWrapped(kernelName: string, input: tf.TensorInfo): void {
  const promotion = wrappedUserInput(input);
  if (promotion === undefined) return;
  const where = userFrame();
  throw new StagingError(`autograph-ts: ${displayName(promotion.name)} is a JS number that a staged statement` +
    `${promotion.origin ? ` (${promotion.origin})` : ''} computes from an int32 product that may wrap where eager JS computes ` +
    `in float64, and the tfjs kernel ${kernelName}${where ? ` (${where})` : ''} ` +
    'takes it: it would compute from another number than eager code. Make the value a tensor yourself (e.g. tf.scalar(...)) ' +
    'to compute in float32 on both, or compute it outside the staged function.');
}

function followPromotedInt32(kernelName: string, inputs: tf.TensorInfo[], outputs: tf.TensorInfo[]): void {
  if (INT32_SLOTS.has(kernelName) || !outputs.some((o) => o.dtype === 'int32')) return;
  const int32Outputs = outputs.filter((o) => o.dtype === 'int32');
  const promotion = promotedInt32Input(inputs.filter((t) => t.dtype === 'int32').map((t) => t.dataId));
  if (promotion === undefined) return;
  if (INT32_DIFFERS.has(kernelName)) {
    const where = userFrame();
    throw new StagingError(`autograph-ts: '${promotion.name}' is a JS number that a staged loop${promotion.origin ? ` (${promotion.origin})` : ''} ` +
      `carries as an int32 tensor, and the tfjs kernel ${kernelName}${where ? ` (${where})` : ''} would compute an int32 ` +
      `result from it: eagerly tfjs makes a JS number float32, so the result would differ. Convert it where you pass it ` +
      `to tfjs: tf.cast(${promotion.name}, 'float32') (or 'int32' to keep integer math).`);
  }
  for (const o of int32Outputs) taintInt32Data(o.dataId, promotion);
}
