/**
 * Unknown dims without symbolic shapes. A trace runs every kernel on real tensors, so each value
 * has concrete dims and every JS number the user's code (or a tfjs op) derives from a shape —
 * `x.shape[0]`, a reshape target, a slice size, an unrolled loop's count — is baked into the graph.
 * A graph is therefore shared between dims only when it is the SAME graph for two different dims:
 * two traces that differ only in some dims are compared node by node (kinds, ops, attributes,
 * inputs, constant values, sub-graphs); when they agree, the graph is generic in those dims and its
 * specs mark them unknown (UNKNOWN_DIM); when they do not, the first difference says which node
 * depends on the dims. This is how tf.function's reduce_retracing, tf.while_loop's shape invariants
 * and an input_signature with None dims are done here (backends/stage.ts decides when to compare).
 */
import * as tf from '@tensorflow/tfjs-core';
import { StagingError } from '../common/errors';
import { copyGraph, type Graph, hasUnknownDims, type KernelNode, mergeShapes, UNKNOWN_DIM, type Node, type Program, shapeText, type TensorSpec } from '../graph/graph';
import { siteLocation } from '../../runtime/user_frames';
import { flatten } from '../common/nest';
import type { DimRead } from './dim_reads';

/**
 * A trace as it was recorded, before optimization: the graph and what its constants hold. Made by
 * rawTraceOf as a view of the program itself; frozenRawTrace copies it before the optimizer
 * changes the program (a trace that is never optimized, or compared before it is, is never copied).
 */
export interface RawTrace {
  graph: Graph;
  /** Per constant: its dtype, shape and values, as a string (compared, never parsed). */
  readonly constants: string[];
  sites: object[];
  /** The messages of the errors Check nodes throw. */
  errors: string[];
  /** fn's result outside the graph: its structure and JS values (a JS number from a dim shows here). */
  result: string;
}

/** The trace `program` holds as a RawTrace: a view of it, valid until the program is optimized (see frozenRawTrace). */
export function rawTraceOf(program: Program, result: string): RawTrace {
  let constants: string[] | undefined;
  return {
    result,
    errors: program.errors.map((e) => `${e?.name}: ${e?.message}`),
    graph: program.graph,
    get constants(): string[] {
      return (constants ??= program.constants.map(constantKey));
    },
    sites: program.sites ?? [],
  };
}

/** A copy of `raw` that no longer depends on its program (call before the program is optimized). */
export function frozenRawTrace(raw: RawTrace): RawTrace {
  return { result: raw.result, errors: raw.errors, sites: raw.sites, constants: raw.constants, graph: copyGraph(raw.graph) };
}

/** Small constants compare by value; larger ones (captured weights) by the data they hold. */
const MAX_COMPARED_BY_VALUE = 64;
const dataIds = new WeakMap<object, number>();
let nextDataId = 1;

/**
 * A constant's content. A small one (a JS number made a tensor, a shape) by its values; a larger
 * one by its data's identity: a captured tensor is the same data in both traces, and a large
 * constant made anew in each trace compares as different (no relaxation: safe, never wrong).
 */
function constantKey(t: tf.Tensor): string {
  const head = `${t.dtype}${shapeText(t.shape)}`;
  if (t.size > MAX_COMPARED_BY_VALUE) {
    let id = dataIds.get(t.dataId);
    if (id === undefined) dataIds.set(t.dataId, (id = nextDataId++));
    return `${head}#data ${id}`;
  }
  return `${head}#${JSON.stringify(Array.from(t.dataSync() as ArrayLike<number | string>))}`;
}

/**
 * Where two traces of one function differ other than in dims, described for the user; undefined
 * when they are the same graph up to dims.
 */
export function firstDifference(a: RawTrace, b: RawTrace): string | undefined {
  if (a.result !== b.result) return `the function returns other JS values (${a.result} vs ${b.result})`;
  return graphDifference(a, b, a.graph, b.graph, 'the function body');
}

