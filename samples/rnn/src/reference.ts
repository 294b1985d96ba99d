/**
 * The same models in plain TensorFlow.js, as they are written without autograph-ts: the loop over
 * time steps over `tf.unstack`, the decoder's stopping test read with `dataSync()`. main.ts checks
 * the converted functions (eager and staged) against these.
 */
import * as tf from '@tensorflow/tfjs';
import type { DecoderWeights, RnnWeights } from './rnn.js';

export function rnnReference(inputs: tf.Tensor3D, h0: tf.Tensor2D, w: RnnWeights): tf.Tensor {
  let h: tf.Tensor = h0;
  for (const x of tf.unstack(inputs)) h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
  return h;
}

export function decodeBatchReference(start: tf.Tensor1D, h0: tf.Tensor2D, maxLength: number, eos: number,
                                     w: DecoderWeights): { tokens: tf.Tensor; lengths: tf.Tensor } {
  let token: tf.Tensor = start;
  let h: tf.Tensor = h0;
  let tokens: tf.Tensor = tf.zeros([start.shape[0], maxLength], 'int32');
  let lengths: tf.Tensor = tf.zeros([start.shape[0]], 'int32');
  let finished: tf.Tensor = tf.zeros([start.shape[0]], 'bool');
  for (let step = 0; step < maxLength; step++) {
    h = tf.tanh(tf.gather(w.embedding, token).matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
    token = h.matMul(w.wo).argMax(-1);
    const live = finished.logicalNot().toInt();
    tokens = tokens.add(tf.oneHot(tf.tensor1d([step], 'int32'), maxLength).mul(token.mul(live).reshape([-1, 1])));
    lengths = lengths.add(live);
    finished = finished.logicalOr(token.equal(eos));
    if (finished.all().dataSync()[0]) break;
  }
  return { tokens, lengths };
}
