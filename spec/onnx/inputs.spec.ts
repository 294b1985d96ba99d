/**
 * How the ONNX engine feeds tensors to ORT (backends/engines/onnx/engine.ts toOrt): on tfjs-wasm, views of
 * the wasm heap made for one run (no copy); elsewhere copies kept while the tensor lives. A view
 * must never outlive its run: the heap grows (and its old buffer is detached) when tfjs allocates.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { describeOnnx, expectSameTensor } from './support';

describeOnnx('onnx: feeding tensors to ORT', () => {
  const fn = (x: tf.Tensor, k: tf.Tensor, mask: tf.Tensor): tf.Tensor => x.mul(k.toFloat()).where(mask, x.neg()).sum(0);

  it('float32, int32 and bool inputs read in place are right on every call, across a growth of the wasm heap', function () {
    if (tf.getBackend() !== 'wasm') this.skip();
    const staged = stage(fn, { engine: 'onnx' });
    const x = tf.randomNormal([64, 32], 0, 1, 'float32', 5);
    const k = tf.range(0, 32, 1, 'int32');
    const mask = tf.randomUniform([64, 32], 0, 1, 'float32', 6).less(0.5);
    expectSameTensor(staged(x, k, mask), fn(x, k, mask), 0, 'first call');
    const heapBefore = (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.byteLength;
    // 96 MB more: the heap grows, every earlier view of it is detached.
    const big = tf.zeros([24 * 1024 * 1024]);
    const heapAfter = (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.byteLength;
    expect(heapAfter).to.be.greaterThan(heapBefore);
    expectSameTensor(staged(x, k, mask), fn(x, k, mask), 0, 'after the heap grew');
    const y = x.add(1);
    expectSameTensor(staged(y, k, mask), fn(y, k, mask), 0, 'a new tensor');
    tf.dispose([big, x, k, mask, y]);
    staged.dispose();
  });

  it('variables an ORT run assigns are read back right by the next run (a training step, 5 calls)', () => {
    const w = tf.variable(tf.tensor1d([1, 2, 3]));
    const step = (x: tf.Tensor): tf.Tensor => {
      w.assign(w.mul(x).add(1));
      return w.sum();
    };
    const staged = stage(step, { engine: 'onnx' });
    const x = tf.tensor1d([0.5, -1, 2]);
    const want: number[] = [];
    let v = [1, 2, 3];
    for (let i = 0; i < 5; i++) {
      v = v.map((e, j) => Math.fround(Math.fround(e * [0.5, -1, 2][j]) + 1));
      want.push(v.reduce((a, b) => Math.fround(a + b), 0));
    }
    const got = Array.from({ length: 5 }, () => staged(x).dataSync()[0]);
    expect(got).to.deep.equal(want);
    expect(Array.from(w.dataSync())).to.deep.equal(v);
    staged.dispose();
    tf.dispose([w, x]);
  });
});
