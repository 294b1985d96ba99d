/**
 * The gradient of a While, following the functional While RFC (seed 002, TF's while_v2): the
 * forward loop gets an iteration counter and one list accumulator per intermediate value the
 * backward body reads, pushed once per iteration; the backward While runs `count` times, pops
 * them in reverse order and carries the gradients of the loop variables (the next iteration's
 * output gradients) and the sums of the gradients of the loop invariants and variables.
 *
 * Accumulated are only values that change per iteration: constants are read as constants, loop
 * invariants (captured values, loop variables the body passes through unchanged) and variables
 * are inputs of the backward loop, and kernels computed from those alone are recomputed in the
 * backward body (the optimizer then hoists them out of it).
 */
import * as tf from '@tensorflow/tfjs-core';
import { GraphBuilder } from '../graph/builder';
import { StagingError } from '../common/errors';
import type { KernelNode, Node, TensorSpec, ValueRef, WhileNode } from '../graph/graph';
import { refuseUnknownDims } from '../staging/shape_relaxation';
import { placeholderLike } from '../staging/staged_values';
import type { Tracer } from '../staging/tracer';
import { BackwardParams, bindPlaceholder, differentiateGraph, liveParams, zerosTensor } from './differentiate';
import {
  assignedVariable, elementOf, GraphWriter, initRef, inlineGraph, listOf, pruneUnusedParams, refKey, SCALAR_INT,
  scalarConstant, specOfRef,
} from './ir';
import { ControlFlowGradients, EmitContext, NO_GRADIENTS, type PrepareControlFlow, Preparation, Wrt } from './prepared';

type Source =
  | { kind: 'dy'; loopVar: number }
  | { kind: 'input'; input: number }
  | { kind: 'variable'; variable: number }
  | { kind: 'accumulated'; index: number }
  /** Body result k: the value loop variable k has in the next iteration (or after the loop). */
  | { kind: 'next'; loopVar: number }
  | { kind: 'capture'; outer: ValueRef };

type Access = 'constant' | 'invariant' | 'recompute' | 'accumulate';

