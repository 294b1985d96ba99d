/**
 * Unknown dims (backends/staging/shape_relaxation.ts): calls that differ only in dims share one relaxed
 * graph when it is the same graph for both, and keep a graph per shape when it is not (a JS value
 * computed from a dim); `inputSignature` with null dims; loop variables and If outputs whose dims
 * change. Every staged result is checked against the eager run of the same converted program.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { stage } from '../../backends/stage';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { graphHasUnknownDims, UNKNOWN_DIM } from '../../backends/graph/graph';
import { exportGraphModel } from '../../backends/export/graphmodel/export';
import { lowerProgram } from '../../backends/onnx_model/lower';
import { onnxRuntimeAvailable } from '../../backends/engines/onnx/runtime';
import { loadExported } from '../graphmodel/support';
import { loadSample } from '../onnx/support';

const source = `
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

/** A tanh RNN over the rows of x ([T, 4]): one While over the time steps. */
export function rnn(x: tf.Tensor2D, w: tf.Tensor2D, u: tf.Tensor2D): tf.Tensor {
  'use autograph';
  let h = tf.zeros([1, 8]);
  for (const xt of x) {
    h = tf.tanh(xt.reshape([1, 4]).matMul(w).add(h.matMul(u)));
  }
  return h;
}

/** The RNN's outputs over time, with shape-generic post-processing: reshape to [T, 8] with -1, a
 * slice of the first 2 steps, the mean over the time axis, a counted while over a tensor bound. */
export function rnnStats(x: tf.Tensor2D, w: tf.Tensor2D, u: tf.Tensor2D, steps: tf.Scalar): tf.Tensor[] {
  'use autograph';
  let h = tf.zeros([1, 8]);
  let outputs = tf.zeros([0, 8]);
  for (const xt of x) {
    h = tf.tanh(xt.reshape([1, 4]).matMul(w).add(h.matMul(u)));
    outputs = tf.concat([outputs, h]);
  }
  let g = h;
  let i = tf.scalar(0, 'int32');
  while (i.less(steps)) {
    g = tf.tanh(g.matMul(u));
    i = i.add(tf.scalar(1, 'int32'));
  }
  const flat = outputs.reshape([-1]).reshape([-1, 8]);
  return [flat.mean(0), flat.slice([0, 0], [2, -1]), g, outputs.sum()];
}

/** The same RNN, written with the length as a JS number: x.shape[0] is baked into the graph. */
export function rnnByLength(x: tf.Tensor2D, w: tf.Tensor2D, u: tf.Tensor2D): tf.Tensor {
  'use autograph';
  let h = tf.zeros([1, 8]);
  for (const t of range(tf.scalar(x.shape[0], 'int32'))) {
    h = tf.tanh(x.gather(t).reshape([1, 4]).matMul(w).add(h.matMul(u)));
  }
  return h.div(x.shape[0]);
}

/** A growing accumulator: the rows of x whose sum is positive, concatenated. */
export function positiveRows(x: tf.Tensor2D): tf.Tensor {
  'use autograph';
  let acc = tf.zeros([0, 3]);
  for (const row of x) {
    if (row.sum().greater(0)) acc = tf.concat([acc, row.reshape([1, 3])]);
  }
  return acc;
}

/** A shrinking sequence: halve x (keep the first half) while its sum is above a limit. */
export function shrink(x: tf.Tensor1D, limit: tf.Scalar): tf.Tensor {
  'use autograph';
  let s = x;
  while (s.sum().greater(limit)) {
    s = s.slice(0, tf.util.sizeFromShape(s.shape) >> 1);
  }
  return s;
}

/** A growing accumulator, then code that depends on its traced dims: a JS number from its shape. */
export function growThenUseShape(x: tf.Tensor1D, n: tf.Scalar): tf.Tensor {
  'use autograph';
  let acc = tf.zeros([1]);
  let i = tf.scalar(0);
  while (i.less(n)) {
    acc = tf.concat([acc, x]);
    i = i.add(1);
  }
  return acc.reshape([acc.shape[0]]);
}

/** A growing accumulator whose dims are used through tensor ops only. */
export function growThenReduce(x: tf.Tensor1D, n: tf.Scalar): tf.Tensor[] {
  'use autograph';
  let acc = tf.zeros([1]);
  let i = tf.scalar(0);
  while (i.less(n)) {
    acc = tf.concat([acc, x.mul(i)]);
    i = i.add(1);
  }
  return [acc, acc.sum(), acc.reshape([-1, 1]).mean(0)];
}

