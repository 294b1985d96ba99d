/**
 * backends/optimize/int_comparisons.ts: an int32 value compared with a whole number compares the
 * ints (no Cast to float32) when the number is within ±2^24 — the same answer for every int32, on
 * wasm (whose cast rounds past 2^24) and cpu (whose cast keeps the int). Numbers past it, or with a
 * fraction, keep the Cast.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';

type Cmp = 'less' | 'lessEqual' | 'greater' | 'greaterEqual' | 'equal' | 'notEqual';
const OPS: Cmp[] = ['less', 'lessEqual', 'greater', 'greaterEqual', 'equal', 'notEqual'];

describe('optimizer: int32 compared with a whole number', () => {
  for (const backend of ['wasm', 'cpu']) {
    it(`equals eager for every comparison, both operand orders, at the edges of float32's ints (${backend})`, async () => {
      const previous = tf.getBackend();
      await tf.setBackend(backend);
      try {
        for (const c of [64, -3, 0, 16777215, -16777215, 16777216, -16777216, 2.5, -0.5, 3e9]) {
          const ints = [c - 1, c, c + 1, 16777217, -16777217, 16777215, 2147483647, -2147483648, 0, 63, 65]
            .map((v) => Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, Math.trunc(v))));
          const x = tf.tensor1d(ints, 'int32');
          for (const op of OPS) {
            for (const order of ['x op c', 'c op x'] as const) {
              const fn = (t: tf.Tensor): tf.Tensor => (order === 'x op c' ? t[op](c) : tf[op](tf.scalar(c), t));
              for (const engine of ['tfjs', 'onnx'] as const) {
                const staged = stage(fn, { engine: engine === 'onnx' ? 'auto' : 'tfjs' });
                const got = Array.from(staged(x).dataSync());
                const want = Array.from(fn(x).dataSync());
                expect(got, `${backend} ${engine}: ${order.replace('op', op)} with c = ${c}, x = ${ints}`).to.deep.equal(want);
                const rewritten = !staged.inspect(x).dump().includes('Cast(');
                expect(rewritten, `${order.replace('op', op)} with c = ${c}: the Cast is ${rewritten ? 'gone' : 'kept'}`)
                  .to.equal(Number.isInteger(c) && Math.abs(c) < 2 ** 24);
                staged.dispose();
              }
            }
          }
          x.dispose();
        }
      } finally {
        await tf.setBackend(previous);
      }
    });
  }
});
