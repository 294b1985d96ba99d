/**
 * Staged recursion (issue 17 item 7): a function that calls itself where a tensor decides when it
 * stops is staged as a function graph that calls itself (Call nodes, run by the tfjs executor with
 * a frame per call), never unrolled. Eager == staged in values and JS types, on the tfjs executor
 * and under 'auto' (which keeps such graphs on tfjs: ONNX has no recursion).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { agreeOnEngines } from '../harness/typed_results';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/recursive_programs.ts'), 'utf8');


describe('staged recursion: a function graph that calls itself (issue 17)', () => {
  let m: Record<string, any>;
  let js: string;
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    js = result.js['main.ts'];
    m = load(js);
  });

  const agree = (fn: (...a: any[]) => unknown, ...argLists: (() => unknown[])[]): unknown[] => agreeOnEngines(fn, fn.name, argLists);

  it('the transformer marks only calls that can lead back to their function', () => {
    expect(js).to.match(/ag__\.recursiveCall\(power, \[x, n\.sub\(1\)\], \{ origin: "main\.ts:11:\d+" \}\)/);
    expect(js).to.match(/ag__\.recursiveCall\(isOdd, /);
    expect(js).to.match(/ag__\.recursiveCall\(this\.walk, \[.*\], \{ origin: "main\.ts:\d+:\d+" \}, this\)/);
    expect(js).not.to.match(/recursiveCall\(collatzSteps, \[start/); // collatzTotal calls it; it does not call back
  });

  it("the issue's power: eager == staged for n = 0, 1, 5, 40, one graph for every n, a Call node instead of nested Ifs", () => {
    const x = () => tf.tensor1d([1, 1.01, 0.99]);
    agree(m.power, ...[0, 1, 5, 40].map((n) => () => [x(), tf.scalar(n, 'int32')]));
    const s = stage(m.power);
    tf.tidy(() => s(x(), tf.scalar(3, 'int32')));
    tf.tidy(() => s(x(), tf.scalar(300, 'int32')));
    const info = tf.tidy(() => s.inspect(x(), tf.scalar(3, 'int32')));
    expect(s.traceCount).to.equal(1);
    expect(info.stats.ifs).to.be.below(10);
    expect(info.dump()).to.match(/Call f0\(/);
  });

  it('runs deep: power at n = 1000 on the tfjs executor (one function graph, a frame per call; ~2,700-3,000 deep here)', () => {
    const s = stage(m.power, { engine: 'tfjs' });
    const out = s(tf.tensor1d([1, 1.0001]), tf.scalar(1000, 'int32')) as tf.Tensor;
    const [a, b] = Array.from(out.dataSync());
    expect(a).to.equal(1);
    expect(b).to.be.closeTo(Math.pow(1.0001, 1000), 1e-3);
    out.dispose();
  });

  it('tree recursion, a conditional expression, a binary search, mutual recursion', () => {
    agree(m.fib, ...[0, 1, 2, 10].map((n) => () => [tf.scalar(n)]));
    agree(m.gcd, () => [tf.scalar(48, 'int32'), tf.scalar(18, 'int32')], () => [tf.scalar(17, 'int32'), tf.scalar(5, 'int32')]);
    const sorted = () => tf.tensor1d([1, 3, 5, 7, 9, 11, 13], 'int32');
    const found = agree(m.binarySearch, ...[11, 1, 13, 4].map((t) => () => [sorted(), tf.scalar(t, 'int32'), tf.scalar(0, 'int32'), tf.scalar(6, 'int32')]));
    expect(found.map((r) => (r as { tensor: number }).tensor)).to.deep.equal([5, 0, 6, -1]);
    agree(m.isEven, ...[0, 7, 10].map((n) => () => [tf.scalar(n)]));
  });

  it('a method that calls itself through this, returning an object; a JS number returned comes back a number', () => {
    const walker = new m.Walker(tf.tensor2d([[0.5, -0.2], [0.1, 0.9]]));
    agree(walker.walk.bind(walker), ...[0, 6].map((k) => () => [tf.tensor2d([[1, 2]]), tf.scalar(k)]));
    const [h] = agree(m.halvings, () => [tf.scalar(100)]);
    expect(h).to.equal(6);
  });

  it('recursion called from a staged loop; a JS depth is inlined as eagerly', () => {
    agree(m.collatzTotal, () => [tf.scalar(5), tf.scalar(4)], () => [tf.scalar(27), tf.scalar(1)]);
    agree(m.zigzag, () => [tf.tensor1d([0.5, 1]), 4], () => [tf.tensor1d([-3, 1]), 3]);
  });

  it('gradients through a staged recursion: tf.grad of a staged call equals the eager gradient', () => {
    const s = stage(m.power);
    const n = tf.scalar(4, 'int32');
    const eager = tf.grad((x: tf.Tensor) => m.power(x, n).sum())(tf.tensor1d([1.5, 2]));
    const staged = tf.grad((x: tf.Tensor) => (s(x, n) as tf.Tensor).sum())(tf.tensor1d([1.5, 2]));
    expect(Array.from(staged.dataSync())).to.deep.equal(Array.from(eager.dataSync()));
  });

  it('leaks no tensors', () => {
    for (const engine of ['tfjs', 'auto'] as const) {
      const s = stage(m.fib, { engine });
      tf.dispose(tf.tidy(() => s(tf.scalar(6))));
      const before = tf.memory().numTensors;
      for (const n of [3, 8, 1]) tf.dispose(tf.tidy(() => s(tf.scalar(n))));
      expect(tf.memory().numTensors, engine).to.equal(before);
    }
  });

  it('refused, naming the function and line: shapes that change on every call, a field changed per call, no base case', () => {
    expect(() => stage(m.doubling)(tf.tensor1d([1]), tf.scalar(3))).to.throw(StagingError,
      /the recursive function 'doubling' \(main\.ts:\d+:\d+\) is called under a tensor condition with tensors whose shapes change on every call \(float32\[2\].*\)/);
    const counter = new m.Counter();
    expect(() => stage(counter.count.bind(counter))(tf.scalar(3))).to.throw(StagingError,
      /the recursive function 'count' \(main\.ts:\d+:\d+\) changes 'this\.calls'/);
    expect(() => stage(m.endless)(tf.scalar(3))).to.throw(StagingError,
      /the recursive function 'endless' \(main\.ts:\d+:\d+\) calls itself on every path/);
  });
});
