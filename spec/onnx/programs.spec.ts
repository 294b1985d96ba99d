/**
 * End to end on the ONNX engine: the samples' functions compiled by the transformer (collatz,
 * the tanh RNN and the greedy decoder with its early break), loops with early return, If without
 * a loop, variables; against eager runs. Also what happens when a graph does not lower.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import * as ag__ from '../../runtime/operators';
import { collatzSteps, firstAbove, signedSum } from '../backends/programs';
import * as fs from 'fs';
import * as path from 'path';
import { compile, load } from '../harness/compile';
import { describeOnnx, expectSameTensor, loadSample } from './support';

describeOnnx('onnx: staged programs on the ONNX engine', () => {
  it('collatz (sample): While -> Loop with the test before and after the body, If inside', () => {
    const { collatzSteps: sample } = loadSample('collatz/src/collatz.ts');
    const staged = stage(sample, { engine: 'onnx' });
    for (const n of [27, 97, 1, 2, 0]) {
      expect(staged(tf.scalar(n)).dataSync()[0], `collatz(${n})`).to.equal(sample(tf.scalar(n)).dataSync()[0]);
    }
    expect(staged.inspect(tf.scalar(1)).engine.engine).to.equal('onnx');
    expect(staged.traceCount).to.equal(1);
    staged.dispose();
  });

  it('the RNN sample: rnn and greedyDecode (early break on a tensor condition)', () => {
    const { rnn, greedyDecode, fixedWeights } = loadSample('rnn/src/rnn.ts');
    const w = fixedWeights(4, 8, 6);
    const inputs = tf.sin(tf.range(0, 5 * 2 * 4).mul(0.21)).reshape([5, 2, 4]);
    const h0 = tf.zeros([2, 8]);
    const stagedRnn = stage(rnn, { engine: 'onnx' });
    expectSameTensor(stagedRnn(inputs, h0, w), rnn(inputs, h0, w), 1e-5, 'rnn');
    const decode = stage(greedyDecode, { engine: 'onnx' });
    for (const eos of [5, 1, 3]) {
      const args = [tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), eos, w];
      const got = decode(...args);
      const want = greedyDecode(...args);
      expectSameTensor(got.length, want.length, 0, `length (eos ${eos})`);
      expectSameTensor(got.checksum, want.checksum, 0, `checksum (eos ${eos})`);
    }
    expect(decode.inspect(tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), 5, w).engine.engine).to.equal('onnx');
    [stagedRnn, decode].forEach((s) => s.dispose());
  });

  it('the control sample: early return, nested loops with break/continue, ?:, a staged power loop', () => {
    const { firstNegative, rowPrefixSums, sign, powerIfPositive, checkedSqrt } = loadSample('control/src/control.ts');
    const runs: [string, (...a: any[]) => tf.Tensor, unknown[][]][] = [
      ['firstNegative', firstNegative, [[tf.tensor1d([3, 1, -4, -1])], [tf.tensor1d([3, 1])]]],
      ['rowPrefixSums', rowPrefixSums, [[tf.tensor2d([[1, -2, 3, 0, 5], [4, 0, 6, 7, 8], [-1, 2, 2, 2, 0]])]]],
      ['sign', sign, [[tf.scalar(-2.5)], [tf.scalar(0)], [tf.scalar(7)]]],
      ['powerIfPositive', powerIfPositive, [[tf.scalar(2), 10], [tf.scalar(-2), 10]]],
    ];
    for (const [name, fn, argLists] of runs) {
      const staged = stage(fn, { engine: 'onnx' });
      for (const args of argLists) expectSameTensor(staged(...args), fn(...args), 0, name);
      staged.dispose();
    }
    // A throw under a tensor condition is a Check node in a top-level If: it runs on the JS side
    // between ONNX segments (spec/onnx/segments.spec.ts); 'auto' keeps so light a graph on tfjs.
    const checked = stage(checkedSqrt, { engine: 'onnx' });
    expectSameTensor(checked(tf.scalar(16)), tf.scalar(4));
    expect(() => checked(tf.scalar(-1))).to.throw(RangeError, 'checkedSqrt: negative input');
    checked.dispose();
    const auto = stage(checkedSqrt, { engine: 'auto' });
    expect(auto.inspect(tf.scalar(16)).engine.reason).to.match(/keeps the tfjs executor for a light graph with random draws, prints or checks/);
    auto.dispose();
  });

  it('an index out of range fails the run with tfjs\'s error, negative ones included (ONNX would count them from the end)', () => {
    const pick = stage((x: tf.Tensor, i: tf.Tensor) => tf.gather(x, i), { engine: 'onnx' });
    const pickNd = stage((x: tf.Tensor, i: tf.Tensor) => tf.gatherND(x, i), { engine: 'onnx' });
    const x = tf.tensor([10, 20, 30]);
    expect(Array.from(pick(x, tf.tensor1d([2, 0], 'int32')).dataSync())).to.deep.equal([30, 10]);
    expect(() => pick(x, tf.tensor1d([-1, 0], 'int32'))).to.throw(/GatherV2: the index value -1 is not in \[0, 2\]/);
    expect(() => pick(x, tf.tensor1d([3, 0], 'int32'))).to.throw(/GatherV2: the index value 3 is not in \[0, 2\]/);
    expect(Array.from(pickNd(x, tf.tensor2d([[1]], [1, 1], 'int32')).dataSync())).to.deep.equal([20]);
    // tfjs-wasm's gatherND does not check (tfjs-cpu throws): what ORT refuses, the executor runs as eager does.
    const negative = tf.tensor2d([[-1]], [1, 1], 'int32');
    let eager: number[] | Error;
    try {
      eager = Array.from(tf.gatherND(x, negative).dataSync());
    } catch (error) {
      eager = error as Error;
    }
    if (eager instanceof Error) expect(() => pickNd(x, negative)).to.throw(eager.message);
    else expect(Array.from(pickNd(x, negative).dataSync())).to.deep.equal(eager);
    [pick, pickNd].forEach((s) => s.dispose());
  });

  it('a kernel without a lowering is named in the reason', () => {
    const angle = stage((y: tf.Tensor, x: tf.Tensor) => tf.atan2(y, x).mul(2), { engine: 'auto' });
    const info = angle.inspect(tf.ones([2]), tf.ones([2]));
    expect(info.engine.unsupported).to.deep.equal([{ op: 'Atan2', reason: "no ONNX lowering for tfjs kernel 'Atan2' yet", where: 'node %2' }]);
    expectSameTensor(angle(tf.ones([2]), tf.ones([2])), tf.atan2(tf.ones([2]), tf.ones([2])).mul(2));
    angle.dispose();
  });

  it('a loop with an early return (flags as loop state), and an If without a loop', () => {
    const first = stage(firstAbove, { engine: 'onnx' });
    for (const limit of [2, 10, -5]) {
      const xs = tf.tensor1d([1, 3, 5, 2]);
      expectSameTensor(first(xs, tf.scalar(limit))!, firstAbove(xs, tf.scalar(limit))!, 0, `firstAbove(${limit})`);
    }
    const signed = stage(signedSum, { engine: 'onnx' });
    for (const values of [[1, 2], [-3, 1]]) expectSameTensor(signed(tf.tensor(values)), signedSum(tf.tensor(values)), 0);
    expect(collatzSteps).to.be.a('function');
    [first, signed].forEach((s) => s.dispose());
  });

  it('variables: read as inputs, assigned back after the run', () => {
    const v = tf.variable(tf.tensor([1, 2]), true, 'onnx_spec_v');
    const step = stage((x: tf.Tensor) => {
      v.assign(v.add(x));
      return v.mul(2);
    }, { engine: 'onnx' });
    expect(Array.from(step(tf.tensor([10, 20])).dataSync())).to.deep.equal([22, 44]);
    expect(Array.from(step(tf.tensor([1, 1])).dataSync())).to.deep.equal([24, 46]);
    expect(Array.from(v.dataSync())).to.deep.equal([12, 23]);
    step.dispose();
    v.dispose();
  });

  it('the training sample: tf.layers + SGD in a staged while (variables as loop-carried values)', () => {
    const { fitUntil, linearModel } = loadSample('training/src/training.ts');
    const xs = tf.tensor2d([-1, 0, 1, 2, 3], [5, 1]);
    const ys = xs.mul(2).sub(1);
    const eagerModel = linearModel();
    const want = fitUntil(eagerModel, xs, ys, 1e-4, 500);
    const model = linearModel();
    const staged = stage(fitUntil, { engine: 'onnx' });
    const got = staged(model, xs, ys, 1e-4, 500);
    expectSameTensor(got.steps, want.steps, 0, 'steps');
    expectSameTensor(got.loss, want.loss, 1e-5, 'loss');
    model.getWeights().forEach((w: tf.Tensor, i: number) => expectSameTensor(w, eagerModel.getWeights()[i], 1e-5, `weight ${i}`));
    expect(staged.inspect(model, xs, ys, 1e-4, 500).engine.engine).to.equal('onnx');
    staged.dispose();
  });

  it('a variable assigned in one branch of an If only keeps its value on the other path', () => {
    const v = tf.variable(tf.scalar(5), true, 'onnx_spec_branch');
    const bump = stage((x: tf.Tensor) => {
      ag__.ifStmt(x.greater(0), () => { v.assign(v.add(x)); }, () => {}, () => [], () => {}, [], 0);
      return v.mul(1);
    }, { engine: 'onnx' });
    expect(bump(tf.scalar(3)).dataSync()[0]).to.equal(8);
    expect(bump(tf.scalar(-3)).dataSync()[0]).to.equal(8);
    expect(v.dataSync()[0]).to.equal(8);
    bump.dispose();
    v.dispose();
  });

  it("engine 'onnx' on a graph that does not lower names the nodes and why; 'auto' falls back", () => {
    // A random draw in a loop body (at the top level it would run between ONNX segments).
    const noisy = (x: tf.Tensor, n: tf.Scalar): tf.Tensor => {
      let y = x;
      let i = tf.scalar(0, 'int32');
      ag__.whileStmt(() => i.less(n), () => { y = y.add(tf.randomUniform(x.shape)); i = i.add(tf.scalar(1, 'int32')); },
        () => [y, i], (s) => { [y, i] = s as [tf.Tensor, tf.Scalar]; }, ['y', 'i'], {});
      return y;
    };
    const args = [tf.ones([2]), tf.scalar(3, 'int32')] as const;
    expect(() => stage(noisy, { engine: 'onnx' })(...args)).to.throw(/engine 'onnx' cannot run noisy.*Random.*random draws stay on the tfjs side.*not inside a loop/);
    const auto = stage(noisy, { engine: 'auto' });
    const info = auto.inspect(...args);
    expect(info.engine.engine).to.equal('tfjs');
    expect(info.engine.unsupported?.map((p) => p.op)).to.deep.equal(['Random']);
    expect(auto(...args).shape).to.deep.equal([2]);
    auto.dispose();
  });

  it("engine 'auto' runs graphs that lower in ONNX Runtime on wasm and cpu, but not scalar branching loops, and keeps tfjs elsewhere", async () => {
    // A loop branching on scalars (an ORT If per iteration is no faster than the executor) stays on tfjs.
    const collatz = stage(collatzSteps, { engine: 'auto' });
    expect(collatz.inspect(tf.scalar(27)).engine.reason).to.match(/keeps the tfjs executor for a loop that branches on small values/);
    collatz.dispose();
    // (Elementwise ops, which ONNX Runtime computes to the last bit as tfjs does: 'auto' keeps ORT only then.)
    const heavy = stage((a: tf.Tensor, b: tf.Tensor) => a.mul(b).add(a).relu(), { engine: 'auto' });
    const a = tf.randomNormal([16, 16]);
    expect(heavy.inspect(a, a).engine.engine).to.equal('onnx');
    expectSameTensor(heavy(a, a), a.mul(a).add(a).relu(), 0);
    const previous = tf.getBackend();
    await tf.setBackend('cpu');
    try {
      const b = tf.randomNormal([16, 16]);
      expect(heavy.inspect(b, b).engine.engine).to.equal('onnx');
      tf.registerBackend('onnx-spec-other', () => new (tf.findBackend('cpu')!.constructor as new () => tf.KernelBackend)());
      tf.copyRegisteredKernels('cpu', 'onnx-spec-other');
      await tf.setBackend('onnx-spec-other');
      const c = tf.randomNormal([16, 16]);
      expect(heavy.inspect(c, c).engine).to.deep.include({ engine: 'tfjs' });
      expect(heavy.inspect(c, c).engine.reason).to.match(/keeps the tfjs executor on backend 'onnx-spec-other'/);
    } finally {
      await tf.setBackend(previous);
      if (tf.findBackend('onnx-spec-other') !== null) tf.removeBackend('onnx-spec-other');
      heavy.dispose();
    }
  });

  it('leaves no tensors behind', () => {
    const staged = stage(collatzSteps, { engine: 'onnx' });
    tf.tidy(() => staged(tf.scalar(7)));
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) tf.tidy(() => { staged(tf.scalar(27)); });
    expect(tf.memory().numTensors).to.equal(before);
    staged.dispose();
  });

  it('an If on a constant condition is its taken branch, lowered in place (ORT crashed folding nested ones)', () => {
    const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/nested_constant_ifs.ts'), 'utf8');
    const m = load(compile({ 'main.ts': source }).js['main.ts']);
    const staged = stage(m.run, { engine: 'onnx' });
    for (const [a, b] of [[1, 4], [-1, 2], [0, 0], [3, -2], [2, 2]]) {
      expect(staged.inspect(tf.scalar(a), tf.scalar(b)).engine.engine).to.equal('onnx');
      expectSameTensor(staged(tf.scalar(a), tf.scalar(b)) as tf.Tensor, m.run(tf.scalar(a), tf.scalar(b)), 0, `run(${a}, ${b})`);
    }
    staged.dispose();
  });
});
