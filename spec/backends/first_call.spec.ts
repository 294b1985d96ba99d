/**
 * The call that traces a straight-line graph takes the trace's own values as its results
 * (backends/cache/trace_results.ts, #20: the first call within 2x of one eager call); the graph is
 * optimized and its engine chosen on the next call. These specs check that this never changes what
 * a call returns or leaves behind: the values are eager's, the tensors are the caller's (a tf.tidy
 * frees them), and graphs whose values a trace does not compute (control flow, random draws, prints,
 * variable updates, results that are not a kernel's output) still run.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';
import * as ag__ from '../../runtime/operators';

/** `while (i < 3) { y = y * 2; i++; }` on tensors, as the transformer emits it. */
function doubled(x: tf.Tensor): tf.Tensor {
  let y = x;
  let i: tf.Tensor = tf.scalar(0);
  ag__.whileStmt(() => i.less(3), () => {
    y = y.mul(2);
    i = i.add(1);
  }, () => [y, i], ([y1, i1]) => {
    y = y1 as tf.Tensor;
    i = i1 as tf.Tensor;
  }, ['y', 'i'], { origin: 'first_call.ts:1:1' });
  return y;
}

type Fn = (...args: never[]) => unknown;

const values = (t: unknown): number[] => Array.from((t as tf.Tensor).dataSync());
const lastCall = (staged: { inspect: (...a: never[]) => { engine: { lastCall?: { engine: string } } } }, ...args: unknown[]): string | undefined =>
  staged.inspect(...(args as never[])).engine.lastCall?.engine;

/** Tensors and data buffers alive now (both must come back after a staged function is disposed). */
const alive = (): [number, number] => [tf.memory().numTensors, tf.engine().backend.numDataIds()];

