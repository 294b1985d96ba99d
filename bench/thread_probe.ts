/**
 * The held-out probe of #20 item 5: does the ONNX engine's choice of threads per operator hold?
 * The bench's main RNN (h256 b64 x128, the same weights) staged on ONNX Runtime with the threads
 * left to the engine (backends/engines/onnx/threads.ts), against the naive and the expert
 * hand-built graphs (bench/native.ts) on ORT's default threads, in PROBE_RUNS (10) separate
 * processes, one after the other: each process makes WARMUP (20) calls of each, then CALLS (40)
 * timed calls of each in alternating order (the engine's re-check of its choice after 50 calls
 * included: it is part of the steady state), and reports the median ms of each. A process is
 * where a choice is made once: the same measurement repeated in one process would not show a
 * coin flip between processes.
 *   node --expose-gc dist/bench/thread_probe.js            (PROBE_RUNS=10 by default)
 */
import { execFileSync } from 'child_process';
import * as os from 'os';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from '../backends/stage';
import { loadSample } from '../spec/onnx/support';
import { median, runOnce } from './measure';
import { expertRnn, nativeRnn } from './native';

const [T, B, H] = [128, 64, 256];
const WARMUP = 20;
const CALLS = 40;
/** ORT's default: intraOpNumThreads 0 lets ORT choose (one per physical core). */
const ORT_DEFAULT = { intraOpNumThreads: 0 };

interface ProbeRun { engine: number; naive: number; expert: number; threads: string }

/** One process's probe: the median ms per call of each variant after the warm-up, and the engine's thread choice. */
async function probe(): Promise<ProbeRun> {
  await tf.setBackend('wasm');
  await tf.ready();
  const { rnn } = loadSample('rnn/src/rnn.ts');
  // The bench's weights and inputs (bench/workloads.ts rnnWorkload).
  const w = tf.tidy(() => ({
    wx: tf.randomNormal([H, H], 0, 1 / Math.sqrt(H), 'float32', 1) as tf.Tensor2D,
    wh: tf.randomNormal([H, H], 0, 1 / Math.sqrt(H), 'float32', 2) as tf.Tensor2D,
    b: tf.randomNormal([H], 0, 0.1, 'float32', 3) as tf.Tensor1D,
  }));
  const xs = tf.randomNormal([T, B, H], 0, 1, 'float32', 4) as tf.Tensor3D;
  const h0 = tf.zeros([B, H]) as tf.Tensor2D;
  const staged = stage(rnn, { engine: 'onnx' });
  const naive = nativeRnn(xs, h0, w.wx, w.wh, w.b, ORT_DEFAULT);
  const expert = expertRnn(xs, h0, w.wx, w.wh, w.b, ORT_DEFAULT);
  const calls = [() => [staged(xs, h0, w) as tf.Tensor], naive.run, expert.run];
  for (const call of calls) for (let i = 0; i < WARMUP; i++) runOnce(call);
  const times: number[][] = calls.map(() => []);
  for (let i = 0; i < CALLS; i++) {
    const order = i % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
    for (const k of order) {
      (globalThis as { gc?: () => void }).gc?.();
      const start = performance.now();
      runOnce(calls[k]);
      times[k].push(performance.now() - start);
    }
  }
  const threads = staged.inspect(xs, h0, w).engine.threads?.join('; ') ?? '';
  naive.dispose();
  expert.dispose();
  staged.dispose();
  return { engine: median(times[0]), naive: median(times[1]), expert: median(times[2]), threads };
}

function drive(): void {
  const runs = Number(process.env.PROBE_RUNS ?? 10);
  console.log(`thread probe: tanh RNN h${H} b${B} x${T} on ORT, ${runs} processes, ${WARMUP} warm-up and ${CALLS} timed calls ` +
    'of each variant per process (medians); hand-built graphs on ORT\'s default threads');
  const results: ProbeRun[] = [];
  for (let r = 0; r < runs; r++) {
    const load = os.loadavg()[0];
    const out = execFileSync(process.execPath, ['--expose-gc', __filename, '--child'], { encoding: 'utf8' });
    const run = JSON.parse(out.trim().split('\n').pop()!) as ProbeRun;
    results.push(run);
    console.log(`run ${String(r + 1).padStart(2)}: engine ${run.engine.toFixed(2)} ms, naive ${run.naive.toFixed(2)}, ` +
      `expert ${run.expert.toFixed(2)}; engine/naive ${(run.engine / run.naive).toFixed(2)}x, engine/expert ` +
      `${(run.engine / run.expert).toFixed(2)}x (load ${load.toFixed(1)}); ${run.threads}`);
  }
  const toNaive = results.map((r) => r.engine / r.naive);
  const toExpert = results.map((r) => r.engine / r.expert);
  console.log(`engine/naive: median ${median(toNaive).toFixed(2)}x, range ${Math.min(...toNaive).toFixed(2)}-` +
    `${Math.max(...toNaive).toFixed(2)}x, above 1.0x in ${toNaive.filter((x) => x > 1).length} of ${runs}`);
  console.log(`engine/expert: median ${median(toExpert).toFixed(2)}x, range ${Math.min(...toExpert).toFixed(2)}-` +
    `${Math.max(...toExpert).toFixed(2)}x`);
}

if (process.argv.includes('--child')) {
  probe().then((r) => console.log(JSON.stringify(r)), (error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  drive();
}
