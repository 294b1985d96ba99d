/**
 * The contract between a control-flow node made differentiable and whoever asks for its gradient
 * (the tape, for a node of the traced function; the reverse pass of differentiate.ts, for a node
 * nested in a branch or loop body being differentiated).
 *
 * Preparing happens when the forward node is recorded: it changes the node so that it provides
 * what the backward pass reads, and returns the nodes its new inputs need (`inits`, referred to as
 * initRef(k) until the caller has placed them before the node). Emitting happens once the output
 * gradients are known: it records the backward node into the current graph.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { IfNode, Node, TensorSpec, ValueRef, WhileNode } from '../graph/graph';
import type { Tracer } from '../staging/tracer';

export interface EmitContext {
  /** A value of the graph holding the forward node, as a value of the current graph. */
  ref(ref: ValueRef): ValueRef;
  /** The forward node's index in its graph. */
  node: number;
}

export interface ControlFlowGradients {
  /** Gradients of the forward node's inputs, by their position before the node was prepared. */
  inputs: { index: number; ref: ValueRef; grad: tf.Tensor }[];
  /** Gradients of the variables the node reads, by variable index. */
  variables: Map<number, tf.Tensor>;
}

export interface PreparedGradient {
  /** Records the backward node; `dys` are the gradients of the node's original outputs (undefined: none). */
  emit(dys: (tf.Tensor | undefined)[], at: EmitContext): ControlFlowGradients;
}

export interface Preparation {
  prepared: PreparedGradient;
  inits: Node[];
}

export const NO_GRADIENTS: ControlFlowGradients = { inputs: [], variables: new Map() };

/** What a node is differentiated with respect to. */
export interface Wrt {
  /** Specs of the node's inputs. */
  specs: TensorSpec[];
  /** Per input: gradients are wanted for it (a float value that depends on what is differentiated). */
  wrt: boolean[];
  /** The variables whose gradients are wanted. */
  variables: Set<number>;
}

/** Makes `node` (changed in place) differentiable with respect to `wrt` (control_flow.ts dispatches by kind). */
export type PrepareControlFlow = (tracer: Tracer, node: IfNode | WhileNode, wrt: Wrt) => Preparation;
