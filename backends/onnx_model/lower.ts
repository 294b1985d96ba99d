/**
 * Lowers a staged Program to an ONNX model (opset 18).
 *
 * Every value of the graph IR becomes an ONNX value of its recorded dtype (float32 -> FLOAT,
 * int32 -> INT32, bool -> BOOL): each kernel lowering may compute in other types, and its results
 * are cast back, so the next lowering sees exactly what tfjs recorded.
 * - Constant nodes are initializers of the root graph (sub-graphs read them from the outer scope).
 * - Variables are model inputs (their value at the call); the value they end with, when assigned,
 *   a model output, assigned back after the run by the engine. A variable assigned inside an If
 *   is an extra output of the If (each branch returns its value at the branch's end), inside a
 *   While an extra loop-carried value: the graph threads variable state as values.
 * - If -> If: the branches read the captured values from the outer scope. An If that selects (its
 *   branches return captured values or constants — break/return flags — or compute a little with
 *   kernels that cannot fail, like a loop test `!broke && i < n`) -> both computed, Or/And/Where.
 * - While -> Loop: ONNX tests `cond` before the first iteration (an input) and after each body
 *   run (a body output), so the test sub-graph is lowered twice: on the initial values, in the
 *   outer graph, and on the body's results, at the end of the body. A counted loop (`i < n` with
 *   i += 1) gives that part of the test to Loop's trip count.
 * - List nodes -> ONNX sequences (kernels/lists.ts); a list a loop only pushes to once per
 *   iteration and stacks after it -> a scan output of the Loop (scan_lists.ts).
 * - An If whose branches compute little, with kernels that cannot fail, selects instead (its
 *   float results stacked and gathered, or a plain Where where a loop test proved them
 *   non-negative: sign_facts.ts).
 * - Nodes whose results nothing uses (and that have no side effects) are not lowered.
 * - Random, Print and Check nodes do not lower (they are host-side: tfjs's random streams, console
 *   output, errors; the engine splits top-level ones out first, segments.ts), nor do kernels
 *   without a lowering: every such node is reported with the reason, and the whole graph then
 *   runs on the tfjs executor.
 */
import * as tf from '@tensorflow/tfjs-core';
import { type DataType, type Graph, hasUnknownDims, type IfNode, type KernelNode, type Node, type Program, specText, type TensorSpec, type ValueRef, type WhileNode } from '../graph/graph';
import { hasSideEffects, nodeInputs } from '../graph/graph';
import { kernelLowerings } from './kernels';
import { listLowerings } from './kernels/lists';
import { selectWhole, where as selectValues } from './kernels/elementwise';
import { edgeSemantics, float32Semantics, GraphScope, ModelContext, onnxType, Unsupported, Value } from './model_builder';
import type { GraphProto } from './onnx_proto';
import { isNonNegative, isNonNegativeInt, kernelResultNonNegative, positiveLoopVars } from './sign_facts';
import { popReads, type ScanList, scanLists } from './scan_lists';
import { encodeModel, OnnxType } from './onnx_proto';

export interface LoweringProblem {
  /** The kernel name or node kind. */
  op: string;
  reason: string;
  /** Where in the graph: e.g. "While (rnn.ts:3:3) body, node %5". */
  where: string;
}

/** Lowering problems as one line: `op (where): reason; ...`. */
export function describeProblems(problems: LoweringProblem[]): string {
  return problems.map((p) => `${p.op} (${p.where}): ${p.reason}`).join('; ');
}

export interface ModelIO {
  name: string;
  dtype: DataType;
  shape: number[];
}

export interface LoweredModel {
  bytes: Uint8Array;
  /** One per root parameter of the program. */
  inputs: ModelIO[];
  /** Variables read: fed with their current value. */
  variableInputs: (ModelIO & { variable: number })[];
  /** One per result of the program. */
  outputs: ModelIO[];
  /** Variables assigned: their new values, assigned back after the run. */
  variableOutputs: (ModelIO & { variable: number })[];
  /**
   * The tfjs kernel each named ONNX node lowers (ORT names the node that failed a run): its op and
   * its index in Program.sites, so a run error can point at the user's line.
   */
  nodeKernels: Map<string, { op: string; site?: number }>;
}

export type LoweringResult = { ok: true; model: LoweredModel } | { ok: false; problems: LoweringProblem[] };

export interface LoweringNames {
  graph?: string;
  inputs?: string[];
  outputs?: string[];
  /** Names of variables (by index in Program.variables) that the model reads as inputs; others
   * keep the tf.Variable's name. */
  variables?: Map<number, string>;
  doc?: string;
  /** The tfjs backend whose edge-value behaviour to reproduce (default: the active one). */
  backend?: string;
  /**
   * 'float64' (the default): computes what the backend computes in float64 in float64 too (exact,
   * tfjs-cpu); 'float32': no float64 arithmetic (model_builder.ts float32Semantics), for runtimes
   * without double kernels (onnxruntime-web).
   */
  precision?: 'float32' | 'float64';
}

export function lowerProgram(program: Program, names: LoweringNames = {}): LoweringResult {
  return new Lowering(program, names).run();
}

