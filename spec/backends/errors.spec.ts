import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as ag__ from '../../runtime/operators';
import { stage } from '../../backends/stage';
import { StagingError } from '../../backends/common/errors';

const flags = ['do_return', 'retval_'];

describe('stage(): staged restrictions are errors naming the variable and the line', () => {
  it("rejects a variable defined in only one branch of a tensor if", () => {
    const f = stage((x: tf.Scalar) => {
      let y: unknown = new ag__.Undefined('y');
      ag__.ifStmt(x.greater(0), () => { y = x.mul(2); }, () => {}, () => [y], ([a]) => { y = a; }, ['y'], 1,
        { origin: 'collatz.ts:6:5' });
      return y as tf.Tensor;
    });
    expect(() => f(tf.scalar(1))).to.throw(StagingError, "'y' must also be defined in the else branch (collatz.ts:6:5)");
  });

  it('rejects a return in one branch only', () => {
    const f = stage((x: tf.Scalar) => {
      let do_return = false;
      let retval_: unknown = ag__.UndefinedReturnValue.instance;
      ag__.ifStmt(x.greater(0), () => { do_return = true; retval_ = x; }, () => {}, () => [do_return, retval_],
        ([a, b]) => { do_return = a as boolean; retval_ = b; }, ['do_return', 'retval_'], 2, { origin: 'ret.ts:2:3', flags });
      return ag__.retval(retval_) as tf.Tensor;
    });
    expect(() => f(tf.scalar(1))).to.throw(StagingError, /returned from the else branch.*|ret\.ts:2:3/);
    expect(() => f(tf.scalar(1))).to.throw(/ret\.ts:2:3/);
  });

  it('accepts a return in one branch when the rest of the function is guarded by the return flag', () => {
    const f = stage((x: tf.Scalar) => {
      let do_return = false;
      let retval_: unknown = ag__.UndefinedReturnValue.instance;
      const set = ([a, b]: unknown[]) => { do_return = a as boolean; retval_ = b; };
      ag__.ifStmt(x.greater(0), () => { do_return = true; retval_ = x; }, () => {}, () => [do_return, retval_], set,
        ['do_return', 'retval_'], 2, { origin: 'ret.ts:2:3', flags });
      ag__.ifStmt(ag__.not(do_return), () => { do_return = true; retval_ = x.neg(); }, () => {},
        () => [do_return, retval_], set, ['do_return', 'retval_'], 2, { origin: 'ret.ts:3:3', flags });
      return ag__.retval(retval_) as tf.Tensor;
    });
    expect(f(tf.scalar(3)).dataSync()[0]).to.equal(3);
    expect(f(tf.scalar(-3)).dataSync()[0]).to.equal(3);
  });

  it('a loop variable undefined before a tensor loop is created by it; zero iterations is a named error (issue 8)', () => {
    const f = stage((n: tf.Scalar) => {
      let i = tf.scalar(0);
      let last: unknown = new ag__.Undefined('last');
      ag__.whileStmt(() => i.less(n), () => { last = i; i = i.add(1); }, () => [i, last],
        ([a, b]) => { i = a as tf.Scalar; last = b; }, ['i', 'last'], { origin: 'loop.ts:3:3' });
      return last as tf.Tensor;
    });
    expect((f(tf.scalar(3)) as tf.Tensor).arraySync()).to.equal(2);
    expect(() => f(tf.scalar(0))).to.throw(StagingError, "'last' is assigned only inside a loop staged on a tensor condition (loop.ts:3:3) " +
      'and read after it, but the loop ran zero times');
    expect(f.traceCount).to.equal(1);
  });

  it('rejects a loop variable whose dtype or rank changes', () => {
    const dtype = stage((n: tf.Scalar) => {
      let i = tf.scalar(0, 'int32') as tf.Tensor;
      ag__.whileStmt(() => i.less(n), () => { i = i.add(1); }, () => [i], ([a]) => { i = a as tf.Tensor; }, ['i'],
        { origin: 'dtype.ts:3:3' });
      return i;
    });
    expect(() => dtype(tf.scalar(3))).to.throw(StagingError, "loop variable 'i' changes dtype in a loop staged on a tensor condition (dtype.ts:3:3)");
    expect(() => dtype(tf.scalar(3))).to.throw(StagingError, "tfjs makes int32 combined with a JS number float32");
    const rank = stage((n: tf.Scalar) => {
      let x = tf.zeros([2]) as tf.Tensor;
      ag__.whileStmt(() => x.sum().less(n), () => { x = x.add(1).expandDims(0); }, () => [x], ([a]) => { x = a as tf.Tensor; },
        ['x'], { origin: 'rank.ts:3:3' });
      return x;
    });
    expect(() => rank(tf.scalar(3))).to.throw(StagingError, "'x' changes rank");
  });

  it('rejects a user JS number that changes inside a staged loop, and says to make it a tensor', () => {
    const f = stage((n: tf.Scalar) => {
      let i = tf.scalar(0);
      let count = 0;
      ag__.whileStmt(() => i.less(n), () => { i = i.add(1); count += 1; }, () => [i, count],
        ([a, b]) => { i = a as tf.Scalar; count = b as number; }, ['i', 'count'], { origin: 'count.ts:4:3' });
      return tf.scalar(count);
    });
    expect(() => f(tf.scalar(3))).to.throw(StagingError, /'count' is the JS number 0.*\(count\.ts:4:3\).*Make 'count' a tensor/);
  });

  it('rejects a non-scalar or string condition', () => {
    const vector = stage((x: tf.Tensor) => {
      let y = x;
      ag__.ifStmt(x.greater(0), () => { y = x.neg(); }, () => {}, () => [y], ([a]) => { y = a as tf.Tensor; }, ['y'], 1,
        { origin: 'vec.ts:2:3' });
      return y;
    });
    expect(() => vector(tf.tensor1d([1, 2]))).to.throw(StagingError, 'must be a scalar, got shape [2] (vec.ts:2:3)');
    const text = stage((s: tf.Tensor) => ag__.ifExp(s, () => tf.scalar(1), () => tf.scalar(2), { origin: 'str.ts:1:1' }));
    expect(() => text(tf.scalar('yes'))).to.throw(StagingError, 'dtype string cannot be a condition (str.ts:1:1)');
  });

  it("rejects reading a tensor's value while tracing, naming the user's line", () => {
    const f = stage((x: tf.Tensor) => x.mul(x.dataSync()[0])); // READ-SITE
    // The user's TypeScript line (through the spec's source map), not the compiled .js.
    const line = fs.readFileSync(path.join(__dirname, '../../../spec/backends/errors.spec.ts'), 'utf8')
      .split('\n').findIndex((l) => l.includes('// READ-SITE')) + 1;
    expect(() => f(tf.scalar(2))).to.throw(StagingError, new RegExp(`value was read while stage\\(\\) traces.*errors\\.spec\\.ts:${line}:`));
    const g = stage((x: tf.Tensor) => x.mul((x.arraySync() as number)));
    expect(() => g(tf.scalar(2))).to.throw(StagingError, /dataSync, arraySync/);
  });
});
