import * as tf from '@tensorflow/tfjs';
export function hoisting(x: tf.Scalar): number {
  'use autograph';
  if (x.greater(0)) {
    var positive = true;
  }
  return helper(positive ? 1 : 0);
  function helper(v: number) { return v * 2; }
}
