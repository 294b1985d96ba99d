import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { fixedWeights, greedyDecode, rnn } from './rnn.js';

await tf.setBackend('wasm');
const w = fixedWeights(4, 8, 6);
const inputs = tf.sin(tf.range(0, 5 * 2 * 4).mul(0.21)).reshape([5, 2, 4]) as tf.Tensor3D;
const h0 = tf.zeros([2, 8]) as tf.Tensor2D;

const sum = (t: tf.Tensor): string => t.sum().dataSync()[0].toFixed(4);
console.log(`rnn: last hidden state sum = ${sum(rnn(inputs, h0, w))} (eager), ${sum(stage(rnn)(inputs, h0, w))} (staged)`);

const stagedDecode = stage(greedyDecode);
for (const eos of [5, 1, 3]) {
  const show = ({ length, checksum }: { length: tf.Tensor; checksum: tf.Tensor }): string =>
    `length ${length.dataSync()[0]}, checksum ${checksum.dataSync()[0]}`;
  const args = [tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), eos, w] as const;
  console.log(`greedyDecode(eos=${eos}): ${show(greedyDecode(...args))} (eager), ${show(stagedDecode(...args))} (staged)`);
}
