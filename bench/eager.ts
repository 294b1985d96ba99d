/**
 * The bench's baseline: each workload as a TensorFlow.js user writes it today, without
 * autograph-ts: plain JS control flow, conditions read with `dataSync()`, loops over `tf.unstack`,
 * called inside `tf.tidy`. Same arithmetic as the samples, so the outputs must agree.
 */
import * as tf from '@tensorflow/tfjs';

const truthy = (t: tf.Tensor): boolean => t.dataSync()[0] !== 0;

export function collatzSteps(n: tf.Tensor): tf.Tensor {
  let steps = tf.scalar(0);
  while (truthy(n.greater(1))) {
    if (truthy(n.mod(2).equal(0))) n = n.div(2).floor();
    else n = n.mul(3).add(1);
    steps = steps.add(1);
  }
  return steps;
}

export interface RnnWeights { wx: tf.Tensor2D; wh: tf.Tensor2D; b: tf.Tensor1D }
export interface DecoderWeights extends RnnWeights { embedding: tf.Tensor2D; wo: tf.Tensor2D }

export function rnn(inputs: tf.Tensor3D, h0: tf.Tensor2D, w: RnnWeights): tf.Tensor {
  let h: tf.Tensor = h0;
  for (const x of tf.unstack(inputs)) h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
  return h;
}

export function decodeBatch(start: tf.Tensor1D, h0: tf.Tensor2D, maxLength: number, eos: number,
                            w: DecoderWeights): { tokens: tf.Tensor; lengths: tf.Tensor } {
  let token: tf.Tensor = start;
  let h: tf.Tensor = h0;
  let tokens: tf.Tensor = tf.zeros([start.shape[0], maxLength], 'int32');
  let lengths: tf.Tensor = tf.zeros([start.shape[0]], 'int32');
  let finished: tf.Tensor = tf.zeros([start.shape[0]], 'bool');
  for (let step = 0; step < maxLength; step++) {
    const x = tf.gather(w.embedding, token);
    h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
    token = h.matMul(w.wo).argMax(-1);
    const live = finished.logicalNot();
    tokens = tokens.add(tf.oneHot(tf.tensor1d([step], 'int32'), maxLength).mul(token.mul(live.toInt()).reshape([-1, 1])));
    lengths = lengths.add(live.toInt());
    finished = finished.logicalOr(token.equal(eos));
    if (truthy(finished.all())) break;
  }
  return { tokens, lengths };
}

/** The helpers of samples/newton (plain tfjs code there too). */
export interface NewtonHelpers {
  loss(w: tf.Tensor1D, x: tf.Tensor2D, y: tf.Tensor1D, lambda: number): tf.Scalar;
  gradient(w: tf.Tensor1D, x: tf.Tensor2D, y: tf.Tensor1D, lambda: number): tf.Tensor1D;
  hessianTimes(w: tf.Tensor1D, x: tf.Tensor2D, lambda: number, v: tf.Tensor1D): tf.Tensor1D;
}

/** samples/newton's newtonCG with its three loop conditions read by value. */
export function newtonCG({ loss, gradient, hessianTimes }: NewtonHelpers, x: tf.Tensor2D, y: tf.Tensor1D, lambda: number,
                         tolerance: number, maxSteps: number): { w: tf.Tensor; loss: tf.Tensor; newtonSteps: tf.Tensor; cgSteps: tf.Tensor } {
  let w: tf.Tensor1D = tf.zeros([x.shape[1]]);
  let g = gradient(w, x, y, lambda);
  let newtonSteps = 0;
  let cgSteps = 0;
  while (g.norm().dataSync()[0] > tolerance && newtonSteps < maxSteps) {
    let p: tf.Tensor1D = tf.zerosLike(w);
    let r: tf.Tensor1D = g.neg();
    let d: tf.Tensor1D = r;
    let rr = r.dot(r) as tf.Scalar;
    let k = 0;
    while (rr.sqrt().dataSync()[0] > g.norm().mul(0.1).dataSync()[0] && k < x.shape[1]) {
      const hd = hessianTimes(w, x, lambda, d);
      const alpha = rr.div(d.dot(hd));
      p = p.add(d.mul(alpha));
      r = r.sub(hd.mul(alpha));
      const rrNext = r.dot(r) as tf.Scalar;
      d = r.add(d.mul(rrNext.div(rr)));
      rr = rrNext;
      k++;
    }
    cgSteps += k;
    const f0 = loss(w, x, y, lambda);
    const slope = g.dot(p);
    let t: tf.Scalar = tf.scalar(1);
    while (truthy(loss(w.add(p.mul(t)), x, y, lambda).greater(f0.add(slope.mul(t).mul(1e-4))))) t = t.mul(0.5);
    w = w.add(p.mul(t));
    g = gradient(w, x, y, lambda);
    newtonSteps++;
  }
  return { w, loss: loss(w, x, y, lambda), newtonSteps: tf.scalar(newtonSteps), cgSteps: tf.scalar(cgSteps) };
}

/** samples/bptt's loss with the loop over time steps unstacked. */
export function sequenceLoss(xs: tf.Tensor3D, targets: tf.Tensor2D, w: RnnWeights & { wo: tf.Tensor2D }): tf.Scalar {
  const h = rnn(xs, tf.zeros([xs.shape[1], w.wh.shape[0]]), w);
  return tf.losses.meanSquaredError(targets, h.matMul(w.wo));
}

/** The seq2seq model of samples/seq2seq (its model.ts is plain tfjs, shared). */
export interface Seq2SeqHelpers {
  encode(m: unknown, source: tf.Tensor2D): tf.Tensor2D;
  decoderStep(m: unknown, h: tf.Tensor2D, tokens: tf.Tensor1D): tf.Tensor2D;
  logits(m: unknown, h: tf.Tensor2D): tf.Tensor2D;
  BOS: number;
  EOS: number;
}

/** samples/seq2seq's greedyDecode with the stop test read by value. */
export function seq2seqGreedy({ encode, decoderStep, logits, BOS, EOS }: Seq2SeqHelpers, m: unknown,
                              source: tf.Tensor2D, maxLen: number): tf.Tensor {
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
    if (truthy(tf.all(done))) break;
  }
  return tf.stack(tokens);
}

/** samples/seq2seq's beamSearch with the stop test read by value. */
export function seq2seqBeam({ encode, decoderStep, logits, BOS, EOS }: Seq2SeqHelpers, m: unknown & { wo: tf.Tensor2D },
                            source: tf.Tensor2D, maxLen: number, beam: number): { ids: tf.Tensor; parents: tf.Tensor; scores: tf.Tensor } {
  const batch = source.shape[0];
  const vocabulary = m.wo.shape[1];
  const vocabularySize = tf.scalar(vocabulary, 'int32');
  const rowOffsets = tf.range(0, batch * beam, beam, 'int32').expandDims(1);
  let h: tf.Tensor2D = tf.tile(encode(m, source).expandDims(1), [1, beam, 1]).reshape([batch * beam, -1]);
  let tok: tf.Tensor1D = tf.fill([batch * beam], BOS, 'int32');
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
    if (truthy(tf.all(done))) break;
  }
  return { ids: tf.stack(ids), parents: tf.stack(parents), scores };
}
