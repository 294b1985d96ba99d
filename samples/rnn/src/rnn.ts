/**
 * A tanh RNN over the time steps of a [time, batch, features] tensor, and a greedy decoder that
 * stops at the end-of-sequence token: the two loops a sequence model needs.
 */
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

export interface RnnWeights {
  wx: tf.Tensor2D;   // [features, units]
  wh: tf.Tensor2D;   // [units, units]
  b: tf.Tensor1D;    // [units]
}

/** h_t = tanh(x_t Wx + h_{t-1} Wh + b); returns the last hidden state. */
export function rnn(inputs: tf.Tensor3D, h0: tf.Tensor2D, w: RnnWeights): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = h0;
  for (const x of inputs) {                    // iterates the first dimension: time
    h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
  }
  return h;
}

export interface DecoderWeights extends RnnWeights {
  embedding: tf.Tensor2D;   // [vocabulary, features]
  wo: tf.Tensor2D;          // [units, vocabulary]
}

/** Greedy decoding from `start` for at most `maxLength` steps (a tensor), up to and including
 * the first `eos` token. Returns the number of tokens produced and their sum (a checksum). */
export function greedyDecode(start: tf.Scalar, maxLength: tf.Scalar, eos: number,
                             w: DecoderWeights): { length: tf.Tensor; checksum: tf.Tensor } {
  'use autograph';
  let token: tf.Tensor = start;
  let h: tf.Tensor = tf.zeros([1, w.wh.shape[0]]);
  let length: tf.Tensor = tf.scalar(0);
  let checksum: tf.Tensor = tf.scalar(0);
  for (const _ of range(maxLength)) {          // a tensor bound: a staged loop
    const x = tf.gather(w.embedding, token.reshape([1]));
    h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
    token = h.matMul(w.wo).argMax(-1).reshape([]).toInt();
    length = length.add(1);
    checksum = checksum.add(token);
    if (token.equal(eos)) break;               // data-dependent early exit
  }
  return { length, checksum };
}

/** Deterministic weights (no RNG), so every run and every backend prints the same numbers. */
export function fixedWeights(features: number, units: number, vocabulary: number): DecoderWeights {
  const wave = (shape: [number, number], phase: number): tf.Tensor2D =>
    tf.sin(tf.range(0, shape[0] * shape[1]).mul(1.3).add(phase)).mul(1.5).reshape(shape) as tf.Tensor2D;
  return {
    wx: wave([features, units], 0.1),
    wh: wave([units, units], 0.7),
    b: tf.linspace(-0.1, 0.1, units) as tf.Tensor1D,
    embedding: wave([vocabulary, features], 1.3),
    wo: wave([units, vocabulary], 2.1),
  };
}