function graphDifference(a: RawTrace, b: RawTrace, ga: Graph, gb: Graph, where: string): string | undefined {
  if (ga.numParams !== gb.numParams) return `${where} takes ${ga.numParams} vs ${gb.numParams} values`;
  const n = Math.min(ga.nodes.length, gb.nodes.length);
  for (let i = 0; i < n; i++) {
    const na = ga.nodes[i];
    const nb = gb.nodes[i];
    const problem = nodeDifference(a, b, na, nb, where);
    if (problem !== undefined) return `${describeNode(a, na)}${problem}`;
  }
  if (ga.nodes.length !== gb.nodes.length) {
    const extra = ga.nodes.length > n ? ga.nodes[n] : gb.nodes[n];
    return `${where} records ${ga.nodes.length} vs ${gb.nodes.length} operations (the first extra one: ` +
      `${describeNode(ga.nodes.length > n ? a : b, extra)}) — a JS loop or condition on a dim`;
  }
  if (JSON.stringify(ga.results) !== JSON.stringify(gb.results)) return `${where} returns other values`;
  return undefined;
}

function nodeDifference(a: RawTrace, b: RawTrace, na: Node, nb: Node, where: string): string | undefined {
  if (na.kind !== nb.kind) return ` is a ${na.kind} in one trace and a ${nb.kind} in the other`;
  const specProblem = specsDifference(na.outputs, nb.outputs);
  if (specProblem !== undefined) return specProblem;
  const { outputs: _oa, ...restA } = na as Node & { site?: number };
  const { outputs: _ob, ...restB } = nb as Node & { site?: number };
  delete restA.site;
  delete restB.site;
  switch (na.kind) {
    case 'Constant': {
      const cb = (nb as typeof na).constant;
      if (a.constants[na.constant] !== b.constants[cb]) {
        return ` is a constant that differs between the two dims (${a.constants[na.constant].split('#')[0]} vs ` +
          `${b.constants[cb].split('#')[0]}): a JS value computed from a dim (\`x.shape[0]\`, \`x.size\`)`;
      }
      return undefined;
    }
    case 'Check':
      if (a.errors[na.error] !== b.errors[(nb as typeof na).error]) return ` throws another message (${a.errors[na.error]})`;
      return JSON.stringify(restA) === JSON.stringify(restB) ? undefined : ' has other inputs';
    case 'If': {
      const nbIf = nb as typeof na;
      if (JSON.stringify(na.inputs) !== JSON.stringify(nbIf.inputs)) return ' has other inputs';
      return graphDifference(a, b, na.then, nbIf.then, `the if branch of the conditional${originText(na.origin)}`) ??
        graphDifference(a, b, na.else, nbIf.else, `the else branch of the conditional${originText(na.origin)}`);
    }
    case 'Call':
      // A function graph is traced for its arguments' dims: calls are never shared between dims.
      return ` is a staged recursive call${originText(na.origin)}, whose function graph is traced for the dims of its arguments`;
    case 'While': {
      const nbWhile = nb as typeof na;
      if (JSON.stringify(na.inputs) !== JSON.stringify(nbWhile.inputs) || na.loopVars !== nbWhile.loopVars) return ' has other inputs';
      return graphDifference(a, b, na.cond, nbWhile.cond, `the condition of the loop${originText(na.origin)}`) ??
        graphDifference(a, b, na.body, nbWhile.body, `the body of the loop${originText(na.origin)}`);
    }
    default: {
      const ta = JSON.stringify(restA);
      const tb = JSON.stringify(restB);
      if (ta === tb) return undefined;
      if (na.kind === 'Kernel' && nb.kind === 'Kernel' && reshapeDim(na, nb) !== undefined &&
          JSON.stringify({ ...restA, attrs: {} }) === JSON.stringify({ ...restB, attrs: {} })) return undefined;
      if (na.kind === 'Kernel' && nb.kind === 'Kernel' && JSON.stringify(na.attrs) !== JSON.stringify(nb.attrs)) {
        return ` has attributes computed from the dims (${JSON.stringify(na.attrs)} vs ${JSON.stringify(nb.attrs)})`;
      }
      return ' has other inputs';
    }
  }
}

