import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';
import { collatzSteps, firstAbove } from './programs';

const values = (t: unknown): number[] => Array.from((t as tf.Tensor).dataSync());

describe('stage(): a loop on a tensor becomes a While node (backends/staging/staged_loop.ts)', () => {
  it('stages collatz: a while with a nested if, reused across trip counts', () => {
    const staged = stage(collatzSteps);
    for (const [n, steps] of [[27, 111], [1, 0], [6, 8], [7, 16]]) {
      expect(values(staged(tf.scalar(n)))).to.deep.equal([steps]);
    }
    expect(staged.traceCount).to.equal(1);
    const info = staged.inspect(tf.scalar(3));
    expect(info.stats.whiles).to.equal(1);
    expect(info.stats.ifs).to.equal(1);
  });

  it('stages for...of over a tensor with a lowered return', () => {
    const staged = stage(firstAbove);
    const limit = tf.scalar(2);
    expect(values(staged(tf.tensor1d([1, 3, 5]), limit))).to.deep.equal([1]);
    expect(values(staged(tf.tensor1d([0, 1, 2]), limit))).to.deep.equal([-1]);
    expect(values(staged(tf.tensor1d([9, 1, 2]), limit))).to.deep.equal([0]);
    expect(values(firstAbove(tf.tensor1d([1, 3, 5]), limit))).to.deep.equal([1]);
    expect(staged.traceCount).to.equal(1);
  });
});
