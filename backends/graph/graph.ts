/**
 * The staged graph: plain data, so that exporters (ONNX, TF GraphDef) are a walk over it.
 *
 * A Graph is a list of nodes in execution order; a node's inputs are (node, output) references to
 * earlier nodes of the same graph. Kernel nodes carry the tfjs kernel name (TF op names such as
 * 'Add', 'MatMul', 'Tanh') and its attrs. If/While nodes hold their sub-graphs; a sub-graph sees
 * values of the enclosing graph only through its parameters (explicit captures). Everything that
 * is not a pure function of the inputs is an explicit node kind: constants and variables refer to
 * the program's tables, random draws are Random nodes re-drawn per call, and host callbacks
 * (Print, Check) are nodes with plain-data payloads, never closures.
 */
import type * as tf from '@tensorflow/tfjs-core';

export type DataType = tf.DataType;

export interface TensorSpec {
  /** Dims; UNKNOWN_DIM (-1) for a dim that differs between runs (a relaxed argument dim, a loop
   * variable that grows, an If output whose branches differ): the rank is always known. */
  shape: number[];
  dtype: DataType;
  /**
   * The value is a list (a TensorList) of this depth: 1 = a list of tensors of this shape and
   * dtype, 2 = a list of such lists, ...
   */
  list?: number;
}

/** A dim that is not the same on every run (TensorShapeProto's -1; ONNX would need a dim_param). */
export const UNKNOWN_DIM = -1;

export function hasUnknownDims(spec: TensorSpec): boolean {
  return spec.shape.some((d) => d === UNKNOWN_DIM);
}

/** Whether a value of shape `shape` fits `spec`'s shape (same rank, equal known dims). */
export function fitsShape(spec: readonly number[], shape: readonly number[]): boolean {
  return spec.length === shape.length && spec.every((d, i) => d === UNKNOWN_DIM || d === shape[i]);
}

