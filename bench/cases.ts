/**
 * Small programs written as the transformer emits them (ag__ operator calls): the optimization
 * ablation of `npm run bench`, the ONNX engine section (bench/onnx.ts) and bench/profile.ts.
 * The main table's workloads are the samples themselves (bench/workloads.ts).
 */
import * as tf from '@tensorflow/tfjs';
import * as ag__ from '../runtime/operators';

export function chain(x: tf.Scalar): tf.Scalar {
  let y = x;
  for (let i = 0; i < 5000; i++) y = y.mul(0.999).add(0.001) as tf.Scalar; // 10,000 dependent ops
  return y;
}

export function collatzSteps(n: tf.Scalar): tf.Scalar {
  let steps = tf.scalar(0);
  ag__.whileStmt(() => n.greater(1), () => {
    ag__.ifStmt(n.mod(2).equal(0), () => { n = n.div(2).floor() as tf.Scalar; }, () => { n = n.mul(3).add(1) as tf.Scalar; },
      () => [n], ([n1]) => { n = n1 as tf.Scalar; }, ['n'], 1, { origin: 'collatz.ts:6:5' });
    steps = steps.add(1) as tf.Scalar;
  }, () => [n, steps], ([n1, s1]) => { n = n1 as tf.Scalar; steps = s1 as tf.Scalar; }, ['n', 'steps'],
  { origin: 'collatz.ts:5:3' });
  return steps;
}

/** h_t = tanh(x_t W + h_{t-1} U + b), for (const x of xs) over the time steps. */
export function rnn(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D, b: tf.Tensor1D): tf.Tensor {
  let h = tf.zeros([xs.shape[1], u.shape[0]]) as tf.Tensor;
  ag__.forStmt(xs, undefined, (x: tf.Tensor) => {
    h = tf.tanh(tf.matMul(x as tf.Tensor2D, w).add(tf.matMul(h as tf.Tensor2D, u)).add(b));
  }, () => [h], ([h1]) => { h = h1 as tf.Tensor; }, ['h'], { origin: 'rnn.ts:3:3' });
  return h;
}

/** A gated step that writes h U twice (as code often does): CSE computes it once per step. */
export function gatedRnn(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D, b: tf.Tensor1D): tf.Tensor {
  let h = tf.zeros([xs.shape[1], u.shape[0]]) as tf.Tensor;
  ag__.forStmt(xs, undefined, (x: tf.Tensor) => {
    const candidate = tf.tanh(tf.matMul(x as tf.Tensor2D, w).add(tf.matMul(h as tf.Tensor2D, u)));
    const gate = tf.sigmoid(tf.matMul(h as tf.Tensor2D, u).add(b));
    h = candidate.mul(gate);
  }, () => [h], ([h1]) => { h = h1 as tf.Tensor; }, ['h'], { origin: 'gated.ts:3:3' });
  return h;
}

/** Weights stored transposed and transposed back in the step: loop-invariant, hoisted out of the loop. */
export function transposedRnn(xs: tf.Tensor3D, wT: tf.Tensor2D, uT: tf.Tensor2D, b: tf.Tensor1D): tf.Tensor {
  let h = tf.zeros([xs.shape[1], uT.shape[0]]) as tf.Tensor;
  ag__.forStmt(xs, undefined, (x: tf.Tensor) => {
    h = tf.tanh(tf.matMul(x as tf.Tensor2D, wT.transpose()).add(tf.matMul(h as tf.Tensor2D, uT.transpose())).add(b));
  }, () => [h], ([h1]) => { h = h1 as tf.Tensor; }, ['h'], { origin: 'transposed.ts:3:3' });
  return h;
}

/** A layer with captured weights and a merged low-rank adapter, x (W + A B): W + A B is folded at trace time. */
export function adapterLayer(w: tf.Tensor2D, a: tf.Tensor2D, bm: tf.Tensor2D): (x: tf.Tensor2D) => tf.Tensor {
  return (x) => tf.tanh(tf.matMul(x, w.add(tf.matMul(a, bm))));
}

