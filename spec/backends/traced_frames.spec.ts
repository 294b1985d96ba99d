/**
 * While stage() traces a function, a location taken from the stack is the traced code's line,
 * never the line that called stage(): the frames from stage()'s entry into the traced function
 * outward are not searched. Where none of the traced frames is in a file (code evaluated from a
 * string), the message says so instead of naming the caller. (Compiled files on disk:
 * error_locations.spec.ts; the in-memory harness maps its frames to main.ts like a file's.)
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, formatDiagnostics, load } from '../harness/compile';

const SOURCE = `import * as tf from '@tensorflow/tfjs';
export function readsIndex(x: tf.Tensor1D): number {
  'use autograph';
  return x.argMax().arraySync() as number;
}
export function maxCount(xs: tf.Tensor1D): number {
  'use autograph';
  const counts: number[] = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    if (xs.gather(i).greater(0)) counts[i]++;
  }
  return Math.max(...counts);
}
`;

describe('a location taken from the stack during a trace is the traced code\'s', () => {
  let m: Record<string, any>;
  before(() => {
    const result = compile({ 'main.ts': SOURCE });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });
  const thisFile = /traced_frames\.spec/;

  it('a value read names main.ts, not the caller of stage()', () => {
    expect(m.readsIndex(tf.tensor1d([1, 3, 2]))).to.equal(1);
    expect(() => stage(m.readsIndex)(tf.tensor1d([1, 3, 2])))
      .to.throw(StagingError, /a tensor's value was read while stage\(\) traces the function \(main\.ts:4:21\)/)
      .and.not.to.match(thisFile);
  });

  it('Math.max(...counts) of promoted counts stages (it was this refusal\'s example)', () => {
    expect(stage(m.maxCount)(tf.tensor1d([1, -3, 2]))).to.equal(m.maxCount(tf.tensor1d([1, -3, 2]))).and.to.equal(1);
  });

  it('traced code that has no file: says so, and does not name the caller', () => {
    const fromString = new Function('x', 'return x.argMax().arraySync();') as (x: tf.Tensor) => number;
    let message = '';
    try {
      stage(fromString)(tf.tensor1d([1, 2]));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.contain('(no source line: the traced code has no file)').and.not.to.match(thisFile);
  });
});
