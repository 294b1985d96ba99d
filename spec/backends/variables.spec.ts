import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';

describe('stage(): variables that share their initial data', () => {
  it('reads and assigns the variable the code names, not another one made from the same tensor', () => {
    const init = tf.tensor1d([1, 2]);
    const v1 = tf.variable(init);
    const v2 = tf.variable(init); // tfjs: v1, v2 and init share one dataId until assigned
    const scaled = stage(() => v1.mul(10));
    expect(Array.from(scaled().dataSync())).to.deep.equal([10, 20]);
    v2.assign(tf.tensor1d([5, 5]));
    expect(Array.from(scaled().dataSync())).to.deep.equal([10, 20]);
    const bump = stage(() => v1.assign(v1.add(1)));
    bump();
    expect(Array.from(v1.dataSync())).to.deep.equal([2, 3]);
    expect(Array.from(v2.dataSync())).to.deep.equal([5, 5]);
    expect(Array.from(init.dataSync())).to.deep.equal([1, 2]);
    tf.dispose([init, v1, v2]);
  });
});
