/**
 * Every jump and operator that JavaScript gives you, on tensors: early return from a loop,
 * break/continue in nested loops, `?:`, `&&`, `||` and `!` on tensor conditions, a tensor
 * condition guarding a plain JS loop, and a throw in a tensor branch.
 */
import * as tf from '@tensorflow/tfjs';
import 'autograph-ts';   // types `for (const row of tensor)`; conversion needs no import

/** The first negative element, or 0: `return` from inside a tensor loop. */
export function firstNegative(xs: tf.Tensor1D): tf.Tensor {
  'use autograph';
  for (const x of xs) {
    if (x.less(0)) return x;
  }
  return tf.scalar(0);
}

/** Sum of each row's positive elements up to the row's first zero: `continue` skips the
 * negatives, `break` ends the row (the inner loop only). */
export function rowPrefixSums(m: tf.Tensor2D): tf.Tensor {
  'use autograph';
  let total = tf.scalar(0);
  for (const row of m) {
    for (const v of row) {
      if (v.less(0)) continue;
      if (v.equal(0)) break;
      total = total.add(v);
    }
  }
  return total;
}

/** -1, 0 or 1 by sign, with nested conditional expressions on tensors. */
export function sign(x: tf.Scalar): tf.Tensor {
  'use autograph';
  return x.greater(0) ? tf.scalar(1) : x.less(0) ? tf.scalar(-1) : tf.scalar(0);
}

/** Whether x lies in [lo, hi], or is exactly `special`: `&&`, `||` and `!` on tensors. */
export function accepts(x: tf.Scalar, lo: number, hi: number, special: number): string {
  'use autograph';
  if ((x.greaterEqual(lo) && x.lessEqual(hi)) || x.equal(special)) return 'accepted';
  if (!x.isFinite()) return 'not a number';
  return 'rejected';
}

/** A tensor condition around a plain JS loop: the inner `for` stays native (static). */
export function powerIfPositive(x: tf.Scalar, exponent: number): tf.Tensor {
  'use autograph';
  let result: tf.Tensor = tf.scalar(1);
  if (x.greater(0)) {
    for (let i = 0; i < exponent; i++) result = result.mul(x);
  } else {
    result = tf.scalar(0);
  }
  return result;
}

/** A throw inside a tensor branch: with `node --enable-source-maps` the stack names this line. */
export function checkedSqrt(x: tf.Scalar): tf.Tensor {
  'use autograph';
  if (x.less(0)) {
    throw new RangeError('checkedSqrt: negative input');
  }
  return x.sqrt();
}
