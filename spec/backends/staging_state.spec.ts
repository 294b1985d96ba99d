/**
 * Staging semantics (issue 6): every piece of JS state that a staged branch or loop body changes is
 * carried into the graph or refused with a StagingError; nothing keeps its trace-time value. Each
 * program of spec/fixtures/staging_state_programs.ts runs eagerly and staged on inputs that take
 * different paths; the values asserted would differ if the staged graph were wrong.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, load } from '../harness/compile';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/staging_state_programs.ts'), 'utf8');
const S = (v: number, dtype: 'float32' | 'int32' = 'float32'): tf.Scalar => tf.scalar(v, dtype);
const value = (x: unknown): unknown => (Array.isArray(x) ? x.map(value) : x instanceof tf.Tensor ? x.arraySync() : x);

describe('staging semantics: state changed by staged branches and loops', () => {
  let m: Record<string, (...args: any[]) => any>;
  before(() => {
    const js = compile({ 'main.ts': source }).js['main.ts'];
    m = load(js);
  });

  /** Eager and staged results on each argument list; returns the eager values. */
  const agree = (name: string, ...argLists: unknown[][]): unknown[] => {
    const staged = stage(m[name]);
    return argLists.map((args) => {
      const eager = value(m[name](...args));
      expect(value(staged(...args)), `${name}(${JSON.stringify(value(args))})`).to.deep.equal(eager);
      return eager;
    });
  };
  const refuses = (name: string, args: unknown[], message: RegExp): void => {
    expect(() => stage(m[name])(...args)).to.throw(StagingError, message);
  };

  describe('item 8: branch outputs that alias other variables or inputs', () => {
    it('if (c.equal(2)) c = a; else b = c; return b  (5 eagerly, was 1 staged)', () => {
      expect(agree('alias1', [S(1), S(4), S(5)], [S(1), S(4), S(2)])).to.deep.equal([5, 4]);
    });
    it('if (v1 > c) v0 = 5; else v1 = v0; return v1', () => {
      expect(agree('alias2', [S(1), S(2), S(0)], [S(1), S(2), S(3)])).to.deep.equal([2, 1]);
    });
    it('swaps, x = y chains, one tensor in two outputs, outputs equal to inputs', () => {
      expect(agree('swapIf', [S(1), S(2)], [S(3), S(2)])).to.deep.equal([[1, 2], [2, 3]]);
      expect(agree('chainIf', [S(1), S(2), S(3)], [S(-1), S(2), S(3)])).to.deep.equal([[2, 3, 2], [-1, -1, 2]]);
      expect(agree('sameTwice', [S(1), S(2)], [S(-1), S(2)])).to.deep.equal([[2, 2, 1], [0, -1, -1]]);
      expect(agree('returnInput', [S(1), S(2)], [S(3), S(2)])).to.deep.equal([1, 2]);
    });
    it('loop state that swaps, aliases another loop variable or an input', () => {
      expect(agree('swapWhile', [S(1), S(2), S(3)], [S(1), S(2), S(2)], [S(1), S(2), S(0)]))
        .to.deep.equal([[2, 1], [1, 2], [1, 2]]);
      expect(agree('loopVarIsInput', [S(1), S(3)], [S(1), S(0)])).to.deep.equal([[4, 1, 1], [1, 1, 1]]);
      expect(agree('loopAliasOther', [S(3)], [S(0)], [S(1)])).to.deep.equal([[8, 16], [1, 2], [2, 4]]);
    });
    it('a do-while test reads what the body assigns: loop state (it read the first iteration\'s value, looping forever)', () => {
      expect(agree('doWhileTestState', [S(7)], [S(1)], [S(3)])).to.deep.equal([4, 1, 2]);
      expect(agree('doWhileTestStateList', [S(2)], [S(1)], [S(7)])).to.deep.equal([[1, 2], [1], [1]]);
    });
    it('a variable dead after an if inside a loop body, and ifs nested in a loop', () => {
      expect(agree('deadInLoopBranch', [S(5)], [S(2)])).to.deep.equal([4, 1]);
      expect(agree('nestedIfWhile', [S(1), S(5)], [S(3), S(4)])).to.deep.equal([[3, 3], [2, 3]]);
      expect(agree('earlyReturnLoop', [S(1), S(10)], [S(1), S(2)])).to.deep.equal([16, -4]);
    });
    it('a variable read only by a closure created before the if or loop is state', () => {
      expect(agree('closureRead', [S(1)], [S(-1)])).to.deep.equal([4, 0]);
      expect(agree('closureInLoop', [S(1), S(3)], [S(1), S(0)])).to.deep.equal([8, 1]);
    });
  });

  describe('items 5 and 6: composite state changed in a staged branch or loop', () => {
    it('array elements assigned in both branches are If outputs (was [1, -1] for a = 1)', () => {
      expect(agree('arrayIf', [S(1)], [S(-1)])).to.deep.equal([[1, 1], [-1, -1]]);
    });
    it('array elements updated in a staged while and for...of range are loop variables', () => {
      expect(agree('arrayWhile', [S(3)], [S(0)])).to.deep.equal([3, 0]);
      expect(agree('arrayForRange', [S(4, 'int32')], [S(0, 'int32')])).to.deep.equal([6, 0]);
      expect(agree('nestedArrayInLoop', [S(3)], [S(0)])).to.deep.equal([[3, 8], [0, 1]]);
    });
    it('a push in both branches is staged; a push in a staged loop grows a list value (tensor_lists.spec.ts)', () => {
      expect(agree('pushBothBranches', [S(2)], [S(-2)])).to.deep.equal([[2, 4], [-2, 2]]);
      expect(agree('pushLoop', [S(3)], [S(1)])).to.deep.equal([[0, 1, 2], [0]]);
    });
    it('a tensor of a branch kept where no state reaches (a Map) is an error, not a constant', () => {
      refuses('branchTensorInMap', [S(1)], /computed in the if branch of the conditional \(main\.ts:\d+:\d+\) is used outside it/);
      refuses('randomInMap', [S(1)], /computed in the if branch of the conditional \(main\.ts:\d+:\d+\) is used outside it/);
    });
    it('an if on array elements inside a for...of over a tensor (argmax kept in an array)', () => {
      expect(agree('argmaxInArray', [tf.tensor1d([3, 9, 2, 9])], [tf.tensor1d([-5])])).to.deep.equal([[9, 1], [-5, 0]]);
    });
    it('a tf.Variable in a carried array stays the variable (reads after an assign see the new value)', () => {
      const w = tf.variable(tf.scalar(1));
      const staged = stage(m.variableInArray);
      for (const n of [3, 0]) {
        w.assign(tf.scalar(1));
        const eager = value(m.variableInArray(w, S(n)));
        w.assign(tf.scalar(1));
        expect(value(staged(w, S(n)))).to.equal(eager);
        expect(w.arraySync()).to.equal(2);
      }
      expect(value(staged(w, S(3)))).to.equal(3 * 2 + 3);
      w.dispose();
    });
    it('a JS number in an array changed by a staged loop is carried promoted and read back (issue 17; was the trace-time count, then an error)', () => {
      expect(agree('jsCounterInArray', [S(3)], [S(0)])).to.deep.equal([3, 0]);
      expect(typeof stage(m.jsCounterInArray)(S(2))).to.equal('number');
    });
    it('object properties assigned in a branch are state (o.p)', () => {
      expect(agree('objIf', [S(1)], [S(-1)])).to.deep.equal([1, 0]);
    });
  });

  describe('adversarial programs', () => {
    it('assignments inside a staged ?: or &&/|| operand are outputs, restored between branch traces', () => {
      expect(agree('assignInTernary', [S(1), S(2)], [S(-1), S(2)])).to.deep.equal([[2, 2, 2], [-1, -1, -1]]);
      expect(agree('assignInAnd', [S(1), S(2)], [S(-1), S(2)])).to.deep.equal([[3, 1], [-1, 0]]);
      expect(agree('andAssignOp', [S(0)], [S(2)])).to.deep.equal([0, 5]);
      expect(agree('orAssignInLoop', [S(5)], [S(0)])).to.deep.equal([3, 0]);
    });
    it('three-way rotation, arrays in nested loops, an early return reading an array', () => {
      expect(agree('swapThreeLoop', [S(4)], [S(2)])).to.deep.equal([[2, 3, 1], [3, 1, 2]]);
      expect(agree('nestedLoopArrays', [S(4)], [S(0)])).to.deep.equal([[6, 4], [0, 0]]);
      expect(agree('earlyReturnForOf', [tf.tensor1d([1, 2, -1, 5])], [tf.tensor1d([1, 2])])).to.deep.equal([3, -3]);
    });
    it('an assignment in a staged loop condition is an error naming it (it ran forever)', () => {
      expect(value(m.assignInTest(S(4)))).to.deep.equal([4, 6]);
      refuses('assignInTest', [S(4)], /condition of a loop staged on a tensor condition \(main\.ts:\d+:\d+\) assigns 'x'/);
      refuses('pushInTest', [S(4)], /condition of a loop staged on a tensor condition \(main\.ts:\d+:\d+\) assigns 'xs'/);
    });
    it('a closure assigned in a staged loop is an error naming it', () => {
      refuses('closureAfterLoop', [S(3)], /'f' is the JS function .* but the loop is staged on a tensor condition \(main\.ts:\d+:\d+\)/);
    });
  });

  it('item 7: for...of over a tensor with no rows runs zero times', () => {
    expect(agree('emptyRows', [tf.zeros([0, 2])], [tf.ones([2, 2])])).to.deep.equal([0, 4]);
  });

  describe('item 9: && and || on operands of different dtypes', () => {
    it('as a loop condition only truthiness matters (while (k < 1 && a), a float32)', () => {
      expect(agree('andTruth', [S(1)], [S(0)], [S(NaN)])).to.deep.equal([1, 0, 0]);
      expect(agree('orThenNot', [S(0), S(1)], [S(2), S(1)], [S(0), S(-1)])).to.deep.equal([1, 0, 0]);
    });
    it('as a value, operands of one dtype are staged; of different dtypes, an error', () => {
      expect(agree('andFloats', [S(2), S(3)], [S(0), S(3)], [S(NaN), S(3)])).to.deep.equal([3, 0, NaN]);
      refuses('andValue', [S(1), S(3)], /value of the && expression.*can use it as a condition .* but not as a value/);
    });
  });

  describe('item 11: beyond AutoGraph, staged like eagerly', () => {
    it('a do-while whose loop variable changes dtype in its first iteration', () => {
      expect(agree('doWhileDtype', [S(3)], [S(0)])).to.deep.equal([3, 1]);
    });
    it('nested ifs where only the inner then-branch returns, and a return follows', () => {
      expect(agree('nestedIfReturn', [S(1)], [S(6)], [S(-1)])).to.deep.equal([0, 2, 0]);
    });
  });

  it('tf.memory().numTensors stays flat across staged calls of these programs', () => {
    const staged = stage(m.swapWhile);
    staged(S(1), S(2), S(3)).forEach((t: tf.Tensor) => t.dispose());
    const a = S(1), b = S(2), n = S(3);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) staged(a, b, n).forEach((t: tf.Tensor) => t.dispose());
    expect(tf.memory().numTensors).to.equal(before);
  });
});