/**
 * A Reshape whose target shape tfjs computed from the traced dims (squeeze, a batched matMul, a
 * gradient) differs between the traces in one position only, where it is the output's dim: that
 * position is inferred (-1) when the graph runs. The other dims are fixed, so the size fixes it —
 * to the only value that a valid reshape of the same program could have had. Returns the position.
 */
function reshapeDim(a: KernelNode, b: KernelNode): number | undefined {
  if (a.op !== 'Reshape' || b.op !== 'Reshape') return undefined;
  const sa = a.attrs.shape;
  const sb = b.attrs.shape;
  if (!Array.isArray(sa) || !Array.isArray(sb) || sa.length !== sb.length ||
      Object.keys(a.attrs).length !== 1 || Object.keys(b.attrs).length !== 1) return undefined;
  const differ = sa.flatMap((d, i) => (d !== sb[i] ? [i] : []));
  if (differ.length !== 1) return undefined;
  const p = differ[0];
  // (A side relaxed already has -1 there, and only there.)
  const fits = (shape: unknown[], node: KernelNode): boolean =>
    shape.every((d, i) => i === p || d !== -1) && (shape[p] === -1 || shape[p] === node.outputs[0].shape[p]);
  return fits(sa, a) && fits(sb, b) ? p : undefined;
}

function specsDifference(a: TensorSpec[], b: TensorSpec[]): string | undefined {
  if (a.length !== b.length) return ` has ${a.length} vs ${b.length} outputs`;
  for (let i = 0; i < a.length; i++) {
    if (a[i].dtype !== b[i].dtype || a[i].shape.length !== b[i].shape.length || (a[i].list ?? 0) !== (b[i].list ?? 0)) {
      return ` gives ${a[i].dtype}${shapeText(a[i].shape)} vs ${b[i].dtype}${shapeText(b[i].shape)}`;
    }
  }
  return undefined;
}

function describeNode(trace: RawTrace, node: Node): string {
  const what = node.kind === 'Kernel' ? `the ${node.op}` : node.kind === 'Constant' ? 'a value' : `the ${node.kind}`;
  const site = node.kind === 'Kernel' && node.site !== undefined ? trace.sites[node.site] : undefined;
  const location = site !== undefined ? siteLocation(site)?.location : 'origin' in node ? node.origin : undefined;
  return `${what}${location ? ` at ${location}` : ''}`;
}

const originText = (origin: string | undefined): string => (origin ? ` (${origin})` : '');

/**
 * Marks unknown, in `target`, every dim that differs from `other` (the same graph up to dims, as
 * firstDifference established): values, parameters and sub-graphs alike.
 */
export function mergeDims(target: Graph, other: Graph): void {
  target.nodes.forEach((node, i) => {
    const peer = other.nodes[i];
    const inferred = node.kind === 'Kernel' && peer.kind === 'Kernel' ? reshapeDim(node, peer) : undefined;
    if (inferred !== undefined && node.kind === 'Kernel') {
      node.attrs = { ...node.attrs, shape: (node.attrs.shape as number[]).map((d, k) => (k === inferred ? -1 : d)) };
    }
    node.outputs = node.outputs.map((spec, k) => ({ ...spec, shape: mergeShapes(spec.shape, peer.outputs[k].shape) }));
    if (node.kind === 'If' && peer.kind === 'If') {
      mergeDims(node.then, peer.then);
      mergeDims(node.else, peer.else);
    }
    if (node.kind === 'While' && peer.kind === 'While') {
      mergeDims(node.cond, peer.cond);
      mergeDims(node.body, peer.body);
    }
  });
}

