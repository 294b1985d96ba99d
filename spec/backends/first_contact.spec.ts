/**
 * Errors at first contact tell the truth (issue "Trust at first contact"): what went wrong, in the
 * user's words (the parameter, the loop's line), raised at the user's call, on every engine.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';
import { StagingError } from '../../backends/common/errors';
import { onnxRuntimeAvailable } from '../../backends/engines/onnx/runtime';

/** The error `call` throws (it must throw). */
function thrown(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    return error as Error;
  }
  return expect.fail('expected an error') as never;
}

const engines = (): ('tfjs' | 'auto' | 'onnx')[] => (onnxRuntimeAvailable() ? ['tfjs', 'auto', 'onnx'] : ['tfjs', 'auto']);

describe('a disposed tensor argument is refused before any engine runs, naming the parameter', () => {
  for (const engine of engines()) {
    it(`on engine '${engine}'`, () => {
      const scaled = stage(function scaled(x: tf.Tensor, scale: tf.Tensor): tf.Tensor {
        return x.mul(scale).add(tf.scalar(1));
      }, { engine });
      const x = tf.tensor1d([1, 2, 3]);
      const scale = tf.scalar(2);
      expect(Array.from(scaled(x, scale).dataSync())).to.deep.equal([3, 5, 7]);
      scale.dispose();
      // Called from a named function of this spec: its frame is the user's call site.
      const error = thrown(function callsScaled() { return scaled(x, scale); });
      expect(error).to.be.instanceOf(StagingError);
      expect(error.message).to.equal('autograph-ts: argument 1 (scale) of scaled is a disposed tensor: it was disposed ' +
        '(t.dispose(), or a tf.tidy that ended) before this call. Pass a tensor that is still alive, or keep it ' +
        '(tf.keep, or return it from the tidy).');
      expect(error.stack!.split('\n')[1]).to.match(/at callsScaled \(.*first_contact\.spec\.ts:\d+:\d+\)/);
      // Before the first trace too, and inside a nested argument.
      const pair = stage(function pair(xs: { a: tf.Tensor; b: tf.Tensor }): tf.Tensor { return xs.a.add(xs.b); }, { engine });
      expect(() => pair({ a: x, b: scale })).to.throw(StagingError, 'argument 0 (xs) of pair holds a disposed tensor');
      expect(pair.traceCount).to.equal(0);
      x.dispose();
    });
  }
});
