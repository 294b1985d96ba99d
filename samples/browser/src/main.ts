/**
 * The page: for each tfjs backend (cpu, wasm, webgl), times the RNN (hidden 128, batch 16, 32
 * steps) and the greedy decoder eagerly and staged, and checks staged == eager; on wasm, also the
 * RNN staged on onnxruntime-web (`engine: 'onnx-web'`, run with `staged.run`) against tfjs-wasm
 * eager, side by side in the same page load. Served cross-origin isolated (vite.config.ts sets
 * COOP/COEP), onnxruntime-web and tfjs-wasm may use threads; the page says what each used.
 */
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import wasm from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.jsep.wasm?url';
import ortWasmModule from 'onnxruntime-web/ort-wasm-simd-threaded.jsep.mjs?url';
import { stage } from 'autograph-ts';
import { greedyDecode, rnn, type Weights } from './models';
import { compare, results } from './measure';

// Vite serves the wasm binaries of tfjs-backend-wasm as assets; tfjs fetches them from these URLs.
setWasmPaths({ 'tfjs-backend-wasm.wasm': wasm, 'tfjs-backend-wasm-simd.wasm': wasmSimd,
  'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimd });
// tfjs-backend-wasm's threaded build starts its workers from its factory function's source text
// (`factory.toString()`), which a bundler's rewriting breaks: in a cross-origin isolated page every
// worker dies with "ReferenceError: e is not defined" and the backend never becomes ready. Its
// single-threaded SIMD build is what a bundled page can use.
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);

/**
 * onnxruntime-web (imported by autograph-ts's onnx-web engine on first use; this is the same
 * module): its wasm threads start workers from the URL of its emscripten module, which inside a
 * bundle is the chunk holding it (measured with it in the page's main chunk: the workers run the
 * page and die on `document`). Served as files of their own (`?url`), the workers load the module
 * alone. Threads: onnxruntime-web's default (half the cores, at most 4): its waiting workers spin,
 * and with one per core tfjs-wasm eager next to it ran 4x slower on a 2-core machine.
 */
async function configureOnnxRuntimeWeb(): Promise<void> {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.wasmPaths = { mjs: ortWasmModule, wasm: ortWasm };
}

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

/** What ran where: isolation (SharedArrayBuffer), tfjs-wasm's SIMD and threads, onnxruntime-web's providers and threads. */
const setup: Record<string, string> = { crossOriginIsolated: String(globalThis.crossOriginIsolated === true) };

function say(): void {
  document.getElementById('setup')!.textContent = Object.entries(setup).map(([k, v]) => `${k}: ${v}`).join('; ');
}

async function main(): Promise<void> {
  say();
  for (const backend of ['cpu', 'wasm', 'webgl']) {
    if (!(await tf.setBackend(backend).catch(() => false))) {
      results.push({ backend, name: '(not available)', same: false, detail: `${backend} did not start` });
      continue;
    }
    await tf.ready();
    if (backend === 'wasm') {
      setup['tfjs-wasm'] = `SIMD ${await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')}, threads ${await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT')}`;
      say();
    }
    const w = weights();
    const xs = tf.randomNormal([STEPS, BATCH, FEATURES], 0, 1, 'float32', 5) as tf.Tensor3D;
    const h0 = tf.zeros([BATCH, HIDDEN]) as tf.Tensor2D;
    const stagedRnn = stage(rnn);
    const stagedDecode = stage(greedyDecode);
    await compare(backend, `rnn ${STEPS} steps`, () => rnn(xs, h0, w), () => stagedRnn(xs, h0, w));
    if (backend === 'wasm') {
      await configureOnnxRuntimeWeb();
      const onOrt = stage(rnn, { engine: 'onnx-web', onnx: { executionProviders: ['wasm'] } });
      await compare(backend, `rnn ${STEPS} steps, staged on onnxruntime-web`, () => rnn(xs, h0, w), () => onOrt.run(xs, h0, w));
      setup['onnxruntime-web'] = [onOrt.inspect(xs, h0, w).engine.threads ?? '(not run)'].flat().join('; ');
      say();
    }
    const start = tf.scalar(1, 'int32');
    await compare(backend, 'greedy decoder', () => greedyDecode(start, 2, 64, w), () => stagedDecode(start, 2, 64, w));
    tf.dispose([xs, h0, start, ...Object.values(w)]);
  }
  Object.assign(globalThis, { sampleResults: { results, setup } });
  document.getElementById('status')!.textContent = 'done';
}

main().catch((error) => {
  Object.assign(globalThis, { sampleResults: { results, setup, error: String(error) } });
  document.getElementById('status')!.textContent = `error: ${error}`;
});