/** Why host nodes do not lower (the engine splits top-level ones out first: segments.ts). */
const SPLIT = 'the ONNX engine runs it on the JS side between ONNX segments at the top level of the function or in ' +
  'a top-level if, not inside a loop; an exported model cannot hold it';
const HOST_NODES: Partial<Record<Node['kind'], string>> = {
  Random: `random draws stay on the tfjs side (ONNX random ops would not draw tfjs's sequence): ${SPLIT}`,
  Print: `console output of tensors is a host callback, which ONNX cannot call: ${SPLIT}`,
  Check: `a throw under a tensor condition is a host check, which ONNX cannot raise: ${SPLIT}`,
  Call: 'a staged recursive call: ONNX graphs have no recursion (the tfjs executor runs it with a frame per call)',
};

class Lowering {
  private readonly model: ModelContext;
  private readonly root: GraphScope;
  private readonly problems: LoweringProblem[] = [];
  private readonly constants = new Map<number, Value>();
  /** The model input of each variable read (its value at the call). */
  private readonly variableInputValues = new Map<number, Value>();
  /** Value of each variable assigned so far, in the scope being lowered. */
  private variables = new Map<number, Value>();
  private readonly variableInputs: (ModelIO & { variable: number })[] = [];
  private readonly assigned = new Set<number>();
  private readonly nodeKernels = new Map<string, { op: string; site?: number }>();
  /** Pushes lowered as scan outputs of their loop (scan_lists.ts). */
  private readonly scanPushes = new Set<Node>();
  /** Pops that read a row of a scan output instead (scan_lists.ts popReads): the rows, their last index, the loop's iteration. */
  private readonly rowPops = new Map<Node, { rows: Value; last: Value; iteration: Value }>();

  constructor(private readonly program: Program, private readonly names: LoweringNames) {
    const backend = names.backend ?? tf.getBackend();
    this.model = new ModelContext(names.precision === 'float32' ? float32Semantics(backend) : edgeSemantics(backend));
    this.root = new GraphScope(this.model, names.graph || 'staged');
  }

  run(): LoweringResult {
    const { graph } = this.program;
    const inputs: ModelIO[] = [];
    const params: Value[] = [];
    const paramSpecs = new Map<number, Node['outputs'][number]>();
    for (const node of graph.nodes) if (node.kind === 'Input') paramSpecs.set(node.param, node.outputs[0]);
    // Names first, so that generated names never take them.
    const inputNames = Array.from({ length: graph.numParams }, (_, i) => this.model.claim(this.names.inputs?.[i] ?? `input_${i}`));
    const outputNames = graph.results.map((_, i) => this.model.claim(this.names.outputs?.[i] ?? `output_${i}`));
    for (let i = 0; i < graph.numParams; i++) {
      const spec: TensorSpec = paramSpecs.get(i) ?? { shape: [], dtype: 'float32' as DataType };
      try {
        if (spec.list) throw new Unsupported('a list argument (lists lower inside the graph, not as model inputs)');
        params.push(this.root.input(inputNames[i], onnxType(spec.dtype), spec.shape));
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
        this.problems.push({ op: 'Input', reason: error.message, where: `argument ${inputNames[i]}` });
        params.push({ name: inputNames[i], type: OnnxType.FLOAT, shape: spec.shape });
      }
      inputs.push({ name: inputNames[i], dtype: spec.dtype, shape: spec.shape });
    }
    const results = this.lowerGraph(graph, this.root, params, '');
    graph.results.forEach((r, i) => {
      if (graph.nodes[r.node].outputs[r.output].list) this.problems.push({ op: 'List', reason: 'a list result (lists lower inside the graph, not as model outputs)', where: `result ${i}` });
    });
    // (A loop test is lowered twice: its problems once.)
    if (this.problems.length > 0) {
      return { ok: false, problems: [...new Map(this.problems.map((p) => [`${p.op}|${p.reason}|${p.where}`, p])).values()] };
    }

    const variableOutputs = [...this.assigned].map((variable) => {
      const v = this.program.variables[variable];
      return { variable, name: this.model.fresh(`${v.name}_assigned`), dtype: v.dtype, shape: [...v.shape] };
    });
    const outputs = graph.results.map((r, i) => {
      const spec = nodeOutput(graph, r);
      return { name: outputNames[i], dtype: spec.dtype, shape: spec.shape };
    });
    const outputInfos = this.root.outputs([...results, ...variableOutputs.map((o) => this.variables.get(o.variable)!)],
      [...outputNames, ...variableOutputs.map((o) => o.name)]);
    const proto: GraphProto = this.root.graph(outputInfos, this.model.initializers);
    if (this.names.doc) proto.docString = this.names.doc;
    const bytes = encodeModel({ graph: proto, producerName: 'autograph-ts', producerVersion: '0.1.0' });
    return { ok: true, model: { bytes, inputs, variableInputs: this.variableInputs, outputs, variableOutputs, nodeKernels: this.nodeKernels } };
  }

