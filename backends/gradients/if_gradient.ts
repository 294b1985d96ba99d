/**
 * The gradient of an If (as cond_v2 does it): a backward If on the same condition whose branches
 * are the gradients of the forward branches. A branch's gradient reads some of the branch's
 * intermediate values; the forward If outputs them as extra outputs (the other branch outputs
 * zeros, or an empty list, in their place: only the branch that ran is differentiated). Inputs of
 * the If and constants are read directly, not output.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { GraphBuilder } from '../graph/builder';
import type { Graph, IfNode, TensorSpec, ValueRef } from '../graph/graph';
import { placeholderLike } from '../staging/staged_values';
import type { Tracer } from '../staging/tracer';
import { BackwardParams, bindPlaceholder, differentiateGraph, GraphGradients, zerosTensor } from './differentiate';
import { GraphWriter, isDifferentiable, pruneUnusedParams, refKey, specOfRef, zeroNode } from './ir';
import { ControlFlowGradients, EmitContext, NO_GRADIENTS, type PrepareControlFlow, Preparation, Wrt } from './prepared';

type Source =
  | { kind: 'dy'; output: number }
  | { kind: 'input'; input: number }
  | { kind: 'intermediate'; branch: number; index: number }
  | { kind: 'capture'; outer: ValueRef };

interface BranchGradient {
  builder: GraphBuilder;
  params: BackwardParams<Source>;
  /** Parameters the backward branch reads, with their sources (set once it is complete). */
  used?: Set<number>;
  sources?: Source[];
  /** Values of the forward branch the gradient reads. */
  intermediates: ValueRef[];
  grads: GraphGradients;
}

