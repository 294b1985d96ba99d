/**
 * An array's state is its elements' leaves, written back in place: a branch that moves an object to
 * another slot (swapping records) would leave a variable holding it seeing the other element's values
 * — silently wrong (lists6 found it under TopK: eager [0, 0], staged [1, 1]). Refused, naming the element;
 * swapping tensors (values) stages.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { useFixture } from '../harness/fixtures';

describe('objects moved between array slots under a tensor condition', () => {
  const fixture = useFixture('object_move_programs.ts');

  it('swapped records are refused naming the element (were silently merged into the old objects)', () => {
    expect(fixture.m.swapRecords(tf.tensor1d([1, 2]))).to.deep.equal([0, 0]);
    for (const engine of ['tfjs', 'auto'] as const) {
      expect(() => stage(fixture.m.swapRecords, { engine })(tf.tensor1d([1, 2]))).to.throw(StagingError,
        new RegExp(`'array\\[0\\]' holds the object that was 'array\\[1\\]' after a statement staged on a tensor condition \\(main\\.ts:${fixture.lineOf('if (x.gather(0)')}:3\\)`));
    }
  });

  it('swapped tensors stage (tensors are values)', () => {
    fixture.agree('swapTensors', () => [tf.tensor1d([1, 2])], () => [tf.tensor1d([9, 2])]);
  });
});
