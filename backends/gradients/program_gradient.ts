/**
 * `tf.grad(stagedFn)`: a staged function called while a gradient tape records. Instead of running
 * every kernel through the engine so that the tape sees them (loops unrolled on the tape), the
 * program is differentiated once, like a branch (if_gradient.ts): its forward version also
 * returns the intermediates the gradient reads, and a backward program computes the gradients of
 * its tensor arguments and of the variables it reads. A call runs the forward program directly
 * and puts one step on the tape whose gradient runs the backward program.
 *
 * Programs that assign variables, and calls under nested tapes (a gradient of a gradient, which
 * needs the backward computation itself on the tape), keep the engine-mode run.
 */
import * as tf from '@tensorflow/tfjs-core';
import { type Graph, graphHasUnknownDims, type Program, type ValueRef } from '../graph/graph';
import { eliminateCommonSubexpressions } from '../optimize/cse';
import { foldConstants } from '../optimize/constant_folding';
import { eliminateDeadNodes } from '../optimize/dead_code';
import { hoistLoopInvariants } from '../optimize/loop_invariant';
import { runTrace } from '../staging/trace_context';
import { Tracer } from '../staging/tracer';
import { prepareControlFlow } from './control_flow';
import { BackwardParams, bindPlaceholder, differentiateGraph, zerosTensor } from './differentiate';
import { assignedVariable, isDifferentiable, pruneUnusedParams, readVariables, refKey, specOfRef, subgraphs } from './ir';
import { tapeState, withoutTape } from '../staging/tape';

type Source = { kind: 'dy'; result: number } | { kind: 'arg'; param: number } | { kind: 'intermediate'; index: number };

interface ProgramGradient {
  forward: Program;
  backward: Program;
  /** Per parameter of the backward program: where its value comes from (undefined: unused). */
  sources: (Source | undefined)[];
  /** The float arguments and variables whose gradients the backward program returns, in order. */
  args: number[];
  variables: number[];
}

const cache = new WeakMap<Program, ProgramGradient | null>();

/**
 * How the engine calling executeWithGraphGradient runs a program and frees a value it returned
 * (the tfjs engine, engines/tfjs/engine.ts): handed in, so that the gradients never import an engine.
 */
export interface ProgramExecution {
  run(program: Program, args: tf.Tensor[]): tf.Tensor[];
  dispose(value: tf.Tensor): void;
}

/**
 * Runs `program` on `args` with its gradient on the active tape, when it can (see above);
 * undefined when the caller should run it in engine mode.
 */
export function executeWithGraphGradient(program: Program, args: tf.Tensor[], execution: ProgramExecution): tf.Tensor[] | undefined {
  const state = tapeState();
  // Staged recursion: the program's calls run through the engine instead, each kernel on the tape.
  if (state.gradientDepth !== 1 || program.functions !== undefined) return undefined;
  let gradient = cache.get(program);
  if (gradient === undefined) {
    gradient = buildGradient(program);
    cache.set(program, gradient);
  }
  if (gradient === null) return undefined;
  const g = gradient;
  const count = program.graph.results.length;
  const outs = withoutTape(() => execution.run(g.forward, args));
  const results = outs.slice(0, count);
  // Kept until the tape is done with them (engine.gradients disposes what a step saved).
  const intermediates = outs.slice(count).map((t) => (t instanceof tf.Tensor ? tf.keep(t) : t));
  const saved = intermediates.map((t) => (t instanceof tf.Tensor ? t : { dispose: () => execution.dispose(t) }));
  const inputs: Record<string, tf.Tensor> = {};
  g.args.forEach((p, i) => (inputs[`a${i}`] = args[p]));
  g.variables.forEach((v, i) => (inputs[`v${i}`] = program.variables[v]));
  state.activeTape!.push({
    id: state.nextTapeNodeId++,
    kernelName: 'autograph-ts staged function',
    inputs,
    outputs: results,
    saved,
    gradient: (dys: (tf.Tensor | null)[]) => {
      const params = g.sources.map((s) => {
        if (s === undefined) return undefined;
        if (s.kind === 'dy') return dys[s.result] ?? tf.zerosLike(results[s.result]);
        return s.kind === 'arg' ? args[s.param] : intermediates[s.index];
      });
      const grads = execution.run(g.backward, params as tf.Tensor[]);
      const named: Record<string, () => tf.Tensor> = {};
      g.args.forEach((_, i) => (named[`a${i}`] = () => grads[i]));
      g.variables.forEach((_, i) => (named[`v${i}`] = () => grads[g.args.length + i]));
      return named;
    },
  });
  return results;
}

