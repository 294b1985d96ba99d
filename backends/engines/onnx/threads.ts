/**
 * How many threads an ORT session gives each operator, chosen by measuring the program itself.
 *
 * Why measured and not fixed: on this project's 2-core machine, with the machine otherwise idle,
 * two threads per operator run the tanh RNNs 1.2-2x, the greedy decoder ~1.45x and the MNIST
 * training loop ~1.4x faster than one; with other processes busy on both cores the same two
 * threads are 1.5-3x slower than one (ORT's worker threads spin between operators and wait for
 * each other at every operator, so one descheduled thread stalls the step). No property of the
 * graph decides that; the machine's state at the time does. So a program with no
 * `intraOpNumThreads` option runs its first calls on one thread, then — when a run takes long
 * enough for threads to matter (TUNE_FROM_MS) — alternates a one-thread and an all-cores session
 * for a few calls each and keeps the faster (all cores must win by WIN_MARGIN: one thread uses
 * less CPU). The calls in between are real calls: each returns its own results, and both sessions
 * compute the same values (ORT's CPU kernels split work by output elements, not by the order of a
 * sum: a spec checks the results are bit-identical).
 *
 * One measurement can be disturbed (#20 item 5: a held-out RNN probe kept one thread in 2 of 7
 * process runs, 1.6x slower than two on the idle machine): a measured choice is measured again
 * after RECHECK_AFTER calls, then after twice as many each time (so the re-checks cost a bounded
 * share of the calls), the other count against the kept one (TRIALS runs each, alternating). The
 * other count replaces the kept one only when clearly faster (SWITCH_MARGIN: hysteresis, so that
 * two counts within noise of each other do not take turns). A first measurement whose two counts
 * are close (AMBIGUOUS) takes more runs before it decides: a probe's steady state after 20 calls
 * comes before the first re-check.
 */
import { nodeBuiltin } from '../../common/node_host';
import type { OrtTensor, SessionOptions } from './runtime';
import { OrtSession } from './runtime';

/**
 * Graphs whose heaviest operator (work.ts) is lighter than this keep one thread without a second
 * session: ORT does not split operators that small (a 10,000-op scalar chain measured the same on
 * 1 and 2 threads, and its second session took 250 ms to load). A 16x256x1000 matMul is 4e6.
 */
const TUNE_FROM_WORK = 1e5;
/** Runs shorter than this keep one thread too. */
const TUNE_FROM_MS = 0.5;
/** Timed runs per candidate. */
const TRIALS = 5;
/** All cores are kept only when their typical run (`typical`) is at most this fraction of one thread's. */
const WIN_MARGIN = 0.95;
/** Calls after a measured choice before it is measured again (then twice as many each time, up to RECHECK_MAX). */
export const RECHECK_AFTER = 50;
const RECHECK_MAX = 50 * 2 ** 6;
/** At a re-check, the other count replaces the kept one only when its typical run is at most this fraction of the kept one's. */
const SWITCH_MARGIN = 0.9;
/**
 * A first measurement whose two typical runs are within this fraction of each other takes another
 * round of TRIALS runs each, up to MORE_ROUNDS times, before it decides: on a busy machine one
 * round of 5 decided a held-out RNN probe's count both ways (bench/thread_probe.ts: 2 of 10
 * processes chose all cores at 0.89x and 0.62x of one thread's time, 8 chose one thread; 4 of
 * them within 8% of each other).
 */
const AMBIGUOUS = 0.15;
const MORE_ROUNDS = 2;

const cores = (): number => {
  const os = nodeBuiltin('os');
  if (os === undefined) return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1;
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
};

/**
 * The second fastest of the timed runs: what the session does when the machine lets it. A median
 * let a few runs slowed by something else decide (an RNN kept one thread at 12.7 ms where two
 * take 7.9); the fastest alone would let one lucky run decide.
 */
const typical = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(1, xs.length - 1)];

/** TRIALS runs of each count, alternating. */
const alternating = (a: number, b: number): number[] => Array.from({ length: TRIALS }, () => [a, b]).flat();

/** What TunedSession runs: an ORT session (specs hand in others). */
export interface ThreadedSession {
  run(feeds: Record<string, OrtTensor>, outputNames: string[]): Record<string, OrtTensor>;
  dispose(): void;
}

/** A measurement under way: the thread counts of its next runs, in order. */
interface Measurement {
  plan: number[];
  /** The count kept until it ends (a re-check), or none yet (the first measurement). */
  kept?: number;
  /** Rounds of TRIALS timed runs each it takes (more than one when the first ones were within noise). */
  rounds: number;
}

/** An ORT session whose threads per operator are either given or measured (see the file comment). */
export class TunedSession {
  private readonly sessions = new Map<number, ThreadedSession>();
  private readonly times = new Map<number, number[]>();
  private chosen: number | undefined;
  private runs = 0;
  /** How the thread count was chosen, for inspect(). */
  private why: string;
  private measurement: Measurement | undefined;
  /** A measured choice is re-checked after this many more calls (0: never, the count was given or is forced). */
  private recheckAfter = 0;
  private callsSinceChoice = 0;
  /** The first measured choice's reason (re-checks cite it). */
  private firstWhy: string | undefined;

