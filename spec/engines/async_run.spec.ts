/**
 * `staged.run(...)`: a Promise of what `staged(...)` returns, equal to eager, on every engine (the
 * tfjs executor's async run, onnxruntime-node's public API, onnxruntime-web); counted loops read
 * nothing back per iteration; no tensor leaks.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { executorReadbacks } from '../../backends/engines/tfjs/executor';
import { onnxRuntimeAvailable } from '../../backends/engines/onnx/runtime';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { expectSameTensor, loadSample } from '../onnx/support';

const DECODE = `
import * as tf from '@tensorflow/tfjs';
/** A greedy decode: push + a JS counter + a tensor break, in a loop over a JS bound. */
export function decode(start: tf.Tensor, table: tf.Tensor, maxLen: number): { tokens: tf.Tensor; count: number } {
  'use autograph';
  const tokens: tf.Tensor[] = [];
  let tok = start;
  let count = 0;
  for (let t = 0; t < maxLen; t++) {
    tok = tf.gather(table, tok);
    tokens.push(tok);
    count++;
    if (tok.equal(0)) break;
  }
  return { tokens: tf.stack(tokens), count };
}
/** Host nodes between ONNX segments: prints, a check, a variable update. */
export function guarded(x: tf.Tensor, v: tf.Variable): tf.Tensor {
  'use autograph';
  const y = x.mul(2);
  y.print();
  if (y.sum().less(0)) {
    throw new RangeError('guarded: negative sum');
  }
  v.assign(v.add(y));
  const z = v.mul(y).add(1);
  z.print();
  return z;
}
/** A counted loop over range(n) with a tensor n. */
export function powers(x: tf.Tensor, n: tf.Tensor): tf.Tensor {
  'use autograph';
  let y = tf.onesLike(x);
  for (const _ of range(n)) y = y.mul(x);
  return y;
}
import { range } from 'autograph-ts';
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Fn = (...args: any[]) => any;