/**
 * Greedy decoding with early stop, as the transformer emits it for
 *   const tokens = [tok]; for (let t = tf.scalar(0, 'int32'); t.less(maxLen); t = t.add(one)) {
 *     h = tanh(emb[tok] W + h U); tok = argMax(h V + (t + 1) boost); tokens.push(tok);
 *     done = done || tok == EOS; if (tf.all(done)) break; }
 *   return tf.stack(tokens);
 * `boost` raises the EOS logit a little each step, so every row stops after a data-dependent
 * number of steps (a list of tokens carried by one While when staged).
 */
export function greedyDecode(start: tf.Tensor1D, emb: tf.Tensor2D, w: tf.Tensor2D, u: tf.Tensor2D, v: tf.Tensor2D,
                             boost: tf.Tensor1D, maxLen: tf.Scalar): tf.Tensor {
  let tok: tf.Tensor = start;
  const tokens = ag__.newList([tok], { origin: 'decode.ts:3:9', name: 'tokens' });
  let h: tf.Tensor = tf.zeros([start.shape[0], u.shape[0]]);
  let done = tok.equal(DECODE_EOS);
  let t = tf.scalar(0, 'int32');
  const one = tf.scalar(1, 'int32');
  let break_ = false;
  ag__.whileStmt(() => ag__.and(() => ag__.not(break_), () => t.less(maxLen)), () => {
    h = tf.tanh(tf.matMul(tf.gather(emb, tok), w).add(tf.matMul(h as tf.Tensor2D, u)));
    tok = tf.matMul(h as tf.Tensor2D, v).add(boost.mul(t.add(one).cast('float32'))).argMax(-1);
    done = done.logicalOr(tok.equal(DECODE_EOS));
    tokens.push(tok);
    ag__.ifStmt(tf.all(done), () => { break_ = true; }, undefined, () => [break_], ([b]) => { break_ = b as boolean; },
      ['break_'], 1, { origin: 'decode.ts:8:5', flags: ['break_'] });
    ag__.ifStmt(ag__.not(break_), () => { t = t.add(one); }, undefined, () => [t], ([t1]) => { t = t1 as tf.Scalar; },
      ['t'], 1, { origin: 'decode.ts:4:3' });
  }, () => [tok, h, done, t, break_], ([tok1, h1, done1, t1, b1]) => {
    [tok, h, done, t, break_] = [tok1 as tf.Tensor, h1 as tf.Tensor, done1 as tf.Tensor, t1 as tf.Scalar, b1 as boolean];
  }, ['tok', 'h', 'done', 't', 'break_'], { origin: 'decode.ts:4:3', flags: ['break_'], composites: () => ({ tokens }) });
  return tf.stack(tokens);
}

const DECODE_EOS = 0;

const decodeCase = (hidden: number, vocab: number, batch: number, maxLen: number): Case => ({
  key: `decode${hidden}`,
  name: `greedy decode h${hidden} v${vocab} b${batch} <=${maxLen}`,
  prepare: plain(greedyDecode, () => tf.tidy(() => {
    const boost = tf.oneHot(tf.tensor1d([DECODE_EOS], 'int32'), vocab).reshape([vocab]).mul(0.08);
    return [tf.range(1, batch + 1, 1, 'int32'), tf.randomNormal([vocab, hidden]),
      tf.randomNormal([hidden, hidden]).div(Math.sqrt(hidden)), tf.randomNormal([hidden, hidden]).div(Math.sqrt(hidden)),
      tf.randomNormal([hidden, vocab]).div(Math.sqrt(hidden)), boost, tf.scalar(maxLen, 'int32')];
  })),
});

export interface Prepared {
  fn: (...args: tf.Tensor[]) => tf.Tensor;
  args: tf.Tensor[];
  /** Tensors the function captures (freed after the case). */
  captured: tf.Tensor[];
  /** Frees anything else the case made (an optimizer). */
  dispose?: () => void;
}