  private lowerGraph(graph: Graph, g: GraphScope, params: Value[], where: string): Value[] {
    const values: Value[][] = [];
    const live = liveNodes(graph);
    graph.nodes.forEach((node, index) => {
      if (!live[index]) return;
      try {
        const taken = node.kind === 'If' ? this.constantBranch(graph, node) : undefined;
        values[index] = taken !== undefined && node.kind === 'If'
          ? this.lowerGraph(taken, g, node.inputs.slice(1).map((r) => values[r.node][r.output]), `${where}node %${index} If, `)
          : this.lowerNode(node, g, params, values, `${where}node %${index}`, node.kind === 'While' ? { graph, index } : undefined);
      } catch (error) {
        // Any failure is a problem of this node, not of the user's call: an error thrown by a
        // lowering (a bug: an attr form it did not expect) is reported like an Unsupported one,
        // and the program runs on the tfjs executor, where 'auto' is concerned.
        const op = node.kind === 'Kernel' ? node.op : node.kind;
        const reason = error instanceof Unsupported ? error.message
          : `its lowering failed (an autograph-ts bug, please report): ${error instanceof Error ? error.message : String(error)}`;
        this.problems.push({ op, reason, where: `${where}node %${index}` });
        values[index] = node.outputs.map((o) => ({ name: this.model.fresh('unlowered'), type: OnnxType.FLOAT, shape: o.shape }));
      }
    });
    return graph.results.map((r) => values[r.node][r.output]);
  }

  /**
   * The branch an If takes whatever the inputs, when its condition is a constant (a flag the trace
   * knew, folded by the optimizer): lowered in place. ORT's own folding of an If on an initializer
   * crashed the process (a segfault, onnxruntime-node 1.30) on nested Ifs that read outer values
   * (tensor fuzzer seed 4243 #414), and inlining is what it would compute anyway.
   */
  private constantBranch(graph: Graph, node: IfNode): Graph | undefined {
    const pred = graph.nodes[node.inputs[0].node];
    if (pred.kind !== 'Constant') return undefined;
    const t = this.program.constants[pred.constant];
    if (t.size !== 1) return undefined;
    return t.dataSync()[0] ? node.then : node.else;
  }

  private lowerNode(node: Node, g: GraphScope, params: Value[], values: Value[][], where: string, at?: { graph: Graph; index: number }): Value[] {
    const ins = (): Value[] => ('inputs' in node ? node.inputs.map((r) => values[r.node][r.output]) : []);
    // Some lowerings take shapes from the recorded specs (reshape targets, filled constants): a
    // value whose dims change from run to run (backends/staging/shape_relaxation.ts) has no shape to write
    // there. Inputs, If and While, and the kernels of SYMBOLIC_DIM_KERNELS use recorded shapes only
    // to declare ONNX value shapes, where an unknown dim is written as unknown (ORT takes it from
    // the run); any other node touching an unknown dim does not lower.
    // List ops take no shapes from specs (a stacked list's length is unknown; ONNX sequences carry
    // it), nor do lists carried by If and While (an element type with unknown dims is written so).
    if (node.kind !== 'List' && !(node.kind === 'Kernel' ? SYMBOLIC_DIM_KERNELS.has(node.op) : SYMBOLIC_DIM_NODES.has(node.kind))) {
      const unknown = node.outputs.find((o) => !o.list && hasUnknownDims(o)) ??
        ins().find((v) => !v.sequence && v.shape.some((d) => d < 0));
      if (unknown !== undefined) throw new Unsupported(`does not lower: unknown dims (${'dtype' in unknown ? specText(unknown) : `[${unknown.shape.map((d) => (d < 0 ? '?' : d)).join(',')}]`})`);
    }
    switch (node.kind) {
      case 'Input':
        return [params[node.param]];
      case 'Constant':
        return [this.constant(node.constant, g)];
      case 'ReadVariable':
        return [this.readVariable(node.variable)];
      case 'AssignVariable':
        this.variables.set(node.variable, g.cast(ins()[0], onnxType(this.program.variables[node.variable].dtype)));
        this.assigned.add(node.variable);
        return [];
      case 'Kernel':
        return this.kernel(node, g, ins());
      case 'If':
        return this.ifNode(node, g, ins(), where);
      case 'While':
        return this.whileNode(node, g, ins(), where, at === undefined ? new Map() : scanLists(at.graph, at.index),
          at === undefined ? () => undefined : (k) => popReads(at.graph, at.index, k));
      case 'List': {
        // A push that is a scan output of its loop (scan_lists.ts): the body outputs the element.
        if (this.scanPushes.has(node)) return [g.cast(ins()[1], onnxType(node.outputs[0].dtype))];
        const pop = this.rowPops.get(node);
        if (pop !== undefined) return [ins()[0], this.rowRead(g, pop, node.outputs[1])];
        const lowering = listLowerings[node.op];
        if (lowering === undefined) throw new Unsupported(`no ONNX lowering for list op '${node.op}' yet`);
        return lowering(g, ins(), node.outputs.map(valueSpec), node.attrs);
      }
      default:
        throw new Unsupported(HOST_NODES[node.kind] ?? `node kind ${node.kind}`);
    }
  }

  private constant(index: number, g: GraphScope): Value {
    let v = this.constants.get(index);
    if (v === undefined) {
      const t = this.program.constants[index];
      v = g.data(t.dataSync() as ArrayLike<number>, onnxType(t.dtype), [...t.shape], `c${index}`);
      this.constants.set(index, v);
    }
    return v;
  }

