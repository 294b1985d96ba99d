/**
 * Tensor helpers shared by the eager operators. `instanceof Tensor` is safe across duplicated
 * copies of tfjs-core: tfjs defines Tensor[Symbol.hasInstance] structurally for that reason.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describeOrigin, OperatorOptions } from './options';

export function isTensor(value: unknown): value is tf.Tensor {
  return value instanceof tf.Tensor;
}

/**
 * Reads a scalar tensor used as a condition, eagerly: the JS truthiness of its single value.
 * A condition that is not a single number or boolean is an error naming the user's line.
 */
export function readCondition(cond: tf.Tensor, opts: OperatorOptions | undefined): boolean {
  if (cond.size !== 1) {
    throw new TypeError(`autograph-ts: a tensor used as a condition must be a scalar, got shape ` +
      `[${cond.shape.join(', ')}]${describeOrigin(opts)}. Reduce it first (e.g. tf.any / tf.all).`);
  }
  if (cond.dtype === 'string' || cond.dtype === 'complex64') {
    throw new TypeError(`autograph-ts: a tensor of dtype ${cond.dtype} cannot be a condition` +
      `${describeOrigin(opts)}; use a bool or numeric scalar.`);
  }
  return Boolean(cond.dataSync()[0]);
}

/** The logical negation of a tensor, as a bool tensor (numeric tensors compare with zero). */
export function logicalNot(value: tf.Tensor): tf.Tensor {
  return value.dtype === 'bool' ? tf.logicalNot(value) : tf.equal(value, 0);
}
