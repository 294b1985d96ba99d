/**
 * Where a staged function's first call goes, next to one eager call (#20: the first call of every
 * workload within 2x of one eager call). Each phase is timed on its own, on fresh staged functions:
 *   trace     the JS run that records the graph (backends/cache/trace.ts);
 *   optimize  the optimizer pipeline on a copy of that graph;
 *   lower     the optimized program lowered to an ONNX model (bytes);
 *   session   onnxruntime-node loading that model (one session; the engine may load a second one
 *             while it measures threads, on later calls);
 * and the whole first call under 'auto' (the default) and on each engine, its result read: trace,
 * optimize, prepare and the first run, or, for a straight-line graph under 'auto' or 'tfjs', the
 * trace alone (its values are the call's: backends/cache/trace_results.ts). What the phases do not
 * cover (a first run's own cost, the engines' bookkeeping) is the difference between the whole
 * call and their sum.
 */
import * as tf from '@tensorflow/tfjs';
import { stage } from '../backends/stage';
import { signatureOf } from '../backends/cache/signatures';
import { trace } from '../backends/cache/trace';
import { disposeEntry } from '../backends/cache/entry';
import type { Program } from '../backends/graph/graph';
import { optimizeProgram } from '../backends/optimize';
import { lowerProgram } from '../backends/onnx_model/lower';
import { onnxRuntimeMissing, OrtSession } from '../backends/engines/onnx/runtime';
import { loadSample } from '../spec/onnx/support';
import { chain } from './cases';
import { median } from './measure';

type Fn = (...args: unknown[]) => unknown;

interface Subject {
  name: string;
  fn: Fn;
  args: unknown[];
  /** The result's tensors (read, then freed). */
  outputs: (result: unknown) => tf.Tensor[];
  dispose: () => void;
}

export interface FirstCallRow {
  name: string;
  eagerMs: number;
  traceMs: number;
  optimizeMs: number;
  lowerMs?: number;
  sessionMs?: number;
  firstAutoMs: number;
  firstTfjsMs: number;
  /** CPU time of one eager call and of the first call under 'auto' (medians, as the wall times): steadier on a shared machine. */
  eagerCpuMs: number;
  firstAutoCpuMs: number;
  firstOnnxMs?: number;
  missing?: string;
}

const now = (): number => performance.now();

/**
 * Times `body` from a collected heap (the bench runs with --expose-gc): the garbage an earlier
 * phase left (a program copy, a model, a session) is not collected inside the next one's time.
 */
