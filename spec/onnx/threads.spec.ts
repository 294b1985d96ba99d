/**
 * Threads per operator (backends/engines/onnx/threads.ts): given, fixed at one for light graphs, or measured
 * on the first calls — and whichever session runs a call, the results are the same, bit for bit.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { describeOnnx } from './support';

describeOnnx('onnx: threads per operator', () => {
  // Heavy enough for ORT to split its operators: 8 steps of a 96x256 by 256x256 product.
  const heavy = (x: tf.Tensor2D, w: tf.Tensor2D): tf.Tensor => {
    let h: tf.Tensor = x;
    for (let i = 0; i < 8; i++) h = tf.tanh(h.matMul(w)).add(h.mean(0));
    return tf.concat([h.sum(1), h.max(0), h.argMax(1).toFloat()]);
  };
  const light = (x: tf.Scalar): tf.Tensor => x.mul(2).add(1);

  it('measured on the first calls: every call gives the same bits, and inspect() says what was chosen', () => {
    const x = tf.randomNormal([96, 256], 0, 1, 'float32', 11) as tf.Tensor2D;
    const w = tf.randomNormal([256, 256], 0, 0.07, 'float32', 12) as tf.Tensor2D;
    const staged = stage(heavy, { engine: 'onnx' });
    expect(staged.inspect(x, w).engine.threads).to.deep.equal([]);
    const first = staged(x, w);
    const want = Array.from(first.dataSync());
    // (Up to three rounds of 5 runs each, when the first are within noise of each other.)
    for (let call = 0; call < 33; call++) {
      const got = staged(x, w);
      expect(Array.from(got.dataSync()), `call ${call + 2}`).to.deep.equal(want);
      got.dispose();
    }
    const [threads] = staged.inspect(x, w).engine.threads!;
    // On an idle machine the measurement decides; on a very slow one the first run could be long
    // and on a fast one short: either way the choice and its reason are stated.
    expect(threads).to.match(/^(1|\d+) threads? per operator \((second fastest of (5|10|15) runs each: 1 thread [\d.]+ ms, \d+ threads [\d.]+ ms|a run takes [\d.]+ ms: too short for threads to help)\)$/);
    staged.dispose();
    tf.dispose([x, w, first]);
  });

  it('a given count is used as is; a graph of scalar operators keeps one thread without measuring', () => {
    const x = tf.scalar(3);
    const two = stage(light, { engine: 'onnx', onnx: { intraOpNumThreads: 2 } });
    two(x).dispose();
    expect(two.inspect(x).engine.threads).to.deep.equal(['2 threads per operator (intraOpNumThreads)']);
    const auto = stage(light, { engine: 'onnx' });
    auto(x).dispose();
    expect(auto.inspect(x).engine.threads![0]).to.match(/^1 thread per operator \(the heaviest operator, work 1\.0e\+0, is too light to split\)$/);
    [two, auto].forEach((s) => s.dispose());
    x.dispose();
  });
});