/**
 * In-graph gradients take shapes from specs (zeros of a value's shape, the shapes tfjs's gradient
 * functions read): a value whose dims change has none, so its gradient is refused, never guessed.
 */
export function refuseUnknownDims(spec: TensorSpec): void {
  if (!hasUnknownDims(spec)) return;
  throw new StagingError(`autograph-ts: a gradient through a value of unknown dims (${spec.dtype}${shapeText(spec.shape)}: ` +
    'a loop variable whose dims change, or an if whose branches give other dims) is not supported inside a staged ' +
    'function. Keep its dims fixed (pad, or preallocate), or take the gradient outside the staged function.');
}

/**
 * The first read of a dim by the user's code (recorded per graph of `graph` in an audited trace)
 * whose value differs in `other` (the same graph up to dims, aligned node by node) or is unknown
 * in either: the graph depends on that dim however the two traces compare.
 */
export function readOfUnknownDim(graph: Graph, other: Graph, audit: Map<Graph, DimRead[]>): string | undefined {
  for (const read of audit.get(graph) ?? []) {
    const a = graph.nodes[read.ref.node]?.outputs[read.ref.output]?.shape;
    const b = other.nodes[read.ref.node]?.outputs[read.ref.output]?.shape;
    if (a === undefined || b === undefined) continue;
    const unknown = (i: number): boolean => a[i] === UNKNOWN_DIM || b[i] === UNKNOWN_DIM || a[i] !== b[i];
    if (read.dim === 'size' ? a.some((_, i) => unknown(i)) : unknown(read.dim)) {
      return `${read.dim === 'size' ? 'the size' : `dim ${read.dim}`} of a ${a.length}-d value whose dims change ` +
        `(${shapeText(mergeShapes(a, b))})${read.location ? ` at ${read.location}` : ''}`;
    }
  }
  for (let i = 0; i < Math.min(graph.nodes.length, other.nodes.length); i++) {
    const node = graph.nodes[i];
    const peer = other.nodes[i];
    const inner = node.kind === 'If' && peer.kind === 'If'
      ? readOfUnknownDim(node.then, peer.then, audit) ?? readOfUnknownDim(node.else, peer.else, audit)
      : node.kind === 'While' && peer.kind === 'While'
        ? readOfUnknownDim(node.cond, peer.cond, audit) ?? readOfUnknownDim(node.body, peer.body, audit) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Arguments of a second trace with other sizes for the unknown dims. */
export interface Probe {
  args: unknown[];
  tensors: tf.Tensor[];
  /** Which stand-in a changing-dims value takes in this trace (see Tracer.variant). */
  variant: 1;
  why: string;
  dispose(): void;
}

/** `args` with every tensor whose pattern has unknown dims replaced by zeros of other sizes for them. */
export function probeFor(args: unknown[], tensors: tf.Tensor[], pattern: number[][] | undefined, why: string): Probe {
  const replaced = new Map<tf.Tensor, tf.Tensor>();
  tensors.forEach((t, i) => {
    const p = pattern?.[i];
    if (p === undefined || !p.includes(UNKNOWN_DIM)) return;
    // 2d + 3: other than d, and other than d for the usual integer maps of a dim (see staged_loop.ts).
    replaced.set(t, tf.zeros(t.shape.map((d, k) => (p[k] === UNKNOWN_DIM ? 2 * d + 3 : d)), t.dtype));
  });
  const swap = (value: unknown): unknown => (value instanceof tf.Tensor ? replaced.get(value) ?? value : value);
  const probeArgs = args.map((arg) => {
    const flat = flatten(arg);
    return flat.rebuild(flat.leaves.map(swap));
  });
  return {
    args: probeArgs, tensors: tensors.map((t) => swap(t) as tf.Tensor), variant: 1, why,
    dispose: () => replaced.forEach((t) => t.dispose()),
  };
}