function timed<T>(body: () => T): { value: T; ms: number; cpuMs: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const start = now();
  const value = body();
  const ms = now() - start;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

/** Medians of the wall and CPU times of `n` timings. */
function medians(timings: { ms: number; cpuMs: number }[]): { ms: number; cpuMs: number } {
  return { ms: median(timings.map((t) => t.ms)), cpuMs: median(timings.map((t) => t.cpuMs)) };
}

function readAndFree(tensors: tf.Tensor[]): void {
  for (const t of tensors) t.dataSync();
  tf.dispose(tensors);
}

/** A copy of `program` that owns its constants (the optimizer releases constants it no longer needs). */
function copyOf(program: Program): Program {
  return { ...program, graph: structuredClone(program.graph), constants: program.constants.map((t) => t.clone()) };
}

/** The medians of 5 eager calls after one warm-up. */
function eagerMs(s: Subject): { ms: number; cpuMs: number } {
  const call = (): void => readAndFree(tf.tidy(() => s.outputs(s.fn(...s.args))));
  call();
  return medians([0, 1, 2, 3, 4].map(() => timed(call)));
}

/** The medians of 3 first calls, each of a new staged function. */
function firstCall(s: Subject, engine: 'auto' | 'tfjs' | 'onnx'): { ms: number; cpuMs: number } {
  return medians([0, 1, 2].map(() => {
    const staged = stage(s.fn, { engine });
    try {
      return timed(() => readAndFree(s.outputs(staged(...s.args))));
    } finally {
      staged.dispose();
    }
  }));
}

function measureSubject(s: Subject): FirstCallRow {
  const traced = timed(() => trace(s.fn as never, undefined, s.args, signatureOf(undefined, s.args).tensors, 0, undefined, false));
  try {
    const program = copyOf(traced.value.program);
    try {
      const optimizeMs = timed(() => optimizeProgram(program, undefined)).ms;
      const eager = eagerMs(s);
      const auto = firstCall(s, 'auto');
      const row: FirstCallRow = {
        name: s.name, eagerMs: eager.ms, traceMs: traced.ms, optimizeMs, firstAutoMs: auto.ms, firstTfjsMs: firstCall(s, 'tfjs').ms,
        eagerCpuMs: eager.cpuMs, firstAutoCpuMs: auto.cpuMs,
      };
      const missing = onnxRuntimeMissing();
      if (missing !== undefined) return { ...row, missing };
      const lowered = timed(() => lowerProgram(program));
      if (!lowered.value.ok) return { ...row, missing: 'does not lower as one model (host nodes: the engine splits it)' };
      const bytes = lowered.value.model.bytes;
      const session = timed(() => new OrtSession(bytes, { intraOpNumThreads: 1 }));
      session.value.dispose();
      return { ...row, lowerMs: lowered.ms, sessionMs: session.ms, firstOnnxMs: firstCall(s, 'onnx').ms };
    } finally {
      tf.dispose(program.constants);
    }
  } finally {
    disposeEntry(traced.value);
  }
}

function subjects(): Subject[] {
  const rnnModule = loadSample('rnn/src/rnn.ts');
  const single = (r: unknown): tf.Tensor[] => [r as tf.Tensor];
  const x = tf.scalar(1);
  const [T, B, H, V] = [128, 64, 256, 1000];
  const w = tf.tidy(() => ({
    wx: tf.randomNormal([H, H], 0, 1 / Math.sqrt(H), 'float32', 1), wh: tf.randomNormal([H, H], 0, 1 / Math.sqrt(H), 'float32', 2),
    b: tf.randomNormal([H], 0, 0.1, 'float32', 3), embedding: tf.randomNormal([V, H], 0, 1, 'float32', 5),
    wo: tf.randomNormal([H, V], 0, 1, 'float32', 6),
  }));
  const xs = tf.randomNormal([T, B, H], 0, 1, 'float32', 4);
  const h0 = tf.zeros([B, H]);
  const start = tf.range(0, 16, 1, 'int32');
  const h0d = tf.zeros([16, H]);
  const mlp = mlpStep();
  return [
    { name: '10,000 dependent scalar ops', fn: chain as unknown as Fn, args: [x], outputs: single, dispose: () => x.dispose() },
    { name: `tanh RNN h${H} b${B} x${T}`, fn: rnnModule.rnn, args: [xs, h0, w], outputs: single, dispose: () => tf.dispose([xs, h0]) },
    {
      name: 'greedy decode b16 v1000 h256 64 steps', fn: rnnModule.decodeBatch, args: [start, h0d, 64, -1, w],
      outputs: (r) => Object.values(r as Record<string, tf.Tensor>), dispose: () => tf.dispose([start, h0d, ...Object.values(w)]),
    },
    mlp,
  ];
}

/** The bench's MLP SGD step (bench/workloads.ts): tf.variableGrads, then an assign per variable. */
function mlpStep(): Subject {
  const [B, I, Hd, C, LR] = [128, 512, 256, 10, 0.01];
  const v = tf.tidy(() => ({
    w1: tf.variable(tf.randomNormal([I, Hd], 0, 0.05, 'float32', 21), true, 'first_w1'), b1: tf.variable(tf.zeros([Hd]), true, 'first_b1'),
    w2: tf.variable(tf.randomNormal([Hd, C], 0, 0.05, 'float32', 22), true, 'first_w2'), b2: tf.variable(tf.zeros([C]), true, 'first_b2'),
  }));
  const xb = tf.randomNormal([B, I], 0, 1, 'float32', 23);
  const yb = tf.tidy(() => tf.oneHot(tf.randomUniform([B], 0, C, 'int32', 24), C).toFloat());
  const step = (x: tf.Tensor, y: tf.Tensor): tf.Tensor => {
    const { value, grads } = tf.variableGrads(() =>
      tf.losses.softmaxCrossEntropy(y, tf.relu(x.matMul(v.w1).add(v.b1)).matMul(v.w2).add(v.b2)) as tf.Scalar);
    for (const w of Object.values(v)) w.assign(w.sub(grads[w.name].mul(LR)));
    tf.dispose(grads);
    return value;
  };
  return {
    name: 'MLP SGD step b128 512-256-10', fn: step as unknown as Fn, args: [xb, yb], outputs: (r) => [r as tf.Tensor],
    dispose: () => tf.dispose([xb, yb, ...Object.values(v)]),
  };
}

const cell = (x: number | undefined, eager: number): string =>
  (x === undefined ? '—' : `${x.toFixed(x < 10 ? 1 : 0)} (${(x / eager).toFixed(2)}e)`).padStart(15);

/** Measures and prints the split; returns the rows (for bench/results.json). */
export function firstCallSection(): FirstCallRow[] {
  console.log(`${'workload'.padEnd(40)}${'one eager'.padStart(10)}${'trace'.padStart(15)}${'optimize'.padStart(15)}` +
    `${'lower'.padStart(15)}${'session'.padStart(15)}${'1st auto'.padStart(15)}${'1st tfjs'.padStart(15)}${'1st onnx'.padStart(15)}` +
    `${'auto cpu'.padStart(10)}   (ms; e = eager calls; first calls: median of 3; auto cpu: its CPU time in eager calls' CPU time)`);
  const rows: FirstCallRow[] = [];
  for (const s of subjects()) {
    try {
      const r = measureSubject(s);
      rows.push(r);
      console.log(`${r.name.padEnd(40)}${r.eagerMs.toFixed(1).padStart(10)}${cell(r.traceMs, r.eagerMs)}${cell(r.optimizeMs, r.eagerMs)}` +
        `${cell(r.lowerMs, r.eagerMs)}${cell(r.sessionMs, r.eagerMs)}${cell(r.firstAutoMs, r.eagerMs)}${cell(r.firstTfjsMs, r.eagerMs)}` +
        `${cell(r.firstOnnxMs, r.eagerMs)}${`${(r.firstAutoCpuMs / r.eagerCpuMs).toFixed(2)}e`.padStart(10)}` +
        `${r.missing === undefined ? '' : `  (${r.missing})`}`);
    } finally {
      s.dispose();
    }
  }
  return rows;
}
