/**
 * A data-dependent while loop: how many Collatz steps take n to 1. Without autograph-ts the
 * `while (n.greater(1))` would never end, since a Tensor object is always truthy in JS.
 */
import * as tf from '@tensorflow/tfjs';

export function collatzSteps(n: tf.Tensor): tf.Tensor {
  'use autograph';
  let steps = tf.scalar(0);
  while (n.greater(1)) {
    if (n.mod(2).equal(0)) n = n.div(2).floor();
    else n = n.mul(3).add(1);
    steps = steps.add(1);
  }
  return steps;
}