// Long on purpose (~130 lines): both branches' gradients are built in one pass because the
// backward If's parameters must be the union of what either branch reads.
export function prepareIf(tracer: Tracer, node: IfNode, wrt: Wrt, prepareNested: PrepareControlFlow): Preparation {
  const inputSpecs = wrt.specs;
  const originalInputs = [...node.inputs];
  const outputs = node.outputs.map((s) => ({ ...s }));
  const floatOutputs = outputs.flatMap((s, k) => (isDifferentiable(s) ? [k] : []));
  const floatInputs = inputSpecs.flatMap((s, j) => (j > 0 && wrt.wrt[j] ? [j] : []));
  const branchGraphs = [node.then, node.else];

  const branches = branchGraphs.map((graph, b): BranchGradient => {
    const builder = new GraphBuilder(tracer.current);
    const params = new BackwardParams<Source>(builder);
    const intermediates: ValueRef[] = [];
    const constants = new Map<number, ValueRef>();
    const grads = tracer.inSubgraph(builder, () => {
      const seeds = floatOutputs.map((k) => ({
        result: k,
        dy: bindPlaceholder(tracer, params.get(`dy${k}`, outputs[k], () => ({ kind: 'dy', output: k })), outputs[k]),
      }));
      return differentiateGraph({
        tracer, graph, seeds, origin: node.origin, prepareNested,
        differentiableParam: (p) => floatInputs.includes(p + 1),
        variables: wrt.variables,
        access: {
          ref: (r) => {
            const n = graph.nodes[r.node];
            if (n.kind === 'Input') {
              return params.get(`in${n.param + 1}`, n.outputs[0], () => ({ kind: 'input', input: n.param + 1 }));
            }
            if (n.kind === 'Constant') {
              let c = constants.get(r.node);
              if (c === undefined) {
                c = { node: builder.add({ kind: 'Constant', constant: n.constant, outputs: [{ ...n.outputs[0] }] }), output: 0 };
                constants.set(r.node, c);
              }
              return c;
            }
            return params.get(`im${refKey(r)}`, specOfRef(graph, r), () => ({
              kind: 'intermediate', branch: b, index: intermediates.push(r) - 1,
            }));
          },
        },
      });
    });
    return { builder, params, intermediates, grads };
  });

  // Both backward branches return a gradient for every float input and every variable either reads.
  const variables = [...new Set(branches.flatMap((b) => [...b.grads.variables.keys()]))].sort((a, b) => a - b);
  const variableSpecs = variables.map((v) => ({ shape: [...tracer.program.variables[v].shape], dtype: tracer.program.variables[v].dtype }));
  for (const branch of branches) {
    tracer.inSubgraph(branch.builder, () => {
      const grads = [
        ...floatInputs.map((j) => branch.grads.params[j - 1] ?? zerosTensor(inputSpecs[j])),
        ...variables.map((v, i) => branch.grads.variables.get(v) ?? zerosTensor(variableSpecs[i])),
      ];
      branch.builder.graph.results = grads.map((g) => tracer.resolve(g));
    });
    branch.used = pruneUnusedParams(branch.builder.graph);
    branch.sources = branch.params.finish((outer) => ({ kind: 'capture', outer }));
  }
  const resultSpecs: TensorSpec[] = [...floatInputs.map((j) => inputSpecs[j]), ...variableSpecs];

  // The forward If outputs the intermediates (a branch's own result needs no extra output: when
  // that branch ran, the If's output is that value).
  const outputOf: number[][] = branches.map(() => []);
  branches.forEach((branch, b) => {
    const graph = branchGraphs[b];
    branch.intermediates.forEach((r, i) => {
      const p = branch.sources!.findIndex((s) => s.kind === 'intermediate' && s.index === i);
      if (!branch.used!.has(p)) return; // saved by tfjs's gradient, but not read
      const same = graph.results.findIndex((x, k) => k < outputs.length && x.node === r.node && x.output === r.output);
      if (same >= 0) {
        outputOf[b][i] = same;
        return;
      }
      outputOf[b][i] = node.outputs.length;
      const spec = specOfRef(graph, r);
      node.outputs.push({ ...spec });
      branchGraphs.forEach((g, other) => {
        g.results.push(other === b ? r : { node: new GraphWriter(g).add(zeroNode(spec)), output: 0 });
      });
    });
  });

  let emitted = false;
  const emit = (dys: (tf.Tensor | undefined)[], at: EmitContext): ControlFlowGradients => {
    if (floatOutputs.every((k) => dys[k] === undefined)) return NO_GRADIENTS;
    if (emitted) throw new Error('autograph-ts internal: the backward If of a prepared If was emitted twice');
    emitted = true;
    // One parameter list for both backward branches.
    const sourceRef = (source: Source): ValueRef => {
      switch (source.kind) {
        case 'dy': return tracer.resolve(dys[source.output] ?? zerosTensor(outputs[source.output]));
        case 'input': return at.ref(originalInputs[source.input]);
        case 'intermediate': return at.ref({ node: at.node, output: outputOf[source.branch][source.index] });
        case 'capture': return source.outer;
      }
    };
    const layout = new Map<string, number>();
    const inputs: ValueRef[] = [];
    const backward: Graph[] = branches.map((branch) => {
      const renumber = new Map<number, number>();
      branch.sources!.forEach((source, p) => {
        if (!branch.used!.has(p)) return;
        const key = source.kind === 'dy' ? `dy${source.output}` : source.kind === 'input' ? `in${source.input}`
          : source.kind === 'intermediate' ? `im${source.branch}:${source.index}` : `cap${refKey(source.outer)}`;
        let param = layout.get(key);
        if (param === undefined) {
          param = inputs.push(sourceRef(source)) - 1;
          layout.set(key, param);
        }
        renumber.set(p, param);
      });
      const graph = branch.builder.graph;
      for (const n of graph.nodes) if (n.kind === 'Input') n.param = renumber.get(n.param)!;
      return graph;
    });
    for (const g of backward) g.numParams = inputs.length;
    const results = resultSpecs.map((s) => placeholderLike(tracer, s));
    tracer.define({
      kind: 'If', inputs: [at.ref(originalInputs[0]), ...inputs], then: backward[0], else: backward[1],
      origin: node.origin, outputs: resultSpecs.map((s) => ({ ...s })),
    }, results);
    return {
      inputs: floatInputs.map((j, i) => ({ index: j, ref: originalInputs[j], grad: results[i] })),
      variables: new Map(variables.map((v, i) => [v, results[floatInputs.length + i]])),
    };
  };
  return { prepared: { emit }, inits: [] };
}