// Long on purpose (~230 lines): preparing a loop's gradient decides, for every value the backward
// body reads, how it gets there (constant, invariant, recomputed or accumulated in a list) and
// rewrites the forward node to provide it; the phases share those decisions as locals, and the
// closures below are the single places where each kind of access is made.
export function prepareWhile(tracer: Tracer, node: WhileNode, wrt: Wrt, prepareNested: PrepareControlFlow): Preparation {
  const inputSpecs = wrt.specs;
  const program = tracer.program;
  const where = node.origin ? ` (${node.origin})` : '';
  const assigned = assignedVariable(node.body) ?? assignedVariable(node.cond);
  if (assigned !== undefined) {
    throw new StagingError(`autograph-ts: cannot compute a gradient through the staged loop${where}: it assigns the ` +
      `variable '${program.variables[assigned].name}'. Assign variables outside the function being differentiated.`);
  }
  const n = node.loopVars;
  const body = node.body;
  const originalInputs = [...node.inputs];
  const outputs = node.outputs.map((s) => ({ ...s }));
  const live = liveParams(body, n, wrt.wrt, wrt.variables);
  const floatLoopVars = outputs.flatMap((s, k) => (live[k] ? [k] : []));

  const passesThrough = (p: number): boolean => {
    const r = body.results[p];
    const result = body.nodes[r.node];
    return result.kind === 'Input' && result.param === p;
  };
  const access = new Map<string, Access>();
  const classify = (r: ValueRef): Access => {
    const key = refKey(r);
    let a = access.get(key);
    if (a !== undefined) return a;
    const n2 = body.nodes[r.node];
    switch (n2.kind) {
      case 'Constant': a = 'constant'; break;
      case 'Input': a = n2.param >= n || passesThrough(n2.param) ? 'invariant' : 'accumulate'; break;
      case 'ReadVariable': a = 'invariant'; break;
      // A kernel of invariants, and of per-iteration int scalars at most (a row index), is
      // recomputed: accumulating the index costs 4 bytes, the row it selects many more.
      case 'Kernel':
        a = n2.inputs.every((x) => classify(x) !== 'accumulate' || isIntScalar(specOfRef(body, x))) ? 'recompute' : 'accumulate';
        break;
      default: a = 'accumulate';
    }
    access.set(key, a);
    return a;
  };

  const builder = new GraphBuilder(tracer.current);
  const params = new BackwardParams<Source>(builder);
  const accumulated: ValueRef[] = [];
  const local = new Map<string, ValueRef>();
  const grads = tracer.inSubgraph(builder, () => {
    const seeds = floatLoopVars.map((k) => ({
      result: k,
      dy: bindPlaceholder(tracer, params.get(`dy${k}`, outputs[k], () => ({ kind: 'dy', loopVar: k })), outputs[k]),
    }));
    const forwardRef = (r: ValueRef): ValueRef => {
      const key = refKey(r);
      const spec = specOfRef(body, r);
      const forward = body.nodes[r.node];
      switch (classify(r)) {
        case 'constant': {
          let c = local.get(key);
          if (c === undefined) {
            c = { node: builder.add({ kind: 'Constant', constant: (forward as { constant: number }).constant, outputs: [{ ...spec }] }), output: 0 };
            local.set(key, c);
          }
          return c;
        }
        case 'invariant':
          if (forward.kind === 'Input') return params.get(`in${forward.param}`, spec, () => ({ kind: 'input', input: forward.param }));
          if (forward.kind === 'ReadVariable') {
            return params.get(`var${forward.variable}`, spec, () => ({ kind: 'variable', variable: forward.variable }));
          }
          throw new Error('autograph-ts internal: unexpected loop invariant');
        case 'recompute': {
          let c = local.get(key);
          if (c === undefined) {
            const kernel = forward as KernelNode;
            const ins = kernel.inputs.map((x) => bindPlaceholder(tracer, forwardRef(x), specOfRef(body, x)));
            const named = kernel.variadic ? ins : Object.fromEntries(kernel.inputNames.map((name, i) => [name, ins[i]]));
            const out = (tf.engine() as unknown as Engine).runKernel(kernel.op, named, kernel.attrs);
            const outs = Array.isArray(out) ? out : [out];
            outs.forEach((t, k) => local.set(refKey({ node: r.node, output: k }), tracer.resolve(t)));
            c = local.get(key)!;
          }
          return c;
        }
        case 'accumulate': {
          // The next value of a loop variable is that variable in the next iteration, which the
          // backward loop pops anyway (when it reads it): it is carried over, not accumulated twice.
          const k = body.results.findIndex((x, i) => i < n && x.node === r.node && x.output === r.output);
          if (k >= 0 && forward.kind !== 'Input') return params.get(`next${k}`, spec, () => ({ kind: 'next', loopVar: k }));
          return params.get(`acc${key}`, spec, () => ({ kind: 'accumulated', index: accumulated.push(r) - 1 }));
        }
      }
    };
    const g = differentiateGraph({
      tracer, graph: body, seeds, origin: node.origin, prepareNested,
      differentiableParam: (p) => live[p],
      variables: wrt.variables,
      access: { ref: forwardRef },
    });
    return g;
  });

  // Backward body results: loop-variable gradients, then invariant and variable gradient terms.
  const invariantGrads = grads.params.flatMap((g, p) => (p >= n && g !== undefined ? [p] : []));
  const variables = [...grads.variables.keys()].sort((a, b) => a - b);
  const variableSpecs = variables.map((v) => ({ shape: [...program.variables[v].shape], dtype: program.variables[v].dtype }));
  tracer.inSubgraph(builder, () => {
    builder.graph.results = [
      ...floatLoopVars.map((k) => grads.params[k] ?? zerosTensor(outputs[k])),
      ...invariantGrads.map((p) => grads.params[p]!),
      ...variables.map((v) => grads.variables.get(v)!),
    ].map((t) => tracer.resolve(t));
  });
  // Only what the backward body reads is accumulated (or passed in).
  const used = pruneUnusedParams(builder.graph);
  const sources = params.finish((outer) => ({ kind: 'capture', outer }));
  const accumulatorParams = sources.flatMap((s, p) => (s.kind === 'accumulated' && used.has(p) ? [p] : []));
  const accumulatedValues = accumulatorParams.map((p) => accumulated[(sources[p] as { index: number }).index]);
  // A carried next value needs its loop variable accumulated.
  const carryParams = sources.flatMap((s, p) => (s.kind === 'next' && used.has(p) ? [p] : []));
  const carryLists = carryParams.map((p) => {
    const k = (sources[p] as { loopVar: number }).loopVar;
    const input = new GraphWriter(body).param(k, outputs[k]);
    const found = accumulatedValues.findIndex((r) => r.node === input.node && r.output === input.output);
    return found >= 0 ? found : accumulatedValues.push(input) - 1;
  });
  const invariantParams = sources.flatMap((s, p) =>
    ((s.kind === 'input' || s.kind === 'variable' || s.kind === 'capture') && used.has(p) ? [p] : []));
  const paramSpecs = new Map(builder.graph.nodes.flatMap((x) => (x.kind === 'Input' ? [[x.param, x.outputs[0]] as const] : [])));

  // The forward loop: a counter and the accumulators become loop variables n, n+1, ...
  const added = 1 + accumulatedValues.length;
  const listSpecs = accumulatedValues.map((r) => listOf(specOfRef(body, r)));
  for (const g of [node.cond, body]) {
    for (const x of g.nodes) if (x.kind === 'Input' && x.param >= n) x.param += added;
    g.numParams += added;
  }
  const w = new GraphWriter(body);
  const counter = w.param(n, SCALAR_INT);
  const next = w.kernel('Add', [counter, w.constant(scalarConstant(program, 1, 'int32'), SCALAR_INT)], SCALAR_INT);
  const pushed = accumulatedValues.map((r, a): ValueRef => ({
    node: w.add({ kind: 'List', op: 'TensorListPushBack', inputs: [w.param(n + 1 + a, listSpecs[a]), r], outputs: [listSpecs[a]] }),
    output: 0,
  }));
  body.results = [...body.results, next, ...pushed];
  // Variables the backward body reads are read once more just before the loop (the loop does not
  // assign them, so that is the value it reads) and passed to it as unused invariants: the
  // backward loop reads them there, whatever happens to the variables in between.
  const variableReads = invariantParams.flatMap((p) => (sources[p].kind === 'variable' ? [(sources[p] as { variable: number }).variable] : []));
  for (const g of [node.cond, body]) g.numParams += variableReads.length;
  const readInputAt = new Map(variableReads.map((v, k) => [v, originalInputs.length + added + k]));
  node.inputs = [...originalInputs.slice(0, n), ...Array.from({ length: added }, (_, k) => initRef(k)), ...originalInputs.slice(n),
    ...variableReads.map((_, k) => initRef(added + k))];
  node.outputs = [...node.outputs, SCALAR_INT, ...listSpecs];
  node.loopVars = n + added;
  const inits: Node[] = [
    { kind: 'Constant', constant: scalarConstant(program, 0, 'int32'), outputs: [SCALAR_INT] },
    ...listSpecs.map((spec): Node => ({ kind: 'List', op: 'EmptyTensorList', inputs: [], outputs: [spec] })),
    ...variableReads.map((v): Node => ({ kind: 'ReadVariable', variable: v,
      outputs: [{ shape: [...program.variables[v].shape], dtype: program.variables[v].dtype }] })),
  ];

  let emitted = false;
  const emit = (dys: (tf.Tensor | undefined)[], at: EmitContext): ControlFlowGradients => {
    if (floatLoopVars.every((k) => dys[k] === undefined)) return NO_GRADIENTS;
    if (emitted) throw new Error('autograph-ts internal: the backward While of a prepared While was emitted twice');
    emitted = true;
    const invariantRef = (s: Source): ValueRef => {
      if (s.kind === 'input') return at.ref(originalInputs[s.input]);
      if (s.kind === 'variable') return at.ref(node.inputs[readInputAt.get(s.variable)!]);
      if (s.kind === 'capture') return s.outer;
      throw new Error('autograph-ts internal: not an invariant');
    };
    const accSpecs = [...invariantGrads.map((p) => inputSpecs[p]), ...variableSpecs];
    const carrySpecs = carryParams.map((p) => outputs[(sources[p] as { loopVar: number }).loopVar]);
    const loopSpecs: TensorSpec[] = [SCALAR_INT, ...floatLoopVars.map((k) => outputs[k]), ...accSpecs, ...carrySpecs, ...listSpecs];
    const nLoop = loopSpecs.length;
    const initial: ValueRef[] = [
      at.ref({ node: at.node, output: n }),
      ...floatLoopVars.map((k) => tracer.resolve(dys[k] ?? zerosTensor(outputs[k]))),
      ...accSpecs.map((s) => tracer.resolve(zerosTensor(s))),
      ...carryParams.map((p) => at.ref({ node: at.node, output: (sources[p] as { loopVar: number }).loopVar })),
      ...accumulatedValues.map((_, a) => at.ref({ node: at.node, output: n + 1 + a })),
    ];
    const invariants = invariantParams.map((p) => invariantRef(sources[p]));
    const invariantSpecs = invariantParams.map((p) => paramSpecs.get(p)!);
    const numParams = nLoop + invariants.length;

    const cond = new GraphWriter({ numParams, nodes: [], results: [] });
    cond.graph.results = [cond.kernel('Greater', [cond.param(0, SCALAR_INT),
      cond.constant(scalarConstant(program, 0, 'int32'), SCALAR_INT)], { shape: [], dtype: 'bool' })];

    const b = new GraphWriter({ numParams, nodes: [], results: [] });
    const count = b.kernel('Sub', [b.param(0, SCALAR_INT), b.constant(scalarConstant(program, 1, 'int32'), SCALAR_INT)], SCALAR_INT);
    const carryBase = 1 + floatLoopVars.length + accSpecs.length;
    const listBase = carryBase + carrySpecs.length;
    const pops = accumulatedValues.map((_, a) => {
      const at2 = b.add({ kind: 'List', op: 'TensorListPopBack', inputs: [b.param(listBase + a, listSpecs[a])],
        outputs: [listSpecs[a], elementOf(listSpecs[a])] });
      return { rest: { node: at2, output: 0 }, item: { node: at2, output: 1 } };
    });
    const bound = sources.map((s, p): ValueRef | undefined => {
      if (!used.has(p)) return undefined;
      switch (s.kind) {
        case 'dy': return b.param(1 + floatLoopVars.indexOf(s.loopVar), outputs[s.loopVar]);
        case 'accumulated': return pops[accumulatorParams.indexOf(p)].item;
        case 'next': return b.param(carryBase + carryParams.indexOf(p), carrySpecs[carryParams.indexOf(p)]);
        default: {
          const i = invariantParams.indexOf(p);
          return b.param(nLoop + i, invariantSpecs[i]);
        }
      }
    });
    const outs = inlineGraph(b, builder.graph, bound);
    const accNext = accSpecs.map((s, i) => b.kernel('Add', [b.param(1 + floatLoopVars.length + i, s), outs[floatLoopVars.length + i]], s));
    b.graph.results = [count, ...outs.slice(0, floatLoopVars.length), ...accNext, ...carryLists.map((a) => pops[a].item),
      ...pops.map((p) => p.rest)];

    const results = loopSpecs.map((s) => (s.list ? dummyInfo(s) : placeholderLike(tracer, s)));
    tracer.define({
      kind: 'While', inputs: [...initial, ...invariants], loopVars: nLoop, cond: cond.graph, body: b.graph,
      origin: node.origin, outputs: loopSpecs.map((s) => ({ ...s })),
    }, results);
    const gradOf = (i: number): tf.Tensor => results[i] as tf.Tensor;
    return {
      inputs: [
        ...floatLoopVars.map((k, i) => ({ index: k, ref: originalInputs[k], grad: gradOf(1 + i) })),
        ...invariantGrads.map((p, i) => ({ index: p, ref: originalInputs[p], grad: gradOf(1 + floatLoopVars.length + i) })),
      ],
      variables: new Map(variables.map((v, i) => [v, gradOf(1 + floatLoopVars.length + invariantGrads.length + i)])),
    };
  };
  return { prepared: { emit }, inits };
}

function dummyInfo(spec: TensorSpec): tf.TensorInfo {
  refuseUnknownDims(spec);
  return { dataId: {}, shape: [...spec.shape], dtype: spec.dtype };
}

const isIntScalar = (spec: TensorSpec): boolean => !spec.list && spec.dtype === 'int32' && spec.shape.length === 0;

interface Engine {
  runKernel(name: string, inputs: unknown, attrs: unknown): tf.Tensor | tf.Tensor[];
}
