/**
 * Relaxed graphs (one graph for every length: backends/staging/shape_relaxation.ts) on ONNX Runtime: their
 * unknown dims are unknown in the ONNX model too, for the kernels whose lowerings only declare
 * shapes (lower.ts SYMBOLIC_DIM_KERNELS); a graph with another kernel on an unknown dim stays on
 * the tfjs executor and inspect() says why.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { SYMBOLIC_DIM_KERNELS } from '../../backends/onnx_model/lower';
import { describeOnnx, expectSameTensor, loadSample } from './support';

type Case = [kernel: string, fn: (x: tf.Tensor2D, i: tf.Tensor1D) => tf.Tensor, tol?: number];

/** x: [n, 3] floats with negatives, zeros and a NaN-free spread; i: [n] int32. */
const input = (n: number): [tf.Tensor2D, tf.Tensor1D] => [
  tf.tidy(() => tf.sin(tf.range(0, n * 3).mul(1.7)).mul(3).sub(tf.range(0, n * 3).mod(2)).reshape([n, 3]) as tf.Tensor2D),
  tf.tidy(() => tf.range(0, n, 1, 'int32').mul(7).mod(5).sub(2) as tf.Tensor1D),
];

/** One or more cases per kernel of SYMBOLIC_DIM_KERNELS, each a function of inputs whose first dim varies. */
const cases: Case[] = [
  ['Add', (x) => x.add(tf.tensor1d([1, -2, 0.5]))], ['Sub', (x) => x.sub(x.max(0))],
  ['Multiply', (x) => x.mul(x.max(0))], ['RealDiv', (x) => x.div(x.abs().add(1))],
  ['Maximum', (x) => tf.maximum(x, 0.25)], ['Minimum', (x) => tf.minimum(x, x.neg())],
  ['Tanh', (x) => x.tanh(), 1e-6], ['Sigmoid', (x) => x.sigmoid(), 1e-6], ['Relu', (x) => x.relu()],
  ['Exp', (x) => x.exp(), 1e-6], ['Log', (x) => x.abs().add(1).log(), 1e-6], ['Neg', (x) => x.neg()],
  ['Abs', (_x, i) => i.abs()], ['Sqrt', (x) => x.abs().sqrt(), 1e-6], ['Square', (_x, i) => i.square()],
  ['Cast', (x) => x.toInt()], ['Cast', (_x, i) => i.toFloat().mul(0.5)],
  ['Less', (x) => x.less(0)], ['LessEqual', (x) => x.lessEqual(0)], ['Greater', (_x, i) => i.greater(0)],
  ['GreaterEqual', (x) => x.greaterEqual(x.min(0))], ['Equal', (_x, i) => i.equal(-2)],
  ['LogicalAnd', (x) => x.less(1).logicalAnd(x.greater(-1))], ['LogicalOr', (x) => x.less(-1).logicalOr(x.greater(1))],
  ['LogicalNot', (x) => x.less(0).logicalNot()],
  ['BatchMatMul', (x) => x.matMul(tf.tensor2d([[1, 0], [0.5, -1], [2, 3]])), 1e-6],
  ['BatchMatMul', (x) => x.matMul(x, true, false), 1e-5], ['BatchMatMul', (x) => x.matMul(x, false, true), 1e-6],
  ['GatherV2', (x) => tf.gather(x, tf.tensor1d([2, 0], 'int32'), 1)], ['GatherV2', (x) => tf.gather(x, 0)],
  ['Transpose', (x) => x.transpose()], ['Concat', (x) => tf.concat([x, x.neg()], 0)], ['Concat', (x) => tf.concat([x, x], 1)],
  ['Softmax', (x) => tf.softmax(x), 1e-6], ['Sum', (x) => x.sum(0)], ['Sum', (x) => x.sum()], ['Sum', (_x, i) => i.sum(0)],
  ['Sum', (x) => x.sum(1)], ['Sum', (x) => x.sum(-1, true)], ['Mean', (x) => x.mean(1)], ['Mean', (x) => x.mean(0)], ['Mean', (x) => x.mean()], ['Max', (x) => x.max(0)], ['Max', (x) => x.max(1)], ['Min', (x) => x.min()],
  ['All', (x) => x.greater(-5).all(0)], ['Any', (x) => x.greater(2).any(1)],
  ['ArgMax', (x) => x.argMax(0)], ['ArgMax', (x) => x.argMax(1)], ['ArgMin', (x) => x.argMin(0)],
];
/** Kernels that user code does not call directly: covered by the rnn sample's test (Shape) or lowered to nothing. */
const COVERED_ELSEWHERE = new Set(['Shape', 'Identity']);

