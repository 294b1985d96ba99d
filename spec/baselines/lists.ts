import * as tf from '@tensorflow/tfjs';
export function decode(tok: tf.Tensor, next: tf.Tensor, maxLen: tf.Tensor): tf.Tensor {
  'use autograph';
  const tokens = [tok];
  const counts: number[] = [];
  for (let t = tf.scalar(0, 'int32'); t.less(maxLen); t = t.add(tf.scalar(1, 'int32'))) {
    tok = next.gather(tok);
    tokens.push(tok);
    counts.push(1);
  }
  let total = tf.scalar(0, 'int32');
  for (const x of tokens) total = total.add(x.sum());
  return tf.stack(tokens).sum().add(total);
}
