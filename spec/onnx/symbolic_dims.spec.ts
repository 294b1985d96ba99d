/**
 * Relaxed graphs (one graph for every length: backends/shape_relaxation.ts) on ONNX Runtime: their
 * unknown dims are unknown in the ONNX model too, for the kernels whose lowerings only declare
 * shapes (lower.ts SYMBOLIC_DIM_KERNELS); a graph with another kernel on an unknown dim stays on
 * the tfjs executor and inspect() says why.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { describeOnnx, expectSameTensor, loadSample } from './support';

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
    expect(info.engine.engine, info.engine.reason).to.equal('onnx');
    staged.dispose();
    tf.dispose([xs, h0, w.wx, w.wh, w.b]);
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