/** ONNX Runtime ran the relaxed graph; or, under 'auto', it ran it on the first calls and gave other numbers than eager's
 * in the last bits (Tanh, MatMul...), so 'auto' keeps the tfjs executor (choice.ts). */
const onOnnx = (e: { engine: string; reason?: string }): boolean => e.engine === 'onnx' || /onnx computes other numbers/.test(e.reason ?? '');

describeOnnx('onnx: relaxed graphs with unknown dims', () => {
  it('the rnn sample called at several lengths: one relaxed graph, run by ONNX Runtime, equal to eager', () => {
    const { rnn } = loadSample('rnn/src/rnn.ts');
    const [B, H] = [4, 16];
    const w = { wx: tf.randomNormal([H, H], 0, 0.3, 'float32', 1), wh: tf.randomNormal([H, H], 0, 0.3, 'float32', 2),
      b: tf.randomNormal([H], 0, 0.1, 'float32', 3) };
    const h0 = tf.zeros([B, H]);
    const staged = stage(rnn);
    for (const T of [3, 5, 8, 1, 13]) {
      const xs = tf.randomNormal([T, B, H], 0, 1, 'float32', T);
      expectSameTensor(staged(xs, h0, w), rnn(xs, h0, w), 1e-5, `rnn over ${T} steps`);
      xs.dispose();
    }
    const xs = tf.randomNormal([6, B, H]);
    const info = staged.inspect(xs, h0, w);
    expect(info.dump().split('\n')[0]).to.contain('?');
    expect(onOnnx(info.engine), info.engine.reason).to.equal(true);
    staged.dispose();
    tf.dispose([xs, h0, w.wx, w.wh, w.b]);
  });

  it('every kernel of SYMBOLIC_DIM_KERNELS has a case here', () => {
    const covered = new Set([...cases.map(([k]) => k), ...COVERED_ELSEWHERE]);
    expect([...SYMBOLIC_DIM_KERNELS].filter((k) => !covered.has(k))).to.deep.equal([]);
  });

  for (const [kernel, fn, tol = 0] of cases) {
    it(`${kernel} on a relaxed graph (one graph for every first dim) equals eager: ${fn.toString().replace(/\s+/g, ' ').slice(0, 60)}`, () => {
      const staged = stage(fn);
      for (const n of [2, 3, 5, 1]) {
        const [x, i] = input(n);
        expectSameTensor(staged(x, i), fn(x, i), tol, `${kernel} at n=${n}`);
        tf.dispose([x, i]);
      }
      const [x, i] = input(4);
      const info = staged.inspect(x, i);
      expect(info.dump().split('\n')[0], 'the graph is relaxed').to.contain('?');
      expect(onOnnx(info.engine), info.engine.reason).to.equal(true);
      staged.dispose();
      tf.dispose([x, i]);
    });
  }

  it('a float Sum on unknown dims over axes that neither lead nor trail stays on tfjs, saying why', () => {
    const staged = stage((x: tf.Tensor2D) => tf.stack([x, x], 2).sum(1));
    for (const n of [2, 3, 5]) {
      const [x, i] = input(n);
      expectSameTensor(staged(x), tf.stack([x, x], 2).sum(1), 0, `sum over the middle axis at n=${n}`);
      tf.dispose([x, i]);
    }
    const [x, i] = input(4);
    const info = staged.inspect(x);
    expect(info.dump().split('\n')[0]).to.contain('?');
    expect(info.engine.engine).to.equal('tfjs');
    expect(info.engine.reason).to.match(/Sum .*neither lead nor trail/);
    staged.dispose();
    tf.dispose([x, i]);
  });

  it('a kernel that writes a recorded shape (ExpandDims on a growing value) keeps the relaxed graph on tfjs, saying why', () => {
    const grow = (xs: tf.Tensor2D, scale: tf.Scalar): tf.Tensor => xs.mul(scale).expandDims(0).sum(1);
    const staged = stage(grow);
    for (const n of [2, 3, 5]) {
      const xs = tf.range(0, n * 3).reshape([n, 3]) as tf.Tensor2D;
      expectSameTensor(staged(xs, tf.scalar(2)), grow(xs, tf.scalar(2)), 0, `grow ${n}`);
    }
    const info = staged.inspect(tf.zeros([4, 3]) as tf.Tensor2D, tf.scalar(2));
    expect(info.dump().split('\n')[0]).to.contain('?');
    expect(info.engine.engine).to.equal('tfjs');
    expect(info.engine.reason).to.match(/ExpandDims .*unknown dims \(float32\[1,\?,3\]\)/);
    staged.dispose();
  });
});
