/**
 * The optimizer's loop rewrites — projection hoisting (backends/optimize/projection_hoisting.ts)
 * and accumulated products (accumulated_products.ts) — all on vs all off, in the same run, on the
 * RNN of the main table (forward) and the BPTT training step of samples/bptt (forward loop,
 * backward loop in the graph, updates) at the main table's size and at batch 4 over 128 steps,
 * on ONNX Runtime and the tfjs executor. ORT runs one thread per operator in both: the threads
 * each staged function would measure for itself differ with the machine's load from one to the
 * other (on a busy machine, identical graphs measured 0.79x and 1.36x), which is not the rewrites.
 */
import * as tf from '@tensorflow/tfjs';
import { stage, StageOptions } from '../backends/stage';
import { onnxRuntimeMissing } from '../backends/engines/onnx/runtime';
import { loadSample } from '../spec/onnx/support';
import type { Comparison } from './measure';
import { bpttFlops, Peak, rnnFlops, rooflineText } from './roofline';

type Compare = (base: () => tf.Tensor, other: () => tf.Tensor) => Comparison;

interface Subject {
  name: string;
  flops: number;
  fn: (...args: unknown[]) => tf.Tensor;
  args: unknown[];
  dispose: () => void;
}

function subjects(): Subject[] {
  const rnnModule = loadSample('rnn/src/rnn.ts');
  const bptt = loadSample('bptt/src/bptt.ts');
  const [T, B, H] = [128, 64, 256];
  const w = tf.tidy(() => ({
    wx: tf.randomNormal([H, H], 0, 1 / Math.sqrt(H), 'float32', 1), wh: tf.randomNormal([H, H], 0, 1 / Math.sqrt(H), 'float32', 2),
    b: tf.randomNormal([H], 0, 0.1, 'float32', 3),
  }));
  const xs = tf.randomNormal([T, B, H], 0, 1, 'float32', 4);
  const h0 = tf.zeros([B, H]);
  const task = bptt.decayingSumTask(32, 64, 4) as { xs: tf.Tensor; targets: tf.Tensor };
  const weights = bptt.initialWeights(4, 64) as Record<string, tf.Variable>;
  const optimizer = tf.train.sgd(0.1);
  const long = bptt.decayingSumTask(128, 4, 4) as { xs: tf.Tensor; targets: tf.Tensor };
  const longWeights = bptt.initialWeights(4, 64) as Record<string, tf.Variable>;
  // Batch 4: a per-step product of 262K multiply-adds, the largest that is hoisted (HOIST_UP_TO_WORK).
  const small = tf.randomNormal([T, 4, H], 0, 1, 'float32', 5);
  const h0small = tf.zeros([4, H]);
  return [
    { name: `tanh RNN h${H} b${B} x${T}`, flops: rnnFlops(T, B, H, H), fn: rnnModule.rnn, args: [xs, h0, w],
      dispose: () => tf.dispose([xs, h0]) },
    { name: `tanh RNN h${H} b4 x${T}`, flops: rnnFlops(T, 4, H, H), fn: rnnModule.rnn, args: [small, h0small, w],
      dispose: () => tf.dispose([small, h0small, ...Object.values(w)]) },
    { name: 'BPTT SGD step h64 b64 x32 (samples/bptt)', flops: bpttFlops(32, 64, 4, 64), fn: bptt.trainStep,
      args: [task.xs, task.targets, weights, optimizer],
      dispose: () => tf.dispose([task.xs, task.targets, ...Object.values(weights)]) },
    { name: 'BPTT SGD step h64 b4 x128 (samples/bptt)', flops: bpttFlops(128, 4, 4, 64), fn: bptt.trainStep,
      args: [long.xs, long.targets, longWeights, optimizer],
      dispose: () => { tf.dispose([long.xs, long.targets, ...Object.values(longWeights)]); optimizer.dispose(); } },
  ];
}

const ONE_THREAD = { intraOpNumThreads: 1 };

/** The loop rewrites off (both): the engine these optimizations are measured against. */
const LOOP_REWRITES_OFF = { hoistProjections: false, accumulatedProducts: false };

/** Prints one line per subject and engine: the loop rewrites off vs on, with GFLOP/s; returns the lines. */
export function hoistingSection(compare: Compare, peak: Peak | undefined): string[] {
  const lines: string[] = [];
  const engines = onnxRuntimeMissing() === undefined ? (['onnx', 'tfjs'] as const) : (['tfjs'] as const);
  console.log('(ORT on one thread per operator in both: see bench/hoisting.ts)');
  console.log(`${'workload'.padEnd(44)}${'engine'.padEnd(7)}${'off ms'.padStart(9)}${'on ms'.padStart(9)}  off/on [range]    ` +
    'GFLOP/s (% peak) off -> on');
  for (const s of subjects()) {
    try {
      for (const engine of engines) {
        const on = stage(s.fn, { engine, onnx: ONE_THREAD });
        const off = stage(s.fn, { engine, onnx: ONE_THREAD, optimize: LOOP_REWRITES_OFF } as StageOptions);
        try {
          const call = (f: typeof on) => (): tf.Tensor => f(...s.args);
          const rewrites = on.inspect(...s.args).optimizations.length;
          const r = compare(call(off), call(on));
          const line = `${s.name.padEnd(44)}${engine.padEnd(7)}${r.base.toFixed(3).padStart(9)}${r.other.toFixed(3).padStart(9)}  ` +
            `${(1 / r.ratio).toFixed(2)}x [${(1 / r.high).toFixed(2)}-${(1 / r.low).toFixed(2)}]  ` +
            `${rooflineText(s.flops, r.base, peak)} -> ${rooflineText(s.flops, r.other, peak)}  (${rewrites} loop rewrite${rewrites === 1 ? '' : 's'})`;
          lines.push(line);
          console.log(line);
        } finally {
          on.dispose();
          off.dispose();
        }
      }
    } finally {
      s.dispose();
    }
  }
  return lines;
}
