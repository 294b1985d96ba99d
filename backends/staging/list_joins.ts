/**
 * tf.stack(list) and tf.concat(list, axis) of an array that a staged loop grows (a list value of
 * the graph, staged_lists.ts), recognized by construction rather than by wrapping tfjs's exports
 * (an ES module namespace cannot be assigned to): while tfjs's stack or concat op runs (its scope
 * is the engine's active scope), the list reads as an array of two stand-in tensors of its
 * element's dtype and rank; tfjs converts them and asks the engine for its Pack or Concat kernel;
 * the engine's runKernel, wrapped while a trace runs (trace_patches.ts), answers a kernel of
 * stand-ins with the list's TensorListStack / TensorListConcat, at the axis tfjs passes.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { TensorSpec } from '../graph/graph';
import { runningOp } from '../kernels/tfjs_code';

export type ListJoin = (op: 'TensorListStack' | 'TensorListConcat', axis: number) => tf.Tensor;

const standIns = new WeakMap<object, ListJoin>();

/**
 * What tfjs's stack or concat op sees in place of a list while it reads one (two stand-ins: concat
 * of a single tensor skips its kernel); undefined when no such op is reading.
 */
export function joinOperands(element: TensorSpec | undefined, join: ListJoin): tf.Tensor[] | undefined {
  const op = runningOp();
  if (op !== 'stack' && op !== 'concat') return undefined;
  const standIn = Object.create(tf.Tensor.prototype) as tf.Tensor;
  const shape = (element?.shape ?? []).map((d) => (d < 0 ? 1 : d));
  Object.assign(standIn, { shape, dtype: element?.dtype ?? 'float32', size: shape.reduce((a, b) => a * b, 1),
    dataId: {}, id: -1, kept: false, isDisposedInternal: false, strides: [] });
  standIns.set(standIn, join);
  return [standIn, standIn];
}

/** A Pack or Concat kernel of stand-ins: the list's join (run instead of the kernel); else undefined. */
export function joinOfStandIns(kernel: string, inputs: unknown, attrs: unknown): tf.Tensor | undefined {
  if (kernel !== 'Pack' && kernel !== 'Concat') return undefined;
  const first = Array.isArray(inputs) ? inputs[0] as object | undefined : undefined;
  const join = first === undefined ? undefined : standIns.get(first);
  if (join === undefined) return undefined;
  return join(kernel === 'Pack' ? 'TensorListStack' : 'TensorListConcat', (attrs as { axis: number }).axis);
}
