import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { decodeBatch, fixedWeights, greedyDecode, rnn } from './rnn.js';
import { decodeBatchReference, rnnReference } from './reference.js';

// node out/main.js [--batch 32|64|128] [--steps 64|128]: the RNN's size (hidden 256, as in the paper).
const option = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const BATCH = option('batch', 32);
const STEPS = option('steps', 64);
const HIDDEN = 256;

await tf.setBackend('wasm');

// Small and deterministic: the numbers every run prints.
const w = fixedWeights(4, 8, 6);
const inputs = tf.sin(tf.range(0, 5 * 2 * 4).mul(0.21)).reshape([5, 2, 4]) as tf.Tensor3D;
const h0 = tf.zeros([2, 8]) as tf.Tensor2D;
const sum = (t: tf.Tensor): string => t.sum().dataSync()[0].toFixed(4);
console.log(`rnn: last hidden state sum = ${sum(rnn(inputs, h0, w))} (eager), ${sum(stage(rnn)(inputs, h0, w))} (staged)`);

const stagedDecode = stage(greedyDecode);
for (const eos of [5, 1, 3]) {
  const show = ({ length, checksum }: { length: tf.Tensor; checksum: tf.Tensor }): string =>
    `length ${length.dataSync()[0]}, checksum ${checksum.dataSync()[0]}`;
  const args = [tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), eos, w] as const;
  console.log(`greedyDecode(eos=${eos}): ${show(greedyDecode(...args))} (eager), ${show(stagedDecode(...args))} (staged)`);
}

/** Median ms of `runs` calls after one warm-up call (results read, then freed). */
function time(call: () => tf.Tensor | tf.Tensor[], runs = 5): number {
  const once = (): number => {
    const started = performance.now();
    const out = [call()].flat();
    out.forEach((t) => t.dataSync());
    tf.dispose(out);
    return performance.now() - started;
  };
  once();
  const ms = Array.from({ length: runs }, once).sort((a, b) => a - b);
  return ms[runs >> 1];
}
const maxDiff = (a: tf.Tensor, b: tf.Tensor): number => tf.tidy(() => a.sub(b).abs().max().dataSync()[0]);

// The paper's RNN: hidden 256, against the plain tfjs reference.
const big = tf.tidy(() => ({
  wx: tf.randomNormal([HIDDEN, HIDDEN], 0, 1 / 16, 'float32', 1) as tf.Tensor2D,
  wh: tf.randomNormal([HIDDEN, HIDDEN], 0, 1 / 16, 'float32', 2) as tf.Tensor2D,
  b: tf.randomNormal([HIDDEN], 0, 0.1, 'float32', 3) as tf.Tensor1D,
}));
const xs = tf.randomNormal([STEPS, BATCH, HIDDEN], 0, 1, 'float32', 4) as tf.Tensor3D;
const zeros = tf.zeros([BATCH, HIDDEN]) as tf.Tensor2D;
const stagedRnn = stage(rnn);
const reference = rnnReference(xs, zeros, big);
console.log(`rnn h${HIDDEN} b${BATCH} x${STEPS}: max |eager - reference| ${maxDiff(rnn(xs, zeros, big), reference).toExponential(1)}, ` +
  `max |staged - reference| ${maxDiff(stagedRnn(xs, zeros, big), reference).toExponential(1)}`);
const rnnEagerMs = time(() => tf.tidy(() => rnnReference(xs, zeros, big)));
const rnnStagedMs = time(() => stagedRnn(xs, zeros, big));
console.log(`rnn h${HIDDEN} b${BATCH} x${STEPS}: reference ${rnnEagerMs.toFixed(1)} ms, staged ${rnnStagedMs.toFixed(1)} ms ` +
  `(${stagedRnn.inspect(xs, zeros, big).engine.engine}): ${(rnnEagerMs / rnnStagedMs).toFixed(1)}x`);

// Batched greedy decoding with an early stop (vocabulary 1,000, batch 16, at most 64 steps).
const dw = tf.tidy(() => ({
  ...big,
  wh: tf.randomNormal([HIDDEN, HIDDEN], 0, 0.3 / 16, 'float32', 2) as tf.Tensor2D,
  embedding: tf.randomNormal([1000, HIDDEN], 0, 1, 'float32', 5) as tf.Tensor2D,
  wo: tf.randomNormal([HIDDEN, 1000], 0, 1, 'float32', 6) as tf.Tensor2D,
}));
const start = tf.range(0, 16, 1, 'int32') as tf.Tensor1D;
const h16 = tf.zeros([16, HIDDEN]) as tf.Tensor2D;
const EOS = 738;   // the token these weights settle on most: sequences stop after 5 to 45 steps
const stagedBatch = stage(decodeBatch);
const want = decodeBatchReference(start, h16, 64, EOS, dw);
for (const [mode, got] of [['eager', decodeBatch(start, h16, 64, EOS, dw)], ['staged', stagedBatch(start, h16, 64, EOS, dw)]] as const) {
  const same = maxDiff(got.tokens, want.tokens) === 0 && maxDiff(got.lengths, want.lengths) === 0;
  console.log(`decodeBatch b16 v1000 (${mode}): lengths ${got.lengths.arraySync()}; ${same ? 'same tokens as the reference' : 'DIFFERENT from the reference'}`);
}
const decodeEagerMs = time(() => tf.tidy(() => Object.values(decodeBatchReference(start, h16, 64, EOS, dw))));
const decodeStagedMs = time(() => Object.values(stagedBatch(start, h16, 64, EOS, dw)));
console.log(`decodeBatch: reference ${decodeEagerMs.toFixed(1)} ms, staged ${decodeStagedMs.toFixed(1)} ms ` +
  `(${stagedBatch.inspect(start, h16, 64, EOS, dw).engine.engine}): ${(decodeEagerMs / decodeStagedMs).toFixed(1)}x`);