  private readVariable(index: number): Value {
    let v = this.variables.get(index) ?? this.variableInputValues.get(index);
    if (v === undefined) {
      const variable = this.program.variables[index];
      const name = this.model.fresh(this.names.variables?.get(index) ?? variable.name);
      v = this.root.input(name, onnxType(variable.dtype), [...variable.shape]);
      this.variableInputs.push({ variable: index, name, dtype: variable.dtype, shape: [...variable.shape] });
      this.variableInputValues.set(index, v);
    }
    return v;
  }

  /** Lowers `body` with its own variable scope starting from the current one; returns that scope. */
  private withVariableScope(start: Map<number, Value>, body: () => void): Map<number, Value> {
    const outer = this.variables;
    this.variables = new Map(start);
    try {
      body();
      return this.variables;
    } finally {
      this.variables = outer;
    }
  }

  private kernel(node: KernelNode, g: GraphScope, inputs: Value[]): Value[] {
    const outs = node.outputs.map((o) => ({ type: onnxType(o.dtype), shape: o.shape }));
    if (node.inputs.length === 0) return [this.evaluateNow(node, g)];
    const lowering = kernelLowerings[node.op];
    if (lowering === undefined) throw new Unsupported(`no ONNX lowering for tfjs kernel '${node.op}' yet`);
    const first = g.nodes.length;
    const result = lowering(g, inputs, node.attrs, outs, node);
    const list = Array.isArray(result) ? result : [result];
    const values: Value[] = outs.map((o, i) => ({ ...g.cast(list[i], o.type), shape: o.shape }));
    if (values.length === 1 && kernelResultNonNegative(this.model, node.op, inputs, values[0])) values[0] = { ...values[0], nonNegative: true };
    for (const onnxNode of g.nodes.slice(first)) {
      onnxNode.name = this.model.fresh(node.op);
      this.nodeKernels.set(onnxNode.name, { op: node.op, site: node.site });
    }
    return values;
  }

  /** A one-element Constant node's dtype and value. */
  private scalarConstant(node: Node): { dtype: DataType; value: number } | undefined {
    if (node.kind !== 'Constant') return undefined;
    const t = this.program.constants[node.constant];
    return t.size === 1 ? { dtype: t.dtype, value: t.dataSync()[0] } : undefined;
  }

  /** A kernel without inputs (Range, Fill, ...): its value is fixed, computed by tfjs itself. */
  private evaluateNow(node: KernelNode, g: GraphScope): Value {
    const t = tf.engine().runKernel(node.op, {}, node.attrs as tf.NamedAttrMap) as tf.Tensor;
    try {
      return g.data(t.dataSync() as ArrayLike<number>, onnxType(t.dtype), [...t.shape], node.op.toLowerCase());
    } finally {
      t.dispose();
    }
  }

  private ifNode(node: IfNode, g: GraphScope, inputs: Value[], where: string): Value[] {
    const [cond, ...captures] = inputs;
    if (selectable(node)) return this.selectNode(node, g, scalarCondition(g, cond), captures, where);
    const label = `${where} If${node.origin ? ` (${node.origin})` : ''}`;
    // Variables either branch assigns: extra outputs, each branch returning its value of them.
    const assigned = [...new Set([...assignedVariables(node.then), ...assignedVariables(node.else)])];
    const before = new Map(assigned.map((v) => [v, this.readVariable(v)]));
    const branch = (graph: Graph, name: string): GraphProto => {
      const scope = new GraphScope(this.model, this.model.fresh(name));
      let results: Value[] = [];
      const after = this.withVariableScope(new Map([...this.variables, ...before]), () => {
        results = this.lowerGraph(graph, scope, captures, `${label} ${name}, `);
      });
      return scope.graph(scope.outputs([...results, ...assigned.map((v) => after.get(v)!)]));
    };
    const then = branch(node.then, 'then');
    const otherwise = branch(node.else, 'else');
    const outs = node.outputs.map(valueSpec);
    const c = g.cast(cond, OnnxType.BOOL);
    const all = g.opN('If', [c], { then_branch: { graph: then }, else_branch: { graph: otherwise } },
      [...outs, ...assigned.map((v) => before.get(v)!)], 'if');
    this.setAssigned(assigned, all.slice(outs.length));
    return all.slice(0, outs.length);
  }

