/**
 * Test programs written by hand in the shape the transformer emits (see the issue): bodies are
 * closures over the enclosing variables, control flow goes through the ag__ operators.
 */
import * as tf from '@tensorflow/tfjs';
import * as ag__ from '../../runtime/operators';

export function collatzSteps(n: tf.Scalar): tf.Scalar {
  let steps = tf.scalar(0);
  const loop_test = () => n.greater(1);
  const loop_body = () => {
    const if_true = () => { n = n.div(2).floor() as tf.Scalar; };
    const if_false = () => { n = n.mul(3).add(1) as tf.Scalar; };
    ag__.ifStmt(n.mod(2).equal(0), if_true, if_false, () => [n], ([n_1]) => { n = n_1 as tf.Scalar; }, ['n'], 1,
      { origin: 'collatz.ts:6:5' });
    steps = steps.add(1) as tf.Scalar;
  };
  ag__.whileStmt(loop_test, loop_body, () => [n, steps], ([n_1, steps_1]) => {
    n = n_1 as tf.Scalar;
    steps = steps_1 as tf.Scalar;
  }, ['n', 'steps'], { origin: 'collatz.ts:5:3' });
  return steps;
}

/** |x| summed with a sign that depends on the data: an if on a tensor, no loop. */
export function signedSum(x: tf.Tensor): tf.Tensor {
  let y = x.sum();
  ag__.ifStmt(y.greater(0), () => { y = y.mul(2); }, () => { y = y.neg().add(100); }, () => [y],
    ([y_1]) => { y = y_1 as tf.Tensor; }, ['y'], 1, { origin: 'signed.ts:3:3' });
  return y;
}

/**
 * function firstAbove(xs: tf.Tensor1D, limit: tf.Scalar) {
 *   let i = tf.scalar(0, 'int32');
 *   for (const x of xs) { if (x.greater(limit)) return i; i = i.add(1); }
 *   return tf.scalar(-1, 'int32');
 * }
 * with the return lowered to do_return/retval_ flags.
 */
export function firstAbove(xs: tf.Tensor1D, limit: tf.Scalar): tf.Tensor | undefined {
  let do_return = false;
  let retval_: unknown = ag__.UndefinedReturnValue.instance;
  let i = tf.scalar(0, 'int32') as tf.Tensor;
  const flags = ['do_return', 'retval_'];
  ag__.forStmt(xs, () => ag__.not(do_return), (x: tf.Tensor) => {
    ag__.ifStmt(x.greater(limit), () => { do_return = true; retval_ = i; }, () => {},
      () => [do_return, retval_], ([a, b]) => { do_return = a as boolean; retval_ = b; }, ['do_return', 'retval_'], 2,
      { origin: 'first.ts:3:25', flags });
    ag__.ifStmt(ag__.not(do_return), () => { i = i.add(tf.scalar(1, 'int32')); }, () => {}, () => [i], ([a]) => { i = a as tf.Tensor; },
      ['i'], 1, { origin: 'first.ts:3:60', flags });
  }, () => [do_return, retval_, i], ([a, b, c]) => { do_return = a as boolean; retval_ = b; i = c as tf.Tensor; },
  ['do_return', 'retval_', 'i'], { origin: 'first.ts:3:3', flags });
  ag__.ifStmt(ag__.not(do_return), () => { do_return = true; retval_ = tf.scalar(-1, 'int32'); }, () => {},
    () => [do_return, retval_], ([a, b]) => { do_return = a as boolean; retval_ = b; }, ['do_return', 'retval_'], 2,
    { origin: 'first.ts:4:3', flags });
  return ag__.retval(retval_) as tf.Tensor | undefined;
}
