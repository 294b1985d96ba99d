/**
 * Rows on tfjs-wasm copied on the heap (backends/engines/tfjs/wasm_rows.ts): the tfjs executor's
 * Row steps (for...of over a tensor, a gather of one row by an index tensor) give eager's rows bit
 * for bit, every dtype; an index out of range still fails as the gather kernel does.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { wasmRowCopy } from '../../backends/engines/tfjs/wasm_rows';
import { compile, formatDiagnostics, load } from '../harness/compile';

const SOURCE = `
import * as tf from '@tensorflow/tfjs';
export function rows(xs: tf.Tensor): tf.Tensor[] {
  'use autograph';
  const out: tf.Tensor[] = [];
  for (const x of xs) out.push(x);
  return out;
}
export function rowAt(xs: tf.Tensor, i: tf.Tensor): tf.Tensor {
  return tf.gather(xs, i).add(tf.zerosLike(tf.gather(xs, i)));
}
`;

const bits = (t: tf.Tensor): number[] => Array.from(new Uint8Array((t.dataSync() as Float32Array).slice().buffer));

describe('engines: rows on tfjs-wasm copied on the heap', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let m: Record<string, any>;
  before(function () {
    if (tf.getBackend() !== 'wasm') this.skip();
    const result = compile({ 'main.ts': SOURCE });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });

  it('the copy is the gather kernel\'s row, bit for bit, for float32 (-0, NaN), int32 and bool', () => {
    const copy = wasmRowCopy(tf.backend(), 'wasm')!;
    expect(copy).to.be.a('function');
    const inputs = [
      tf.tensor3d([1, -0, NaN, -Infinity, 2.5, 3, 4, 5, 6, 7, 8, 9], [3, 2, 2]),
      tf.tensor2d([[1, 2, 3], [-4, 5, 2147483647]], [2, 3], 'int32'),
      tf.tensor2d([[true, false], [false, true], [true, true]], [3, 2], 'bool'),
    ];
    for (const x of inputs) {
      for (let i = 0; i < x.shape[0]; i++) {
        const info = copy(x, i, x.shape.slice(1));
        const got = tf.engine().makeTensorFromTensorInfo(info);
        const want = tf.gather(x, i);
        expect(got.shape).to.deep.equal(want.shape);
        expect(got.dtype).to.equal(want.dtype);
        expect(bits(got)).to.deep.equal(bits(want));
        tf.dispose([got, want]);
      }
    }
    tf.dispose(inputs);
  });

  it('staged on the tfjs executor: for...of and a gather by an index tensor equal eager; a bad index fails as eager', () => {
    const xs = tf.tensor3d([1, -0, NaN, 2, 3, 4, 5, 6], [4, 1, 2]);
    const ints = tf.tensor2d([[1, 2], [3, 4], [5, 6]], [3, 2], 'int32');
    for (const x of [xs, ints]) {
      const staged = stage(m.rows, { engine: 'tfjs' });
      const got = staged(x) as tf.Tensor[];
      const want = tf.tidy(() => m.rows(x) as tf.Tensor[]);
      expect(got.map(bits)).to.deep.equal(want.map(bits));
      tf.dispose([...got, ...want]);
      staged.dispose();
    }
    const at = stage(m.rowAt, { engine: 'tfjs' });
    for (const i of [0, 3]) {
      const index = tf.scalar(i, 'int32');
      const got = at(xs, index) as tf.Tensor;
      const want = tf.tidy(() => m.rowAt(xs, index) as tf.Tensor);
      expect(bits(got)).to.deep.equal(bits(want));
      tf.dispose([got, want, index]);
    }
    const bad = tf.scalar(4, 'int32');
    expect(() => m.rowAt(xs, bad)).to.throw(/GatherV2: the index value 4 is not in \[0, 3\]/);
    expect(() => at(xs, bad)).to.throw(/GatherV2: the index value 4 is not in \[0, 3\]/);
    at.dispose();
    tf.dispose([xs, ints, bad]);
  });
});
