/**
 * Reverse-mode differentiation of a sub-graph (a branch or a loop body), recorded into the graph
 * being built (tracer.current): the gradient of every kernel node is tfjs's registered gradient
 * (tf.getGradient(kernel).gradFunc) called on placeholders that stand for the forward values it
 * saves, under the tracer, so that the gradient's own kernels become nodes. How a forward value
 * reaches the backward graph (a parameter fed by an extra If output, an element popped from an
 * accumulator, a loop invariant, a constant) is the caller's business: `access`.
 *
 * Nested control flow is prepared first (in forward order, since preparing inserts nodes) and its
 * backward node emitted when the reverse pass reaches it.
 */
import * as tf from '@tensorflow/tfjs-core';
import { GraphBuilder } from '../graph/builder';
import { StagingError } from '../common/errors';
import type { Graph, KernelNode, Node, TensorSpec, ValueRef } from '../graph/graph';
import { refuseUnknownDims } from '../staging/shape_relaxation';
import { placeholderLike } from '../staging/staged_values';
import type { Tracer } from '../staging/tracer';
import { bindInits, insertNodes, isDifferentiable, readVariables, refKey, specOfRef, subgraphs } from './ir';
import type { PrepareControlFlow, PreparedGradient } from './prepared';
import { isFused, unfuse } from './unfuse';

export interface ForwardAccess {
  /** Forward value `ref` (of the graph being differentiated) as a value of the backward graph. */
  ref(ref: ValueRef): ValueRef;
}

export interface Differentiation {
  tracer: Tracer;
  /** The forward graph; its nested control flow is prepared (changed) in place. */
  graph: Graph;
  /** Gradients flowing into results of the graph (tensors of the backward graph). */
  seeds: { result: number; dy: tf.Tensor }[];
  access: ForwardAccess;
  /** Whether parameter p of the graph takes gradients (see liveParams). */
  differentiableParam(param: number): boolean;
  /** The variables gradients are taken for. */
  variables: Set<number>;
  /** The user's line of the control-flow node, for errors. */
  origin: string | undefined;
  /** Prepares the graph's own If and While nodes (control_flow.ts). */
  prepareNested: PrepareControlFlow;
}

export interface GraphGradients {
  /** Per parameter of the forward graph, its gradient (undefined: none flows there). */
  params: (tf.Tensor | undefined)[];
  /** Per variable read in the graph (by index), its gradient. */
  variables: Map<number, tf.Tensor>;
}

export function differentiateGraph(d: Differentiation): GraphGradients {
  const { tracer, graph } = d;
  // Nested control flow is prepared and fused kernels are split before the reverse pass: both
  // insert nodes, which moves the nodes after them.
  const prepared = new Map<Node, PreparedGradient>();
  const before = liveValues(graph, d.differentiableParam, d.variables);
  for (const node of [...graph.nodes]) {
    if (!before.get(node)!.some(Boolean)) continue;
    if (isFused(node)) unfuse(graph, graph.nodes.indexOf(node), d.origin);
    if (node.kind !== 'If' && node.kind !== 'While') continue;
    const preparation = d.prepareNested(tracer, node, {
      specs: node.inputs.map((r) => specOfRef(graph, r)),
      wrt: node.inputs.map((r) => before.get(graph.nodes[r.node])?.[r.output] ?? false),
      variables: d.variables,
    });
    if (preparation.inits.length > 0) {
      node.inputs = bindInits(node.inputs, insertNodes(graph, graph.nodes.indexOf(node), preparation.inits));
    }
    prepared.set(node, preparation.prepared);
  }
  const live = liveValues(graph, d.differentiableParam, d.variables);
  const isLive = (r: ValueRef): boolean => live.get(graph.nodes[r.node])?.[r.output] ?? false;

  const grads = new Map<string, tf.Tensor>();
  const addGrad = (ref: ValueRef, g: tf.Tensor): void => {
    const key = refKey(ref);
    const previous = grads.get(key);
    grads.set(key, previous === undefined ? g : tf.add(previous, g));
  };
  for (const seed of d.seeds) addGrad(graph.results[seed.result], seed.dy);

  const forwardTensors = new Map<string, tf.Tensor>();
  /** A placeholder for forward value `ref`, bound to where it is in the backward graph. */
  const forwardTensor = (ref: ValueRef): tf.Tensor => {
    const key = refKey(ref);
    let t = forwardTensors.get(key);
    if (t === undefined) {
      t = bindPlaceholder(tracer, d.access.ref(ref), specOfRef(graph, ref));
      forwardTensors.set(key, t);
    }
    return t;
  };

  const params: (tf.Tensor | undefined)[] = [];
  const variables = new Map<number, tf.Tensor>();
  for (let i = graph.nodes.length - 1; i >= 0; i--) {
    const node = graph.nodes[i];
    const dys = node.outputs.map((_, k) => grads.get(`${i}:${k}`));
    if (dys.every((dy) => dy === undefined)) continue;
    switch (node.kind) {
      case 'Input':
        params[node.param] = sum(params[node.param], dys[0]!);
        break;
      case 'ReadVariable':
        variables.set(node.variable, sum(variables.get(node.variable), dys[0]!));
        break;
      case 'Kernel':
        kernelGradient(graph, i, dys, isLive, forwardTensor, d.origin).forEach((dx, j) => {
          if (dx !== undefined) addGrad(node.inputs[j], dx);
        });
        break;
      case 'If':
      case 'While': {
        const g = prepared.get(node)!.emit(dys, { ref: (r) => d.access.ref(r), node: i });
        for (const { ref, grad } of g.inputs) if (isLive(ref)) addGrad(ref, grad);
        for (const [v, grad] of g.variables) variables.set(v, sum(variables.get(v), grad));
        break;
      }
      default:
        // Constants, random draws and lists: nothing flows further back.
        break;
    }
  }
  return { params, variables };
}

