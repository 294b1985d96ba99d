import * as tf from '@tensorflow/tfjs';
export function relu(x: tf.Scalar): tf.Scalar {
  'use autograph';
  let y: tf.Scalar;
  if (x.greater(0)) {
    y = x;
  } else if (x.equal(0)) {
    y = tf.scalar(0);
  } else {
    y = x.mul(0.01);
  }
  return y;
}
