/**
 * Greedy decoding and beam search, written as one writes them eagerly: a JS counter, tokens
 * collected with `push`, and a `break` when every sequence has emitted the end token. Staged,
 * each decoder is one While loop whose token lists are list values in the graph.
 */
import * as tf from '@tensorflow/tfjs';
import { BOS, decoderStep, encode, EOS, logits, Seq2Seq } from './model';

/** Greedy decoding: [steps + 1, batch] token ids, BOS first; a finished sequence repeats EOS. */
export function greedyDecode(m: Seq2Seq, source: tf.Tensor2D, maxLen: number): tf.Tensor2D {
  'use autograph';
  const batch = source.shape[0];
  let h = encode(m, source);
  let tok: tf.Tensor1D = tf.fill([batch], BOS, 'int32');
  let done: tf.Tensor1D = tf.zeros([batch], 'bool');
  const tokens = [tok];
  for (let t = 0; t < maxLen; t++) {
    h = decoderStep(m, h, tok);
    const next = logits(m, h).argMax(1) as tf.Tensor1D;
    tok = tf.where(done, tf.fill([batch], EOS, 'int32'), next);
    done = done.logicalOr(tok.equal(EOS));
    tokens.push(tok);
    if (tf.all(done)) break;
  }
  return tf.stack(tokens) as tf.Tensor2D;
}

export interface Beams {
  /** [steps, batch, beam]: the token each hypothesis emitted at each step. */
  ids: tf.Tensor3D;
  /** [steps, batch, beam]: the hypothesis of the previous step it extends. */
  parents: tf.Tensor3D;
  /** [batch, beam]: the hypotheses' log-probabilities, best first. */
  scores: tf.Tensor2D;
}

/**
 * Beam search: at each step every hypothesis is extended by every token, and the `beam` best
 * sums of log-probabilities survive. A finished hypothesis extends only with EOS, at no cost.
 * Returns the per-step choices; `bestSequences` follows the parents back (TF's gather_tree).
 */
export function beamSearch(m: Seq2Seq, source: tf.Tensor2D, maxLen: number, beam: number): Beams {
  'use autograph';
  const batch = source.shape[0];
  const vocabulary = m.wo.shape[1];
  const vocabularySize = tf.scalar(vocabulary, 'int32');   // a JS number would make int32 math float32
  // Hypothesis k of sentence b is row b * beam + k.
  const rowOffsets = tf.range(0, batch * beam, beam, 'int32').expandDims(1);
  let h: tf.Tensor2D = tf.tile(encode(m, source).expandDims(1), [1, beam, 1]).reshape([batch * beam, -1]);
  let tok: tf.Tensor1D = tf.fill([batch * beam], BOS, 'int32');
  // Only the first hypothesis is alive at the start; the others would repeat it.
  let scores: tf.Tensor2D = tf.tile(tf.tensor2d([[0, ...Array(beam - 1).fill(-1e9)]]), [batch, 1]);
  let done: tf.Tensor2D = tf.zeros([batch, beam], 'bool');
  const onlyEos = tf.oneHot([EOS], vocabulary).sub(1).mul(1e9).reshape([1, 1, vocabulary]);
  const ids: tf.Tensor2D[] = [];
  const parents: tf.Tensor2D[] = [];
  for (let t = 0; t < maxLen; t++) {
    h = decoderStep(m, h, tok);
    const logProbs = tf.logSoftmax(logits(m, h)).reshape([batch, beam, vocabulary]);
    const extend = tf.where(done.expandDims(2).tile([1, 1, vocabulary]), onlyEos.tile([batch, beam, 1]), logProbs);
    const total = scores.expandDims(2).add(extend).reshape([batch, beam * vocabulary]);
    const best = tf.topk(total, beam);
    const parent = tf.floorDiv(best.indices, vocabularySize) as tf.Tensor2D;
    const token = best.indices.sub(parent.mul(vocabularySize)) as tf.Tensor2D;
    const rows = parent.add(rowOffsets).reshape([-1]);
    h = tf.gather(h, rows);
    done = tf.gather(done.reshape([-1]), rows).reshape([batch, beam]).logicalOr(token.equal(EOS)) as tf.Tensor2D;
    scores = best.values as tf.Tensor2D;
    tok = token.reshape([-1]);
    ids.push(token);
    parents.push(parent);
    if (tf.all(done)) break;
  }
  return { ids: tf.stack(ids) as tf.Tensor3D, parents: tf.stack(parents) as tf.Tensor3D, scores };
}

/** The best hypothesis of each sentence, followed back through the parents, up to its first EOS. */
export function bestSequences({ ids, parents }: Beams): number[][] {
  const idv = ids.arraySync();
  const parentv = parents.arraySync();
  const steps = idv.length;
  const batch = steps > 0 ? idv[0].length : 0;
  const out: number[][] = [];
  for (let b = 0; b < batch; b++) {
    const reversed: number[] = [];
    let k = 0;                                     // scores are sorted: hypothesis 0 is the best
    for (let t = steps - 1; t >= 0; t--) {
      reversed.push(idv[t][b][k]);
      k = parentv[t][b][k];
    }
    const sequence = reversed.reverse();
    const end = sequence.indexOf(EOS);
    out.push(end < 0 ? sequence : sequence.slice(0, end + 1));
  }
  return out;
}