describe('engines: staged.run (async) and counted loops', () => {
  let rnn: Fn, collatzSteps: Fn, decode: Fn, powers: Fn;
  let w: Record<string, tf.Tensor>;
  before(() => {
    ({ rnn } = loadSample('rnn/src/rnn.ts'));
    ({ collatzSteps } = loadSample('collatz/src/collatz.ts'));
    const result = compile({ 'main.ts': DECODE });
    if (result.diagnostics.length) throw new Error(formatDiagnostics(result.diagnostics));
    ({ decode, powers } = load(result.js['main.ts']) as Record<string, Fn>);
    w = loadSample('rnn/src/rnn.ts').fixedWeights(4, 8, 6);
  });

  const programs = (): { name: string; fn: Fn; args: unknown[] }[] => [
    { name: 'collatz', fn: collatzSteps, args: [tf.scalar(27)] },
    { name: 'rnn over for...of', fn: rnn, args: [tf.sin(tf.range(0, 40).mul(0.3)).reshape([5, 2, 4]), tf.zeros([2, 8]), w] },
    { name: 'greedy decode (push, JS counter, tensor break)', fn: decode, args: [tf.scalar(1, 'int32'), tf.tensor1d([0, 3, 5, 2, 1, 4], 'int32'), 10] },
  ];

  /** Structures of tensors and JS values: equal (tensors within `tol`). */
  function expectSame(actual: unknown, expected: unknown, tol: number, what: string): void {
    if (expected instanceof tf.Tensor) return expectSameTensor(actual as tf.Tensor, expected, tol, what);
    if (expected !== null && typeof expected === 'object') {
      for (const [k, v] of Object.entries(expected)) expectSame((actual as Record<string, unknown>)[k], v, tol, `${what}.${k}`);
      return;
    }
    expect(actual, what).to.equal(expected);
  }

  const engines = ['tfjs', 'onnx', 'onnx-web'] as const;
  for (const engine of engines) {
    describe(`engine '${engine}'`, () => {
      before(function () {
        if (engine === 'onnx' && !onnxRuntimeAvailable()) this.skip();
      });

      it('staged.run == staged() == eager: collatz, an RNN over for...of, a greedy decode', async () => {
        for (const { name, fn, args } of programs()) {
          const staged = stage(fn, { engine });
          const eager = fn(...args);
          const tol = engine === 'tfjs' ? 0 : 1e-5;
          const asynchronous = await staged.run(...args);
          expectSame(asynchronous, eager, tol, `${name} staged.run`);
          expect(staged.inspect(...args).engine.engine, `${name}: ${staged.inspect(...args).engine.reason}`).to.equal(engine);
          if (engine === 'onnx-web') {
            // onnxruntime-web runs only asynchronously: a synchronous call on it, asked for by name, says so.
            expect(() => staged(...args)).to.throw(/runs only asynchronously: call `staged.run/);
          } else {
            expectSame(staged(...args), eager, tol, `${name} staged()`);
          }
        }
      });

      it('leaks no tensors across repeated staged.run calls', async () => {
        for (const { name, fn, args } of programs()) {
          const staged = stage(fn, { engine });
          tf.dispose(await staged.run(...args));
          const before = tf.memory().numTensors;
          for (let k = 0; k < 3; k++) {
            const out = await staged.run(...args);
            tf.dispose(Object.values(out instanceof tf.Tensor ? { out } : out).filter((v) => v instanceof tf.Tensor) as tf.Tensor[]);
          }
          expect(tf.memory().numTensors, name).to.equal(before);
        }
      });
    });
  }

  it('concurrent staged.run calls of one staged function each get their own result', async () => {
    for (const engine of engines) {
      if (engine === 'onnx' && !onnxRuntimeAvailable()) continue;
      const staged = stage(collatzSteps, { engine });
      const ns = [27, 6, 97, 1];
      const results = await Promise.all(ns.map((n) => staged.run(tf.scalar(n))));
      results.forEach((r, i) => expectSameTensor(r, collatzSteps(tf.scalar(ns[i])), 0, `${engine} collatz(${ns[i]})`));
    }
  });

  it('under a gradient tape (the taped executor), the gradient through a counted loop equals eager', async () => {
    const { args } = programs()[1];
    const [xs, h0] = args as tf.Tensor[];
    const staged = stage(rnn, { engine: 'tfjs' });
    const loss = (f: Fn) => (h: tf.Tensor): tf.Scalar => (f(xs, h, w) as tf.Tensor).square().sum() as tf.Scalar;
    expectSameTensor(tf.grad(loss(staged))(h0), tf.grad(loss(rnn))(h0), 1e-6, 'gradient');
  });

  it('host nodes between ONNX segments (prints, a check, a variable update) run in order under staged.run on every engine', async () => {
    const { guarded } = load(compile({ 'main.ts': DECODE }).js['main.ts']) as Record<string, Fn>;
    const capture = async <T>(body: () => T | Promise<T>): Promise<{ lines: string[]; result: T }> => {
      const lines: string[] = [];
      const log = console.log;
      console.log = (...parts: unknown[]) => { lines.push(parts.map(String).join(' ')); };
      try {
        return { lines, result: await body() };
      } finally {
        console.log = log;
      }
    };
    const x = tf.tensor1d([1, 2, 3]);
    const eagerV = tf.variable(tf.tensor1d([0.5, 0.5, 0.5]));
    const eager = await capture(() => guarded(x, eagerV));
    for (const engine of engines) {
      if (engine === 'onnx' && !onnxRuntimeAvailable()) continue;
      const v = tf.variable(tf.tensor1d([0.5, 0.5, 0.5]));
      const staged = stage(guarded, { engine });
      staged.inspect(x, v);   // traced (trace-time prints are not the run's)
      const run = await capture(() => staged.run(x, v));
      expect(run.lines, `${engine} printed`).to.deep.equal(eager.lines);
      expectSameTensor(run.result as tf.Tensor, eager.result as tf.Tensor, 1e-6, `${engine} result`);
      expectSameTensor(v, eagerV, 1e-6, `${engine} variable`);
      let error: unknown;
      await capture(() => staged.run(tf.tensor1d([-1, -2, -3]), v)).catch((e: unknown) => { error = e; });
      expect(error, `${engine} check`).to.be.instanceOf(RangeError);
      expectSameTensor(v, eagerV, 1e-6, `${engine} variable after the failed check`);
    }
  });

  it("engine 'auto' in Node keeps onnxruntime-node (or the tfjs executor), not onnxruntime-web", () => {
    const { args } = programs()[1];
    const choice = stage(rnn).inspect(...args).engine;
    expect(choice.engine).to.equal(onnxRuntimeAvailable() ? 'onnx' : 'tfjs');
  });

  describe('counted loops on the tfjs executor', () => {
    const readbacksOf = async (call: () => unknown): Promise<number> => {
      const before = executorReadbacks();
      const out = await call();
      const n = executorReadbacks() - before;
      tf.dispose(out as tf.Tensor);
      return n;
    };

    it('an RNN over for...of reads nothing back per iteration, sync or async (eager reads nothing either)', async () => {
      const staged = stage(rnn, { engine: 'tfjs' });
      for (const steps of [5, 40]) {
        const xs = tf.sin(tf.range(0, steps * 8).mul(0.3)).reshape([steps, 2, 4]);
        const h0 = tf.zeros([2, 8]);
        tf.dispose(staged(xs, h0, w));   // first call: the loop's constant start, bound and step are read once
        expect(await readbacksOf(() => staged(xs, h0, w)), `${steps} steps, sync`).to.be.at.most(1);
        expect(await readbacksOf(() => staged.run(xs, h0, w)), `${steps} steps, async`).to.be.at.most(1);
        expectSameTensor(await staged.run(xs, h0, w), rnn(xs, h0, w), 0, `${steps} steps`);
      }
    });

    it('range(n) with a tensor n: one read per call (the bound), whatever n', async () => {
      const staged = stage(powers, { engine: 'tfjs' });
      const x = tf.tensor1d([1.5, -2, 0.5]);
      for (const n of [0, 3, 12]) {
        const count = tf.scalar(n, 'int32');
        tf.dispose(staged(x, count));
        expect(await readbacksOf(() => staged(x, count)), `n = ${n}`).to.equal(1);
        expect(await readbacksOf(() => staged.run(x, count)), `n = ${n}, async`).to.equal(1);
        expectSameTensor(staged(x, count), powers(x, count), 0, `n = ${n}`);
      }
    });

    it('a data-dependent loop (collatz) still tests every iteration: the count is not a guess', async () => {
      const staged = stage(collatzSteps, { engine: 'tfjs' });
      tf.dispose(staged(tf.scalar(27)));
      expect(await readbacksOf(() => staged(tf.scalar(27)))).to.be.greaterThan(111);
    });

    it('maximumIterations still stops a counted loop past its limit, with its error', () => {
      const staged = stage(rnn, { engine: 'tfjs', maximumIterations: 3 });
      const { args } = programs()[1];
      expect(() => staged(...args)).to.throw(/maximumIterations|more than 3/);
    });
  });
});

/**
 * A device backend stand-in: tfjs-cpu's kernels under another name, whose synchronous reads
 * outside kernels (readSync, which dataSync calls) throw while `syncReadsForbidden` is set, as a
 * WebGPU device that must not be read synchronously. The executor's async path must not need them.
 */
describe('engines: staged.run reads nothing synchronously on a device backend', () => {
  const NAME = 'autograph-test-device';
  let previous: string;
  let syncReadsForbidden = false;
  let kernelDepth = 0;
  let asyncReads = 0;
  let rnn: Fn, collatzSteps: Fn, decode: Fn, w: Record<string, tf.Tensor>;

  before(async () => {
    previous = tf.getBackend();
    ({ decode } = load(compile({ 'main.ts': DECODE }).js['main.ts']) as Record<string, Fn>);
    const sample = loadSample('rnn/src/rnn.ts');
    rnn = sample.rnn;
    w = sample.fixedWeights(4, 8, 6);
    ({ collatzSteps } = loadSample('collatz/src/collatz.ts'));
    if (tf.findBackendFactory(NAME) === null) {
      tf.registerBackend(NAME, () => {
        const backend = tf.findBackendFactory('cpu')!() as tf.KernelBackend;
        // (tfjs-cpu's read() calls readSync: the device's asynchronous read reads the original.)
        const readSync = backend.readSync.bind(backend);
        backend.readSync = (dataId: object) => {
          if (syncReadsForbidden && kernelDepth === 0) throw new Error('a synchronous read on the device backend');
          return readSync(dataId);
        };
        backend.read = async (dataId: object) => {
          asyncReads++;
          return readSync(dataId);
        };
        return backend as tf.KernelBackend;
      });
      // tfjs-cpu's kernels read their inputs with readSync (a device's kernels read on the device): allowed.
      for (const kernel of tf.getKernelsForBackend('cpu')) {
        const kernelFunc: tf.KernelFunc = (args) => {
          kernelDepth++;
          try {
            return kernel.kernelFunc(args);
          } finally {
            kernelDepth--;
          }
        };
        tf.registerKernel({ ...kernel, backendName: NAME, kernelFunc });
      }
    }
    await tf.setBackend(NAME);
  });
  after(async () => {
    syncReadsForbidden = false;
    await tf.setBackend(previous);
  });

  it('collatz (an If and a test per iteration), the RNN (a counted loop), the decode (list, JS counter, break): staged.run awaits its reads and equals eager', async () => {
    // The RNN's loop is counted: once its constants are read (by the first, async, call), even the
    // synchronous call reads nothing.
    const cases: [string, Fn, unknown[], boolean][] = [
      ['collatz', collatzSteps, [tf.scalar(27)], true],
      ['rnn', rnn, [tf.sin(tf.range(0, 40).mul(0.3)).reshape([5, 2, 4]), tf.zeros([2, 8]), w], false],
      ['decode', decode, [tf.scalar(1, 'int32'), tf.tensor1d([0, 3, 5, 2, 1, 4], 'int32'), 10], true],
    ];
    for (const [name, fn, args, syncReads] of cases) {
      const staged = stage(fn, { engine: 'tfjs' });
      const eager = fn(...args) as tf.Tensor | { tokens: tf.Tensor; count: number };
      const tensorOf = (r: typeof eager): tf.Tensor => (r instanceof tf.Tensor ? r : r.tokens);
      const eagerValues = Array.from(tensorOf(eager).dataSync());
      staged.inspect(...args);   // traced before reads are forbidden (tracing reads nothing, but eager above did)
      syncReadsForbidden = true;
      let result: typeof eager;
      const before = asyncReads;
      try {
        result = await staged.run(...args) as typeof eager;
        if (syncReads) expect(() => staged(...args), `${name}: the synchronous call reads synchronously`).to.throw(/synchronous read/);
        else tf.dispose(staged(...args) as tf.Tensor);
      } finally {
        syncReadsForbidden = false;
      }
      expect(Array.from(await tensorOf(result).data()), name).to.deep.equal(eagerValues);
      if (!(eager instanceof tf.Tensor)) expect((result as { count: number }).count, `${name}: the JS counter`).to.equal(eager.count);
      if (name === 'collatz') expect(asyncReads - before, 'collatz reads each test asynchronously').to.be.greaterThan(111);
      tf.dispose(tensorOf(result));
    }
  });
});
