import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';

const values = (t: unknown): number[] => Array.from((t as tf.Tensor).dataSync());

describe('stage(): straight-line code', () => {
  it('gives the eager results and runs the JS body only when tracing', () => {
    let runs = 0;
    const f = (a: tf.Tensor, b: tf.Tensor): tf.Tensor => {
      runs++;
      return a.matMul(b).tanh().add(1).mul(a.sum());
    };
    const staged = stage(f);
    for (let k = 0; k < 3; k++) {
      const a = tf.randomNormal([3, 4]);
      const b = tf.randomNormal([4, 2]);
      const eager = f(a, b);
      const got = staged(a, b);
      expect(got.shape).to.deep.equal([3, 2]);
      values(got).forEach((v, i) => expect(v).to.be.closeTo(values(eager)[i], 1e-5));
    }
    expect(runs).to.equal(3 + 1); // 3 eager + 1 trace
    expect(staged.traceCount).to.equal(1);
  });

  it('retraces for a new shape or a new non-tensor argument value', () => {
    const staged = stage((x: tf.Tensor, k: number) => x.mul(k));
    expect(values(staged(tf.tensor1d([1, 2]), 3))).to.deep.equal([3, 6]);
    expect(values(staged(tf.tensor1d([1, 2, 3]), 3))).to.deep.equal([3, 6, 9]);
    expect(values(staged(tf.tensor1d([1, 2]), 5))).to.deep.equal([5, 10]);
    expect(values(staged(tf.tensor1d([4, 4]), 5))).to.deep.equal([20, 20]);
    expect(staged.traceCount).to.equal(3);
  });

  it('returns nested structures of tensors and JS values', () => {
    const staged = stage((x: tf.Tensor) => ({ sum: x.sum(), parts: [x.max(), 'label', 7] }));
    const out = staged(tf.tensor1d([1, 5, 2]));
    expect(values(out.sum)).to.deep.equal([8]);
    expect(values(out.parts[0])).to.deep.equal([5]);
    expect(out.parts.slice(1)).to.deep.equal(['label', 7]);
  });

  it('does not leak tensors over 1,000 staged calls', () => {
    const staged = stage((x: tf.Tensor, w: tf.Tensor) => x.matMul(w).relu().sum().add(x.mean()));
    const x = tf.randomNormal([4, 8]);
    const w = tf.randomNormal([8, 8]);
    tf.dispose(staged(x, w));
    const before = tf.memory().numTensors;
    const buffersBefore = tf.engine().backend.numDataIds();
    for (let i = 0; i < 1000; i++) tf.dispose(staged(x, w));
    expect(tf.memory().numTensors).to.equal(before);
    expect(tf.engine().backend.numDataIds()).to.equal(buffersBefore);
  });
});
