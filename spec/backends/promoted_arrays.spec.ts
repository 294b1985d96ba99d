/**
 * Arrays of JS numbers that receive values a staged statement promoted (issue 17): `classes[i] =
 * index`, `out.push(a)`, a for...of copy, `Math.max(...counts)` stage, the array's elements carried
 * as promoted values and read back as JS numbers; a read of the whole array where JS would see its
 * elements (`counts.indexOf(2)`) is refused naming it; a method reading a number field is seen to
 * return a promoted value. Eager == staged, value and JS type, on the tfjs executor and 'auto'.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { useFixture } from '../harness/fixtures';


describe('arrays of JS numbers holding promoted values (issue 17)', () => {
  const fixture = useFixture('promoted_array_programs.ts');
  const { agree, lineOf } = fixture;
  const labels = () => tf.tensor1d([1, 1, 0, 2, 1]);

  it('an index picked under a tensor if, stored at a JS index (coco-ssd calculateMaxScores)', () => {
    expect(agree('rowArgmax', () => [tf.tensor2d([[1, 3, 2], [5, 1, 0]])], () => [tf.tensor2d([[0, 0, 1], [0, 2, 0]])]))
      .to.deep.equal([[1, 0], [2, 1]]);
  });

  it('a number a tensor if set, pushed and computed on after it', () => {
    expect(agree('pushAfterIf', () => [tf.scalar(3)], () => [tf.scalar(-3)])).to.deep.equal([[1, 2], [0, 1]]);
  });

  it('Math.max over the spread counts; a for...of copy of them', () => {
    expect(agree('largestCount', () => [labels()])).to.deep.equal([3]);
    expect(agree('copyCounts', () => [labels()])).to.deep.equal([[0, 6]]);
    expect(agree('maxAssigned', () => [labels()])).to.deep.equal([4]);
  });

  it('a JS array of numbers indexed by a promoted counter (piecewise constant decay): a gather of its values', () => {
    const bounds = [10, 20, 30];
    const values = [0.5, 0.25, 0.125, 0.0625];
    expect(agree('piecewise', () => [tf.scalar(15), bounds, values], () => [tf.scalar(5), bounds, values], () => [tf.scalar(99), bounds, values]))
      .to.deep.equal([0.25, 0.5, 0.0625]);
    expect(fixture.m.pastTheEnd(tf.scalar(5), [1, 2])).to.equal(undefined);
    expect(() => stage(fixture.m.pastTheEnd)(tf.scalar(5), [1, 2])).to.throw(/'values\[i\]' reads past the end of a JS array of 2 \(main\.ts:\d+:\d+\)/);
    expect(agree('pastTheEnd', () => [tf.scalar(1), [1, 2]])).to.deep.equal([2]);
  });

  it('a list of numbers a staged loop grew, given to a tfjs op (xs.gather(chosen)): stacked (k-means++ seeding was refused)', () => {
    agree('firstBig', () => [tf.tensor1d([0.5, 3, 2])], () => [tf.tensor1d([0.5, 0, 0])]);
  });

  it('indexOf of the counts is refused naming the array and its line (was -1 for 1: silently wrong)', () => {
    expect(fixture.m.indexOfCount(tf.tensor1d([1, 1, 0]))).to.equal(1);
    expect(() => stage(fixture.m.indexOfCount)(tf.tensor1d([1, 1, 0]))).to.throw(StagingError,
      new RegExp(`'counts' is read as a JS array \\(main\\.ts:${lineOf('counts.indexOf(2)')}:\\d+\\), but its element 1 is an int32 tensor`));
  });

  it("a method reading a number field returns a promoted boolean: its caller's if is staged (was the trace's branch)", () => {
    expect(agree('cooldownSchedule', () => [tf.tensor1d([5, 6, 7, 8, 4, 5, 6])])).to.deep.equal([[1, 0.5, 0.5, 0.25, 0.25, 0.125, 0.125]]);
  });

  it('an array literal of promoted values in a variable, given to tfjs, to a function that gives it to tfjs, and returned (was refused)', () => {
    const [pos, neg] = agree('literalInputs', () => [tf.scalar(1)], () => [tf.scalar(-1)]);
    expect((pos as { inputs: number[] }).inputs).to.deep.equal([1, 1, 5]);
    expect((neg as { scored: { tensor: number } }).scored.tensor).to.equal(310);
  });
});