  /**
   * `heaviestOperator`: the work of the program's heaviest kernel (work.ts largestKernelWork).
   * `open` and `clock` are ORT's sessions and the time (specs give their own).
   */
  constructor(private readonly model: Uint8Array, private readonly options: SessionOptions, heaviestOperator: number,
              private readonly open: (threads: number) => ThreadedSession =
              (threads) => new OrtSession(model, { ...options, intraOpNumThreads: threads }),
              private readonly clock: () => number = () => performance.now()) {
    const given = options.intraOpNumThreads;
    if (given !== undefined) {
      this.chosen = given;
      this.why = `${given} thread${given === 1 ? '' : 's'} per operator (intraOpNumThreads)`;
    } else if (cores() < 2) {
      this.chosen = 1;
      this.why = '1 thread per operator (one core)';
    } else if (heaviestOperator < TUNE_FROM_WORK) {
      this.chosen = 1;
      this.why = `1 thread per operator (the heaviest operator, work ${heaviestOperator.toExponential(1)}, is too light to split)`;
    } else {
      this.why = `measuring 1 vs ${cores()} threads per operator`;
      const many = cores();
      this.measurement = { plan: [1, 1, many, ...alternating(many, 1)], rounds: 1 };
    }
  }

  /** Threads per operator and how that was decided. */
  get threads(): string {
    return this.why;
  }

  run(feeds: Record<string, OrtTensor>, outputNames: string[]): Record<string, OrtTensor> {
    if (this.measurement === undefined && this.recheckAfter > 0 && ++this.callsSinceChoice > this.recheckAfter) this.startRecheck();
    const measurement = this.measurement;
    if (measurement === undefined) return this.session(this.chosen!).run(feeds, outputNames);
    const threads = measurement.plan[this.runs] ?? measurement.kept ?? 1;
    const start = this.clock();
    const results = this.session(threads).run(feeds, outputNames);
    this.record(measurement, threads, this.clock() - start);
    return results;
  }

  /** The kept count against the other, from now on (the other's session is loaded again: its first run is a warm-up). */
  private startRecheck(): void {
    const kept = this.chosen!;
    const other = kept === 1 ? cores() : 1;
    this.measurement = { kept, plan: [other, ...alternating(kept, other)], rounds: 1 };
    this.runs = 0;
    this.times.clear();
    this.times.set(kept, [NaN]); // (the kept session is warm: no warm-up to leave out)
  }

  private record(measurement: Measurement, threads: number, ms: number): void {
    this.runs++;
    const list = this.times.get(threads) ?? [];
    list.push(ms);
    this.times.set(threads, list);
    const many = cores();
    const single = this.times.get(1) ?? [];
    // The first run of each session is a warm-up (ORT allocates on it), not a timing.
    if (measurement.kept === undefined && threads === 1 && single.length === 2 && single[1] < TUNE_FROM_MS) {
      this.decide(1, `1 thread per operator (a run takes ${single[1].toFixed(2)} ms: too short for threads to help)`, false);
      return;
    }
    const multi = this.times.get(many) ?? [];
    const runs = TRIALS * measurement.rounds;
    if (single.length < runs + 1 || multi.length < runs + 1) return;
    const one = typical(single.slice(1));
    const all = typical(multi.slice(1));
    if (measurement.kept === undefined && measurement.rounds <= MORE_ROUNDS && Math.abs(one - all) < AMBIGUOUS * Math.max(one, all)) {
      measurement.rounds++;
      measurement.plan.push(...alternating(many, 1));
      return;
    }
    const timings = `second fastest of ${runs} runs each: 1 thread ${one.toFixed(2)} ms, ${many} threads ${all.toFixed(2)} ms`;
    if (measurement.kept === undefined) {
      const winner = all <= one * WIN_MARGIN ? many : 1;
      this.decide(winner, `${winner} thread${winner === 1 ? '' : 's'} per operator (${timings})`, true);
      return;
    }
    const [kept, other] = measurement.kept === 1 ? [one, all] : [all, one];
    const switched = other <= kept * SWITCH_MARGIN;
    const winner = switched === (measurement.kept === 1) ? many : 1;
    this.decide(winner, `${winner} thread${winner === 1 ? '' : 's'} per operator (${switched ? 'switched' : 'kept'} when measured ` +
      `again after ${this.recheckAfter} calls: ${timings}); first: ${this.firstWhy}`, true);
  }

  private decide(threads: number, why: string, recheck: boolean): void {
    this.chosen = threads;
    this.why = why;
    this.firstWhy ??= why;
    this.measurement = undefined;
    this.recheckAfter = !recheck ? 0 : this.recheckAfter === 0 ? RECHECK_AFTER : Math.min(2 * this.recheckAfter, RECHECK_MAX);
    this.callsSinceChoice = 0;
    for (const [n, session] of this.sessions) {
      if (n !== threads) {
        session.dispose();
        this.sessions.delete(n);
      }
    }
    this.times.clear();
  }

  private session(threads: number): ThreadedSession {
    let session = this.sessions.get(threads);
    if (session === undefined) {
      session = this.open(threads);
      this.sessions.set(threads, session);
    }
    return session;
  }

  /** Whether the thread count is still being measured the first time (Runner.settling). */
  get settling(): boolean {
    return this.chosen === undefined;
  }

  /** Whether ORT has loaded the model. */
  get loaded(): boolean {
    return this.sessions.size > 0;
  }

  dispose(): void {
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
  }
}
