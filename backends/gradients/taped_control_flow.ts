/**
 * Gradients of staged control flow requested while tracing (`tf.grad`, `tf.valueAndGrad`,
 * `tf.variableGrads`, `optimizer.minimize` inside a staged function).
 *
 * While a trace runs, tfjs's gradient tape records the kernels of the traced code, which run for
 * real. An If or While node is not a kernel: its branches and body are traced once over
 * placeholders (with the tape suspended, see Tracer.inSubgraph) and its outputs are new tensors
 * the tape knows nothing about. So when such a node is recorded while a tape is on, it goes on the
 * tape as one step whose gradient function, run by tfjs's backward pass (still inside the trace),
 * records the backward computation into the graph: a backward If whose branches are the gradients
 * of the forward branches, or a backward While that runs once per forward iteration (see
 * if_gradient.ts, while_gradient.ts). What the backward node reads from the forward one is decided
 * when the forward node is recorded, before anything refers to it (the forward If outputs
 * intermediates, the forward While counts its iterations and accumulates intermediates in lists).
 * A problem found then (a kernel without a gradient, a loop that assigns a variable) is thrown
 * only if the gradient is actually requested.
 */
import * as tf from '@tensorflow/tfjs-core';
import { StagingError } from '../common/errors';
import type { IfNode, TensorSpec, ValueRef, WhileNode } from '../graph/graph';
import { refuseUnknownDims } from '../staging/shape_relaxation';
import type { Tracer } from '../staging/tracer';
import { dependentsOfSources, isTapeOn, tapeState } from '../staging/tape';
import { bindInits, isDifferentiable, readVariables, subgraphs } from './ir';
import { prepareControlFlow } from './control_flow';
import type { PreparedGradient } from './prepared';

/**
 * Appends an If or While node to the current graph, like tracer.define; when a gradient tape is
 * recording, also makes the node differentiable (see above). `inputs` are the tensors the trace
 * used for the node's inputs (undefined where unknown); returns the references of `outputs`.
 */
export function defineControlFlow(tracer: Tracer, node: IfNode | WhileNode, outputs: tf.Tensor[],
                                  inputs: (tf.TensorInfo | undefined)[]): ValueRef[] {
  if (!isTapeOn()) return tracer.define(node, outputs);
  const builder = tracer.current;
  const inputSpecs = node.inputs.map((r) => builder.graph.nodes[r.node].outputs[r.output]);
  // What the node is differentiated with respect to: its float inputs and the variables it reads
  // that depend on what the active gradients are taken of.
  const dependents = dependentsOfSources();
  const wrtInputs = inputs.map((t, j) => t instanceof tf.Tensor && dependents.has(t.id) && isDifferentiable(inputSpecs[j]));
  const read = new Set<number>();
  for (const sub of subgraphs(node)) readVariables(sub, read);
  const wrtVariables = new Set([...read].filter((v) => {
    const variable = tracer.program.variables[v];
    return variable.dtype === 'float32' && dependents.has(variable.id);
  }));
  if (!wrtInputs.some(Boolean) && wrtVariables.size === 0) return tracer.define(node, outputs);

  let prepared: PreparedGradient | undefined;
  let failure: unknown;
  try {
    // Prepared on a copy: a failure leaves the forward node as it was.
    const draft = structuredClone(node);
    const preparation = prepareControlFlow(tracer, draft, { specs: inputSpecs, wrt: wrtInputs, variables: wrtVariables });
    const inits = preparation.inits.map((init) => ({ node: builder.add(init), output: 0 }));
    draft.inputs = bindInits(draft.inputs, inits);
    Object.assign(node, draft);
    prepared = preparation.prepared;
  } catch (error) {
    failure = error;
  }
  const extra = node.outputs.slice(outputs.length).map(dummyInfo);
  const refs = tracer.define(node, [...outputs, ...extra]);
  const sources: Source[] = [
    ...inputs.flatMap((t, j): Source[] => (wrtInputs[j] ? [{ input: j, tensor: t as tf.Tensor }] : [])),
    ...[...wrtVariables].map((v): Source => ({ variable: v, tensor: tracer.program.variables[v] })),
  ];
  recordOnTape(node, refs[0]?.node ?? builder.graph.nodes.length - 1, outputs, sources, (dys, at) => {
    if (failure !== undefined) throw failure;
    if (tracer.current !== builder) {
      throw new StagingError(`autograph-ts: the gradient of a staged ${node.kind === 'If' ? 'conditional' : 'loop'}` +
        `${node.origin ? ` (${node.origin})` : ''} was requested inside another staged conditional or loop; ` +
        'compute it where the conditional or loop is.');
    }
    return prepared!.emit(dys, { ref: (r) => r, node: at });
  });
  return refs.slice(0, outputs.length);
}

function dummyInfo(spec: TensorSpec): tf.TensorInfo {
  refuseUnknownDims(spec);
  return { dataId: {}, shape: [...spec.shape], dtype: spec.dtype };
}

type Source = ({ input: number } | { variable: number }) & { tensor: tf.Tensor };
type Emit = (dys: (tf.Tensor | undefined)[], at: number) => ReturnType<PreparedGradient['emit']>;

/** Puts the node on the active tape as one step from `sources` to `outputs`. */
function recordOnTape(node: IfNode | WhileNode, index: number, outputs: tf.Tensor[], sources: Source[], emit: Emit): void {
  const tapeInputs: Record<string, tf.Tensor> = {};
  sources.forEach((source, i) => (tapeInputs[String(i)] = source.tensor));
  const state = tapeState();
  state.activeTape!.push({
    id: state.nextTapeNodeId++,
    kernelName: `autograph-ts ${node.kind}${node.origin ? ` (${node.origin})` : ''}`,
    inputs: tapeInputs,
    outputs,
    saved: [],
    gradient: (dys) => {
      if (isTapeOn()) {
        throw new StagingError(`autograph-ts: a gradient of a gradient through a staged ` +
          `${node.kind === 'If' ? 'conditional' : 'loop'}${node.origin ? ` (${node.origin})` : ''} is not supported.`);
      }
      const grads = emit(dys.map((dy) => dy ?? undefined), index);
      const byInput = new Map<number, tf.Tensor>();
      for (const g of grads.inputs) byInput.set(g.index, byInput.has(g.index) ? tf.add(byInput.get(g.index)!, g.grad) : g.grad);
      const result: Record<string, () => tf.Tensor> = {};
      sources.forEach((source, i) => {
        const grad = 'input' in source ? byInput.get(source.input) : grads.variables.get(source.variable);
        result[String(i)] = () => grad ?? tf.fill([...source.tensor.shape], 0, 'float32');
      });
      return result;
    },
  });
}
