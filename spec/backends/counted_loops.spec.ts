/**
 * Counted loops (transformer/analysis/counted_loops.ts, backends/staging/counted_loops.ts): a `for (let i
 * ...)` with a JS test and a `break`/`return` under a tensor condition first stages as a while; when its
 * counter must stay a JS number (an index into JS arrays of records or objects, a method's receiver), the
 * loop runs on in JS, each iteration under a staged "no jump yet" test, as Python AutoGraph runs a loop over
 * a Python range. Before, `heads[i]` there was refused: "'i' is an int32 tensor here".
 */
import { useFixture } from '../harness/fixtures';
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage, StagingError } from '../../index';

describe('counted loops: JS counters with a break or return staged on a tensor', () => {
  const fixture = useFixture('counted_loop_programs.ts');
  const { agree } = fixture;
  const heads = () => [{ w: tf.scalar(2), bias: 1 }, { w: tf.scalar(3), bias: 0.5 }, { w: tf.scalar(4), bias: 2 }];

  it('the index of the first tensor above t, also in a one-element list (no gather past its end while tracing)', () => {
    const xs = (...v: number[]) => () => [v.map((x) => tf.scalar(x)), 4];
    expect(agree('firstAbove', xs(1, 5, 9), xs(1), xs(1, 2), xs(7))).to.deep.equal([1, -1, -1, 0]);
  });

  it('an early exit over records returns the exit layer and the record\'s number as JS numbers', () => {
    const a = (t: number) => () => [heads(), tf.tensor1d([1, 2]), t];
    const results = agree('earlyExit', a(5), a(40), a(1000), a(0)) as { exitLayer: number; bias: number }[];
    expect(results.map((r) => [r.exitLayer, r.bias])).to.deep.equal([[1, 0.5], [2, 2], [-1, 0], [0, 1]]);
  });

  it('a break after a method of the object the counter picks; the JS count of layers that ran', () => {
    const layers = () => [new fixture.m.Scale(2), new fixture.m.Shift(3), new fixture.m.Scale(-1), new fixture.m.Shift(10)];
    const a = (limit: number) => () => [layers(), tf.tensor1d([1, 1]), limit];
    expect((agree('runUntilLarge', a(3), a(9), a(100)) as { ran: number }[]).map((r) => r.ran)).to.deep.equal([1, 2, 4]);
  });

  it('continue and break in one body, two counters in the head', () => {
    const rows = [[1, 0], [-3, 0], [2, 2], [4, 1]];
    agree('skipAndStop', () => [rows, tf.tensor1d([1, 1])], () => [rows, tf.tensor1d([1, -1])], () => [rows, tf.tensor1d([0.1, 0.1])]);
  });

  it('a callee with a counted loop returning booleans, counted by a tensor if in a counted loop', () => {
    const stages = [{ threshold: 1, weight: 1 }, { threshold: 4, weight: 2 }];
    const windows = () => [tf.tensor1d([1, 1]), tf.tensor1d([0, 0.5]), tf.tensor1d([3, 0]), tf.tensor1d([1, 0.5])];
    expect(agree('countPassing', () => [stages, windows()])).to.deep.equal([2]);
  });

  it('a closure in the body captures the counter; strings pushed past the break', () => {
    const a = (t: number) => () => [['a', 'b', 'c'], tf.tensor1d([1, 2, 3]), t];
    expect(() => agree('labelsUntil', a(2))).to.throw(StagingError, /'picked'/);
  });

  it('a counter the body writes too is not a counted loop (a staged while: its records read at a tensor index)', () => {
    const body = fixture.js.slice(fixture.js.indexOf('function skipsAhead'));
    expect(body.slice(0, body.indexOf('\n}'))).to.not.include('counted:');
    expect(fixture.js).to.include('counted: { counters: ["i"]');
    agree('skipsAhead', () => [heads(), tf.tensor1d([1, 2])], () => [heads(), tf.tensor1d([10, 20])]);
  });

  it('a field array grown through a method in a counted loop whose while trace fails, inside a tensor if', () => {
    const layers = () => [new fixture.m.Scale(-1), new fixture.m.Shift(3), new fixture.m.Scale(-2), new fixture.m.Shift(20)];
    const runs = agree('noteWhileScaling', () => [layers(), tf.tensor1d([1, 1]), tf.scalar(1)], () => [layers(), tf.tensor1d([1, 1]), tf.scalar(-1)],
      () => [layers(), tf.tensor1d([-5, 1]), tf.scalar(1)]) as { seen: number[] }[];
    expect(runs.map((r) => r.seen)).to.deep.equal([[0, 2], [], [2]]);
  });

  it('leaks no tensors', () => {
    const s = stage(fixture.m.earlyExit);
    const args = () => [heads(), tf.tensor1d([1, 2]), 40];
    tf.dispose(s(...args()));
    const before = tf.memory().numTensors;
    const made = args();
    tf.dispose(s(...made));
    tf.dispose((made[0] as { w: tf.Tensor }[]).map((h) => h.w));
    tf.dispose(made[1] as tf.Tensor);
    expect(tf.memory().numTensors).to.equal(before);
  });
});
