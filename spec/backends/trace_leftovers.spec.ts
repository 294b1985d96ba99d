/**
 * A tensor a staged function keeps outside itself while tracing is disposed with the trace; using
 * it later explains that, instead of tfjs's bare "Tensor is disposed".
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';

describe('stage(): tensors kept from a trace', () => {
  it('are disposed when the trace ends, and a later use says why', () => {
    const holder: { last?: tf.Tensor } = {};
    const f = stage(function accumulate(x: tf.Tensor) {
      holder.last = x.mul(2);
      return x.add(1);
    });
    expect(f(tf.scalar(1)).arraySync()).to.equal(2);
    expect(holder.last!.isDisposed).to.equal(true);
    expect(() => holder.last!.arraySync()).to.throw(StagingError, /made while stage\(\) traced accumulate and kept outside it/);
    // An ordinary disposed tensor keeps tfjs's own message.
    const plain = tf.scalar(3);
    plain.dispose();
    expect(() => plain.arraySync()).to.throw(Error, 'Tensor is disposed.');
  });
});