/** The spec that covers both: dims that differ become unknown (same dtype and rank assumed). */
export function mergeShapes(a: readonly number[], b: readonly number[]): number[] {
  return a.map((d, i) => (d === b[i] ? d : UNKNOWN_DIM));
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Output `output` of node `node` of the same graph. */
export interface ValueRef {
  node: number;
  output: number;
}

export type AttrValue = number | string | boolean | null | undefined | AttrValue[] | { [k: string]: AttrValue };
export type Attrs = Record<string, AttrValue>;

/** Parameter `param` of the graph: a function argument (root) or a captured/loop value (sub-graph). */
export interface InputNode {
  kind: 'Input';
  param: number;
  outputs: TensorSpec[];
}

/** A captured tensor, held in Program.constants. */
export interface ConstantNode {
  kind: 'Constant';
  constant: number;
  outputs: TensorSpec[];
}

/** Reads the current value of Program.variables[variable] (stateful: never folded, merged or hoisted). */
export interface ReadVariableNode {
  kind: 'ReadVariable';
  variable: number;
  outputs: TensorSpec[];
}

/** `variable.assign(inputs[0])` (stateful). */
export interface AssignVariableNode {
  kind: 'AssignVariable';
  variable: number;
  inputs: ValueRef[];
  outputs: TensorSpec[];
}

/** One tfjs kernel call: `kernelFunc({inputs: {[inputNames[i]]: inputs[i]}, attrs})`. */
export interface KernelNode {
  kind: 'Kernel';
  op: string;
  inputs: ValueRef[];
  inputNames: string[];
  /** The kernel takes its inputs as an array (Concat, AddN, Pack, ...). */
  variadic: boolean;
  attrs: Attrs;
  /** The kernel returned an array (even of one element). */
  multiOutput: boolean;
  outputs: TensorSpec[];
  /** Index in Program.sites of where the user's code made this kernel (recorded inside If/While
   * bodies, whose errors depend on the data), for errors raised when the graph runs. */
  site?: number;
}

export type RandomOp = 'randomUniform' | 'randomNormal' | 'truncatedNormal' | 'randomStandardNormal' |
  'randomGamma' | 'randomUniformInt' | 'multinomial' | 'dropout';

/** An argument of a random op: a graph input (tensor) or a plain value. */
export type RandomArg = { input: number } | { value: AttrValue };

/**
 * A tfjs random op (they are not kernels: they draw in JS), re-drawn on every run. `args` are the
 * op's positional arguments; an absent seed stays absent so every run draws a fresh sequence.
 */
export interface RandomNode {
  kind: 'Random';
  op: RandomOp;
  inputs: ValueRef[];
  args: RandomArg[];
  outputs: TensorSpec[];
}

/** inputs = [cond, ...captures]; both branches take the captures as parameters. */
export interface IfNode {
  kind: 'If';
  inputs: ValueRef[];
  then: Graph;
  else: Graph;
  origin?: string;
  outputs: TensorSpec[];
}

/**
 * inputs = [...loop variables (loopVars of them), ...invariants]. cond and body take all inputs as
 * parameters; cond returns one bool scalar, body returns the next loop variables.
 */
export interface WhileNode {
  kind: 'While';
  inputs: ValueRef[];
  loopVars: number;
  cond: Graph;
  body: Graph;
  origin?: string;
  outputs: TensorSpec[];
}

export type ListOp = 'EmptyTensorList' | 'TensorListPushBack' | 'TensorListPopBack' | 'TensorListPopFront' |
  'TensorListLength' | 'TensorListGetItem' | 'TensorListSetItem' | 'TensorListStack' | 'TensorListConcat';

/**
 * A list value operation (TF's TensorList ops; ONNX SequenceEmpty / SequenceInsert / SequenceAt +
 * SequenceErase / SequenceLength / ConcatFromSequence). Lists are values, not state: PushBack and
 * PopBack return a new list and leave their input list as it was. The element spec of a list is
 * its TensorSpec with `list: 1` (a dim of -1: it differs between elements).
 *   EmptyTensorList: () -> list
 *   TensorListPushBack: (list, element) -> list
 *   TensorListPopBack: (list) -> (list, element), the last element pushed
 *   TensorListPopFront: (list) -> (list, element), the first element (shift())
 *   TensorListLength: (list) -> int32 scalar
 *   TensorListGetItem: (list, index: int32 scalar) -> element (0 <= index < length, else an error)
 *   TensorListSetItem: (list, index: int32 scalar, element) -> list with element at index (index >= 0;
 *     at or past the end, the list grows to index + 1, as a JS array does: elements between are holes,
 *     whose reads are errors when the graph runs)
 *   TensorListStack: (list) -> the elements stacked on a new first axis (tf.stack; attrs.axis)
 *   TensorListConcat: (list) -> the elements concatenated along attrs.axis (tf.concat)
 * Stack and Concat of an empty list fail, as tf.stack([]) and tf.concat([]) do, except a Concat with
 * attrs.emptyRows (made by the optimizer, never by tracing: accumulated_products.ts), which gives
 * no rows: a tensor of its output spec with the unknown joined dim 0.
 */
export interface ListNode {
  kind: 'List';
  op: ListOp;
  inputs: ValueRef[];
  attrs?: Attrs;
  outputs: TensorSpec[];
  /** Index in Program.sites of the user's code that made the node (errors when the graph runs). */
  site?: number;
}

export type PrintPart = { text: string } | { input: number; verbose: boolean };

/** Host callback: console.log of the parts, tensors formatted as tfjs does (t.toString()). */
export interface PrintNode {
  kind: 'Print';
  inputs: ValueRef[];
  parts: PrintPart[];
  outputs: TensorSpec[];
}

/** Host check: throws Program.errors[error] (a new error of its class) when inputs[0] is false. */
export interface CheckNode {
  kind: 'Check';
  inputs: ValueRef[];
  error: number;
  origin?: string;
  outputs: TensorSpec[];
}

/**
 * A call of Program.functions[function] (staged recursion: a function that calls itself where a
 * tensor decides when it stops). inputs = the function's parameters; outputs = its results. The
 * function graph may hold Calls of itself: the executor runs each call with a frame of its own.
 */
export interface CallNode {
  kind: 'Call';
  function: number;
  inputs: ValueRef[];
  origin?: string;
  outputs: TensorSpec[];
}

export type Node = InputNode | ConstantNode | ReadVariableNode | AssignVariableNode | KernelNode | RandomNode |
  IfNode | WhileNode | ListNode | PrintNode | CheckNode | CallNode;

export interface Graph {
  numParams: number;
  nodes: Node[];
  results: ValueRef[];
}

/** A staged function body: the graph and the tables its nodes refer to. */
export interface Program {
  graph: Graph;
  constants: tf.Tensor[];
  variables: tf.Variable[];
  errors: Error[];
  /** Creation stacks of nodes (captured, not formatted: formatting happens only for an error). */
  sites?: object[];
  /**
   * `stage(fn, { maximumIterations })`: a While that would run more iterations than this (per
   * run of the loop) throws a StagingError naming its line instead (the tfjs executor checks it).
   */
  maximumIterations?: number;
  /**
   * Function graphs that Call nodes call (staged recursion, staging/staged_calls.ts), by index; they
   * share the program's tables (constants, variables, errors, sites).
   */
  functions?: Graph[];
  /**
   * Fields of the user's objects the graph reads as its last parameters and returns as its last
   * results (staging/object_state.ts), as code names them ('this.best').
   */
  objectState?: { inputs: string[]; outputs: string[] };
  /**
   * `stage(fn, { timeBudgetMs })`: an asynchronous run (`staged.run(...)`) still in a While after
   * this many milliseconds throws a StagingError naming the loop (the tfjs executor checks it
   * between iterations).
   */
  timeBudgetMs?: number;
  /** What the optimizer changed beyond removing and merging nodes, one line each (inspect() shows them). */
  optimizations?: string[];
  /**
   * The same program before the rewrites whose gradients tfjs's kernel gradients do not give
   * (optimize/projection_hoisting.ts), sharing this one's tables: what runs under a gradient tape.
   */
  forGradients?: Program;
}

/**
 * A deep copy of a graph (plain data: arrays and plain objects copied field by field, anything
 * else such as a typed-array attr by structuredClone). Several times faster than structuredClone
 * of the whole graph; unlike it, an object two nodes share becomes two copies (list specs, which
 * only the trace in progress relies on sharing).
 */
export function copyGraph(graph: Graph): Graph {
  return copyPlainData(graph);
}

function copyPlainData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyPlainData(value[i]);
    return out as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyPlainData((value as Record<string, unknown>)[key]);
  return out as T;
}

