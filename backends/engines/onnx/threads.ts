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

/** An ORT session whose threads per operator are either given or measured (see the file comment). */
export class TunedSession {
  private readonly sessions = new Map<number, OrtSession>();
  private readonly times = new Map<number, number[]>();
  private chosen: number | undefined;
  private runs = 0;
  /** How the thread count was chosen, for inspect(). */
  private why: string;

  /** `heaviestOperator`: the work of the program's heaviest kernel (work.ts largestKernelWork). */
  constructor(private readonly model: Uint8Array, private readonly options: SessionOptions, heaviestOperator: number) {
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
    }
  }

  /** Threads per operator and how that was decided. */
  get threads(): string {
    return this.why;
  }

  run(feeds: Record<string, OrtTensor>, outputNames: string[]): Record<string, OrtTensor> {
    if (this.chosen !== undefined) return this.session(this.chosen).run(feeds, outputNames);
    const candidate = this.next();
    const start = performance.now();
    const results = this.session(candidate).run(feeds, outputNames);
    this.record(candidate, performance.now() - start);
    return results;
  }

  /**
   * The session of the next run while measuring: one thread for a warm-up and a first timing; then,
   * if that run was long enough, all cores for a warm-up, then the two in turn (TRIALS each).
   */
  private next(): number {
    const many = cores();
    return [1, 1, many, ...Array.from({ length: TRIALS }, () => [many, 1]).flat()][this.runs] ?? 1;
  }

  private record(threads: number, ms: number): void {
    this.runs++;
    const list = this.times.get(threads) ?? [];
    list.push(ms);
    this.times.set(threads, list);
    const many = cores();
    const single = this.times.get(1) ?? [];
    // The first run of each session is a warm-up (ORT allocates on it), not a timing.
    if (threads === 1 && single.length === 2 && single[1] < TUNE_FROM_MS) {
      this.decide(1, `1 thread per operator (a run takes ${single[1].toFixed(2)} ms: too short for threads to help)`);
      return;
    }
    const multi = this.times.get(many) ?? [];
    if (single.length < TRIALS + 1 || multi.length < TRIALS + 1) return;
    const one = typical(single.slice(1));
    const all = typical(multi.slice(1));
    const winner = all <= one * WIN_MARGIN ? many : 1;
    this.decide(winner, `${winner} thread${winner === 1 ? '' : 's'} per operator (second fastest of ${TRIALS} runs each: ` +
      `1 thread ${one.toFixed(2)} ms, ${many} threads ${all.toFixed(2)} ms)`);
  }

  private decide(threads: number, why: string): void {
    this.chosen = threads;
    this.why = why;
    for (const [n, session] of this.sessions) {
      if (n !== threads) {
        session.dispose();
        this.sessions.delete(n);
      }
    }
    this.times.clear();
  }

  private session(threads: number): OrtSession {
    let session = this.sessions.get(threads);
    if (session === undefined) {
      session = new OrtSession(this.model, { ...this.options, intraOpNumThreads: threads });
      this.sessions.set(threads, session);
    }
    return session;
  }

  /** Whether the thread count is still being measured (Runner.settling). */
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