describe('stage(): the first call of a straight-line graph takes its trace\'s values', () => {
  it('equals eager exactly (same kernels on the same tensors); the second call runs the optimized graph and equals too', () => {
    const f = (x: tf.Tensor, w: tf.Tensor): tf.Tensor[] => {
      let y = x;
      for (let i = 0; i < 50; i++) y = y.matMul(w).tanh().mul(0.5).add(0.25);
      return [y, y.sum().toInt(), x.mean()];
    };
    const x = tf.randomNormal([4, 8], 0, 1, 'float32', 1);
    const w = tf.randomNormal([8, 8], 0, 0.3, 'float32', 2);
    const eager = tf.tidy(() => f(x, w));
    const before = alive();
    for (const engine of ['auto', 'tfjs'] as const) {
      const staged = stage(f, { engine });
      const first = staged(x, w);
      expect(lastCall(staged, x, w)).to.equal('trace');
      first.forEach((t, i) => {
        expect(t.dtype).to.equal(eager[i].dtype);
        expect(t.shape).to.deep.equal(eager[i].shape);
        expect(values(t)).to.deep.equal(values(eager[i]));
      });
      const second = staged(x, w);
      expect(lastCall(staged, x, w)).to.not.equal('trace');
      second.forEach((t, i) => values(t).forEach((v, k) => expect(v).to.be.closeTo(values(eager[i])[k], 1e-5)));
      // The graph was optimized before its first run: the 50 scalar constants of each kind are one.
      expect(staged.inspect(x, w).stats.constants).to.be.below(10);
      tf.dispose([first, second]);
      staged.dispose();
      expect(alive(), engine).to.deep.equal(before);
    }
    tf.dispose([x, w, eager]);
  });

  it('gives the caller tensors of its scope: a tf.tidy around the first call frees them', () => {
    const staged = stage((x: tf.Tensor) => ({ a: x.square(), b: [x.exp(), 'label'] }));
    const x = tf.tensor1d([1, 2, 3]);
    const before = alive();
    const kept = tf.tidy(() => {
      const out = staged(x);
      expect(values(out.a)).to.deep.equal([1, 4, 9]);
      expect(out.b[1]).to.equal('label');
      return out.a.add(1);
    });
    expect(lastCall(staged, x)).to.equal('trace');
    expect(values(kept)).to.deep.equal([2, 5, 10]);
    kept.dispose();
    staged.dispose();
    expect(alive()).to.deep.equal(before);
    x.dispose();
  });

  it('staged.run (async) takes them too, and equals eager', async () => {
    const staged = stage((x: tf.Tensor) => x.add(1).mul(x));
    const x = tf.tensor1d([1, 2, 3]);
    const before = alive();
    const first = await staged.run(x);
    expect(staged.inspect(x).engine.lastCall).to.deep.include({ engine: 'trace', async: true });
    expect(values(first)).to.deep.equal([2, 6, 12]);
    const second = await staged.run(x);
    expect(values(second)).to.deep.equal([2, 6, 12]);
    tf.dispose([first, second]);
    staged.dispose();
    expect(alive()).to.deep.equal(before);
    x.dispose();
  });

  it('a call with other dims (a relaxed graph) takes its own trace\'s values; later calls run the relaxed graph', () => {
    const staged = stage((x: tf.Tensor) => x.mul(2).sum(0));
    const results = [[3, 2], [5, 2], [7, 2], [5, 2]].map(([n, m]) => {
      const x = tf.range(0, n * m).reshape([n, m]);
      const got = values(staged(x));
      const want = values(tf.tidy(() => x.mul(2).sum(0)));
      x.dispose();
      return [got, want];
    });
    for (const [got, want] of results) expect(got).to.deep.equal(want);
    expect(staged.traceCount).to.equal(2); // [3,2], then [5,2] relaxed to [?,2]
    staged.dispose();
  });

  let captured: tf.Tensor;
  before(() => {
    captured = tf.tensor1d([5, 6]);
  });
  after(() => captured.dispose());

  const runsTheGraph: [string, Fn, () => unknown[]][] = [
    ['a staged loop (its traced values are stand-ins)', doubled, () => [tf.tensor1d([1, 2])]],
    ['a random draw (drawn anew on every run)', (x: tf.Tensor) => x.add(tf.randomUniform([2])), () => [tf.ones([2])]],
    ['a returned argument', (x: tf.Tensor) => [x, x.add(1)], () => [tf.ones([2])]],
    ['a returned captured tensor', (x: tf.Tensor) => [captured, x.add(captured)], () => [tf.ones([2])]],
    ['one tensor returned twice', (x: tf.Tensor) => {
      const y = x.add(1);
      return [y, y];
    }, () => [tf.ones([2])]],
    ['a print', (x: tf.Tensor) => {
      x.print();
      return x.add(1);
    }, () => [tf.ones([2])]],
  ];

  for (const [what, fn, args] of runsTheGraph) {
    it(`still runs the graph for ${what}, and equals eager`, () => {
      const a = args();
      const log = console.log;
      console.log = (): void => undefined; // (the print's output)
      const eager = tf.tidy(() => [fn(...(a as never[]))].flat() as tf.Tensor[]);
      const staged = stage(fn, { engine: 'tfjs' });
      try {
        const got = [staged(...(a as never[]))].flat() as tf.Tensor[];
        expect(lastCall(staged, ...a)).to.equal('tfjs');
        if (what.startsWith('a random')) expect(got[0].shape).to.deep.equal(eager[0].shape);
        else got.forEach((t, i) => expect(values(t)).to.deep.equal(values(eager[i])));
        tf.dispose(got.filter((t) => !a.includes(t) && t !== captured));
      } finally {
        console.log = log;
        tf.dispose(eager.filter((t) => !a.includes(t) && t !== captured));
        tf.dispose(a as tf.Tensor[]);
        staged.dispose();
      }
    });
  }

  it('runs the graph under a gradient tape (tf.grad around the first call)', () => {
    const staged = stage((x: tf.Tensor) => x.mul(x).sum());
    const x = tf.tensor1d([1, 2, 3]);
    const g = tf.grad((v: tf.Tensor) => staged(v) as tf.Scalar)(x);
    expect(values(g)).to.deep.equal([2, 4, 6]);
    expect(lastCall(staged, x)).to.equal('tfjs');
    tf.dispose([g, x]);
    staged.dispose();
  });

  it('a variable update on the first call is the trace\'s (kept, not made again); later calls update it as eager does', () => {
    const init = tf.scalar(1);
    const v = tf.variable(init);
    init.dispose();
    const staged = stage((x: tf.Tensor) => {
      v.assign(v.add(x));
      return v.mul(10);
    }, { engine: 'tfjs' });
    const x = tf.scalar(2);
    const before = alive();
    const got = [30, 50, 70].map((want, call) => {
      const out = staged(x);
      expect(lastCall(staged, x), `call ${call}`).to.equal(call === 0 ? 'trace' : 'tfjs');
      expect(values(out), `call ${call}`).to.deep.equal([want]);
      expect(values(v), `call ${call}`).to.deep.equal([want / 10]);
      return out;
    });
    tf.dispose(got);
    staged.dispose();
    // Every value the variable had before its last was freed (the data was the variable's only).
    expect(alive()).to.deep.equal(before);
    tf.dispose([x, v]);
  });

  it("engine: 'onnx' (asked for by name) runs the first call itself", function () {
    let staged;
    const x = tf.tensor1d([1, 2]);
    try {
      staged = stage((t: tf.Tensor) => t.mul(3), { engine: 'onnx' });
      const got = staged(x);
      expect(values(got)).to.deep.equal([3, 6]);
      got.dispose();
    } catch (error) {
      x.dispose();
      if (/onnxruntime-node/.test((error as Error).message)) this.skip();
      throw error;
    }
    expect(lastCall(staged, x)).to.equal('onnx');
    x.dispose();
    staged.dispose();
  });
});
