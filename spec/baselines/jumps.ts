import * as tf from '@tensorflow/tfjs';
export function firstNegative(xs: tf.Tensor1D): tf.Scalar {
  'use autograph';
  let index = tf.scalar(-1);
  let i = tf.scalar(0);
  outer: while (i.less(xs.size)) {
    const x = xs.gather(i.cast('int32'));
    i = i.add(1);
    if (x.equal(0)) continue outer;
    if (x.less(0)) {
      index = i.sub(1);
      break;
    }
  }
  return index;
}
export function sign(x: tf.Scalar): number {
  'use autograph';
  if (x.greater(0)) return 1;
  if (x.less(0)) return -1;
  return 0;
}