const sum = (a: tf.Tensor | undefined, b: tf.Tensor): tf.Tensor => (a === undefined ? b : tf.add(a, b));

/**
 * Gradients of the inputs of kernel node `index` of `graph` (undefined for inputs that take none),
 * from tfjs's registered gradient.
 */
function kernelGradient(graph: Graph, index: number, dys: (tf.Tensor | undefined)[], isLive: (ref: ValueRef) => boolean,
                        forwardTensor: (ref: ValueRef) => tf.Tensor, origin: string | undefined): (tf.Tensor | undefined)[] {
  const node = graph.nodes[index] as KernelNode;
  if (isRowGather(graph, node)) return rowGatherGradient(graph, node, dys[0]!, isLive, forwardTensor);
  const config = tf.getGradient(node.op);
  if (config === undefined) {
    throw new StagingError(`autograph-ts: no gradient is registered for the tfjs kernel '${node.op}', used in the ` +
      `staged conditional or loop${origin ? ` at ${origin}` : ''} that a gradient is computed through. ` +
      'Compute that value outside the function being differentiated.');
  }
  const full = dys.map((dy, k) => dy ?? zerosTensor(node.outputs[k]));
  // What the engine saves for this gradient (Engine.getTensorsForGradient): inputs, then outputs.
  const savedInputs = config.saveAllInputs ? node.inputs
    : (config.inputsToSave ?? []).map((name) => node.inputs[node.inputNames.indexOf(name)]);
  const savedOutputs = node.outputs.flatMap((_, k) => (config.outputsToSave?.[k] ? [{ node: index, output: k }] : []));
  const saved = [...savedInputs, ...savedOutputs].map((r) => (r === undefined ? undefined : forwardTensor(r)));
  const gradients = config.gradFunc(full.length > 1 ? full : full[0], saved as tf.Tensor[], node.attrs as tf.NamedAttrMap);
  return node.inputs.map((input, j) => {
    if (!isLive(input)) return undefined;
    const thunk = gradients[node.inputNames[j]];
    if (thunk === undefined) {
      throw new StagingError(`autograph-ts: tfjs's gradient of kernel '${node.op}' gives nothing for its input ` +
        `'${node.inputNames[j]}'${origin ? ` (in the staged code at ${origin})` : ''}.`);
    }
    const dx = thunk();
    const spec = specOfRef(graph, input);
    if (dx.shape.length !== spec.shape.length || dx.shape.some((n, k) => n !== spec.shape[k])) {
      throw new Error(`autograph-ts internal: the gradient of '${node.op}' input '${node.inputNames[j]}' has shape ` +
        `[${dx.shape}], expected [${spec.shape}]`);
    }
    return dx;
  });
}

/** GatherV2(x, i) of one row along axis 0, i a scalar: what `for (const row of x)` stages. */
function isRowGather(graph: Graph, node: KernelNode): boolean {
  if (node.op !== 'GatherV2' || node.inputs.length !== 2 || Number(node.attrs.batchDims ?? 0) !== 0) return false;
  const x = specOfRef(graph, node.inputs[0]);
  const axis = Number(node.attrs.axis ?? 0);
  return specOfRef(graph, node.inputs[1]).shape.length === 0 && x.shape.length > 0 && (axis === 0 || axis === -x.shape.length);
}

/**
 * The gradient of a row gather: dy in row i, zeros elsewhere (a one-hot mask times dy). tfjs's
 * registered gradient scatters with UnsortedSegmentSum, which the wasm backend lacks; eager
 * iteration (tf.unstack) does not need it, so neither does the staged loop.
 */
