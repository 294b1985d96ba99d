/**
 * `node dist/bench/async_engines.js`: the sample RNN (hidden 128, batch 16, 32 steps, 64 features)
 * on tfjs-wasm eager, the tfjs executor (staged() and staged.run), onnxruntime-node (staged(): the
 * native session; staged.run: the public API) and onnxruntime-web (staged.run, wasm, one thread);
 * and the overhead of a call, sync vs async, on a one-op graph. Median of timed calls after warm-up.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from '../backends/stage';
import { onnxRuntimeAvailable } from '../backends/engines/onnx/runtime';
import { loadSample } from '../spec/onnx/support';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(call: () => unknown, runs: number): Promise<number> {
  for (let k = 0; k < 3; k++) tf.dispose(await call() as tf.Tensor);
  const ms: number[] = [];
  for (let k = 0; k < runs; k++) {
    const start = performance.now();
    const out = (await call()) as tf.Tensor;
    await out.data();
    ms.push(performance.now() - start);
    out.dispose();
  }
  return median(ms);
}

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  const { rnn } = loadSample('rnn/src/rnn.ts');
  const [T, B, F, H] = [32, 16, 64, 128];
  const wave = (shape: number[], phase: number): tf.Tensor => tf.sin(tf.range(0, shape.reduce((a, b) => a * b)).mul(1.3).add(phase)).mul(0.1).reshape(shape);
  const w = { wx: wave([F, H], 0.1), wh: wave([H, H], 0.7), b: tf.zeros([H]) };
  const xs = wave([T, B, F], 0.3);
  const h0 = tf.zeros([B, H]);
  const rows: [string, number][] = [];
  rows.push(['tfjs-wasm eager', await time(() => rnn(xs, h0, w), 30)]);
  const onTfjs = stage(rnn, { engine: 'tfjs' });
  rows.push(['tfjs executor, staged()', await time(() => onTfjs(xs, h0, w), 30)]);
  rows.push(['tfjs executor, staged.run()', await time(() => onTfjs.run(xs, h0, w), 30)]);
  if (onnxRuntimeAvailable()) {
    const onNode = stage(rnn, { engine: 'onnx', onnx: { intraOpNumThreads: 1 } });
    rows.push(['onnxruntime-node, staged() (native session, 1 thread)', await time(() => onNode(xs, h0, w), 30)]);
    rows.push(['onnxruntime-node, staged.run() (public API, 1 thread)', await time(() => onNode.run(xs, h0, w), 30)]);
  }
  const onWeb = stage(rnn, { engine: 'onnx-web' });
  rows.push(['onnxruntime-web (wasm, 1 thread), staged.run()', await time(() => onWeb.run(xs, h0, w), 30)]);
  const eager = rows[0][1];
  console.log(`RNN hidden ${H}, batch ${B}, ${T} steps, ${F} features (median ms per call; x = speed-up over tfjs-wasm eager):`);
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(58)} ${ms.toFixed(2).padStart(8)} ms  x${(eager / ms).toFixed(1)}`);

  // Call overhead: a one-op graph.
  const add = (a: tf.Tensor): tf.Tensor => a.add(1);
  const one = tf.scalar(1);
  console.log('Call overhead, one Add on a scalar (median ms per call):');
  for (const engine of ['tfjs', 'onnx', 'onnx-web'] as const) {
    if (engine === 'onnx' && !onnxRuntimeAvailable()) continue;
    const staged = stage(add, { engine });
    const sync = engine === 'onnx-web' ? NaN : await time(() => staged(one), 200);
    const async = await time(() => staged.run(one), 200);
    console.log(`  ${engine.padEnd(9)} staged() ${Number.isNaN(sync) ? '   (none)' : sync.toFixed(3).padStart(8)} ms   staged.run() ${async.toFixed(3).padStart(8)} ms`);
  }
}

void main();
