/**
 * Real code as it is written (issue 17): the ports of spec/fixtures/real_code_programs.ts run
 * eagerly, staged on the tfjs executor and staged on the default engine ('auto': ONNX Runtime where
 * it lowers), and give the same values with the same JS types (a Tensor is never a number); each
 * port also equals its dataSync() original. What cannot be staged is refused naming the user's
 * variable and line.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { agreeOnEngines, typed } from '../harness/typed_results';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/real_code_programs.ts'), 'utf8');


describe('real code as it is written: eager == staged, values and JS types, on both engines (issue 17)', () => {
  let m: Record<string, any>;
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });

  /** Each argument list (made fresh per run) eagerly, then staged on each engine; returns the eager values. */
  const agree = (name: string, ...argLists: (() => unknown[])[]): unknown[] => agreeOnEngines(m[name], name, argLists);

  it('non-max suppression with an addBox flag and a break: the boxes kept, as the dataSync original counts them', () => {
    const boxes = () => tf.tensor2d([[0, 0, 2, 2], [0.1, 0.1, 2, 2], [3, 3, 4, 4], [0, 0, 1, 1], [3.1, 3, 4, 4]]);
    const scores = () => tf.tensor1d([0.9, 0.8, 0.7, 0.2, 0.6]);
    const [kept, loose] = agree('nmsKept', () => [boxes(), scores(), 0.5, 0.5], () => [boxes(), scores(), 0.1, 0.95]);
    const count = (k: unknown) => ((k as { tensor: number[] }).tensor).filter((v) => v > 0).length;
    expect(count(kept)).to.equal(m.nmsOriginal(boxes(), scores(), 0.5, 0.5));
    expect(count(loose)).to.equal(m.nmsOriginal(boxes(), scores(), 0.1, 0.95));
    expect(count(kept)).to.equal(2);
  });

  it('NMS keeping a list of selected boxes that each box is compared with (read before its first push)', () => {
    const boxes = () => tf.tensor2d([[0, 0, 2, 2], [0.1, 0.1, 2, 2], [3, 3, 4, 4], [0, 0, 1, 1], [3.1, 3, 4, 4]]);
    const scores = () => tf.tensor1d([0.9, 0.8, 0.7, 0.2, 0.6]);
    const [kept] = agree('nmsSelected', () => [boxes(), scores(), 0.5]) as { tensor: number[][] }[];
    expect(kept.tensor).to.deep.equal([[0, 0, 2, 2], [3, 3, 4, 4]]);
    const counts = agree('nmsSelectedWhile', ...[5, 2, 1].map((n) => () => [boxes(), tf.scalar(n, 'int32'), 0.5]));
    expect(counts.map((c) => (c as { tensor: number[][] }).tensor.length)).to.deep.equal([3, 1, 1]);
  });

  it('an early-stopping callback keeping wait / best / stopTraining on this, in a loop with a break', () => {
    const runs = [[3, 2, 2.5, 2.6, 2.7], [5, 4, 3, 2, 1], [1, 1, 1]];
    for (const losses of runs) {
      const [result] = agree('epochsRun', () => [tf.tensor1d(losses), 2]);
      expect(result).to.deep.equal(m.epochsRunOriginal(tf.tensor1d(losses), 2));
    }
  });

  it('a sampler object whose method advances this.pos and counts under a tensor condition', () => {
    const [a, b] = agree('sample', () => [tf.tensor1d([1, -1, 2])], () => [tf.tensor1d([-1, -2, -3, 4])]);
    expect([a, b]).to.deep.equal([m.sampleOriginal(tf.tensor1d([1, -1, 2])), m.sampleOriginal(tf.tensor1d([-1, -2, -3, 4]))]);
  });

  it('a field a plain JS helper changes under a tensor if takes the path the run takes (staged gave 1 for 0)', () => {
    expect(agree('countPositive', () => [tf.tensor([1, 2])], () => [tf.tensor([-1, -2])])).to.deep.equal([1, 0]);
  });

  it('the issue\'s snippets: running argmax, {x, steps}, tf.scalar/tensor1d/fill of a counter, binary search', () => {
    const scores = [1, 5, 3, 7, 2];
    expect(agree('runningArgmax', () => [tf.tensor1d(scores), 5], () => [tf.tensor1d([9, 1, 1]), 3]))
      .to.deep.equal([m.runningArgmaxOriginal(tf.tensor1d(scores), 5), 0]);
    const [halved] = agree('halveUntil', () => [tf.tensor([100, 3]), 1]) as { steps: unknown }[];
    expect(halved.steps).to.equal(7);
    agree('counterAsTensorValues', () => [tf.tensor([100, 3])], () => [tf.tensor([0.5])]);
    const sorted = () => tf.tensor1d([1, 3, 5, 7, 9, 11]);
    expect(agree('binarySearch', () => [sorted(), tf.scalar(7)], () => [sorted(), tf.scalar(4)], () => [sorted(), tf.scalar(1)]))
      .to.deep.equal([3, -1, 0]);
  });

  it('numbers and booleans kept in a plain object and a counter, under tensor conditions in a loop', () => {
    expect(agree('bookkeeping', () => [tf.tensor1d([1, 3, 0.5, 4])], () => [tf.tensor1d([-1, -2])])).to.deep.equal([
      { state: { best: 3, seen: true }, above: 2 }, { state: { best: 0, seen: false }, above: 0 }]);
  });

  it('counts kept in a JS array (counts[0]++, counts[1] += 1) under tensor conditions and in a staged loop', () => {
    expect(agree('tally', () => [tf.tensor1d([1, -1, 2, 3])], () => [tf.tensor1d([-1, -2])])).to.deep.equal([[3, 1], [0, 2]]);
    expect(agree('tallyWhile', () => [tf.scalar(3)], () => [tf.scalar(0)])).to.deep.equal([[6, 2], [0, 5]]);
  });

  it('a switch on a JS string inside a tensor if, a ?: of JS numbers', () => {
    agree('switchInTensorIf', () => [tf.tensor([1, 2]), 'double'], () => [tf.tensor([-1, -2]), 'half'], () => [tf.tensor([1]), 'x']);
    expect(agree('ternaryNumber', () => [tf.tensor([1])], () => [tf.tensor([-1])])).to.deep.equal([6, 8]);
  });

  it('a JS number returned on one path and a tensor on another is refused in both orders, naming the line', () => {
    for (const name of ['zeroFirst', 'zeroLast']) {
      expect(() => stage(m[name])(tf.tensor([1, 2])), name).to.throw(StagingError,
        // (zeroFirst's `return x.sum()` runs under the guard of the lowered return: the message names that return's condition.)
        /the function returns .* ((under a condition on a tensor|(if|else) branch .* conditional on a tensor) \(main\.ts:\d+:\d+\)|\(the `return` under the tensor condition at main\.ts:\d+:\d+\))/);
    }
  });

  it('recursion under a tensor condition is staged as recursion (a Call node), not unrolled', () => {
    agree('power', () => [tf.scalar(2), tf.scalar(5)], () => [tf.scalar(2), tf.scalar(0)]);
  });

  /** A result's numbers, tensors read: to compare a port with its dataSync() original. */
  const plain = (x: unknown): unknown => {
    if (x instanceof tf.Tensor) return x.arraySync();
    if (x !== null && typeof x === 'object' && 'tensor' in x && 'dtype' in x) return x.tensor; // typed()'s
    if (Array.isArray(x)) return x.map(plain);
    if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
    return x;
  };
  const rounded = (x: unknown): string => JSON.stringify(plain(x), (_k, v: unknown) => (typeof v === 'number' ? +v.toFixed(4) : v));
  const close = (a: unknown, b: unknown): void => {
    expect(rounded(a)).to.equal(rounded(b));
  };

  it('score bookkeeping: best = { score, index: i } under a tensor if in a loop (the index comes back a JS number)', () => {
    const scores = [[0.1, 0.7, 0.3, 0.9, 0.2], [0.5, 0.1, 0.2, 0.3, 0.4]];
    const results = agree('bestOf', ...scores.map((s) => () => [tf.tensor1d(s), 5]));
    scores.forEach((s, k) => close(results[k], m.bestOfOriginal(tf.tensor1d(s), 5)));
  });

  it('a game loop: a bouncing ball counting bounces with ++ and += under tensor if / else if', () => {
    const [result] = agree('bounce', () => [tf.tensor1d([1, 5]), tf.tensor1d([3, -2]), 12]);
    close(result, m.bounceOriginal(tf.tensor1d([1, 5]), tf.tensor1d([3, -2]), 12));
  });

  it('k-means: centroids on this recomputed by a called method, this.iterations++, break at a tolerance', () => {
    const x = () => tf.tensor2d([[0, 0], [0, 1], [5, 5], [6, 5], [9, 9]]);
    const c = () => tf.tensor2d([[0, 0], [9, 9]]);
    const [result] = agree('kmeans', () => [x(), c()]);
    close(result, m.kmeansOriginal(x(), c()));
    expect((result as unknown[])[1]).to.equal(2);
    // A model kept outside the staged function: its fields are the graph's state, left as the eager fit leaves them.
    const kept = m.kmeansKeptModel(x(), c());
    expect(kept.iterations).to.equal(2);
    close(plain(kept.centroids), plain(m.kmeansOriginal(x(), c())[0]));
  });

  it('training bookkeeping: a history of tensors pushed every epoch, patience counter, the epoch it stopped at', () => {
    const runs = [[5, 4, 4.5, 4.2, 4.1, 3], [5, 4, 3, 2]];
    const results = agree('trainLoop', ...runs.map((l) => () => [tf.tensor1d(l), 2]));
    runs.forEach((l, k) => close(results[k], m.trainLoopOriginal(tf.tensor1d(l), 2)));
  });

  it('a table sampler whose next() wraps this.pos with % (an int32 index) drawn until a sum is reached', () => {
    const runs: [number[], number][] = [[[1, 2, 3], 10], [[5], 3], [[0.5, 0.25], 4]];
    const results = agree('drawUntil', ...runs.map(([t, n]) => () => [tf.tensor1d(t), n]));
    runs.forEach(([t, n], k) => close(results[k], m.drawUntilOriginal(tf.tensor1d(t), n)));
  });

  it('per-class counts in new Array(k).fill(0), counts[c]++ under a tensor if', () => {
    const labels = () => tf.tensor1d([0, 2, 1, 2, 2], 'int32');
    const [counts] = agree('classCounts', () => [labels(), 3]);
    expect(counts).to.deep.equal(m.classCountsOriginal(labels(), 3));
  });

  it('Viterbi: backpointers pushed per step, then read back from the end with unshift (a JS array of tensors)', () => {
    const emissions = () => tf.tensor2d([[1, 0, 0], [0, 2, 0], [0, 0, 3], [1, 1, 0]]);
    const transitions = () => tf.tensor2d([[0, -1, -2], [-1, 0, -1], [-2, -1, 0]]);
    const [path] = agree('viterbi', () => [emissions(), transitions()]);
    expect(plain(path)).to.deep.equal(m.viterbiOriginal(emissions(), transitions()));
  });

  it('numerics: a line search halving a JS step, an escape-time count with && of a JS bound, bisection', () => {
    const [step] = agree('lineSearch', () => [tf.tensor1d([1, 2]), tf.tensor1d([-4, -8])]);
    expect(step).to.equal(m.lineSearchOriginal(tf.tensor1d([1, 2]), tf.tensor1d([-4, -8])));
    expect(agree('escapeTime', () => [tf.scalar(0.3), tf.scalar(0.5), 50], () => [tf.scalar(1), tf.scalar(1), 50])).to.deep.equal([50, 2]);
    const [root] = agree('bisect', () => [tf.scalar(2), 1e-3]) as { root: { tensor: number }; iters: number }[];
    expect(root.iters).to.equal(14);
    expect(Math.abs(root.root.tensor - Math.SQRT2)).to.be.lessThan(1e-3);
  });

  it('layers until the activation is small (for...of a JS array, break), inverse-CDF sampling, a NaN-skipping mean', () => {
    expect(agree('earlyExit', () => [tf.tensor2d([[1, 2]]), 0.5], () => [tf.tensor2d([[1, 2]]), 0.001])
      .map((r) => (r as { used: number }).used)).to.deep.equal([2, 3]);
    expect(agree('sampleIndex', ...[0.1, 0.4, 0.9, 1.5].map((r) => () => [tf.tensor1d([0.2, 0.3, 0.5]), r]))).to.deep.equal([0, 1, 2, 2]);
    const [mean] = agree('nanMean', () => [tf.tensor2d([[1, 2], [NaN, 0], [3, 4]])]);
    expect(plain(mean)).to.deep.equal({ mean: [2, 3], count: 2 });
  });

  it('map and reduce of the tokens a staged loop decoded (a list): new lists, an accumulator, the index as a counter', () => {
    const logits = () => tf.tensor2d([[0, 1, 0], [0, 0, 2], [3, 0, 0], [0, 1, 0]]);
    const [result] = agree('decodeScores', () => [logits(), 4]);
    expect(plain(result)).to.deep.equal({ scaled: [0.5, 1, 0], total: 3, weighted: [0, 1, 0] });
    const [none] = agree('decodeScores', () => [logits(), 0]);
    expect(plain(none)).to.deep.equal({ scaled: [], total: 0, weighted: [] });
  });

  it('stage() refuses a generator function at once', () => {
    expect(() => stage(m.generator)).to.throw(StagingError, /cannot trace generator: it is a generator function/);
  });

  it('staged calls of these programs leave no tensors behind', () => {
    const staged = stage(m.epochsRun);
    staged(tf.tensor1d([3, 2, 2.5, 2.6]), 2);  // traced here: the graph's constants belong to the cache
    const before = tf.memory().numTensors;
    const losses = tf.tensor1d([3, 2, 2.5, 2.6]);
    const result = staged(losses, 2);
    losses.dispose();
    expect(result.epochs).to.equal(4);
    expect(tf.memory().numTensors).to.equal(before);
  });
});
