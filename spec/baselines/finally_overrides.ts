import * as tf from '@tensorflow/tfjs';

// A break in finally overrides the pending return: the flags set in try are saved, cleared
// while finally runs, and restored unless finally jumped.
export function lastBelow(xs: tf.Tensor1D, limit: tf.Scalar): tf.Scalar {
  'use autograph';
  let i = tf.scalar(0);
  let last = tf.scalar(-1);
  while (i.less(xs.size)) {
    try {
      if (xs.gather(i.cast('int32')).greater(limit)) return last;
      last = i;
    } finally {
      i = i.add(1);
      if (i.greater(5)) break;
    }
  }
  return last;
}
