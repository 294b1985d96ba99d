/**
 * Host nodes at the top level of a staged function (random draws, prints, checks, and an If that
 * holds one: `if (x.less(0)) throw`) run on the JS side between ONNX segments
 * (backends/engines/onnx/segments.ts): results, printed lines, errors and variable states as eager, in the
 * graph's order; inside a loop they are not split out (the graph does not lower, saying why);
 * 'auto' keeps light split graphs on the tfjs executor.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { describeOnnx, expectSameTensor } from './support';

const source = `
import * as tf from '@tensorflow/tfjs';

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

export function printsInLoop(x: tf.Tensor, n: tf.Scalar): tf.Tensor {
  'use autograph';
  let i = tf.scalar(0, 'int32');
  while (i.less(n)) {
    x.print();
    i = i.add(tf.scalar(1, 'int32'));
  }
  return x.add(i.toFloat());
}
`;

/** console.log calls made by `body`, as the strings they print. */
function printed<T>(body: () => T): { lines: string[]; result: T } {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => { lines.push(parts.map(String).join(' ')); };
  try {
    return { lines, result: body() };
  } finally {
    console.log = log;
  }
}

describeOnnx('onnx: random draws, prints and checks between ONNX segments', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let fns: Record<string, any>;
  before(() => {
    const result = compile({ 'host.ts': source });
    if (result.diagnostics.length) throw new Error(formatDiagnostics(result.diagnostics));
    fns = load(result.js['host.ts']);
  });

  it('random draws: fresh per call, the computation around them in ONNX; a seeded draw equals eager', () => {
    const noisy = stage((x: tf.Tensor) => {
      const r = tf.randomUniform([4]);
      return [x.mul(2).add(r), r, tf.randomNormal([3], 0, 1, 'float32', 7).mul(x.sum())];
    }, { engine: 'onnx' });
    const x = tf.tensor1d([1, -2, 3, 0.5]);
    const [a, r, seeded] = noisy(x);
    expectSameTensor(a, x.mul(2).add(r), 1e-6, 'x * 2 + r');
    expectSameTensor(seeded, tf.randomNormal([3], 0, 1, 'float32', 7).mul(x.sum()), 1e-6, 'seeded');
    const [, again] = noisy(x);
    expect(Array.from(again.dataSync())).to.not.deep.equal(Array.from(r.dataSync()));
    expect(noisy.inspect(x).engine.engine).to.equal('onnx');
    noisy.dispose();
  });

  it('prints and a throw under a tensor condition: same lines, error and variable state as eager, in order', () => {
    const eagerV = tf.variable(tf.tensor1d([1, 1]), true, 'segments_eager_v');
    const stagedV = tf.variable(tf.tensor1d([1, 1]), true, 'segments_staged_v');
    const staged = stage(fns.guarded, { engine: 'onnx' });
    for (const values of [[1, 2], [3, -1]]) {
      const x = tf.tensor1d(values);
      const eager = printed(() => fns.guarded(x, eagerV));
      const got = printed(() => staged(x, stagedV));
      expect(got.lines).to.deep.equal(eager.lines);
      expectSameTensor(got.result, eager.result, 0, `guarded([${values}])`);
    }
    expect(staged.inspect(tf.tensor1d([1, 2]), stagedV).engine.engine).to.equal('onnx');
    // A failing check: the print before it happens, the assignment and print after it do not.
    const x = tf.tensor1d([-5, 1]);
    const eager = printed(() => { try { fns.guarded(x, eagerV); return ''; } catch (e) { return String(e); } });
    const got = printed(() => { try { staged(x, stagedV); return ''; } catch (e) { return String(e); } });
    expect(got.result).to.equal('RangeError: guarded: negative sum').and.equal(eager.result);
    expect(got.lines).to.deep.equal(eager.lines).and.have.length(1);
    expectSameTensor(stagedV, eagerV, 0, 'variable');
    staged.dispose();
    [eagerV, stagedV].forEach((v) => v.dispose());
  });

  it('a print inside a loop is not split out: the graph does not lower, saying why', () => {
    const staged = stage(fns.printsInLoop, { engine: 'auto' });
    const info = staged.inspect(tf.ones([2]), tf.scalar(2, 'int32'));
    expect(info.engine.engine).to.equal('tfjs');
    expect(info.engine.reason).to.match(/Print \(node %\d+ While .*not inside a loop/);
    expect(() => stage(fns.printsInLoop, { engine: 'onnx' })(tf.ones([2]), tf.scalar(2, 'int32'))).to.throw(/cannot run printsInLoop.*Print/);
    staged.dispose();
  });

  it("'auto' splits heavy graphs only; the split run leaves no tensors behind", () => {
    const light = stage((x: tf.Tensor) => x.add(tf.randomUniform(x.shape)), { engine: 'auto' });
    expect(light.inspect(tf.ones([2])).engine.reason).to.match(/keeps the tfjs executor for a light graph with random draws/);
    const w = tf.randomNormal([128, 128]).div(12);
    const heavyFn = (x: tf.Tensor): tf.Tensor[] => {
      const h = tf.relu(x.matMul(w)).matMul(w);
      const noise = tf.randomNormal(h.shape);
      return [h.add(noise.mul(0.01)).sum(), x, x];
    };
    const heavy = stage(heavyFn, { engine: 'auto' });
    const x = tf.randomNormal([128, 128]);
    expect(heavy.inspect(x).engine.engine).to.equal('onnx');
    tf.dispose(heavy(x));
    const before = tf.memory().numTensors;
    const [sum, same, again] = heavy(x);
    expectSameTensor(same, x, 0, 'an argument returned');
    expectSameTensor(again, x, 0, 'an argument returned twice');
    expect(same).to.not.equal(again);
    expect(sum.shape).to.deep.equal([]);
    tf.dispose([sum, same, again]);
    expect(tf.memory().numTensors).to.equal(before);
    [light, heavy].forEach((s) => s.dispose());
    w.dispose();
  });
});
