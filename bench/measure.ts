/**
 * How `npm run bench` times things. The machine it runs on is shared (2 cores, other jobs), so a
 * number is only worth something next to the number it is compared with, measured at the same
 * moment:
 * - every variant is warmed up first (the first staged call traces; kernels and the JIT warm up);
 * - the variants of a workload run in alternating batches (in order, then in reverse order, ... so
 *   none always goes first), each batch long enough (~batchMs) to average out timer noise, with a
 *   gc() before each so one variant's garbage is not collected on another's clock;
 * - every round gives one ratio per pair of variants (their batches measured back to back), and
 *   the report is the median over the rounds, of each variant's ms per call and of the ratios,
 *   with the range of the ratios so a spread-out measurement is visible as such.
 */
import * as tf from '@tensorflow/tfjs';

/** A variant's call: its result tensors, which the caller reads and frees. */
export type Call = () => tf.Tensor[];

export interface Settings {
  /** Rounds at most (fewer when a workload is slow: see budgetMs), at least 3. */
  rounds: number;
  batchMs: number;
  warmupMs: number;
  /** Time the rounds of one workload may take; slow workloads run fewer rounds. */
  budgetMs: number;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Runs `call` once: its result read (the run finishes) and freed. */
export function runOnce(call: Call): void {
  const out = call();
  for (const t of out) t.dataSync();
  tf.dispose(out);
}

/** Wall-clock ms and process CPU ms (user + system, all threads) per call, the mean of `n` calls. */
interface Sample { ms: number; cpu: number }

function batch(call: Call, n: number): Sample {
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) runOnce(call);
  const used = process.cpuUsage(cpu);
  return { ms: (performance.now() - start) / n, cpu: (used.user + used.system) / 1000 / n };
}

/**
 * Calls a warm-up makes at least when calls are short: the ONNX engine picks its threads per
 * operator on a program's first 12-32 calls (backends/engines/onnx/threads.ts), and that is not a timing.
 */
const WARMUP_CALLS = 34;
const SHORT_CALL_MS = 50;

/**
 * Warms `call` up (at least 1 call and warmupMs; WARMUP_CALLS when calls are short); the calls per
 * batch that make ~batchMs, and the last call's ms.
 */
function warmUp(call: Call, s: Settings): { n: number; last: number } {
  let calls = 0;
  const start = performance.now();
  let last = 0;
  while (calls < 1 || performance.now() - start < s.warmupMs || (calls < WARMUP_CALLS && last < SHORT_CALL_MS)) {
    last = batch(call, 1).ms;
    calls++;
  }
  return { n: Math.max(1, Math.round(s.batchMs / Math.max(last, 1e-3))), last };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Per round, per variant: wall-clock ms per call, and CPU ms per call. On a machine other jobs
 * share, CPU time is the steadier of the two (a call that waits for a core is not charged for the
 * wait); on an idle one they agree for these single-threaded runs (ONNX Runtime runs one thread per
 * operator here).
 */
export interface Rounds { ms: number[][]; cpu: number[][] }

/** Times `calls` side by side (see the header). */
export function measure(calls: Call[], s: Settings): Rounds {
  const warm = calls.map((c) => warmUp(c, s));
  const roundMs = warm.reduce((sum, w) => sum + w.n * w.last, 0);
  const rounds = Math.max(3, Math.min(s.rounds, Math.floor(s.budgetMs / Math.max(roundMs, 1e-3))));
  const ms: number[][] = [];
  const cpu: number[][] = [];
  for (let r = 0; r < rounds; r++) {
    const row = new Array<number>(calls.length);
    const cpuRow = new Array<number>(calls.length);
    const order = calls.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) {
      gc();
      ({ ms: row[i], cpu: cpuRow[i] } = batch(calls[i], warm[i].n));
    }
    ms.push(row);
    cpu.push(cpuRow);
  }
  return { ms, cpu };
}

export interface Ratio {
  /** Median over rounds of a/b. */
  ratio: number;
  low: number;
  high: number;
}

export type Clock = 'ms' | 'cpu';

/** Round by round ratio of variant a's time to variant b's (wall clock or CPU time). */
export function ratio(r: Rounds, a: number, b: number, clock: Clock = 'ms'): Ratio {
  const xs = r[clock].map((row) => row[a] / row[b]);
  return { ratio: median(xs), low: Math.min(...xs), high: Math.max(...xs) };
}

export const medianMs = (r: Rounds, i: number, clock: Clock = 'ms'): number => median(r[clock].map((row) => row[i]));

/** The two-variant comparison the ablation and ONNX sections use: other against base. */
export interface Comparison { base: number; other: number; ratio: number; low: number; high: number }

export function compare(base: () => tf.Tensor, other: () => tf.Tensor, s: Settings): Comparison {
  const r = measure([() => [base()], () => [other()]], s);
  return { base: medianMs(r, 0), other: medianMs(r, 1), ...ratio(r, 1, 0) };
}
