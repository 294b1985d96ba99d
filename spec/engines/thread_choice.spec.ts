/**
 * The ONNX engine's threads per operator (backends/engines/onnx/threads.ts), driven by given
 * timings: a session per thread count whose runs take what the spec says, on a clock the spec
 * moves. #20 item 5: a choice made while the machine was disturbed is measured again later and
 * replaced when the other count is clearly faster; within noise it is kept (no taking turns); a
 * first measurement within noise takes more runs before it decides.
 */
import { expect } from 'chai';
import * as os from 'os';
import { RECHECK_AFTER, type ThreadedSession, TunedSession } from '../../backends/engines/onnx/threads';
import type { OrtTensor } from '../../backends/engines/onnx/runtime';

const MANY = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

/** Sessions whose runs take `ms(threads, call)` on a fake clock; each result names the session that ran. */
function fakeSessions(ms: (threads: number, call: number) => number) {
  let now = 0;
  let calls = 0;
  const opened: number[] = [];
  const open = (threads: number): ThreadedSession => {
    opened.push(threads);
    return {
      run: () => {
        now += ms(threads, calls++);
        return { y: threads as unknown as OrtTensor };
      },
      dispose: () => undefined,
    };
  };
  return { open, clock: () => now, opened };
}

/** Runs `calls` calls; returns the thread count each ran on. */
const runCalls = (s: TunedSession, calls: number): number[] =>
  Array.from({ length: calls }, () => s.run({}, ['y']).y as unknown as number);

describe('ONNX threads per operator: a measured choice is measured again', function () {
  before(function () {
    if (MANY < 2) this.skip();
  });

  it('a first measurement disturbed against all cores is replaced at the re-check when all cores are clearly faster', () => {
    // All cores take 14 ms while the first measurement runs (another process busy), 7 ms after; one thread 11 ms.
    const fake = fakeSessions((threads, call) => (threads === 1 ? 11 : call < 20 ? 14 : 7));
    const s = new TunedSession(new Uint8Array(), {}, 1e6, fake.open, fake.clock);
    runCalls(s, 12); // the first measurement: a warm-up each, then 5 runs each
    expect(s.settling).to.equal(false);
    expect(s.threads).to.match(/^1 thread per operator \(second fastest of 5 runs each: 1 thread 11\.00 ms, \d+ threads 14\.00 ms\)$/);
    const ran = runCalls(s, RECHECK_AFTER + 1 + 11 + 5);
    expect(ran.slice(0, RECHECK_AFTER)).to.deep.equal(Array(RECHECK_AFTER).fill(1));
    expect(ran.slice(-5)).to.deep.equal(Array(5).fill(MANY));
    expect(s.threads).to.equal(`${MANY} threads per operator (switched when measured again after ${RECHECK_AFTER} calls: second fastest ` +
      `of 5 runs each: 1 thread 11.00 ms, ${MANY} threads 7.00 ms); first: 1 thread per operator (second fastest of 5 runs each: ` +
      `1 thread 11.00 ms, ${MANY} threads 14.00 ms)`);
  });

  it('a first measurement within noise (15%) takes up to two more rounds of runs before it decides', () => {
    // All cores 12 ms during the first round (disturbed), 7 ms after: the second round shows it.
    const disturbed = fakeSessions((threads, call) => (threads === 1 ? 11 : call < 12 ? 12 : 7));
    const s = new TunedSession(new Uint8Array(), {}, 1e6, disturbed.open, disturbed.clock);
    runCalls(s, 12);
    expect(s.settling).to.equal(true);
    runCalls(s, 10);
    expect(s.settling).to.equal(false);
    expect(s.threads).to.equal(`${MANY} threads per operator (second fastest of 10 runs each: 1 thread 11.00 ms, ${MANY} threads 7.00 ms)`);
    // Two counts that stay within noise: decided after three rounds, by the rule of one round.
    const close = fakeSessions((threads) => (threads === 1 ? 10 : 9.8));
    const t = new TunedSession(new Uint8Array(), {}, 1e6, close.open, close.clock);
    runCalls(t, 12 + 10);
    expect(t.settling).to.equal(true);
    runCalls(t, 10);
    expect(t.threads).to.equal(`1 thread per operator (second fastest of 15 runs each: 1 thread 10.00 ms, ${MANY} threads 9.80 ms)`);
  });

  it('keeps its choice when the other count is within noise (hysteresis), and waits twice as long for the next re-check', () => {
    const fake = fakeSessions((threads) => (threads === 1 ? 10 : 9.5));
    const s = new TunedSession(new Uint8Array(), {}, 1e6, fake.open, fake.clock);
    runCalls(s, 12 + 2 * 10); // (within 15%: three rounds)
    expect(s.threads).to.match(/^\d+ threads per operator \(second fastest/); // 9.5 <= 0.95 * 10: all cores
    const first = fake.opened.length;
    runCalls(s, RECHECK_AFTER + 11);
    expect(s.threads).to.match(new RegExp(`^${MANY} threads per operator \\(kept when measured again after ${RECHECK_AFTER} calls`));
    expect(fake.opened.length).to.equal(first + 1); // the one-thread session, opened again for the re-check
    // The next re-check comes after twice as many calls.
    const ran = runCalls(s, 2 * RECHECK_AFTER);
    expect(ran).to.deep.equal(Array(2 * RECHECK_AFTER).fill(MANY));
    runCalls(s, 12);
    expect(s.threads).to.contain(`kept when measured again after ${2 * RECHECK_AFTER} calls`);
  });

  it('does not measure again a count that was given, or a program whose runs are too short for threads', () => {
    const given = fakeSessions(() => 5);
    const s = new TunedSession(new Uint8Array(), { intraOpNumThreads: 1 }, 1e6, given.open, given.clock);
    expect(runCalls(s, RECHECK_AFTER * 3)).to.deep.equal(Array(RECHECK_AFTER * 3).fill(1));
    expect(given.opened).to.deep.equal([1]);
    const short = fakeSessions(() => 0.1);
    const t = new TunedSession(new Uint8Array(), {}, 1e6, short.open, short.clock);
    runCalls(t, RECHECK_AFTER * 3);
    expect(t.threads).to.match(/too short for threads to help/);
    expect(short.opened).to.deep.equal([1]);
  });
});