export function nodeInputs(node: Node): ValueRef[] {
  return 'inputs' in node ? node.inputs : [];
}

/** Nodes whose execution is observable beyond their outputs: kept even when their outputs are unused. */
export function hasSideEffects(node: Node): boolean {
  switch (node.kind) {
    case 'AssignVariable':
    case 'Print':
    case 'Check':
    case 'Call': // (the function may do any of these; it is kept whole)
      return true;
    case 'List':
      // Reading an element fails when the index is out of range (where JS gives undefined, which
      // `xs[i] === undefined` may test): a read whose value is unused still runs.
      return node.op === 'TensorListGetItem';
    case 'If':
      return graphHasSideEffects(node.then) || graphHasSideEffects(node.else);
    case 'While':
      return graphHasSideEffects(node.cond) || graphHasSideEffects(node.body);
    default:
      return false;
  }
}

export function graphHasSideEffects(graph: Graph): boolean {
  return graph.nodes.some(hasSideEffects);
}

export interface GraphStats {
  nodes: number;
  kernels: number;
  ifs: number;
  whiles: number;
  constants: number;
  /** List nodes (EmptyTensorList, TensorListPushBack, ...). */
  lists: number;
}

/** Counts over the graph and all its sub-graphs. */
/** `functions`: the program's function graphs (staged recursion), counted once each. */
export function graphStats(graph: Graph, functions?: Graph[]): GraphStats {
  const stats: GraphStats = { nodes: 0, kernels: 0, ifs: 0, whiles: 0, constants: 0, lists: 0 };
  const visit = (g: Graph): void => {
    for (const node of g.nodes) {
      stats.nodes++;
      if (node.kind === 'Kernel') stats.kernels++;
      if (node.kind === 'Constant') stats.constants++;
      if (node.kind === 'List') stats.lists++;
      if (node.kind === 'If') {
        stats.ifs++;
        visit(node.then);
        visit(node.else);
      }
      if (node.kind === 'While') {
        stats.whiles++;
        visit(node.cond);
        visit(node.body);
      }
    }
  };
  visit(graph);
  for (const f of functions ?? []) visit(f);
  return stats;
}

