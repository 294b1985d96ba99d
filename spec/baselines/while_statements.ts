import * as tf from '@tensorflow/tfjs';
export function halveUntilSmall(x: tf.Scalar): tf.Scalar {
  'use autograph';
  let steps = tf.scalar(0);
  while (x.greater(1)) {
    x = x.div(2);
    steps = steps.add(1);
  }
  do {
    x = x.mul(3);
  } while (x.less(10));
  return steps.add(x);
}