  /**
   * An If whose branches compute little and cannot fail (selectable()) as element-wise selections
   * instead of an ONNX If, which ORT runs as a sub-graph call: both branches are computed and the
   * condition picks. In a loop that is one Or in place of an If and its two branch graphs for the
   * flags that break, continue and return set, and `!broke && i < n` as Not, Less, And for a loop
   * test with a break (measured on the greedy decoder: the If was its costliest node after the
   * matrix products).
   */
  private selectNode(node: IfNode, g: GraphScope, cond: Value, captures: Value[], where: string): Value[] {
    const B = OnnxType.BOOL;
    const lowered = new Map<Graph, Value[]>();
    const branchValue = (graph: Graph, i: number, name: string): { value: Value; constant?: boolean } => {
      const ref = graph.results[i];
      const n = graph.nodes[ref.node];
      if (n.kind === 'Input') return { value: captures[n.param] };
      if (n.kind === 'Constant') {
        const t = this.program.constants[n.constant];
        return { value: this.constant(n.constant, g), constant: t.dtype === 'bool' && t.size === 1 ? Boolean(t.dataSync()[0]) : undefined };
      }
      let values = lowered.get(graph);
      if (values === undefined) lowered.set(graph, (values = this.lowerGraph(graph, g, captures, `${where} If ${name}, `)));
      return { value: values[i] };
    };
    return node.outputs.map((o, i) => {
      const t = branchValue(node.then, i, 'then');
      const e = branchValue(node.else, i, 'else');
      if (t.value.name === e.value.name) return t.value;
      const shape = o.shape;
      if (t.value.type === B && t.constant !== undefined) {   // c ? true : e = c || e;  c ? false : e = !c && e
        return t.constant ? g.op('Or', [cond, e.value], {}, B, shape) : g.op('And', [g.op('Not', [cond], {}, B, cond.shape), e.value], {}, B, shape);
      }
      if (e.value.type === B && e.constant !== undefined) {   // c ? t : true = !c || t;  c ? t : false = c && t
        return e.constant ? g.op('Or', [g.op('Not', [cond], {}, B, cond.shape), t.value], {}, B, shape) : g.op('And', [cond, t.value], {}, B, shape);
      }
      // Floats: stacked and gathered (exact for a -0, where a Where is not without a dozen more nodes).
      const sameShape = (v: Value): boolean => v.shape.length === shape.length && v.shape.every((d, k) => d === shape[k]);
      if (t.value.type !== OnnxType.FLOAT || e.value.type !== OnnxType.FLOAT) return selectValues(g, cond, t.value, e.value, shape);
      // Neither can be -0 (sign_facts.ts): a Where is exact.
      if (isNonNegative(this.model, t.value) && isNonNegative(this.model, e.value)) {
        return { ...g.op('Where', [cond, t.value, e.value], {}, OnnxType.FLOAT, shape), nonNegative: true };
      }
      return sameShape(t.value) && sameShape(e.value) ? selectWhole(g, cond, t.value, e.value, shape) : selectValues(g, cond, t.value, e.value, shape);
    });
  }

  /**
   * Row (count - 1 - iteration) of a scan output: the element the pop of a list pushed once per
   * iteration would give. Past the first row the index is made out of range (ORT fails the run, the
   * executor raises tfjs's error for a pop from an empty list), not negative (Gather would wrap).
   */
  private rowRead(g: GraphScope, { rows, last, iteration }: { rows: Value; last: Value; iteration: Value }, out: TensorSpec): Value {
    const I64 = OnnxType.INT64;
    const index = g.op('Sub', [last, iteration], {}, I64, []);
    const checked = g.op('Where', [g.op('Less', [index, g.scalar(0, I64)], {}, OnnxType.BOOL, []), g.scalar(2 ** 31 - 1, I64), index], {}, I64, []);
    return g.cast(g.op('Gather', [rows, checked], { axis: 0 }, rows.type, out.shape), onnxType(out.dtype));
  }

