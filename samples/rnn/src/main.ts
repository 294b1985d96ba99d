import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { fixedWeights, greedyDecode, rnn } from './rnn.js';

await tf.setBackend('wasm');
const w = fixedWeights(4, 8, 6);
const inputs = tf.sin(tf.range(0, 5 * 2 * 4).mul(0.21)).reshape([5, 2, 4]) as tf.Tensor3D;
const h = rnn(inputs, tf.zeros([2, 8]), w);
console.log(`rnn: last hidden state sum = ${h.sum().dataSync()[0].toFixed(4)}`);

for (const eos of [5, 1, 3]) {
  const { length, checksum } = greedyDecode(tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), eos, w);
  console.log(`greedyDecode(eos=${eos}): length = ${length.dataSync()[0]}, checksum = ${checksum.dataSync()[0]}`);
}
