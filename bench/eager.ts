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