  private whileNode(node: WhileNode, g: GraphScope, inputs: Value[], where: string, scans: Map<number, ScanList>,
                    popsOf: (k: number) => number | undefined): Value[] {
    const n = node.loopVars;
    const initial = inputs.slice(0, n);
    const invariants = inputs.slice(n);
    const label = `${where} While${node.origin ? ` (${node.origin})` : ''}`;
    if (assignedVariables(node.cond).size > 0) throw new Unsupported('a loop test that assigns a variable');
    // A counted loop (`i < n && rest` with i += 1): ONNX's trip count does the counting.
    const counted = countedLoop(node, this.program.constants);
    const test = counted === undefined ? node.cond : { ...node.cond, results: counted.rest === undefined ? [] : [counted.rest] };
    const lowerTest = (scope: GraphScope, params: Value[]): Value =>
      (test.results.length === 0 ? scope.scalar(true, OnnxType.BOOL) : this.lowerGraph(test, scope, params, `${label} test, `)[0]);
    const first = lowerTest(g, inputs);
    const tripCount = counted === undefined ? '' : this.tripCount(g, inputs[counted.counter],
      counted.limit !== undefined ? inputs[counted.limit] : this.constant(counted.limitConstant!, g));
    // Loop variables carried as state; lists only pushed to are scan outputs instead (scan_lists.ts).
    // Lists this loop only pops that a loop before it stacked as rows: read by row, not carried.
    const popped = new Map<number, number>();
    initial.forEach((v, k) => {
      const pop = v.scanRows !== undefined && v.scanRows.prefix === undefined ? popsOf(k) : undefined;
      if (pop !== undefined) popped.set(k, pop);
    });
    const kept = initial.map((_, k) => k).filter((k) => !scans.has(k) && !popped.has(k));
    const scanned = [...scans.keys()];
    // Variables the body assigns are loop-carried values after the loop variables.
    const assigned = [...assignedVariables(node.body)];
    const before = assigned.map((v) => this.readVariable(v));
    const body = new GraphScope(this.model, this.model.fresh('loop_body'));
    const iteration = body.input(this.model.fresh('iteration'), OnnxType.INT64, []);
    const condIn = body.input(this.model.fresh('cond_in'), OnnxType.BOOL, []);
    popped.forEach((pop, k) => {
      const rows = initial[k].scanRows!.rows;
      const count = g.op('Shape', [rows], { start: 0, end: 1 }, OnnxType.INT64, [1]);
      const last = g.op('Sub', [g.op('Reshape', [count, g.int64s([], [0])], {}, OnnxType.INT64, []), g.scalar(1, OnnxType.INT64)], {}, OnnxType.INT64, []);
      this.rowPops.set(node.body.nodes[pop], { rows, last, iteration });
    });
    // The body runs on values the test held for: `n > 1` makes n positive there (sign_facts.ts).
    const positive = positiveLoopVars(node.cond, (c) => this.scalarConstant(c));
    // A counted loop's counter runs from its start up by 1: never negative in the body if the start is not.
    const counterFrom = counted !== undefined && isNonNegativeInt(this.model, initial[counted.counter]) ? counted.counter : undefined;
    const carriedIn = [...kept.map((k) => initial[k]), ...before];
    const carried = carriedIn.map((v, i) => {
      const input = body.input(this.model.fresh(`${v.name}_in`), v.type, v.shape, v.sequence);
      const known = i < kept.length && ((positive.has(kept[i]) && input.type === OnnxType.FLOAT) || kept[i] === counterFrom);
      return known ? { ...input, nonNegative: true } : input;
    });
    // (A scanned list's only reader in the body is its push, which outputs the element instead.)
    const loopVars = initial.map((v, k) => (scans.has(k) || popped.has(k) ? v : carried[kept.indexOf(k)]));
    scans.forEach((scan) => this.scanPushes.add(node.body.nodes[scan.push]));
    let next: Value[] = [];
    let again: Value | undefined;
    const start = new Map([...this.variables, ...assigned.map((v, i): [number, Value] => [v, carried[kept.length + i]])]);
    const after = this.withVariableScope(start, () => {
      next = this.lowerGraph(node.body, body, [...loopVars, ...invariants], `${label} body, `);
      // (All the test was the count: the body passes on the condition it got, true, as a hand-built Loop does.)
      again = test.results.length === 0 ? condIn : lowerTest(body, [...next, ...invariants]);
    });
    if (this.problems.length > 0) return node.outputs.map((o) => ({ name: this.model.fresh('unlowered'), type: OnnxType.FLOAT, shape: o.shape }));
    const graph = body.graph(body.outputs([scalarCondition(body, again!), ...kept.map((k) => next[k]), ...assigned.map((v) => after.get(v)!),
      ...scanned.map((k) => next[k])]));
    const outs = node.outputs.map(valueSpec);
    const rows = scanned.map((k) => ({ type: next[k].type, shape: [-1, ...next[k].shape] }));
    const all = g.opN('Loop', [tripCount, scalarCondition(g, first), ...carriedIn], { body: { graph } },
      [...kept.map((k) => outs[k]), ...before, ...rows], 'loop');
    this.setAssigned(assigned, all.slice(kept.length, kept.length + before.length));
    const scanOut = all.slice(kept.length + before.length);
    return outs.map((o, k) => {
      if (popped.has(k)) return initial[k];   // (nothing reads it after the loop: popReads)
      if (!scans.has(k)) return all[kept.indexOf(k)];
      const r = scanOut[scanned.indexOf(k)];
      return { name: r.name, type: o.type, shape: o.shape, sequence: true, scanRows: { rows: r, prefix: scans.get(k)!.startsEmpty ? undefined : initial[k] } };
    });
  }

  /** max(0, limit - start) as ONNX's int64 trip count (in int64: int32 limits cannot overflow). */
  private tripCount(g: GraphScope, start: Value, limit: Value): Value {
    const I64 = OnnxType.INT64;
    const remaining = g.op('Sub', [g.cast(limit, I64), g.cast(start, I64)], {}, I64, [], 'remaining');
    return g.op('Max', [remaining, g.scalar(0, I64)], {}, I64, [], 'trip_count');
  }

  private setAssigned(variables: number[], values: Value[]): void {
    variables.forEach((v, i) => {
      this.variables.set(v, values[i]);
      this.assigned.add(v);
    });
  }
}

/**
 * A condition as a bool scalar. A staged condition is any one-element tensor (`if (tok.equal(0))
 * break` with `tok` of shape [1] is bool[1]); ONNX's Loop takes a scalar test (ORT refuses the
 * model otherwise: "cond_in ... inferred=1 declared=0"), and an If lowered as a selection
 * (selectNode) broadcasts its condition against the branches' values, so a [1] condition would
 * make the flag it sets [1] where the graph recorded a scalar.
 */
function scalarCondition(g: GraphScope, test: Value): Value {
  const cond = g.cast(test, OnnxType.BOOL);
  return cond.shape.length === 0 ? cond : g.op('Reshape', [cond, g.int64s([], [0])], {}, OnnxType.BOOL, [], 'cond_scalar');
}