/** An If whose branches give different dims. */
export function pickBranch(x: tf.Tensor1D): tf.Tensor {
  'use autograph';
  let y = x;
  if (x.sum().greater(0)) y = tf.concat([x, x]);
  else y = x.slice(0, 1);
  return y.mul(2);
}

/** A gradient inside the staged function through a loop variable whose dims change. */
export function gradOfGrowing(x: tf.Tensor1D, n: tf.Scalar): tf.Tensor {
  'use autograph';
  return tf.grad((v: tf.Tensor) => {
    let acc = v;
    let i = tf.scalar(0);
    while (i.less(n)) {
      acc = tf.concat([acc, v.mul(i)]);
      i = i.add(1);
    }
    return acc.sum();
  })(x);
}

/** A loop variable whose rank changes: still an error. */
export function rankChange(x: tf.Tensor, n: tf.Scalar): tf.Tensor {
  'use autograph';
  let y = x;
  let i = tf.scalar(0);
  while (i.less(n)) {
    y = y.expandDims(0);
    i = i.add(1);
  }
  return y;
}
`;

const close = (got: tf.Tensor, want: tf.Tensor, what: string): void => {
  expect(got.shape, `${what}: shape`).to.deep.equal(want.shape);
  const a = got.dataSync();
  const b = want.dataSync();
  a.forEach((v, i) => expect(v, `${what}[${i}]`).to.be.closeTo(b[i], 1e-5));
};

describe('unknown dims: one graph for calls that differ only in dims (backends/staging/shape_relaxation.ts)', () => {
  let m: Record<string, any>;
  let w: tf.Tensor2D;
  let u: tf.Tensor2D;
  const sequence = (T: number): tf.Tensor2D => tf.sin(tf.range(0, T * 4).mul(0.37)).reshape([T, 4]) as tf.Tensor2D;
  before(() => {
    const out = compile({ 'main.ts': source });
    expect(formatDiagnostics(out.diagnostics)).to.equal('');
    m = load(out.js['main.ts']);
    w = tf.sin(tf.range(0, 32).mul(0.7)).mul(0.5).reshape([4, 8]) as tf.Tensor2D;
    u = tf.cos(tf.range(0, 64).mul(0.3)).mul(0.3).reshape([8, 8]) as tf.Tensor2D;
  });

  it('a tanh RNN over T steps, called with 5 lengths, traces twice and equals eager for each', () => {
    const staged = stage(m.rnn);
    for (const T of [5, 7, 3, 12, 1]) close(staged(sequence(T), w, u), m.rnn(sequence(T), w, u), `T=${T}`);
    expect(staged.traceCount).to.equal(2);
    const info = staged.inspect(sequence(9), w, u);
    expect(staged.traceCount).to.equal(2);
    expect(info.stats.whiles).to.equal(1);
    expect(info.program.graph.nodes[0].outputs[0].shape).to.deep.equal([UNKNOWN_DIM, 4]);
    expect(info.dump()).to.match(/Input #0 : float32\[\?,4\]/);
    expect(info.dump()).to.match(/Shape\(%0\)/); // the row count is read when the graph runs
  });

  it('the rnn sample ([time, batch, features]) over 5 lengths and then other batch sizes: 2 + 1 traces', () => {
    const { rnn, fixedWeights } = loadSample('rnn/src/rnn.ts');
    const weights = fixedWeights(4, 8, 6);
    const staged = stage(rnn);
    const inputs = (T: number, B: number): tf.Tensor => tf.sin(tf.range(0, T * B * 4).mul(0.21)).reshape([T, B, 4]);
    for (const T of [5, 7, 3, 12, 1]) close(staged(inputs(T, 2), tf.zeros([2, 8]), weights), rnn(inputs(T, 2), tf.zeros([2, 8]), weights), `T=${T}`);
    expect(staged.traceCount).to.equal(2);
    for (const [T, B] of [[4, 3], [6, 1], [2, 5]]) {
      close(staged(inputs(T, B), tf.zeros([B, 8]), weights), rnn(inputs(T, B), tf.zeros([B, 8]), weights), `T=${T} B=${B}`);
    }
    expect(staged.traceCount).to.equal(3); // widened to inputs [?,?,4], h0 [?,8]
  });

  it('reshape with -1, slice, mean over time and a growing output list: relaxed, eager results for every length', () => {
    const staged = stage(m.rnnStats);
    for (const T of [4, 6, 2, 9, 3]) {
      const steps = tf.scalar(T % 3, 'int32');
      const got = staged(sequence(T), w, u, steps) as tf.Tensor[];
      const want = m.rnnStats(sequence(T), w, u, steps) as tf.Tensor[];
      got.forEach((g, k) => close(g, want[k], `T=${T} result ${k}`));
    }
    // The first trace is checked with other dims for its growing loop variable (2 runs of fn); the
    // second length's trace is the same graph: relaxed, no check needed.
    expect(staged.traceCount).to.equal(3);
  });

  it('a graph that uses x.shape[0] as a JS number is traced per shape (never reused for another length)', () => {
    const staged = stage(m.rnnByLength);
    for (const T of [3, 5, 6, 3]) close(staged(sequence(T), w, u), m.rnnByLength(sequence(T), w, u), `T=${T}`);
    expect(staged.traceCount).to.equal(3);
  });

  it('a Reshape target tfjs computed from the dims (squeeze) differing in one position is inferred (-1)', () => {
    const f = (x: tf.Tensor) => x.expandDims(0).squeeze([0]).mul(2);
    const staged = stage(f);
    for (const T of [3, 5, 6, 1, 4]) close(staged(tf.range(0, T)), f(tf.range(0, T)), `T=${T}`);
    expect(staged.traceCount).to.equal(2);
    expect(staged.inspect(tf.range(0, 8)).dump()).to.contain('Reshape(%1) {"shape":[-1]} : float32[?]');
  });

  it('a Reshape target that differs in two positions keeps a graph per shape', () => {
    const f = (x: tf.Tensor) => x.expandDims(1).mul(x.expandDims(0)).expandDims(0).squeeze([0]);
    const staged = stage(f);
    for (const T of [2, 3, 4, 3]) close(staged(tf.range(0, T)), f(tf.range(0, T)), `T=${T}`);
    expect(staged.traceCount).to.equal(3);
  });

  it('a JS value in the result computed from a dim (of a derived tensor, unwatched) keeps a graph per shape', () => {
    const staged = stage((x: tf.Tensor) => ({ y: x.mul(2), n: x.mul(1).shape[0] }));
    for (const T of [2, 3, 4]) expect(staged(tf.ones([T])).n).to.equal(T);
    expect(staged.traceCount).to.equal(3);
  });

  it('a JS branch on a derived dim that both traced lengths take alike is still seen (the read is audited)', () => {
    // 5 and 7 both take the `> 3` path: the two graphs are the same, but the read of the dim is not.
    const f = (x: tf.Tensor) => { const y = x.mul(2); return y.reshape(y.shape[0] > 3 ? [1, -1] : [-1, 1]); };
    const staged = stage(f);
    for (const T of [5, 7, 2]) close(staged(tf.range(0, T)), f(tf.range(0, T)), `T=${T}`);
    expect(staged.traceCount).to.equal(3);
  });

  it('a non-tensor argument that changes is still a retrace, dims aside', () => {
    const staged = stage((x: tf.Tensor, k: number) => x.mul(k));
    close(staged(tf.tensor1d([1, 2]), 3), tf.tensor1d([3, 6]), 'k=3 [2]');
    close(staged(tf.tensor1d([1, 2, 3]), 3), tf.tensor1d([3, 6, 9]), 'k=3 [3]');
    close(staged(tf.tensor1d([1, 2, 3, 4]), 3), tf.tensor1d([3, 6, 9, 12]), 'k=3 [4]');
    close(staged(tf.tensor1d([1, 2]), 5), tf.tensor1d([5, 10]), 'k=5 [2]');
    expect(staged.traceCount).to.equal(3);
  });

  it('dtype and rank changes are other families: no relaxation across them', () => {
    const staged = stage((x: tf.Tensor) => x.add(1));
    const warn = console.warn;
    console.warn = () => {}; // (the warning after 5 traces)
    after(() => { console.warn = warn; });
    close(staged(tf.tensor1d([1])), tf.tensor1d([2]), '[1]');
    close(staged(tf.tensor2d([[1]])), tf.tensor2d([[2]]), '[1,1]');
    close(staged(tf.tensor1d([1], 'int32')), tf.tensor1d([2], 'int32'), 'int32 [1]');
    close(staged(tf.tensor1d([1, 2])), tf.tensor1d([2, 3]), '[2]');
    close(staged(tf.tensor2d([[1, 2]])), tf.tensor2d([[2, 3]]), '[1,2]');
    close(staged(tf.tensor2d([[1, 2], [3, 4]])), tf.tensor2d([[2, 3], [4, 5]]), '[2,2]');
    // [1,1] and [1,2] relax to [1,?]; [2,2] widens that to [?,?] (one more trace).
    expect(staged.traceCount).to.equal(6);
    expect(graphHasUnknownDims(staged.inspect(tf.tensor2d([[1, 2, 3]])).program.graph)).to.equal(true);
    expect(staged.traceCount).to.equal(6);
  });
});

describe('stage(fn, { inputSignature })', () => {
  let m: Record<string, any>;
  before(() => {
    m = load(compile({ 'main.ts': source }).js['main.ts']);
  });

  it('one graph serves every input that matches [null, 4]', () => {
    const w = tf.ones([4, 8]) as tf.Tensor2D;
    const u = tf.eye(8).mul(0.5) as tf.Tensor2D;
    const staged = stage(m.rnn, { inputSignature: [{ shape: [null, 4], dtype: 'float32' }, { shape: [4, 8] }, { shape: [8, 8] }] });
    for (const T of [3, 8, 1, 5]) {
      const x = tf.randomNormal([T, 4]) as tf.Tensor2D;
      close(staged(x, w, u), m.rnn(x, w, u), `T=${T}`);
    }
    expect(staged.traceCount).to.equal(2); // the trace and its check with another length
  });

  it('an input that does not match is an error naming the argument', () => {
    const staged = stage((x: tf.Tensor, y: tf.Tensor) => x.add(y),
      { inputSignature: [{ shape: [null, 2], dtype: 'float32' }, { shape: [2] }] });
    close(staged(tf.ones([3, 2]), tf.ones([2])), tf.fill([3, 2], 2), 'match');
    expect(() => staged(tf.ones([3, 3]), tf.ones([2]))).to.throw(/argument 0 \(x\) is float32\[3,3\], which does not match the inputSignature float32\[\?,2\]/);
    expect(() => staged(tf.ones([3, 2], 'int32'), tf.ones([2]))).to.throw(/argument 0 \(x\) is int32\[3,2\]/);
    expect(() => staged(tf.ones([3, 2]), tf.ones([3]))).to.throw(/argument 1 \(y\) is float32\[3\], which does not match the inputSignature \[2\]/);
    expect(() => (staged as (...a: unknown[]) => unknown)(tf.ones([3, 2]))).to.throw(/takes 2 argument\(s\) by its inputSignature, got 1/);
    expect(staged.traceCount).to.equal(2);
  });

  it('a graph that depends on a dim the signature leaves open is an error that says where', () => {
    const staged = stage((x: tf.Tensor) => x.reshape([x.shape[0] * 2]), { inputSignature: [{ shape: [null, 2] }] });
    expect(() => (staged as (...a: unknown[]) => unknown)(tf.ones([3, 2]))).to.throw(/cannot be staged with unknown dims \(its inputSignature leaves dims open\): its graph depends on them — it reads x\.shape\[0\] at /);
  });

  it('rejects a malformed signature at stage()', () => {
    expect(() => stage((x: tf.Tensor) => x, { inputSignature: [{ shape: [1.5] }] })).to.throw(/inputSignature\[0\] must be/);
  });
});

describe('unknown dims inside a trace: loop variables and If outputs whose dims change', () => {
  let m: Record<string, any>;
  before(() => {
    m = load(compile({ 'main.ts': source }).js['main.ts']);
  });

  it('a growing concat accumulator under a tensor if: one While, its spec [?,3], eager results', () => {
    const staged = stage(m.positiveRows);
    for (const rows of [[[1, 2, 3], [-1, -2, 0], [0, 0, 1]], [[-1, 0, 0]], [[5, 5, 5], [1, 1, 1]]]) {
      const x = tf.tensor2d(rows);
      close(staged(x), m.positiveRows(x), JSON.stringify(rows));
    }
    const info = staged.inspect(tf.tensor2d([[1, 2, 3]]));
    expect(info.stats.whiles).to.equal(1);
    expect(info.dump()).to.match(/While\(.*\) : float32\[\?,3\]/);
  });

  it('a growing accumulator read afterwards through tensor ops only', () => {
    const staged = stage(m.growThenReduce);
    const x = tf.tensor1d([1, 2]);
    for (const n of [0, 1, 3, 5]) {
      const got = staged(x, tf.scalar(n)) as tf.Tensor[];
      const want = m.growThenReduce(x, tf.scalar(n)) as tf.Tensor[];
      got.forEach((g, k) => close(g, want[k], `n=${n} result ${k}`));
    }
    expect(staged.traceCount).to.equal(2); // the trace and its check with the other stand-in
  });

  it('code after the loop that bakes the accumulator\'s traced dims is an error naming the node', () => {
    const staged = stage(m.growThenUseShape);
    expect(() => staged(tf.tensor1d([1, 2]), tf.scalar(2))).to.throw(
      /cannot be staged with unknown dims \(a value changes dims while it runs\): its graph depends on them — it reads acc\.shape\[0\] at main\.ts:\d+:\d+/);
  });

  it('a shrinking sequence whose slice size is computed from its dims is refused, not wrong', () => {
    const staged = stage(m.shrink);
    expect(() => staged(tf.tensor1d([4, 4, 4, 4, 4, 4, 4, 4]), tf.scalar(5))).to.throw(/cannot be staged with unknown dims.*it reads s\.shape\[0\]/);
  });

  it('an If whose branches give different dims: merged spec with an unknown dim', () => {
    const staged = stage(m.pickBranch);
    for (const v of [[1, 2, 3], [-1, -2, -3], [0, 1]]) close(staged(tf.tensor1d(v)), m.pickBranch(tf.tensor1d(v)), JSON.stringify(v));
    expect(staged.inspect(tf.tensor1d([5, 6])).dump()).to.match(/If\(.*\) : float32\[\?\]/);
  });

  it('a gradient inside the staged function through changing dims is refused with a StagingError', () => {
    const x = tf.tensor1d([1, 2]);
    expect(Array.from(m.gradOfGrowing(x, tf.scalar(3)).dataSync())).to.deep.equal([4, 4]); // eager: 1 + 0 + 1 + 2
    expect(() => stage(m.gradOfGrowing)(x, tf.scalar(3))).to.throw(/a gradient through a value of unknown dims \(float32\[\?\]/);
  });

  it('a rank change stays an error naming the variable and the line', () => {
    const staged = stage(m.rankChange);
    expect(() => staged(tf.ones([2]), tf.scalar(2))).to.throw(/loop variable 'y' changes rank .*main\.ts:\d+:\d+/);
  });
});

describe('unknown dims beyond the executor: gradients, ONNX, GraphModel export', () => {
  let m: Record<string, any>;
  let w: tf.Tensor2D;
  let u: tf.Tensor2D;
  const sequence = (T: number): tf.Tensor2D => tf.cos(tf.range(0, T * 4).mul(0.41)).reshape([T, 4]) as tf.Tensor2D;
  before(() => {
    m = load(compile({ 'main.ts': source }).js['main.ts']);
    w = tf.sin(tf.range(0, 32).mul(0.7)).mul(0.5).reshape([4, 8]) as tf.Tensor2D;
    u = tf.cos(tf.range(0, 64).mul(0.3)).mul(0.3).reshape([8, 8]) as tf.Tensor2D;
  });

  it('tf.grad through a relaxed graph equals eager gradients for each length', () => {
    const staged = stage(m.rnn);
    for (const T of [3, 5, 4]) {
      const x = sequence(T);
      const got = tf.grads((a: tf.Tensor, b: tf.Tensor) => (staged(x, a, b) as tf.Tensor).sum())([w, u]);
      const want = tf.grads((a: tf.Tensor, b: tf.Tensor) => (m.rnn(x, a, b) as tf.Tensor).sum())([w, u]);
      got.forEach((g, k) => close(g, want[k], `T=${T} d${k}`));
    }
    expect(staged.traceCount).to.equal(2);
  });

  it('ONNX runs a relaxed graph with its unknown dims unknown in the model, at every length', () => {
    const staged = stage(m.rnn);
    staged(sequence(2), w, u);
    const info = staged.inspect(sequence(3), w, u);
    expect(info.dump()).to.match(/float32\[\?,4\]/);
    const lowered = lowerProgram(info.program);
    expect(lowered.ok).to.equal(true);
    if (!onnxRuntimeAvailable()) return;
    expect(info.engine.engine, info.engine.reason).to.equal('onnx');
    for (const T of [3, 7, 1]) close(staged(sequence(T), w, u), m.rnn(sequence(T), w, u), `ONNX T=${T}`);
  });

  it('a relaxed graph exports to a GraphModel with -1 dims that runs every length', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-shapes-'));
    try {
      const staged = stage(m.rnn);
      staged(sequence(2), w, u);
      const exported = await exportGraphModel(staged, [sequence(3), w, u], dir);
      const model = await loadExported(dir);
      for (const T of [2, 6]) {
        const out = await model.executeAsync({ x: sequence(T), w, u }) as tf.Tensor;
        close(out, m.rnn(sequence(T), w, u), `GraphModel T=${T}`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
