/**
 * The bench programs. Eager versions are the code the transformer emits (ag__ operator calls),
 * run without stage(); stage() of the same function is the staged version.
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

/** h_t = tanh(x_t W + h_{t-1} U + b), for (const x of xs) over the 100 time steps. */
export function rnn(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D, b: tf.Tensor1D): tf.Tensor {
  let h = tf.zeros([xs.shape[1], u.shape[0]]) as tf.Tensor;
  ag__.forStmt(xs, undefined, (x: tf.Tensor) => {
    h = tf.tanh(tf.matMul(x as tf.Tensor2D, w).add(tf.matMul(h as tf.Tensor2D, u)).add(b));
  }, () => [h], ([h1]) => { h = h1 as tf.Tensor; }, ['h'], { origin: 'rnn.ts:3:3' });
  return h;
}

export interface Case {
  key: string;
  name: string;
  fn: (...args: never[]) => tf.Tensor;
  args: () => tf.Tensor[];
  /** Calls per measured batch. */
  iterations: number;
}

function rnnCase(hidden: number, batch: number, iterations: number): Case {
  return {
    key: `rnn${hidden}`,
    name: `tanh RNN h${hidden} b${batch} x100`,
    fn: rnn as Case['fn'],
    args: () => [tf.randomNormal([100, batch, hidden]), tf.randomNormal([hidden, hidden]).div(Math.sqrt(hidden)),
      tf.randomNormal([hidden, hidden]).div(Math.sqrt(hidden)), tf.randomNormal([hidden])],
    iterations,
  };
}

export const cases: Case[] = [
  { key: 'chain', name: '10,000 dependent scalar ops', fn: chain as Case['fn'], args: () => [tf.scalar(1)], iterations: 2 },
  { key: 'collatz', name: 'collatz(27)', fn: collatzSteps as Case['fn'], args: () => [tf.scalar(27)], iterations: 40 },
  rnnCase(64, 8, 6),
  rnnCase(256, 32, 1),
];
