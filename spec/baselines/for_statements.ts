import * as tf from '@tensorflow/tfjs';
export function countDown(n: tf.Scalar): number[] {
  'use autograph';
  const seen: number[] = [];
  for (let i = n; i.greater(0); i = i.sub(1)) {
    seen.push(i.arraySync() as number);
  }
  return seen;
}
export function closures(n: tf.Scalar): (() => tf.Scalar)[] {
  'use autograph';
  const fns: (() => tf.Scalar)[] = [];
  for (let i = tf.scalar(0); i.less(n); i = i.add(1)) fns.push(() => i);
  return fns;
}
