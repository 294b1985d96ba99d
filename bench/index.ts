/**
 * Staged vs eager, side by side, on wasm and cpu (`npm run bench`):
 * - 10,000 dependent scalar ops (dispatch overhead),
 * - collatz(27) (a data-dependent while loop with an if: 111 iterations),
 * - a tanh RNN over 100 steps (hidden 64 batch 8, hidden 256 batch 32),
 * and the effect of each graph optimization on collatz and the small RNN.
 * Eager versions are the code the transformer emits, run without stage().
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import * as ag__ from '../runtime/operators';
import { stage, StageOptions } from '../backends/stage';

function chain(x: tf.Scalar): tf.Scalar {
  let y = x;
  for (let i = 0; i < 5000; i++) y = y.mul(0.999).add(0.001) as tf.Scalar; // 10,000 dependent ops
  return y;
}

function collatzSteps(n: tf.Scalar): tf.Scalar {
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
function rnn(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D, b: tf.Tensor1D): tf.Tensor {
  let h = tf.zeros([xs.shape[1], u.shape[0]]) as tf.Tensor;
  ag__.forStmt(xs, undefined, (x: tf.Tensor) => {
    h = tf.tanh(tf.matMul(x as tf.Tensor2D, w).add(tf.matMul(h as tf.Tensor2D, u)).add(b));
  }, () => [h], ([h1]) => { h = h1 as tf.Tensor; }, ['h'], { origin: 'rnn.ts:3:3' });
  return h;
}

interface Case {
  name: string;
  fn: (...args: never[]) => tf.Tensor;
  args: () => tf.Tensor[];
  iterations: number;
}

function rnnCase(hidden: number, batch: number, iterations: number): Case {
  return {
    name: `tanh RNN h${hidden} b${batch} x100`,
    fn: rnn as Case['fn'],
    args: () => [tf.randomNormal([100, batch, hidden]), tf.randomNormal([hidden, hidden]).div(Math.sqrt(hidden)),
      tf.randomNormal([hidden, hidden]).div(Math.sqrt(hidden)), tf.randomNormal([hidden])],
    iterations,
  };
}

const cases: Case[] = [
  { name: '10,000 dependent scalar ops', fn: chain as Case['fn'], args: () => [tf.scalar(1)], iterations: 10 },
  { name: 'collatz(27)', fn: collatzSteps as Case['fn'], args: () => [tf.scalar(27)], iterations: 200 },
  rnnCase(64, 8, 30),
  rnnCase(256, 32, 5),
];

/** Mean ms per call of one batch of `iterations` calls. */
function batch(call: () => tf.Tensor, iterations: number): number {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) {
    const out = call();
    out.dataSync();
    out.dispose();
  }
  return (performance.now() - start) / iterations;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Eager and staged batches alternate over 5 rounds and each side reports its median batch: the
 * machine is shared, and alternating keeps a slow phase from landing on one side only. Two
 * warm-up calls each first (the first staged call traces).
 */
function measure(c: Case, options?: StageOptions, rounds = 5): { eager: number; staged: number } {
  const args = c.args();
  const call = c.fn as (...a: tf.Tensor[]) => tf.Tensor;
  const staged = stage(call, options);
  const eagerCall = (): tf.Tensor => tf.tidy(() => call(...args));
  const stagedCall = (): tf.Tensor => staged(...args);
  batch(eagerCall, 2);
  batch(stagedCall, 2);
  const per = Math.max(1, Math.round(c.iterations / rounds));
  const eager: number[] = [];
  const stagedMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    (globalThis as { gc?: () => void }).gc?.();
    eager.push(batch(eagerCall, per));
    (globalThis as { gc?: () => void }).gc?.();
    stagedMs.push(batch(stagedCall, per));
  }
  staged.dispose();
  tf.dispose(args);
  return { eager: median(eager), staged: median(stagedMs) };
}

/** Staged ms per call only (for the optimization on/off table). */
function measureStaged(c: Case, options: StageOptions, rounds = 5): number {
  const args = c.args();
  const staged = stage(c.fn as (...a: tf.Tensor[]) => tf.Tensor, options);
  const call = (): tf.Tensor => staged(...args);
  batch(call, 2);
  const per = Math.max(1, Math.round(c.iterations / rounds));
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    (globalThis as { gc?: () => void }).gc?.();
    ms.push(batch(call, per));
  }
  staged.dispose();
  tf.dispose(args);
  return median(ms);
}

const pad = (s: string, n: number): string => s.padEnd(n);
const num = (x: number): string => x.toFixed(x < 10 ? 3 : 1).padStart(9);

async function main(): Promise<void> {
  const rows: string[] = [];
  const header = `${pad('case', 30)}${pad('backend', 9)}${'eager ms'.padStart(9)}${'staged ms'.padStart(11)}  staged/eager`;
  const ablation: string[] = [];
  for (const backend of ['wasm', 'cpu']) {
    await tf.setBackend(backend);
    await tf.ready();
    for (const c of cases) {
      const r = measure(c);
      rows.push(`${pad(c.name, 30)}${pad(backend, 9)}${num(r.eager)}  ${num(r.staged)}  ${(r.staged / r.eager).toFixed(2)}`);
      console.log(rows[rows.length - 1]);
    }
    for (const c of [cases[1], cases[2]]) {
      const variants: [string, StageOptions][] = [
        ['all optimizations', {}],
        ['no constant folding', { optimize: { constantFolding: false } }],
        ['no CSE', { optimize: { cse: false } }],
        ['no loop-invariant hoisting', { optimize: { loopInvariant: false } }],
        ['no optimizations', { optimize: false }],
      ];
      for (const [label, options] of variants) {
        const ms = measureStaged(c, options);
        ablation.push(`${pad(c.name, 30)}${pad(backend, 9)}${pad(label, 28)}${num(ms)} ms`);
        console.log(ablation[ablation.length - 1]);
      }
    }
  }
  console.log(`\n${header}\n${rows.join('\n')}`);
  console.log(`\nstaged ms per call by optimization\n${ablation.join('\n')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
