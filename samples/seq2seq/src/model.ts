/**
 * A small sequence-to-sequence model (tanh RNN encoder and decoder, vocabulary 1,000, hidden 256)
 * with fixed pseudo-random weights: the shapes and the loops of a translation model, without the
 * training. `eosBias` raises the end token's logit so that, as with a trained model, sequences
 * end at different lengths well before the step limit.
 */
import * as tf from '@tensorflow/tfjs';

export const BOS = 0;
export const EOS = 1;

export interface Seq2Seq {
  embedding: tf.Tensor2D;   // [vocabulary, hidden]
  encoderWx: tf.Tensor2D;   // [hidden, hidden]
  encoderWh: tf.Tensor2D;
  decoderWx: tf.Tensor2D;
  decoderWh: tf.Tensor2D;
  wo: tf.Tensor2D;          // [hidden, vocabulary]
  bo: tf.Tensor1D;          // [vocabulary]
}

export function randomModel(vocabulary: number, hidden: number, eosBias: number, seed = 1): Seq2Seq {
  return tf.tidy(() => {
    const normal = (shape: [number, number], k: number): tf.Tensor2D =>
      tf.randomNormal(shape, 0, 1 / Math.sqrt(shape[0]), 'float32', seed * 10 + k) as tf.Tensor2D;
    const bias = tf.buffer([vocabulary], 'float32');
    bias.set(eosBias, EOS);
    return {
      embedding: tf.randomNormal([vocabulary, hidden], 0, 1, 'float32', seed * 10) as tf.Tensor2D,
      encoderWx: normal([hidden, hidden], 1),
      encoderWh: normal([hidden, hidden], 2),
      decoderWx: normal([hidden, hidden], 3),
      decoderWh: normal([hidden, hidden], 4),
      wo: normal([hidden, vocabulary], 5).mul(4) as tf.Tensor2D,
      bo: bias.toTensor() as tf.Tensor1D,
    };
  });
}

/** Source sentences: [batch, length] token ids, deterministic. */
export function randomSource(batch: number, length: number, vocabulary: number, seed = 2): tf.Tensor2D {
  return tf.randomUniform([batch, length], 2, vocabulary, 'int32', seed) as tf.Tensor2D;
}

/** The encoder: a tanh RNN over the source tokens; its last state starts the decoder. */
export function encode(m: Seq2Seq, source: tf.Tensor2D): tf.Tensor2D {
  let h: tf.Tensor2D = tf.zeros([source.shape[0], m.encoderWh.shape[0]]);
  for (let s = 0; s < source.shape[1]; s++) {      // a plain JS loop: unrolled when staged
    const x = tf.gather(m.embedding, source.slice([0, s], [-1, 1]).reshape([-1]));
    h = tf.tanh(x.matMul(m.encoderWx).add(h.matMul(m.encoderWh)));
  }
  return h;
}

/** One decoder step: the next state from the previous state and the previous tokens. */
export function decoderStep(m: Seq2Seq, h: tf.Tensor2D, tokens: tf.Tensor1D): tf.Tensor2D {
  const x = tf.gather(m.embedding, tokens);
  return tf.tanh(x.matMul(m.decoderWx).add(h.matMul(m.decoderWh)));
}

export function logits(m: Seq2Seq, h: tf.Tensor2D): tf.Tensor2D {
  return h.matMul(m.wo).add(m.bo);
}