export interface Case {
  key: string;
  name: string;
  /** Creates the function and its arguments on the active backend. */
  prepare: () => Prepared;
}

const plain = (fn: (...args: never[]) => tf.Tensor, args: () => tf.Tensor[]) => (): Prepared =>
  ({ fn: fn as Prepared['fn'], args: args(), captured: [] });

const rnnArgs = (hidden: number, batch: number, steps = 100) => (): tf.Tensor[] => tf.tidy(() => [
  tf.randomNormal([steps, batch, hidden]), tf.randomNormal([hidden, hidden]).div(Math.sqrt(hidden)),
  tf.randomNormal([hidden, hidden]).div(Math.sqrt(hidden)), tf.randomNormal([hidden]),
]);

const rnnCase = (hidden: number, batch: number): Case => ({
  key: `rnn${hidden}`,
  name: `tanh RNN h${hidden} b${batch} x100`,
  prepare: plain(rnn, rnnArgs(hidden, batch)),
});

/**
 * One SGD step of backpropagation through time over the tanh RNN: the forward loop, the loop
 * computing its gradient (in the graph when staged, on tfjs's tape when eager) and the updates.
 */
const bpttCase = (hidden: number, batch: number): Case => ({
  key: `bptt${hidden}`,
  name: `BPTT train step h${hidden} b${batch} x100`,
  prepare: () => {
    const [xs, w, u, b] = rnnArgs(hidden, batch)();
    const weights = [tf.variable(w), tf.variable(u), tf.variable(b)];
    tf.dispose([w, u, b]);
    const target = tf.randomNormal([batch, hidden]);
    const optimizer = tf.train.sgd(0.01);
    const step = (x: tf.Tensor, t: tf.Tensor): tf.Tensor => optimizer.minimize(() =>
      rnn(x as tf.Tensor3D, weights[0] as tf.Tensor2D, weights[1] as tf.Tensor2D, weights[2] as tf.Tensor1D)
        .sub(t).square().mean() as tf.Scalar, true, weights)!;
    return { fn: step as Prepared['fn'], args: [xs, target], captured: weights, dispose: () => optimizer.dispose() };
  },
});

/** The cases: staged vs eager. */
export const cases: Case[] = [
  { key: 'chain', name: '10,000 dependent scalar ops', prepare: plain(chain, () => [tf.scalar(1)]) },
  { key: 'collatz', name: 'collatz(27)', prepare: plain(collatzSteps, () => [tf.scalar(27)]) },
  rnnCase(64, 8),
  rnnCase(256, 32),
  bpttCase(64, 8),
  decodeCase(64, 100, 8, 200),
];

export interface AblationCase extends Case {
  /** The optimization whose effect this case shows. */
  optimization: 'cse' | 'loopInvariant' | 'constantFolding';
  label: string;
}

/** One case per optimization, where it matters: staged with all optimizations vs without that one. */
export const ablationCases: AblationCase[] = [
  {
    key: 'gated', name: 'gated RNN h64 b8 x100 (h U twice)', optimization: 'cse', label: 'CSE',
    prepare: plain(gatedRnn, rnnArgs(64, 8)),
  },
  {
    key: 'transposed', name: 'RNN h64 b8 x100 (W^T, U^T in step)', optimization: 'loopInvariant',
    label: 'loop-invariant hoisting', prepare: plain(transposedRnn, rnnArgs(64, 8)),
  },
  {
    key: 'adapter', name: 'x (W + A B), captured, 256x256 r32', optimization: 'constantFolding', label: 'constant folding',
    prepare: () => {
      const captured = [tf.randomNormal([256, 256]), tf.randomNormal([256, 32]), tf.randomNormal([32, 256])] as tf.Tensor2D[];
      return { fn: adapterLayer(captured[0], captured[1], captured[2]) as Prepared['fn'], args: [tf.randomNormal([8, 256])], captured };
    },
  },
];

export const allCases: Case[] = [...cases, ...ablationCases];
