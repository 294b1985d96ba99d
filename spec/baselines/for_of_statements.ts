import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';
export function rnn(inputs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D): tf.Tensor2D {
  'use autograph';
  let h = tf.zeros([inputs.shape[1], w.shape[1]]) as tf.Tensor2D;
  for (const x of inputs) {
    h = tf.tanh(tf.add(tf.matMul(x as tf.Tensor2D, w), tf.matMul(h, u)));
  }
  return h;
}
export function powers(n: tf.Scalar): tf.Scalar {
  'use autograph';
  let acc = tf.scalar(1);
  for (const i of range(n)) acc = acc.mul(2).add(i);
  return acc;
}
export function keys(o: Record<string, tf.Scalar>, limit: tf.Scalar): string[] {
  'use autograph';
  const out: string[] = [];
  for (const k in o) {
    if (o[k].greater(limit)) break;
    out.push(k);
  }
  return out;
}
