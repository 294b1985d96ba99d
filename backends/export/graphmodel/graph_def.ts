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
 * - List nodes are TensorList ops on DT_VARIANT handles (lists.ts); a list's uses are counted so
 *   that a use that may append to a list others hold gets a copy (tfjs-converter's lists mutate).
 * - Random, Print, Check and variable assignments have no stateless TF form that tfjs-converter
 *   runs, nor do lists as model inputs or outputs: they are reported, never dropped.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { AttrValue as IrAttr, DataType, Graph, KernelNode, Node, Program, TensorSpec, ValueRef } from '../../graph/graph';
import type { LoweringProblem } from '../../onnx_model/lower';
import { mapKernel, ParamType } from './op_mappers';
import { writeListNode } from './lists';
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
/** A value's TF type: a list is a DT_VARIANT handle. */
const typeOf = (spec: TensorSpec): string => (spec.list ? 'DT_VARIANT' : tfDtype(spec.dtype));
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
      if (spec.list) this.problems.push({ op: 'List', reason: 'a list argument (a GraphModel input is a tensor)', where: `parameter ${input}` });
      const name = this.fresh(input);
      nodes.push({ name, op: 'Placeholder', attr: { dtype: { type: tfDtype(spec.dtype) }, shape: { shape: shapeOf(spec.shape) } } });
      inputs[input] = { name: `${name}:0`, dtype: tfDtype(spec.dtype), tensorShape: shapeOf(spec.shape) };
      return name;
    });
    const results = this.writeGraph(graph, params, nodes, 'the function');
    const outputs: Record<string, TensorInfo> = {};
    graph.results.forEach((r, i) => {
      const spec = this.specOf(graph, r);
      if (spec.list) this.problems.push({ op: 'List', reason: 'a list result (a GraphModel output is a tensor: stack it)', where: `result ${outputNames[i]}` });
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

  // Long on purpose (~170 lines): one switch over node kinds (kernels, If, While, lists, host nodes),
  // each case writing its NodeDefs with the names of the values around it; the op mappers
  // (op_mappers.ts) hold the per-kernel detail.
  /**
   * Appends `graph`'s nodes (parameters bound to `params`) to `out`; returns its results' names.
   * `sharedParams`: parameters whose list handle something outside the graph holds too.
   * `keepAlive` gets the tensors this graph (a function body) must also return: see KeepAlive.
   */
  private writeGraph(graph: Graph, params: string[], out: NodeDef[], where: string, prefix = '', sharedParams: number[] = [],
    keepAlive: KeepAlive[] = []): string[] {
    const names: string[] = [];
    // Nodes written as several GraphDef nodes (list ops): the ref of each output.
    const outputRefs = new Map<number, string[]>();
    const local = new Map<string, string>();
    // A function body (prefix set) refers to outputs as TF's FunctionDef does: node:out_arg:k.
    const ops = new Map<string, string>();
    const opOf = (name: string): string | undefined => {
      for (let i = ops.size; i < out.length; i++) ops.set(out[i].name, out[i].op);
      return ops.get(name);
    };
    const value = (r: ValueRef): string => outputRefs.get(r.node)?.[r.output] ?? (prefix === '' ? ref(names[r.node], r.output)
      : functionInputRef(names[r.node], graph.nodes[r.node].kind === 'Input' ? undefined : opOf(names[r.node]), r.output));
    /** Appends a node; its output `k` as an input of this graph. */
    const emit = (op: string, input: string[], attr: Record<string, AttrValue> = {}, k = 0): string => {
      const name = this.fresh(`${prefix}${op}`);
      out.push({ name, op, input, attr });
      return prefix === '' ? ref(name, k) : functionInputRef(name, op, k);
    };
    const listUses = countListUses(graph, sharedParams);
    // tfjs-converter's lists are mutable: a use that may append to a list others hold gets a copy.
    const owned = (r: ValueRef): string => {
      const handle = value(r);
      if ((listUses.get(`${r.node}:${r.output}`) ?? 0) < 2) return handle;
      return emit('TensorListResize', [handle, emit('TensorListLength', [handle])]);
    };
    /** A scalar Const of `dtype`: the initial value of a keep-alive loop variable, an If branch's filler. */
    const filler = (dtype: DataType): string => {
      const c = constNode(`filler:${dtype}`, `keep_alive_${dtype}`, () => {
        const tensor = tf.zeros([], dtype);
        this.made.add(tensor);
        return tensor;
      });
      return prefix === '' ? c : functionInputRef(c, 'Const', 0);
    };
    /** Outputs `first`.. of control-flow node `name` (their dtypes `dtypes`) are kept alive here too. */
    const keepOutputs = (name: string, op: string, first: number, dtypes: DataType[]): void => {
      if (prefix === '') return;
      dtypes.forEach((dtype, k) => keepAlive.push({ ref: functionInputRef(name, op, first + k), dtype }));
    };
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
          const captureSpecs = captures.map((c) => this.specOf(graph, c));
          const label = `${where}, If (${node.origin ?? `node %${index}`})`;
          const then = this.beginFunction(`${base}_then`, node.then, captureSpecs, `${label} then`);
          const otherwise = this.beginFunction(`${base}_else`, node.else, captureSpecs, `${label} else`);
          // Both branches return the tensors either keeps alive (the other's as fillers).
          const kept = [...then.keepAlive, ...otherwise.keepAlive].map((a) => a.dtype);
          const thenName = this.finishFunction(then, [...then.keepAlive, ...otherwise.keepAlive.map((a) => then.filler(a.dtype))]);
          const elseName = this.finishFunction(otherwise, [...then.keepAlive.map((a) => otherwise.filler(a.dtype)), ...otherwise.keepAlive]);
          const name = this.fresh(`${prefix}If_${k}`);
          out.push({ name, op: 'StatelessIf', input: [value(node.inputs[0]), ...captures.map(owned)], attr: {
            then_branch: { func: { name: thenName } }, else_branch: { func: { name: elseName } },
            Tcond: { type: tfDtype(this.specOf(graph, node.inputs[0]).dtype) },
            Tin: { list: { type: captureSpecs.map(typeOf) } },
            Tout: { list: { type: [...node.outputs.map(typeOf), ...kept.map(tfDtype)] } },
          } });
          keepOutputs(name, 'StatelessIf', node.outputs.length, kept);
          names.push(name);
          return;
        }
        case 'While': {
          const k = this.functionCount++;
          const base = `${this.scope}_while_${k}`;
          const specs = node.inputs.map((r) => this.specOf(graph, r));
          const label = `${where}, While (${node.origin ?? `node %${index}`})`;
          // cond gets the handles the body gets; the body returns its invariant inputs unchanged.
          const all = specs.map((_, i) => i);
          // What the body keeps alive is carried as extra loop variables (from scalar fillers on).
          const body = this.beginFunction(`${base}_body`, node.body, specs, `${label} body`, node.loopVars, all.slice(node.loopVars));
          const kept = body.keepAlive.map((a) => a.dtype);
          const loopSpecs = [...specs, ...kept.map((dtype): TensorSpec => ({ shape: [], dtype }))];
          const bodyName = this.finishFunction(body, body.keepAlive, kept);
          const condName = this.finishFunction(
            this.beginFunction(`${base}_cond`, node.cond, specs, `${label} cond`, specs.length, all), [], kept);
          const name = this.fresh(`${prefix}While_${k}`);
          out.push({ name, op: 'StatelessWhile', input: [...node.inputs.map(owned), ...kept.map(filler)], attr: {
            cond: { func: { name: condName } }, body: { func: { name: bodyName } },
            T: { list: { type: loopSpecs.map(typeOf) } },
            parallel_iterations: { i: '10' },
          } });
          keepOutputs(name, 'StatelessWhile', specs.length, kept);
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
        case 'List': {
          const written = writeListNode(node, node.inputs.map((r) => this.specOf(graph, r)), {
            read: (i) => value(node.inputs[i]),
            own: (i) => owned(node.inputs[i]),
            emit: (op, input, attr, k) => emit(op, input, attr as Record<string, AttrValue>, k),
            int32: (values, scalar) => {
              const key = `int32:${scalar ? 'scalar' : 'vector'}:${values.join(',')}`;
              const c = constNode(key, 'const_int32', () => {
                const tensor = scalar ? tf.scalar(values[0], 'int32') : tf.tensor1d(values, 'int32');
                this.made.add(tensor);
                return tensor;
              });
              return prefix === '' ? c : functionInputRef(c, 'Const', 0);
            },
            dtype: (spec) => tfDtype(spec.dtype),
          });
          if (!written.ok) {
            problem(node.op, written.reason);
            return;
          }
          names.push('');
          outputRefs.set(index, written.outputs);
          // tfjs-converter's list holds the pushed tensor itself, which a function frees when it returns.
          if (node.op === 'TensorListPushBack' && prefix !== '') {
            keepAlive.push({ ref: value(node.inputs[1]), dtype: this.specOf(graph, node.inputs[1]).dtype, after: written.outputs[0].split(':')[0] });
          }
          return;
        }
        case 'AssignVariable':
          problem('AssignVariable', `assigns variable '${this.program.variables[node.variable]?.name}' (a GraphModel has no state)`);
          return;
        default:
          problem((node as Node).kind, 'not exportable');
      }
    });
    return graph.results.map(owned);
  }

  /**
   * A library function for `graph`, taking values of `specs`; its results are the graph's, then
   * (for a While body) its parameters from `passThrough` on, returned unchanged. finishFunction
   * adds the results the caller asks for (what the function keeps alive) and writes it.
   */
  private beginFunction(base: string, graph: Graph, specs: TensorSpec[], where: string, passThrough = specs.length,
    sharedParams: number[] = []): PendingFunction {
    const name = this.fresh(base);
    const nodes: NodeDef[] = [];
    const inputArg = specs.map((s, i) => ({ name: this.fresh(`${name}/arg${i}`), type: typeOf(s) }));
    const keepAlive: KeepAlive[] = [];
    const results = this.writeGraph(graph, inputArg.map((a) => a.name), nodes, where, `${name}/`, sharedParams, keepAlive);
    const types = graph.results.map((r) => typeOf(this.specOf(graph, r)));
    for (let i = passThrough; i < specs.length; i++) {
      results.push(inputArg[i].name);
      types.push(typeOf(specs[i]));
    }
    const filler = (dtype: DataType): KeepAlive => {
      const key = `filler:${dtype}`;
      let c = this.constantNames.get(key);
      if (c === undefined) {
        const tensor = tf.zeros([], dtype);
        this.made.add(tensor);
        c = this.fresh(`keep_alive_${dtype}`);
        this.constantNames.set(key, c);
        this.weights.set(c, tensor);
      }
      if (!nodes.some((n) => n.name === c)) {
        nodes.push({ name: c, op: 'Const', attr: { dtype: { type: tfDtype(dtype) }, value: { tensor: { dtype: tfDtype(dtype), tensorShape: shapeOf([]) } } } });
      }
      return { ref: functionInputRef(c, 'Const', 0), dtype };
    };
    return { name, nodes, inputArg, results, types, keepAlive, filler };
  }

  /** Writes `fn` with `extra` results after its own, and unused parameters of `extraArgs` dtypes. */
  private finishFunction(fn: PendingFunction, extra: KeepAlive[], extraArgs: DataType[] = []): string {
    const { name, nodes, inputArg } = fn;
    for (const dtype of extraArgs) inputArg.push({ name: this.fresh(`${name}/arg${inputArg.length}`), type: tfDtype(dtype) });
    const results = [...fn.results, ...extra.map((e) => e.ref)];
    const types = [...fn.types, ...extra.map((e) => tfDtype(e.dtype))];
    const after = [...fn.results.map(() => undefined), ...extra.map((e) => e.after)];
    const outputArg: ArgDef[] = [];
    const ret: Record<string, string> = {};
    results.forEach((r, i) => {
      const out = this.fresh(`${name}/output${i}`);
      nodes.push({ name: out, op: 'Identity', input: after[i] ? [r, `^${after[i]}`] : [r], attr: { T: { type: types[i] } } });
      outputArg.push({ name: `output${i}`, type: types[i] });
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

/**
 * A tensor a function returns only to keep it alive: tfjs-converter frees every tensor a function
 * made that it does not return when it returns, also one a list it returns holds (a pushed
 * element). So a function returns what it pushes (a While body as extra loop variables, an If's
 * branches as extra outputs), and what the control flow nodes inside it return for that reason.
 */
interface KeepAlive {
  ref: string;
  dtype: DataType;
  /** The push: returned after it (a control input), when tfjs-converter returns the tensor itself, not a copy. */
  after?: string;
}

interface PendingFunction {
  name: string;
  nodes: NodeDef[];
  inputArg: ArgDef[];
  results: string[];
  types: string[];
  keepAlive: KeepAlive[];
  /** A scalar Const of `dtype` in this function. */
  filler: (dtype: DataType) => KeepAlive;
}

/**
 * How many uses each list value of `graph` has (node inputs, results), by `node:output`; a
 * parameter in `sharedParams` has one more (a handle held outside the graph too).
 */
function countListUses(graph: Graph, sharedParams: number[]): Map<string, number> {
  const uses = new Map<string, number>();
  const use = (r: ValueRef): void => {
    if (!graph.nodes[r.node].outputs[r.output]?.list) return;
    const key = `${r.node}:${r.output}`;
    uses.set(key, (uses.get(key) ?? 0) + 1);
  };
  for (const node of graph.nodes) for (const r of (node as { inputs?: ValueRef[] }).inputs ?? []) use(r);
  graph.results.forEach(use);
  graph.nodes.forEach((node, index) => {
    if (node.kind === 'Input' && sharedParams.includes(node.param)) use({ node: index, output: 0 });
  });
  return uses;
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

/** UTF-8 then base64, with the web APIs Node shares (no Buffer in a browser). */
const base64 = (s: string): string => {
  let binary = '';
  for (const byte of new TextEncoder().encode(s)) binary += String.fromCharCode(byte);
  return btoa(binary);
};

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