/** The ONNX value of a recorded output: a tensor, or a sequence for a list (lists of lists do not lower). */
function valueSpec(o: TensorSpec): { type: OnnxType; shape: number[]; sequence?: boolean } {
  if ((o.list ?? 0) > 1) throw new Unsupported('a list of lists');
  return { type: onnxType(o.dtype), shape: o.shape, ...(o.list ? { sequence: true } : {}) };
}

/**
 * A While whose test is `i < n` or `i < n && rest` (either order, or `rest && i < n` short-circuited
 * as If(rest, i < n, rest): what `for (let t = 0; t < maxLen; t++) { ... break; }` stages), where
 * i is an int32 loop variable the body advances by exactly 1 and n an int32 invariant or constant:
 * the loop `for (i of range(n))` becomes. Iteration k then runs with i = i0 + k, so `i < n` holds
 * exactly for k < n - i0: ONNX Loop's trip count, which leaves the test only `rest` (and i + 1
 * cannot overflow, as i < n). `limit` is the loop input index of n, `limitConstant` its constant.
 */
interface CountedLoop { counter: number; limit?: number; limitConstant?: number; rest?: ValueRef }

function countedLoop(node: WhileNode, constants: readonly tf.Tensor[]): CountedLoop | undefined {
  const { cond, body, loopVars } = node;
  const at = (graph: Graph, ref: ValueRef): Node => graph.nodes[ref.node];
  const param = (graph: Graph, ref: ValueRef): number | undefined => {
    const n = at(graph, ref);
    return n.kind === 'Input' && n.outputs[0].dtype === 'int32' && n.outputs[0].shape.length === 0 ? n.param : undefined;
  };
  const intConstant = (graph: Graph, ref: ValueRef): number | undefined => {
    const n = at(graph, ref);
    return n.kind === 'Constant' && constants[n.constant].dtype === 'int32' && constants[n.constant].rank === 0 ? n.constant : undefined;
  };
  /** `i < n` at `ref` of `graph`, whose Inputs are the test's values `params` (the test's own, or an If branch's captures). */
  const isLess = (ref: ValueRef, graph: Graph = cond, params: (ValueRef | undefined)[] | undefined = undefined):
  { counter: number; limit?: number; limitConstant?: number } | undefined => {
    const n = at(graph, ref);
    if (n.kind !== 'Kernel' || n.op !== 'Less') return undefined;
    const toTest = (r: ValueRef): ValueRef | undefined => {
      if (params === undefined) return r;
      const input = at(graph, r);
      return input.kind === 'Input' ? params[input.param] : undefined;
    };
    const [a, b] = n.inputs.map(toTest);
    const counter = a === undefined ? undefined : param(cond, a);
    if (counter === undefined || counter >= loopVars) return undefined;
    const limit = b === undefined ? undefined : param(cond, b);
    if (limit !== undefined && limit >= loopVars) return { counter, limit };
    const limitConstant = intConstant(graph, n.inputs[1]);
    return limitConstant !== undefined ? { counter, limitConstant } : undefined;
  };
  const advancesByOne = (counter: number): boolean => {
    const step = at(body, body.results[counter]);
    if (step.kind !== 'Kernel' || step.op !== 'Add') return false;
    const isOne = (ref: ValueRef): boolean => {
      const n = at(body, ref);
      return n.kind === 'Constant' && constants[n.constant].dtype === 'int32' && constants[n.constant].size === 1 &&
        constants[n.constant].dataSync()[0] === 1;
    };
    const [a, b] = step.inputs;
    return (param(body, a) === counter && isOne(b)) || (param(body, b) === counter && isOne(a));
  };
  const [result] = cond.results;
  let found: CountedLoop | undefined = isLess(result);
  const top = at(cond, result);
  if (found === undefined && top.kind === 'Kernel' && top.op === 'LogicalAnd') {
    const [a, b] = top.inputs;
    const viaA = isLess(a);
    const viaB = viaA === undefined ? isLess(b) : undefined;
    found = viaA !== undefined ? { ...viaA, rest: b } : viaB !== undefined ? { ...viaB, rest: a } : undefined;
  }
  if (found === undefined && top.kind === 'If' && top.then.results.length === 1) {
    // If(c, i < n, c): `c && i < n` short-circuited — the else branch returns c itself (false there).
    const [c, ...captures] = top.inputs;
    const elseResult = at(top.else, top.else.results[0]);
    const returnsC = elseResult.kind === 'Input' && captures[elseResult.param]?.node === c.node &&
      captures[elseResult.param]?.output === c.output;
    const less = returnsC && top.then.nodes.every((n) => n.kind === 'Input' || n.kind === 'Constant' || n.kind === 'Kernel')
      ? isLess(top.then.results[0], top.then, captures) : undefined;
    if (less !== undefined) found = { ...less, rest: c };
  }
  return found !== undefined && advancesByOne(found.counter) ? found : undefined;
}

/** Nodes whose results are used (by the graph's results or a later live node) or that have side effects. */
function liveNodes(graph: Graph): boolean[] {
  const live = graph.nodes.map(hasSideEffects);
  for (const r of graph.results) live[r.node] = true;
  for (let i = graph.nodes.length - 1; i >= 0; i--) if (live[i]) for (const r of nodeInputs(graph.nodes[i])) live[r.node] = true;
  return live;
}