export const shapeText = (shape: readonly number[]): string =>
  `[${shape.map((d) => (d === UNKNOWN_DIM ? '?' : String(d))).join(',')}]`;
export const specText = (s: TensorSpec): string =>
  `${'list<'.repeat(s.list ?? 0)}${s.dtype}${shapeText(s.shape)}${'>'.repeat(s.list ?? 0)}`;

/** Whether any value of the graph or its sub-graphs has an unknown dim. */
export function graphHasUnknownDims(graph: Graph): boolean {
  return graph.nodes.some((node) => node.outputs.some(hasUnknownDims) ||
    (node.kind === 'If' && (graphHasUnknownDims(node.then) || graphHasUnknownDims(node.else))) ||
    (node.kind === 'While' && (graphHasUnknownDims(node.cond) || graphHasUnknownDims(node.body))));
}
const refText = (r: ValueRef): string => (r.output === 0 ? `%${r.node}` : `%${r.node}:${r.output}`);

/** A readable listing, one node per line, sub-graphs indented. */
export function dumpGraph(program: Program, graph: Graph = program.graph, indent = ''): string {
  const lines: string[] = [];
  graph.nodes.forEach((node, i) => {
    const outs = node.outputs.map(specText).join(', ');
    const head = `${indent}%${i} = `;
    const args = nodeInputs(node).map(refText).join(', ');
    const tail = outs ? ` : ${outs}` : '';
    switch (node.kind) {
      case 'Input':
        lines.push(`${head}Input #${node.param}${tail}`);
        break;
      case 'Constant': {
        const t = program.constants[node.constant];
        lines.push(`${head}Constant c${node.constant}${t && t.size === 1 && !t.isDisposed ? ` = ${t.dataSync()[0]}` : ''}${tail}`);
        break;
      }
      case 'ReadVariable':
        lines.push(`${head}ReadVariable '${program.variables[node.variable]?.name}'${tail}`);
        break;
      case 'AssignVariable':
        lines.push(`${head}AssignVariable '${program.variables[node.variable]?.name}' <- ${args}`);
        break;
      case 'Kernel': {
        const attrs = Object.keys(node.attrs).length ? ` ${JSON.stringify(node.attrs)}` : '';
        lines.push(`${head}${node.op}(${args})${attrs}${tail}`);
        break;
      }
      case 'Random':
        lines.push(`${head}Random ${node.op}(${JSON.stringify(node.args)}; ${args})${tail}`);
        break;
      case 'List': {
        const attrs = node.attrs && Object.keys(node.attrs).length ? ` ${JSON.stringify(node.attrs)}` : '';
        lines.push(`${head}${node.op}(${args})${attrs}${tail}`);
        break;
      }
      case 'Print':
        lines.push(`${head}Print(${args}) ${JSON.stringify(node.parts)}`);
        break;
      case 'Check':
        lines.push(`${head}Check(${args}) throws ${program.errors[node.error]?.name}: ` +
          `${JSON.stringify(program.errors[node.error]?.message)}`);
        break;
      case 'If':
        lines.push(`${head}If(${args})${tail}${node.origin ? `  // ${node.origin}` : ''}`);
        lines.push(`${indent}  then:`, dumpGraph(program, node.then, indent + '    '));
        lines.push(`${indent}  else:`, dumpGraph(program, node.else, indent + '    '));
        break;
      case 'While':
        lines.push(`${head}While(${args}; ${node.loopVars} loop vars)${tail}${node.origin ? `  // ${node.origin}` : ''}`);
        lines.push(`${indent}  cond:`, dumpGraph(program, node.cond, indent + '    '));
        lines.push(`${indent}  body:`, dumpGraph(program, node.body, indent + '    '));
        break;
      case 'Call':
        lines.push(`${head}Call f${node.function}(${args})${tail}${node.origin ? `  // ${node.origin}` : ''}`);
        break;
    }
  });
  lines.push(`${indent}return (${graph.results.map(refText).join(', ')})`);
  // The function graphs that Call nodes call, after the program's own graph.
  if (graph === program.graph) {
    program.functions?.forEach((f, k) => lines.push(`function f${k}(${f.numParams} params):`, dumpGraph(program, f, '  ')));
  }
  return lines.join('\n');
}
