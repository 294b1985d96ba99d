/**
 * Tensor helpers shared by the eager operators.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describeOrigin, OperatorOptions } from './options';
import { nodeBuiltin } from './node_host';
import { userError } from './user_frames';

/** node:util's proxy test, where available (not in a browser): it runs no trap. */
const isProxy: (value: object) => boolean = (() => {
  const check = nodeBuiltin('util')?.types?.isProxy;
  return typeof check === 'function' ? check : () => false;
})();

const TENSOR_PROTOTYPE = tf.Tensor.prototype;
const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * Whether a value is a tfjs Tensor, WITHOUT observable effects on plain values: every condition of
 * converted code passes through here, and the original statement would not have read any property
 * of it. `instanceof tf.Tensor` would (tfjs's Symbol.hasInstance reads `data`, `dataSync`, ... to
 * recognize tensors of duplicated tfjs copies), which runs getters and Proxy traps. So: a Proxy is
 * never a Tensor; otherwise the prototype chain, then own data fields (a duplicated tfjs copy).
 */
export function isTensor(value: unknown): value is tf.Tensor {
  if (typeof value !== 'object' || value === null || isProxy(value)) return false;
  if (TENSOR_PROTOTYPE.isPrototypeOf(value)) return true;
  return hasOwn(value, 'dataId') && hasOwn(value, 'shape') && hasOwn(value, 'dtype') && hasOwn(value, 'rankType');
}

/**
 * Reads a scalar tensor used as a condition, eagerly: the JS truthiness of its single value.
 * A condition that is not a single number or boolean is an error naming the user's line.
 */
export function readCondition(cond: tf.Tensor, opts: OperatorOptions | undefined): boolean {
  const problem = conditionProblem(cond, describeOrigin(opts));
  if (problem !== undefined) throw userError(new TypeError(problem));
  return Boolean(cond.dataSync()[0]);
}

/**
 * Why a tensor cannot be a condition (not a scalar; a string or complex dtype), or undefined if it
 * can: the one check of the eager operators (readCondition) and the staging engine
 * (backends/staging/staged_values.ts conditionTensor), which each throw it as their own error. `where` is
 * the formatted location (" (file.ts:3:5)", the one style of every message).
 */
export function conditionProblem(cond: tf.Tensor, where: string): string | undefined {
  if (cond.size !== 1) {
    return `autograph-ts: a tensor used as a condition must be a scalar, got shape ` +
      `[${cond.shape.join(', ')}]${where}. Reduce it first (e.g. tf.any / tf.all).`;
  }
  if (cond.dtype === 'string' || cond.dtype === 'complex64') {
    return `autograph-ts: a tensor of dtype ${cond.dtype} cannot be a condition${where}; use a bool or numeric scalar.`;
  }
  return undefined;
}

/** The logical negation of a tensor, as a bool tensor: JS `!` of each element, so 0, -0 and NaN
 * give true. */
export function logicalNot(value: tf.Tensor): tf.Tensor {
  if (value.dtype === 'bool') return tf.logicalNot(value);
  if (value.dtype === 'string' || value.dtype === 'complex64') {
    throw userError(new TypeError(`autograph-ts: a tensor of dtype ${value.dtype} cannot be negated with '!'; use a bool or numeric tensor.`));
  }
  return value.dtype === 'int32' ? tf.equal(value, 0) : tf.logicalOr(tf.equal(value, 0), tf.notEqual(value, value));
}