/** Node kinds that lower with unknown dims: they pass values on and declare their shapes. */
const SYMBOLIC_DIM_NODES = new Set<Node['kind']>(['Input', 'If', 'While']);

/**
 * Kernels whose lowerings use recorded dims only to declare ONNX value shapes, and ranks and
 * attributes otherwise (reviewed one by one: no reshape targets, filled constants or sizes taken
 * from a spec), so they lower on values with unknown dims. A lowering changed later could start
 * using dims: spec/onnx/symbolic_dims.spec.ts runs every kernel listed here on a relaxed graph at
 * several sizes against eager, and fails for a kernel listed without a case. (Sum and Mean add in
 * tfjs's order: on unknown dims where the reduced axes lead or trail, else they refuse; Prod is
 * not here.) In a relaxed graph (backends/staging/shape_relaxation.ts) attributes are the same for every
 * dim the graph serves (two traces at different dims gave the same graph), so an attribute is
 * never a stale dim.
 */
export const SYMBOLIC_DIM_KERNELS: ReadonlySet<string> = new Set(['Add', 'Sub', 'Multiply', 'RealDiv', 'Maximum', 'Minimum',
  'Tanh', 'Sigmoid', 'Relu', 'Exp', 'Log', 'Neg', 'Abs', 'Sqrt', 'Square', 'Cast', 'Less', 'LessEqual', 'Greater',
  'GreaterEqual', 'Equal', 'LogicalAnd', 'LogicalOr', 'LogicalNot', 'BatchMatMul', 'GatherV2', 'Shape', 'Transpose', 'Concat',
  'Softmax', 'Sum', 'Mean', 'Max', 'Min', 'All', 'Any', 'ArgMax', 'ArgMin', 'Identity']);

/**
 * Kernels that a selecting If (Lowering.selectNode) may compute although their branch is not taken:
 * element-wise and shape ops that give a value for every input and cannot fail in ORT (no
 * gathers, no integer division: ORT's int Div by zero is not an error but a crash).
 */
const SPECULABLE = new Set(['Cast', 'Less', 'LessEqual', 'Greater', 'GreaterEqual', 'Equal', 'NotEqual', 'LogicalAnd',
  'LogicalOr', 'LogicalNot', 'Add', 'Sub', 'Multiply', 'Neg', 'Abs', 'Maximum', 'Minimum', 'Identity', 'Reshape',
  'ExpandDims', 'Squeeze', 'All', 'Any', 'ZerosLike', 'OnesLike']);

/** Output elements a selecting If may compute in its two branches together. */
const MAX_SPECULATED_ELEMENTS = 4096;

/**
 * Float kernels a selecting If may also compute when its inputs are float32 (on floats none of them
 * can fail: a division by zero is an infinity or NaN), so a branch like `n.div(2).floor()` selects.
 */
const SPECULABLE_ON_FLOATS = new Set(['RealDiv', 'Floor', 'Ceil', 'Mod', 'Square', 'Sqrt', 'Exp', 'Log', 'Tanh', 'Sigmoid',
  'Reciprocal']);

/**
 * Whether `node` lowers as selections (Lowering.selectNode): its branches pass values through
 * (Input and Constant nodes) or compute little with SPECULABLE kernels (SPECULABLE_ON_FLOATS on
 * float32 inputs), and its results are not lists. Float results, of known dims, are stacked and
 * gathered (selectWhole: ORT's Where loses the sign of a selected -0).
 */
function selectable(node: IfNode): boolean {
  let elements = 0;
  const light = (graph: Graph): boolean => graph.nodes.every((n) => {
    if (n.kind === 'Input' || n.kind === 'Constant') return true;
    if (n.kind !== 'Kernel') return false;
    const onFloats = SPECULABLE_ON_FLOATS.has(n.op) &&
      n.inputs.every((r) => graph.nodes[r.node].outputs[r.output].dtype === 'float32');
    if (!SPECULABLE.has(n.op) && !onFloats) return false;
    elements += n.outputs.reduce((sum, o) => sum + Math.abs(o.shape.reduce((a, b) => a * b, 1)), 0);
    return n.outputs.every((o) => !hasUnknownDims(o));
  });
  return light(node.then) && light(node.else) && elements <= MAX_SPECULATED_ELEMENTS &&
    node.outputs.every((o) => !o.list && (o.dtype === 'bool' || o.dtype === 'int32' || (o.dtype === 'float32' && !hasUnknownDims(o))));
}

/** Variables assigned in `graph` or its sub-graphs. */
function assignedVariables(graph: Graph, into = new Set<number>()): Set<number> {
  for (const node of graph.nodes) {
    if (node.kind === 'AssignVariable') into.add(node.variable);
    if (node.kind === 'If') [node.then, node.else].forEach((g) => assignedVariables(g, into));
    if (node.kind === 'While') [node.cond, node.body].forEach((g) => assignedVariables(g, into));
  }
  return into;
}

function nodeOutput(graph: Graph, ref: { node: number; output: number }): { dtype: DataType; shape: number[] } {
  const spec = graph.nodes[ref.node].outputs[ref.output];
  return { dtype: spec.dtype, shape: [...spec.shape] };
}
