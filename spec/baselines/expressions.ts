import * as tf from '@tensorflow/tfjs';
export function clipAndFlags(x: tf.Scalar, y: tf.Scalar): tf.Tensor[] {
  'use autograph';
  const clipped = x.greater(1) ? tf.scalar(1) : x;
  const both = x.greater(0) && y.greater(0);
  const either = x.greater(0) || y.greater(0);
  return [clipped, both, either, tf.scalar(0).add(!x.greater(0) ? 1 : 0)];
}
