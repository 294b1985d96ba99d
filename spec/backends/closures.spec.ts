/**
 * Closures of converted functions (issue 17): a callback reads a value a staged statement promoted
 * (its expressions go through the operators as the enclosing function's do), and a local function
 * that a staged statement calls assigns the enclosing function's variables (they are that
 * statement's outputs). A promoted value passed to the project's functions is a promoted parameter
 * there. Eager == staged, value and JS type, on the tfjs executor and 'auto'.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { useFixture } from '../harness/fixtures';


describe('closures of converted functions: promoted values read and written by local functions (issue 17)', () => {
  const fixture = useFixture('closure_programs.ts');
  const { agree, lineOf } = fixture;

  it('a map callback divides by counts kept under a tensor if (Math.max of a promoted element)', () => {
    const x = () => tf.tensor2d([[1, 2], [3, 4], [5, 6]]);
    const [means] = agree('centroidMeans', () => [x(), tf.tensor1d([0, 1, 0], 'int32'), 2], () => [x(), tf.tensor1d([0, 0, 0], 'int32'), 2]);
    expect(means).to.deep.equal([{ tensor: [3, 4], dtype: 'float32' }, { tensor: [3, 4], dtype: 'float32' }]);
  });

  it('a callback multiplies by a counter a staged loop carried', () => {
    const [scaled] = agree('scaleAll', () => [[tf.scalar(1), tf.tensor1d([2, 3])], tf.scalar(2)]);
    expect(scaled).to.deep.equal([{ tensor: 4, dtype: 'float32' }, { tensor: [8, 12], dtype: 'float32' }]);
  });

  it('a local function that counts, called under a tensor if in a staged loop (was the trace\'s one count)', () => {
    expect(agree('countAbove', () => [tf.tensor1d([1, 5, 7]), 2], () => [tf.tensor1d([1, 0, 7]), 2])).to.deep.equal([2, 1]);
  });

  it('a local function changing an array in place (counts[c]++) under a tensor if: the array is the if\'s state (was [4, 4] for [1, 3]: silently wrong)', () => {
    expect(agree('tally', () => [tf.tensor1d([1, 0, 1, 1])], () => [tf.tensor1d([0, 0, 0, 0])]))
      .to.deep.equal([{ counts: [1, 3], evenLast: false, largest: 3 }, { counts: [4, 0], evenLast: true, largest: 4 }]);
  });

  it('a forEach callback counting under its own tensor if; map and reduce callbacks over promoted counts', () => {
    expect(agree('countPositive', () => [tf.tensor1d([1, -1, 2])], () => [tf.tensor1d([-1, -1, -2])])).to.deep.equal([2, 0]);
    expect(agree('doubledCounts', () => [tf.tensor1d([1, 0, 1, 1])])).to.deep.equal([{ doubled: [2, 6], sum: 4 }]);
  });

  it('local function declarations calling each other, each assigning the enclosing counters', () => {
    expect(agree('longestRun', () => [tf.tensor1d([1, 1, -1, 1, 1, 1, -2, 1])], () => [tf.tensor1d([-1, 1, 1, 1, 1, 1, 1, 1])]))
      .to.deep.equal([{ longest: 3, run: 1 }, { longest: 7, run: 7 }]);
  });

  it('a counter a staged loop carries, passed to the project\'s functions and overrides (promoted parameters)', () => {
    expect(agree('trainUntilNaN', () => [tf.tensor1d([1, 2, 3, NaN, 5])], () => [tf.tensor1d([1, 2, 3, 4, 5])])).to.deep.equal([
      { batches: 4, stopped: true, last: 20, sawLast: false }, { batches: 5, stopped: false, last: 40, sawLast: true }]);
  });

  it('a promoted value a callback hands back to JS (an index) is refused at its read, naming it', () => {
    expect(fixture.m.indexByCallback(tf.tensor1d([1, 5, 2]), ['a', 'b', 'c'])).to.equal('b');
    expect(() => stage(fixture.m.indexByCallback)(tf.tensor1d([1, 5, 2]), ['a', 'b', 'c'])).to.throw(StagingError,
      new RegExp(`'best' is an int32 tensor here \\(main\\.ts:${lineOf('names[best]')}:\\d+\\)`));
  });
});