function buildGradient(program: Program): ProgramGradient | null {
  // (A graph with unknown dims runs in engine mode: the backward graph is built from its specs.)
  if (assignedVariable(program.graph) !== undefined || hasLists(program.graph) || graphHasUnknownDims(program.graph)) return null;
  const tracer = new Tracer();
  // The backward program shares the forward one's tables: its Constant and ReadVariable nodes
  // index them.
  tracer.program.constants = program.constants;
  tracer.program.variables = program.variables;
  tracer.program.errors = program.errors;
  const forward: Graph = structuredClone(program.graph);
  const argSpecs = forward.nodes.flatMap((n) => (n.kind === 'Input' ? [[n.param, n.outputs[0]] as const] : []));
  const floatArgs = argSpecs.filter(([, s]) => isDifferentiable(s)).map(([p]) => p).sort((a, b) => a - b);
  const variables = [...readVariables(forward)].filter((v) => program.variables[v].dtype === 'float32').sort((a, b) => a - b);
  if (floatArgs.length === 0 && variables.length === 0) return null;
  const results = forward.results.map((r) => specOfRef(forward, r));
  const params = new BackwardParams<Source>(tracer.root);
  const intermediates: ValueRef[] = [];
  const constants = new Map<number, ValueRef>();

  tf.engine().startScope('autograph-ts gradient of a staged function');
  try {
    runTrace(tracer, () => withoutTape(() => {
      const seeds = results.flatMap((spec, k) => (isDifferentiable(spec)
        ? [{ result: k, dy: bindPlaceholder(tracer, params.get(`dy${k}`, spec, () => ({ kind: 'dy', result: k })), spec) }]
        : []));
      const grads = differentiateGraph({
        tracer, graph: forward, seeds, origin: undefined, prepareNested: prepareControlFlow,
        differentiableParam: (p) => floatArgs.includes(p),
        variables: new Set(variables),
        access: {
          ref: (r) => {
            const n = forward.nodes[r.node];
            if (n.kind === 'Input') return params.get(`arg${n.param}`, n.outputs[0], () => ({ kind: 'arg', param: n.param }));
            if (n.kind === 'Constant') {
              let c = constants.get(r.node);
              if (c === undefined) {
                c = { node: tracer.root.add({ kind: 'Constant', constant: n.constant, outputs: [{ ...n.outputs[0] }] }), output: 0 };
                constants.set(r.node, c);
              }
              return c;
            }
            return params.get(`im${refKey(r)}`, specOfRef(forward, r), () => ({ kind: 'intermediate', index: intermediates.push(r) - 1 }));
          },
        },
      });
      tracer.root.graph.results = [
        ...floatArgs.map((p) => grads.params[p] ?? zerosTensor(argSpecs.find(([q]) => q === p)![1])),
        ...variables.map((v) => grads.variables.get(v) ?? tf.fill([...program.variables[v].shape], 0, 'float32')),
      ].map((t) => tracer.resolve(t));
    }));
  } catch {
    return null; // engine mode: the tape reports what cannot be differentiated, as eagerly
  } finally {
    tf.engine().endScope();
  }
  const backwardGraph = tracer.root.graph;
  const used = pruneUnusedParams(backwardGraph);
  const all = params.finish(() => {
    throw new Error('autograph-ts internal: the backward program of a staged function captured a value');
  });
  // The forward program also returns the intermediates the backward one reads.
  const sources = all.map((s, p) => (used.has(p) ? s : undefined));
  const outputOf = new Map<number, number>();
  sources.forEach((s) => {
    if (s?.kind === 'intermediate' && !outputOf.has(s.index)) outputOf.set(s.index, forward.results.push(intermediates[s.index]) - 1);
  });
  const finalSources = sources.map((s) => (s?.kind === 'intermediate' ? { ...s, index: outputOf.get(s.index)! - results.length } : s));
  // (The loop limit too: the forward and backward loops run as many iterations as the program's.)
  const backward: Program = { graph: backwardGraph, constants: program.constants, variables: program.variables, errors: program.errors,
    maximumIterations: program.maximumIterations };
  eliminateDeadNodes(backward.graph);
  foldConstants(backward);
  eliminateCommonSubexpressions(backward);
  hoistLoopInvariants(backward.graph);
  eliminateDeadNodes(backward.graph);
  return {
    forward: { graph: forward, constants: program.constants, variables: program.variables, errors: program.errors,
      maximumIterations: program.maximumIterations },
    backward, sources: finalSources, args: floatArgs, variables,
  };
}

/** Whether the graph computes a gradient in the graph already (its second gradient runs on the tape). */
function hasLists(graph: Graph): boolean {
  return graph.nodes.some((n) => n.kind === 'List' || subgraphs(n).some(hasLists));
}
