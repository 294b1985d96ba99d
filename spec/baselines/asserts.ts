// @types: node
import * as tf from '@tensorflow/tfjs';
import assert from 'node:assert';

// node:assert and console.assert on tensor conditions: ag__.assert with the original as the check.
export function checked(x: tf.Scalar): tf.Scalar {
  'use autograph';
  assert(x.greater(0), 'x must be positive');
  console.assert(x.less(10), 'x is big');
  return x.sqrt();
}

// A plain boolean condition: the assert stays as written.
export function plainChecked(n: number): number {
  'use autograph';
  assert(n > 0, 'n must be positive');
  return n;
}
