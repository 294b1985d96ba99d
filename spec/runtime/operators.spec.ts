import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import * as ag__ from '../../runtime/operators';
import { range } from '../../index';

const noState = (): unknown[] => [];
const noSet = (): void => {};

describe('runtime operators, eager', () => {
  it('ifStmt reads a scalar tensor condition by value', () => {
    const taken: string[] = [];
    ag__.ifStmt(tf.scalar(0), () => taken.push('then'), () => taken.push('else'), noState, noSet, [], 0);
    ag__.ifStmt(tf.scalar(true), () => taken.push('then'), () => taken.push('else'), noState, noSet, [], 0);
    expect(taken).to.deep.equal(['else', 'then']);
  });

  it('a non-scalar tensor condition is an error naming the origin', () => {
    expect(() => ag__.ifStmt(tf.tensor([1, 2]), noSet, undefined, noState, noSet, [], 0, { origin: 'a.ts:3:5' }))
      .to.throw(/scalar.*\[2\].*a\.ts:3:5/);
  });

  it('whileStmt runs a data-dependent loop on tensors (collatz 27 -> 111 steps)', () => {
    let n: tf.Tensor = tf.scalar(27);
    let steps = 0;
    ag__.whileStmt(() => n.greater(1), () => {
      n = tf.equal(tf.mod(n, 2), 0).dataSync()[0] ? n.div(2) : n.mul(3).add(1);
      steps++;
    }, noState, noSet, []);
    expect(steps).to.equal(111);
  });

  it('forStmt closes the iterator on an early exit, like a native break', () => {
    const log: string[] = [];
    const iterable = {
      [Symbol.iterator]() {
        let i = 0;
        return {
          next: () => { log.push(`next${i}`); return { value: i++, done: false }; },
          return: () => { log.push('return'); return { value: undefined, done: true }; },
        };
      },
    };
    let stop = false;
    ag__.forStmt(iterable, () => !stop, (item: number) => { log.push(`body${item}`); if (item === 1) stop = true; },
      noState, noSet, []);
    expect(log).to.deep.equal(['next0', 'body0', 'next1', 'body1', 'return']);
  });

  it('and/or return operand values like && and ||, lazily', () => {
    let evaluated = 0;
    expect(ag__.and(() => 0, () => ++evaluated)).to.equal(0);
    expect(ag__.or(() => 'a', () => ++evaluated)).to.equal('a');
    expect(evaluated).to.equal(0);
    expect(ag__.and(() => 1, () => 'b')).to.equal('b');
  });

  it('range gives numbers for numbers and scalars for a tensor bound', () => {
    expect(range(3)).to.deep.equal([0, 1, 2]);
    expect(range(5, 1, -2)).to.deep.equal([5, 3]);
    const values = [...range(tf.scalar(3, 'int32'))].map((t) => t.dataSync()[0]);
    expect(values).to.deep.equal([0, 1, 2]);
  });

  it('for...of over a tensor iterates its first dimension', () => {
    const rows: number[][] = [];
    for (const row of tf.tensor2d([[1, 2], [3, 4]])) rows.push(Array.from(row.dataSync()));
    expect(rows).to.deep.equal([[1, 2], [3, 4]]);
  });
});

describe('runtime operators, JS truthiness of tensor values', () => {
  it('NaN and -0 are falsy, eagerly and staged; ! is JS ! elementwise', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { stage } = require('../../index') as typeof import('../../index');
    const pick = (c: tf.Tensor): tf.Tensor => {
      let r = tf.scalar(0);
      ag__.ifStmt(c, () => { r = tf.scalar(1); }, () => { r = tf.scalar(2); }, () => [r],
        ([a]) => { r = a as tf.Scalar; }, ['r'], 1, {});
      return r;
    };
    const negate = (c: tf.Tensor): tf.Tensor => ag__.ifExp(ag__.not(c), () => tf.scalar(1), () => tf.scalar(2));
    for (const v of [NaN, 0, -0, 3, -2]) {
      const expected = v ? 1 : 2;
      expect(pick(tf.scalar(v)).arraySync(), `eager ${v}`).to.equal(expected);
      expect(stage(pick)(tf.scalar(v)).arraySync(), `staged ${v}`).to.equal(expected);
      expect(negate(tf.scalar(v)).arraySync(), `eager !${v}`).to.equal(!v ? 1 : 2);
      expect(stage(negate)(tf.scalar(v)).arraySync(), `staged !${v}`).to.equal(!v ? 1 : 2);
    }
    expect(() => ag__.not(tf.scalar('a'))).to.throw(TypeError, /dtype string cannot be negated/);
  });
});
