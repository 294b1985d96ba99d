/**
 * `engine: 'auto'` between two engines that can both run a program: which is faster is measured
 * on the program's first calls, as ORT's thread count is (onnx/threads.ts), not guessed from the
 * graph's shape. A rule about the graph kept a single-sequence GRU decoder on the tfjs executor at
 * ~1.0 ms per call where ONNX Runtime takes ~0.24 ms; the opposite holds for a loop branching on
 * scalars (collatz). Neither the graph nor the machine's load at the time is known in advance.
 *
 * How: the first calls alternate between the candidates (each call is a real call: its results
 * are those of the engine that ran it, equal to eager on either). A candidate's first call, and its
 * calls while it still measures its own settings (Runner.settling: ORT's threads), are warm-ups,
 * not timings. Then `decideByTimes` (below) compares the medians; until it decides, the candidate
 * with fewer timings runs next. The decision is final for the program: the other runner is
 * disposed. So 'auto' is never slower than the slower engine by more than these calls.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { Program } from '../graph/graph';
import type { Runner } from './engine';

/** Timed calls per candidate in a round. */
export const ROUND = 5;
/** Rounds at most: a second when the first ends within noise. */
const ROUNDS = 2;
/** Medians closer than this fraction of the faster one are within noise. */
export const NOISE = 0.1;
/** After this many timings each, one candidate whose every call is this many times faster than the other's fastest wins at once. */
const CLEAR_AFTER = 2;
const CLEAR_FACTOR = 2;

export interface Candidate {
  engine: string;
  runner: Runner;
}

/** The timings of one candidate: wall-clock ms per call, and CPU ms per call where the host reports it. */
export interface Timings {
  wall: number[];
  cpu: number[];
}

/** What decided, for inspect(): the winner and a sentence with the figures. */
export interface Verdict {
  winner: number;
  why: string;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const ms = (x: number): string => `${x < 10 ? x.toFixed(3) : x.toFixed(1)} ms`;

/**
 * The decision on the timings so far (`names[i]`'s in `times[i]`), or undefined to time more:
 * - clearly apart: after CLEAR_AFTER timings each, every call of one is CLEAR_FACTOR times faster
 *   than the other's fastest;
 * - after a round (ROUND each): the lower median wins unless the medians are within noise (NOISE
 *   of the faster, or the spread of the calls: their median absolute deviations added); within
 *   noise another round is timed, and after the last the cheaper to run wins: less CPU time per
 *   call (ORT on several threads uses more than it takes), or, where the host reports no CPU time,
 *   the first candidate (the engine the calls started on).
 */
export function decideByTimes(names: readonly string[], times: readonly Timings[]): Verdict | undefined {
  const [a, b] = times.map((t) => t.wall);
  const n = Math.min(a.length, b.length);
  const figures = (label: string): string =>
    `${names.map((name, i) => `${name} ${ms(median(times[i].wall))}`).join(', ')} per call (${label})`;
  if (n >= CLEAR_AFTER) {
    for (const [fast, slow] of [[0, 1], [1, 0]]) {
      if (Math.max(...times[fast].wall) * CLEAR_FACTOR < Math.min(...times[slow].wall)) {
        return { winner: fast, why: `${names[fast]} is faster: ${figures(`median of ${n} calls each, every ${names[fast]} call over ${CLEAR_FACTOR}x faster`)}` };
      }
    }
  }
  if (n < ROUND || n % ROUND !== 0) return undefined;
  const [ma, mb] = [median(a), median(b)];
  const spread = mad(a) + mad(b);
  const apart = Math.abs(ma - mb) > Math.max(NOISE * Math.min(ma, mb), spread);
  if (apart) {
    const winner = ma <= mb ? 0 : 1;
    return { winner, why: `${names[winner]} is faster: ${figures(`median of ${n} calls each`)}` };
  }
  if (n < ROUND * ROUNDS) return undefined;
  const cpu = times.map((t) => (t.cpu.length === t.wall.length ? median(t.cpu) : undefined));
  const measuredCpu = cpu.every((c) => c !== undefined);
  const winner = measuredCpu && cpu[1]! < cpu[0]! ? 1 : 0;
  const cheaper = measuredCpu
    ? `the cheaper to run: CPU ${names.map((name, i) => `${name} ${ms(cpu[i]!)}`).join(', ')} per call`
    : 'the engine the calls started on (no CPU time to compare)';
  return { winner, why: `within noise, ${names[winner]} kept as ${cheaper}: ${figures(`median of ${n} calls each`)}` };
}

/** Median absolute deviation: how far calls typically are from their median. */
function mad(xs: readonly number[]): number {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m)));
}

/** CPU time of this process in ms (all its threads), where the host reports it (Node). */
function cpuNow(): number | undefined {
  const usage = typeof process !== 'undefined' && typeof process.cpuUsage === 'function' ? process.cpuUsage() : undefined;
  return usage === undefined ? undefined : (usage.user + usage.system) / 1000;
}

/** The measurement of one program's candidates, call by call. */
export class EngineTrial {
  private readonly times: Timings[];
  private readonly warm: boolean[];
  private last = -1;
  verdict: Verdict | undefined;

  constructor(readonly candidates: readonly [Candidate, Candidate]) {
    this.times = candidates.map(() => ({ wall: [], cpu: [] }));
    this.warm = candidates.map(() => false);
  }

  /** The candidate of the next call: the one with fewer timings; on a tie, not the one that ran last. */
  next(): number {
    const [a, b] = this.times.map((t) => t.wall.length);
    if (a !== b) return a < b ? 0 : 1;
    return this.last === 0 ? 1 : 0;
  }

  /** Runs candidate `k` (runs without a synchronous `run` are not measured), timing the call unless it is a warm-up. */
  run(k: number, program: Program, args: tf.Tensor[]): tf.Tensor[] {
    const runner = this.candidates[k].runner;
    const timed = this.warm[k] && runner.settling !== true;
    const cpu0 = cpuNow();
    const start = performance.now();
    const results = runner.run!(program, args);
    const wall = performance.now() - start;
    const cpu1 = cpuNow();
    this.last = k;
    this.warm[k] = true;
    if (timed) {
      this.times[k].wall.push(wall);
      if (cpu0 !== undefined && cpu1 !== undefined) this.times[k].cpu.push(cpu1 - cpu0);
      this.verdict = decideByTimes(this.candidates.map((c) => c.engine), this.times);
    }
    return results;
  }

  /** For inspect() while measuring: how many calls each candidate has been timed. */
  progress(): string {
    return this.candidates.map((c, i) => `${c.engine} ${this.times[i].wall.length}`).join(', ');
  }

  /** The timings so far (ms per call), for inspect(). */
  samples(): Record<string, number[]> {
    return Object.fromEntries(this.candidates.map((c, i) => [c.engine, [...this.times[i].wall]]));
  }
}
