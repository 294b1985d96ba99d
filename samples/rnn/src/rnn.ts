/**
 * A tanh RNN over the time steps of a [time, batch, features] tensor, and greedy decoders (one
 * sequence, and a batch) that stop at the end-of-sequence token: the two loops a sequence model needs.
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

/**
 * Batched greedy decoding (the AutoGraph paper's seq2seq decoder, greedy part): every sequence of
 * the batch feeds its last token back until it emits `eos`; the loop stops as soon as all of them
 * have, or after `maxLength` steps. The tokens go into a [batch, maxLength] tensor (one column per
 * step), so the loop's state keeps its shape.
 */
export interface Decoded {
  tokens: tf.Tensor;    // [batch, maxLength] int32, 0 after a sequence's eos
  lengths: tf.Tensor;   // [batch] int32, tokens up to and including eos
}

export function decodeBatch(start: tf.Tensor1D, h0: tf.Tensor2D, maxLength: number, eos: number,
                            w: DecoderWeights): Decoded {
  'use autograph';
  const one = tf.scalar(1, 'int32');
  let token: tf.Tensor = start;
  let h: tf.Tensor = h0;
  let step: tf.Tensor = tf.scalar(0, 'int32');
  let tokens: tf.Tensor = tf.zeros([start.shape[0], maxLength], 'int32');
  let lengths: tf.Tensor = tf.zeros([start.shape[0]], 'int32');
  let finished: tf.Tensor = tf.zeros([start.shape[0]], 'bool');
  while (step.less(maxLength)) {
    const x = tf.gather(w.embedding, token);
    h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
    token = h.matMul(w.wo).argMax(-1);
    const live = finished.logicalNot();
    tokens = tokens.add(tf.oneHot(step.reshape([1]), maxLength).mul(token.mul(live.toInt()).reshape([-1, 1])));
    lengths = lengths.add(live.toInt());
    finished = finished.logicalOr(token.equal(eos));
    step = step.add(one);
    if (finished.all()) break;                 // data-dependent early exit: the whole batch is done
  }
  return { tokens, lengths };
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
