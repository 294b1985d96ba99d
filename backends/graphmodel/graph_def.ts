/**
 * A staged Program as a TensorFlow GraphDef in its JSON form (what a tfjs GraphModel's
 * `modelTopology` holds), with a function library for control flow.
 *
 * - Root parameters are Placeholders, results Identity nodes, both named by the caller.
 * - Kernel nodes become the TF op tfjs-converter maps onto the kernel (see op_mappers.ts).
 * - Constant nodes, kernel attrs the op reads as inputs, and variables (their value now) are Const
 *   nodes whose values are weights: tfjs-converter reads a Const from the weights by node name,
 *   also inside functions, so a constant used in several graphs is one weight.
 * - If -> StatelessIf(cond, ...captures) with then/else functions of the captures; While ->
 *   StatelessWhile(...loop variables, ...invariants): tfjs-converter passes every input to cond and
 *   body, and takes the body's results as the next inputs, so the body also returns the invariants.
 *   Each function result is its own Identity node (tfjs-converter keeps one output per node).
 * - Random, Print, Check, list nodes and variable assignments have no stateless TF form that
 *   tfjs-converter runs: they are reported, never dropped.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { AttrValue as IrAttr, DataType, Graph, KernelNode, Node, Program, TensorSpec, ValueRef } from '../graph';
import type { LoweringProblem } from '../onnx/lower';
import { mapKernel, ParamType } from './op_mappers';
import { functionInputRef } from './output_args';

export interface AttrValue {
  i?: string; f?: number; b?: boolean; s?: string; type?: string;
  shape?: TensorShape; func?: { name: string };
  list?: { i?: string[]; f?: number[]; b?: boolean[]; s?: string[]; type?: string[]; shape?: TensorShape[] };
  tensor?: { dtype: string; tensorShape: TensorShape };
}
export interface TensorShape { dim?: { size: string }[]; unknownRank?: boolean }
export interface NodeDef { name: string; op: string; input?: string[]; attr?: Record<string, AttrValue> }
export interface ArgDef { name: string; type: string }
export interface FunctionDef {
  signature: { name: string; inputArg: ArgDef[]; outputArg: ArgDef[] };
  nodeDef: NodeDef[];
  ret: Record<string, string>;
}
export interface GraphDef { node: NodeDef[]; library: { function: FunctionDef[] }; versions: { producer: number } }
export interface TensorInfo { name: string; dtype: string; tensorShape: TensorShape }

export interface GraphDefExport {
  graphDef: GraphDef;
  /** Const values by node name; `made` ones were made for the export (the caller disposes them). */
  weights: { name: string; tensor: tf.Tensor; made: boolean }[];
  inputs: Record<string, TensorInfo>;
  outputs: Record<string, TensorInfo>;
}

export type GraphDefResult = { ok: true; export: GraphDefExport } | { ok: false; problems: LoweringProblem[] };

const TF_DTYPE: Record<string, string> = {
  float32: 'DT_FLOAT', int32: 'DT_INT32', bool: 'DT_BOOL', string: 'DT_STRING', complex64: 'DT_COMPLEX64',
};
const tfDtype = (d: DataType): string => TF_DTYPE[d];
const shapeOf = (shape: number[]): TensorShape => ({ dim: shape.map((d) => ({ size: String(d) })) });
const ref = (name: string, output: number): string => (output === 0 ? name : `${name}:${output}`);

/** `program` as a GraphDef whose Placeholders are `inputs` and whose results are `outputs`. */
export function toGraphDef(program: Program, names: { scope: string; inputs: string[]; outputs: string[] }): GraphDefResult {
  return new GraphDefWriter(program, names.scope).write(names.inputs, names.outputs);
}

class GraphDefWriter {
  private readonly used = new Set<string>();
  private readonly functions: FunctionDef[] = [];
  private readonly weights = new Map<string, tf.Tensor>();
  private readonly made = new Set<tf.Tensor>();
  private readonly constantNames = new Map<string, string>();
  private readonly problems: LoweringProblem[] = [];
  private functionCount = 0;