function rowGatherGradient(graph: Graph, node: KernelNode, dy: tf.Tensor, isLive: (ref: ValueRef) => boolean,
                           forwardTensor: (ref: ValueRef) => tf.Tensor): (tf.Tensor | undefined)[] {
  if (!isLive(node.inputs[0])) return [undefined, undefined];
  const x = specOfRef(graph, node.inputs[0]);
  const rows = x.shape[0];
  // (tf.cast / tf.expandDims, not chained methods: the ES-module build's typings lack those on these types.)
  const mask = tf.reshape(tf.cast(tf.oneHot(forwardTensor(node.inputs[1]) as tf.Tensor1D, rows), 'float32'),
    [rows, ...x.shape.slice(1).map(() => 1)]);
  return [tf.mul(mask, tf.expandDims(dy, 0)), undefined];
}

/** Zeros of `spec` in the current graph (a Fill kernel: no constant of that size is kept). */
export function zerosTensor(spec: TensorSpec): tf.Tensor {
  refuseUnknownDims(spec);
  return tf.fill([...spec.shape], 0, spec.dtype);
}

/** A zeros tensor standing for `ref` of the current graph (kernels run on it are recorded on ref). */
export function bindPlaceholder(tracer: Tracer, ref: ValueRef, spec: TensorSpec): tf.Tensor {
  refuseUnknownDims(spec);
  const t = placeholderLike(tracer, spec);
  tracer.current.values.set(t, ref);
  return t;
}

/**
 * Which node outputs carry gradients: float values that depend on a differentiable parameter or
 * one of `variables` (an If/While reading one counts).
 */
function liveValues(graph: Graph, differentiableParam: (param: number) => boolean, variables: Set<number>): Map<Node, boolean[]> {
  const live = new Map<Node, boolean[]>();
  const isLive = (r: ValueRef): boolean => live.get(graph.nodes[r.node])?.[r.output] ?? false;
  for (const node of graph.nodes) {
    let depends: boolean;
    switch (node.kind) {
      case 'Input':
        depends = differentiableParam(node.param);
        break;
      case 'ReadVariable':
        depends = variables.has(node.variable);
        break;
      case 'Kernel':
        depends = node.inputs.some(isLive);
        break;
      case 'If':
      case 'While':
        depends = node.inputs.some(isLive) || subgraphs(node).some((g) => [...readVariables(g)].some((v) => variables.has(v)));
        break;
      case 'Call':
        // (program_gradient.ts leaves programs with calls to the tape; a gradient graph never has one.)
        throw new StagingError('autograph-ts internal: a gradient graph through a staged recursive call');
      case 'List':
        // Lists hold the intermediates of a gradient computed in the graph; gradients do not
        // flow through them (a gradient of that gradient would silently miss this path).
        if (node.op === 'TensorListPushBack' && isLive(node.inputs[1])) {
          throw new StagingError('autograph-ts: a gradient through a list of tensors is not staged: an array that a ' +
            'staged loop grows holds a value the gradient depends on, or a gradient of a gradient computed through a ' +
            'staged loop would flow through the first one\'s accumulators. Take the gradient from outside the staged ' +
            'function (`tf.grad((x) => staged(x))`).');
        }
        depends = false;
        break;
      default:
        depends = false;
    }
    live.set(node, node.outputs.map((spec) => depends && isDifferentiable(spec)));
  }
  return live;
}

/**
 * Which parameters of a loop body take gradients: loop variables and invariants in `wrt`, and
 * loop variables whose next value depends on one of those (to a fixed point).
 */
export function liveParams(body: Graph, loopVars: number, wrt: boolean[], variables: Set<number>): boolean[] {
  const live = [...wrt];
  for (;;) {
    const values = liveValues(body, (p) => live[p], variables);
    let changed = false;
    for (let k = 0; k < loopVars; k++) {
      const r = body.results[k];
      if (!live[k] && values.get(body.nodes[r.node])![r.output]) live[k] = changed = true;
    }
    if (!changed) return live;
  }
}

/**
 * The parameters of a backward graph being traced, with where each one's value comes from. A
 * parameter is made on first use (`get`); captures the tracer adds are sources too (`finish`).
 */
export class BackwardParams<S> {
  private readonly sources: S[] = [];
  private readonly byKey = new Map<string, ValueRef>();

  constructor(readonly builder: GraphBuilder) {}

  get(key: string, spec: TensorSpec, source: () => S): ValueRef {
    let ref = this.byKey.get(key);
    if (ref === undefined) {
      ref = this.builder.addParam(spec);
      this.sources[this.builder.graph.numParams - 1] = source();
      this.byKey.set(key, ref);
    }
    return ref;
  }

  /** Every parameter's source, in parameter order. */
  finish(capture: (outer: ValueRef) => S): S[] {
    for (const c of this.builder.captures) this.sources[c.param] = capture(c.outer);
    return this.sources;
  }
}
