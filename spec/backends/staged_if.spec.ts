import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';
import { signedSum } from './programs';

const values = (t: unknown): number[] => Array.from((t as tf.Tensor).dataSync());

describe('stage(): a conditional on a tensor becomes an If node (backends/staging/staged_if.ts)', () => {
  it('stages an if: both branches right with one trace', () => {
    const staged = stage(signedSum);
    expect(values(staged(tf.tensor1d([1, 2])))).to.deep.equal([6]);
    expect(values(staged(tf.tensor1d([-1, -2])))).to.deep.equal([103]);
    expect(staged.traceCount).to.equal(1);
  });
});