  constructor(private readonly program: Program, private readonly scope: string) {}

  write(inputNames: string[], outputNames: string[]): GraphDefResult {
    const { graph } = this.program;
    const nodes: NodeDef[] = [];
    const inputs: Record<string, TensorInfo> = {};
    const params = inputNames.map((input, i) => {
      const spec = paramSpec(graph, i);
      const name = this.fresh(input);
      nodes.push({ name, op: 'Placeholder', attr: { dtype: { type: tfDtype(spec.dtype) }, shape: { shape: shapeOf(spec.shape) } } });
      inputs[input] = { name: `${name}:0`, dtype: tfDtype(spec.dtype), tensorShape: shapeOf(spec.shape) };
      return name;
    });
    const results = this.writeGraph(graph, params, nodes, 'the function');
    const outputs: Record<string, TensorInfo> = {};
    graph.results.forEach((r, i) => {
      const spec = this.specOf(graph, r);
      const name = this.fresh(outputNames[i]);
      nodes.push({ name, op: 'Identity', input: [results[i]], attr: { T: { type: tfDtype(spec.dtype) } } });
      outputs[outputNames[i]] = { name: `${name}:0`, dtype: tfDtype(spec.dtype), tensorShape: shapeOf(spec.shape) };
    });
    if (this.problems.length) {
      tf.dispose([...this.made]);
      return { ok: false, problems: this.problems };
    }
    return {
      ok: true,
      export: {
        // producer: the GraphDef version of the TF release whose op set this uses (TF 2.x).
        graphDef: { node: nodes, library: { function: this.functions }, versions: { producer: 1395 } },
        weights: [...this.weights.entries()].map(([name, tensor]) => ({ name, tensor, made: this.made.has(tensor) })),
        inputs, outputs,
      },
    };
  }

  /** A node name not used anywhere in the model (constants are looked up by name model-wide). */
  private fresh(base: string): string {
    const clean = base.replace(/[^A-Za-z0-9_./-]/g, '_').replace(/^[^A-Za-z0-9.]/, 'n$&');
    let name = clean;
    for (let k = 1; this.used.has(name); k++) name = `${clean}_${k}`;
    this.used.add(name);
    return name;
  }

  private specOf(graph: Graph, r: ValueRef): TensorSpec {
    return graph.nodes[r.node].outputs[r.output];
  }

