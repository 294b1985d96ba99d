/**
 * The two loops a sequence model needs, written as plain TypeScript: converted by the autograph-ts
 * plugin (Vite runs it; see vite.config.ts) because of the 'use autograph' directive.
 */
import * as tf from '@tensorflow/tfjs';

export interface Weights {
  embedding: tf.Tensor2D;   // [vocabulary, features]
  wx: tf.Tensor2D;          // [features, units]
  wh: tf.Tensor2D;          // [units, units]
  b: tf.Tensor1D;           // [units]
  wo: tf.Tensor2D;          // [units, vocabulary]
}

/** h_t = tanh(x_t Wx + h_{t-1} Wh + b) over the time steps of xs [time, batch, features]. */
export function rnn(xs: tf.Tensor3D, h0: tf.Tensor2D, w: Weights): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = h0;
  for (const x of xs) {
    h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
  }
  return h;
}

/** Greedy decoding from `start`: at most maxLength tokens, up to and including the first `eos`. */
export function greedyDecode(start: tf.Scalar, eos: number, maxLength: number, w: Weights): tf.Tensor {
  'use autograph';
  const tokens: tf.Tensor[] = [];
  let token: tf.Tensor = start;
  let h: tf.Tensor = tf.zeros([1, w.wh.shape[0]]);
  for (let t = 0; t < maxLength; t++) {
    const x = tf.gather(w.embedding, token.reshape([1]));
    h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
    token = h.matMul(w.wo).argMax(-1).reshape([]);
    tokens.push(token);
    if (token.equal(eos)) break;
  }
  return tf.stack(tokens);
}
