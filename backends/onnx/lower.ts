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
 * - If -> If: the branches read the captured values from the outer scope.
 * - While -> Loop: ONNX tests `cond` before the first iteration (an input) and after each body
 *   run (a body output), so the test sub-graph is lowered twice: on the initial values, in the
 *   outer graph, and on the body's results, at the end of the body.
 * - Random, Print and Check nodes do not lower (they are host-side: tfjs's random streams, console
 *   output, errors), nor do kernels without a lowering: every such node is reported with the
 *   reason, and the whole graph then runs on the tfjs executor.
 */
import * as tf from '@tensorflow/tfjs-core';
import { type DataType, type Graph, hasUnknownDims, type IfNode, type KernelNode, type Node, type Program, specText, type WhileNode } from '../graph';
import { kernelLowerings } from './kernels';
import { edgeSemantics, GraphScope, ModelContext, onnxType, Unsupported, Value } from './model_builder';
import type { GraphProto } from './onnx_proto';
import { encodeModel, OnnxType } from './onnx_proto';

export interface LoweringProblem {
  /** The kernel name or node kind. */
  op: string;
  reason: string;
  /** Where in the graph: e.g. "While (rnn.ts:3:3) body, node %5". */
  where: string;
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
}

export type LoweringResult = { ok: true; model: LoweredModel } | { ok: false; problems: LoweringProblem[] };

export interface LoweringNames {
  graph?: string;
  inputs?: string[];
  outputs?: string[];
  doc?: string;
  /** The tfjs backend whose edge-value behaviour to reproduce (default: the active one). */
  backend?: string;
}

export function lowerProgram(program: Program, names: LoweringNames = {}): LoweringResult {
  return new Lowering(program, names).run();
}

const HOST_NODES: Partial<Record<Node['kind'], string>> = {
  Random: 'random draws stay on the tfjs side (ONNX random ops would not draw tfjs\'s sequence)',
  Print: 'console output of tensors is a host callback, which ONNX cannot call',
  Check: 'a throw under a tensor condition is a host check, which ONNX cannot raise',
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

  constructor(private readonly program: Program, private readonly names: LoweringNames) {
    this.model = new ModelContext(edgeSemantics(names.backend ?? tf.getBackend()));
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
      const spec = paramSpecs.get(i) ?? { shape: [], dtype: 'float32' as DataType };
      try {
        params.push(this.root.input(inputNames[i], onnxType(spec.dtype), spec.shape));
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
        this.problems.push({ op: 'Input', reason: error.message, where: `argument ${inputNames[i]}` });
        params.push({ name: inputNames[i], type: OnnxType.FLOAT, shape: spec.shape });
      }
      inputs.push({ name: inputNames[i], dtype: spec.dtype, shape: spec.shape });
    }
    const results = this.lowerGraph(graph, this.root, params, '');
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
    return { ok: true, model: { bytes, inputs, variableInputs: this.variableInputs, outputs, variableOutputs } };
  }

  private lowerGraph(graph: Graph, g: GraphScope, params: Value[], where: string): Value[] {
    const values: Value[][] = [];
    graph.nodes.forEach((node, index) => {
      try {
        values[index] = this.lowerNode(node, g, params, values, `${where}node %${index}`);
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error;
        const op = node.kind === 'Kernel' ? node.op : node.kind;
        this.problems.push({ op, reason: error.message, where: `${where}node %${index}` });
        values[index] = node.outputs.map((o) => ({ name: this.model.fresh('unlowered'), type: OnnxType.FLOAT, shape: o.shape }));
      }
    });
    return graph.results.map((r) => values[r.node][r.output]);
  }

  private lowerNode(node: Node, g: GraphScope, params: Value[], values: Value[][], where: string): Value[] {
    const ins = (): Value[] => ('inputs' in node ? node.inputs.map((r) => values[r.node][r.output]) : []);
    // Lowerings take shapes from the recorded specs (reshape targets, slice ends): a value whose
    // dims change from run to run (backends/shape_relaxation.ts) has no shape to write.
    const unknown = node.outputs.find(hasUnknownDims);
    if (unknown !== undefined) throw new Unsupported(`does not lower: unknown dims (${specText(unknown)})`);
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
        return this.whileNode(node, g, ins(), where);
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
      const name = this.model.fresh(variable.name);
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
    const result = lowering(g, inputs, node.attrs, outs, node);
    const list = Array.isArray(result) ? result : [result];
    return outs.map((o, i) => ({ ...g.cast(list[i], o.type), shape: o.shape }));
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
    const outs = node.outputs.map((o) => ({ type: onnxType(o.dtype), shape: o.shape }));
    const c = g.cast(cond, OnnxType.BOOL);
    const all = g.opN('If', [c], { then_branch: { graph: then }, else_branch: { graph: otherwise } },
      [...outs, ...assigned.map((v) => before.get(v)!)], 'if');
    this.setAssigned(assigned, all.slice(outs.length));
    return all.slice(0, outs.length);
  }

  private whileNode(node: WhileNode, g: GraphScope, inputs: Value[], where: string): Value[] {
    const n = node.loopVars;
    const initial = inputs.slice(0, n);
    const invariants = inputs.slice(n);
    const label = `${where} While${node.origin ? ` (${node.origin})` : ''}`;
    if (assignedVariables(node.cond).size > 0) throw new Unsupported('a loop test that assigns a variable');
    const [first] = this.lowerGraph(node.cond, g, inputs, `${label} test, `);
    // Variables the body assigns are loop-carried values after the loop variables.
    const assigned = [...assignedVariables(node.body)];
    const before = assigned.map((v) => this.readVariable(v));
    const body = new GraphScope(this.model, this.model.fresh('loop_body'));
    body.input(this.model.fresh('iteration'), OnnxType.INT64, []);
    body.input(this.model.fresh('cond_in'), OnnxType.BOOL, []);
    const carried = [...initial, ...before].map((v) => body.input(this.model.fresh(`${v.name}_in`), v.type, v.shape));
    let next: Value[] = [];
    let again: Value | undefined;
    const start = new Map([...this.variables, ...assigned.map((v, i): [number, Value] => [v, carried[n + i]])]);
    const after = this.withVariableScope(start, () => {
      next = this.lowerGraph(node.body, body, [...carried.slice(0, n), ...invariants], `${label} body, `);
      [again] = this.lowerGraph(node.cond, body, [...next, ...invariants], `${label} test, `);
    });
    if (this.problems.length > 0) return node.outputs.map((o) => ({ name: this.model.fresh('unlowered'), type: OnnxType.FLOAT, shape: o.shape }));
    const graph = body.graph(body.outputs([body.cast(again!, OnnxType.BOOL), ...next, ...assigned.map((v) => after.get(v)!)]));
    const outs = node.outputs.map((o) => ({ type: onnxType(o.dtype), shape: o.shape }));
    const all = g.opN('Loop', ['', g.cast(first, OnnxType.BOOL), ...initial, ...before], { body: { graph } },
      [...outs, ...before], 'loop');
    this.setAssigned(assigned, all.slice(n));
    return all.slice(0, n);
  }

  private setAssigned(variables: number[], values: Value[]): void {
    variables.forEach((v, i) => {
      this.variables.set(v, values[i]);
      this.assigned.add(v);
    });
  }
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