  /** Appends `graph`'s nodes (parameters bound to `params`) to `out`; returns its results' names. */
  private writeGraph(graph: Graph, params: string[], out: NodeDef[], where: string, prefix = ''): string[] {
    const names: string[] = [];
    const local = new Map<string, string>();
    // A function body (prefix set) refers to outputs as TF's FunctionDef does: node:out_arg:k.
    const ops = new Map<string, string>();
    const opOf = (name: string): string | undefined => {
      for (let i = ops.size; i < out.length; i++) ops.set(out[i].name, out[i].op);
      return ops.get(name);
    };
    const value = (r: ValueRef): string => (prefix === '' ? ref(names[r.node], r.output)
      : functionInputRef(names[r.node], graph.nodes[r.node].kind === 'Input' ? undefined : opOf(names[r.node]), r.output));
    const constNode = (key: string, base: string, make: () => tf.Tensor): string => {
      let weight = this.constantNames.get(key);
      if (weight === undefined) {
        const tensor = make();
        weight = this.fresh(base);
        this.constantNames.set(key, weight);
        this.weights.set(weight, tensor);
      }
      if (!local.has(key)) {
        const t = this.weights.get(weight)!;
        out.push({ name: weight, op: 'Const', attr: {
          dtype: { type: tfDtype(t.dtype) }, value: { tensor: { dtype: tfDtype(t.dtype), tensorShape: shapeOf(t.shape) } } } });
        local.set(key, weight);
      }
      return weight;
    };
    graph.nodes.forEach((node, index) => {
      const problem = (op: string, reason: string): void => {
        this.problems.push({ op, reason, where: `${where}, node %${index}` });
        names.push('');
      };
      switch (node.kind) {
        case 'Input':
          names.push(params[node.param]);
          return;
        case 'Constant':
          names.push(constNode(`c${node.constant}`, `const_${node.constant}`, () => this.program.constants[node.constant]));
          return;
        case 'ReadVariable': {
          const variable = this.program.variables[node.variable];
          names.push(constNode(`v${node.variable}`, `variable/${variable.name}`, () => variable));
          return;
        }
        case 'Kernel':
          names.push(this.writeKernel(node, node.inputs.map((r) => this.specOf(graph, r)), value, out, prefix, problem, constNode));
          return;
        case 'If': {
          const k = this.functionCount++;
          const base = `${this.scope}_if_${k}`;
          const captures = node.inputs.slice(1);
          const thenName = this.writeFunction(`${base}_then`, node.then, captures.map((c) => this.specOf(graph, c)), `${where}, If (${node.origin ?? `node %${index}`}) then`);
          const elseName = this.writeFunction(`${base}_else`, node.else, captures.map((c) => this.specOf(graph, c)), `${where}, If (${node.origin ?? `node %${index}`}) else`);
          const name = this.fresh(`${prefix}If_${k}`);
          out.push({ name, op: 'StatelessIf', input: node.inputs.map(value), attr: {
            then_branch: { func: { name: thenName } }, else_branch: { func: { name: elseName } },
            Tcond: { type: tfDtype(this.specOf(graph, node.inputs[0]).dtype) },
            Tin: { list: { type: captures.map((c) => tfDtype(this.specOf(graph, c).dtype)) } },
            Tout: { list: { type: node.outputs.map((o) => tfDtype(o.dtype)) } },
          } });
          names.push(name);
          return;
        }
        case 'While': {
          const k = this.functionCount++;
          const base = `${this.scope}_while_${k}`;
          const specs = node.inputs.map((r) => this.specOf(graph, r));
          const label = `${where}, While (${node.origin ?? `node %${index}`})`;
          const condName = this.writeFunction(`${base}_cond`, node.cond, specs, `${label} cond`);
          // The body returns the next loop variables, then its invariant inputs unchanged.
          const bodyName = this.writeFunction(`${base}_body`, node.body, specs, `${label} body`, node.loopVars);
          const name = this.fresh(`${prefix}While_${k}`);
          out.push({ name, op: 'StatelessWhile', input: node.inputs.map(value), attr: {
            cond: { func: { name: condName } }, body: { func: { name: bodyName } },
            T: { list: { type: specs.map((s) => tfDtype(s.dtype)) } },
            parallel_iterations: { i: '10' },
          } });
          names.push(name);
          return;
        }
        case 'Random':
          problem(`Random ${node.op}`, 'a random draw (a GraphModel has no stateful random ops tfjs-converter runs)');
          return;
        case 'Print':
          problem('Print', 'a host callback (console output)');
          return;
        case 'Check':
          problem('Check', `a host check (throws ${this.program.errors[node.error]?.name ?? 'an error'})`);
          return;
        case 'List':
          problem(node.op, 'a list value (tfjs-converter runs TensorLists only in its own stateful form)');
          return;
        case 'AssignVariable':
          problem('AssignVariable', `assigns variable '${this.program.variables[node.variable]?.name}' (a GraphModel has no state)`);
          return;
        default:
          problem((node as Node).kind, 'not exportable');
      }
    });
    return graph.results.map(value);
  }

  /**
   * A library function for `graph`, taking values of `specs`; its results are the graph's, then
   * (for a While body) its parameters from `passThrough` on, returned unchanged.
   */
  private writeFunction(base: string, graph: Graph, specs: TensorSpec[], where: string, passThrough = specs.length): string {
    const name = this.fresh(base);
    const nodes: NodeDef[] = [];
    const inputArg = specs.map((s, i) => ({ name: this.fresh(`${name}/arg${i}`), type: tfDtype(s.dtype) }));
    const results = this.writeGraph(graph, inputArg.map((a) => a.name), nodes, where, `${name}/`);
    const resultSpecs = graph.results.map((r) => this.specOf(graph, r));
    for (let i = passThrough; i < specs.length; i++) {
      results.push(inputArg[i].name);
      resultSpecs.push(specs[i]);
    }
    const outputArg: ArgDef[] = [];
    const ret: Record<string, string> = {};
    results.forEach((r, i) => {
      const out = this.fresh(`${name}/output${i}`);
      nodes.push({ name: out, op: 'Identity', input: [r], attr: { T: { type: tfDtype(resultSpecs[i].dtype) } } });
      outputArg.push({ name: `output${i}`, type: tfDtype(resultSpecs[i].dtype) });
      ret[`output${i}`] = functionInputRef(out, 'Identity', 0);
    });
    this.functions.push({ signature: { name, inputArg, outputArg }, nodeDef: nodes, ret });
    return name;
  }

