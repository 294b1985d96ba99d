/**
 * The page: for each tfjs backend (cpu, wasm, webgl), times the RNN (hidden 128, batch 16, 32
 * steps) and the greedy decoder eagerly and staged, and checks staged == eager.
 */
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import wasm from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { stage } from 'autograph-ts';
import { greedyDecode, rnn, type Weights } from './models';

// Vite serves the wasm binaries of tfjs-backend-wasm as assets; tfjs fetches them from these URLs.
setWasmPaths({ 'tfjs-backend-wasm.wasm': wasm, 'tfjs-backend-wasm-simd.wasm': wasmSimd,
  'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimd });

const HIDDEN = 128, BATCH = 16, STEPS = 32, FEATURES = 64, VOCABULARY = 1000;

function weights(): Weights {
  const r = (shape: number[], seed: number, scale: number) => tf.randomNormal(shape, 0, scale, 'float32', seed);
  return {
    embedding: r([VOCABULARY, FEATURES], 1, 1) as tf.Tensor2D,
    wx: r([FEATURES, HIDDEN], 2, 1 / Math.sqrt(FEATURES)) as tf.Tensor2D,
    wh: r([HIDDEN, HIDDEN], 3, 1 / Math.sqrt(HIDDEN)) as tf.Tensor2D,
    b: tf.zeros([HIDDEN]) as tf.Tensor1D,
    wo: r([HIDDEN, VOCABULARY], 4, 3 / Math.sqrt(HIDDEN)) as tf.Tensor2D,
  };
}

/** Median ms of 5 calls after a warm-up call (which traces, for the staged function). */
async function time(fn: () => tf.Tensor): Promise<{ ms: number; values: Float32Array | Int32Array | Uint8Array }> {
  const first = fn();
  const values = await first.data();
  first.dispose();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const result = fn();
    await result.data();
    times.push(performance.now() - started);
    result.dispose();
  }
  return { ms: times.sort((a, b) => a - b)[2], values };
}

const same = (a: ArrayLike<number>, b: ArrayLike<number>): boolean =>
  a.length === b.length && Array.from(a).every((v, i) => Math.abs(v - b[i]) <= 1e-5);

function row(cells: string[]): void {
  const tr = document.createElement('tr');
  for (const text of cells) tr.appendChild(Object.assign(document.createElement('td'), { textContent: text }));
  document.getElementById('rows')!.appendChild(tr);
}

async function compare(backend: string, name: string, eager: () => tf.Tensor, staged: () => tf.Tensor): Promise<void> {
  const message = (error: unknown) => `error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  let e: Awaited<ReturnType<typeof time>>;
  try {
    e = await time(eager);
  } catch (error) {
    row([backend, name, message(error), '', '', '']);
    return;
  }
  try {
    const s = await time(staged);
    row([backend, name, e.ms.toFixed(2), s.ms.toFixed(2), `${(e.ms / s.ms).toFixed(2)}×`, same(e.values, s.values) ? 'yes' : 'NO']);
  } catch (error) {
    row([backend, name, e.ms.toFixed(2), '', '', message(error)]);
  }
}

async function main(): Promise<void> {
  for (const backend of ['cpu', 'wasm', 'webgl']) {
    if (!(await tf.setBackend(backend).catch(() => false))) {
      row([backend, '(not available)', '', '', '', '']);
      continue;
    }
    await tf.ready();
    const w = weights();
    const xs = tf.randomNormal([STEPS, BATCH, FEATURES], 0, 1, 'float32', 5) as tf.Tensor3D;
    const h0 = tf.zeros([BATCH, HIDDEN]) as tf.Tensor2D;
    const stagedRnn = stage(rnn);
    const stagedDecode = stage(greedyDecode);
    await compare(backend, `rnn ${STEPS} steps`, () => rnn(xs, h0, w), () => stagedRnn(xs, h0, w));
    const start = tf.scalar(1, 'int32');
    await compare(backend, 'greedy decoder', () => greedyDecode(start, 2, 64, w), () => stagedDecode(start, 2, 64, w));
    tf.dispose([xs, h0, start, ...Object.values(w)]);
  }
  document.getElementById('status')!.textContent = 'done';
}

main().catch((error) => {
  document.getElementById('status')!.textContent = `error: ${error}`;
});