  private writeKernel(node: KernelNode, inputSpecs: TensorSpec[], value: (r: ValueRef) => string, out: NodeDef[], prefix: string,
    problem: (op: string, reason: string) => void,
    constNode: (key: string, base: string, make: () => tf.Tensor) => string): string {
    const mapping = mapKernel(node, inputSpecs);
    if (!mapping.ok) {
      problem(node.op, mapping.reason);
      return '';
    }
    const { op, inputs, attrs } = mapping.mapped;
    const name = this.fresh(`${prefix}${op}`);
    const input = inputs.map((slot) => {
      if ('kernelInput' in slot) return value(node.inputs[slot.kernelInput]);
      const constant = constNode(`${name}/${slot.param.name}`, `${name}/${slot.param.name}`, () => {
        const tensor = attrTensor(slot.constant, slot.param.type);
        this.made.add(tensor);
        return tensor;
      });
      return prefix === '' ? constant : functionInputRef(constant, 'Const', 0);
    });
    const attr: Record<string, AttrValue> = {};
    for (const a of attrs) attr[a.tfName] = attrValue(a.value, a.type);
    out.push({ name, op, input, attr });
    return name;
  }
}

/** The spec of root parameter `param` (from its Input node). */
function paramSpec(graph: Graph, param: number): TensorSpec {
  const node = graph.nodes.find((n) => n.kind === 'Input' && n.param === param);
  if (!node) throw new Error(`autograph-ts internal: the graph does not read its parameter ${param}`);
  return node.outputs[0];
}

const allIntegers = (v: IrAttr): boolean =>
  Array.isArray(v) ? v.every(allIntegers) : typeof v === 'number' && Number.isInteger(v);

/** A kernel attr the op reads from an input: a constant tensor (int32 when every value is an integer). */
function attrTensor(value: IrAttr, type: ParamType): tf.Tensor {
  if (typeof value === 'boolean') return tf.scalar(value, 'bool');
  const dtype = allIntegers(value) ? 'int32' : 'float32';
  if (type === 'number' && typeof value === 'number') return tf.scalar(value, dtype);
  return tf.tensor(value as number[], undefined, dtype);
}

const base64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** A kernel attr as the AttrValue the mapper decodes for its parameter type. */
function attrValue(value: IrAttr, type: ParamType): AttrValue {
  const numbers = (v: number[]): AttrValue['list'] =>
    (v.every((x) => Number.isInteger(x)) ? { i: v.map(String) } : { f: v });
  switch (type) {
    case 'number':
      return Number.isInteger(value) ? { i: String(value) } : { f: value as number };
    case 'number[]':
      return { list: numbers((Array.isArray(value) ? value : [value]) as number[]) };
    case 'bool':
      return { b: Boolean(value) };
    case 'bool[]':
      return { list: { b: (value as boolean[]).map(Boolean) } };
    case 'string':
      return { s: base64(String(value)) };
    case 'string[]':
      return { list: { s: (value as string[]).map((v) => base64(String(v))) } };
    case 'dtype':
      return { type: TF_DTYPE[value as string] };
    case 'dtype[]':
      return { list: { type: (value as string[]).map((v) => TF_DTYPE[v]) } };
    case 'shape':
      return { shape: shapeOf(value as number[]) };
    default:
      throw new Error(`autograph-ts internal: attr of type ${type}`);
  }
}
