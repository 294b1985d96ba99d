/**
 * Eager tensor semantics at the edges: conditions of every dtype and odd values (NaN, -0), of
 * shape [1] / [1,1] / [2], string tensors; identity of the operand that `&&` / `||` return; `!` on
 * numeric and bool tensors; for...of over tensors of rank 1-3 and over range() with a negative
 * tensor step; do-while and for(;;) on tensor conditions with break / continue / return in each;
 * tensor conditions inside callbacks of nested functions.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { compile, formatDiagnostics, load } from '../../harness/compile';
import { stage } from '../../../index';

const source = `
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

export function branch(c: tf.Tensor): string {
  if (c) {
    return 'then';
  } else {
    return 'else';
  }
}

export function whileCount(c: tf.Tensor): number {
  let n = 0;
  while (c) {
    n++;
    if (n > 2) break;
  }
  return n;
}

export function ternary(c: tf.Tensor): string | number {
  return c ? 'yes' : 0;
}

export function and(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  return a && b;
}

export function or(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  return a || b;
}

export function andValue(a: tf.Tensor, b: number): tf.Tensor | number {
  return a && b;
}

export function orValue(a: tf.Tensor, b: string): tf.Tensor | string {
  return a || b;
}

export function not(a: tf.Tensor): tf.Tensor {
  return !a as unknown as tf.Tensor;
}

export function notInCondition(a: tf.Tensor): number {
  if (!a) return 1;
  return 2;
}

export function doubleNot(a: tf.Tensor): number {
  return !!a ? 1 : 0;
}

export function rows(t: tf.Tensor): number[][] {
  const out: number[][] = [];
  for (const row of t) {
    out.push([row.rank, ...row.shape, row.sum().dataSync()[0]]);
  }
  return out;
}

export function rangeDown(start: tf.Scalar, stop: number, step: tf.Scalar): number[] {
  const out: number[] = [];
  for (const i of range(start, stop, step)) out.push(i.dataSync()[0]);
  return out;
}

export function rangeDtypes(stop: tf.Scalar): string[] {
  const out: string[] = [];
  for (const i of range(stop)) out.push(i.dtype + ':' + i.dataSync()[0]);
  return out;
}

export function doWhile(limit: tf.Scalar): number[] {
  const seen: number[] = [];
  let i = tf.scalar(0);
  do {
    i = i.add(1);
    if (i.equal(2)) continue;
    if (i.equal(5)) break;
    seen.push(i.dataSync()[0]);
  } while (i.less(limit));
  return seen;
}

export function doWhileReturn(limit: tf.Scalar): string {
  let i = tf.scalar(0);
  do {
    i = i.add(1);
    if (i.greater(3)) return 'returned at ' + i.dataSync()[0];
  } while (i.less(limit));
  return 'finished at ' + i.dataSync()[0];
}

export function forHeader(limit: tf.Scalar): number[] {
  const seen: number[] = [];
  for (let i = tf.scalar(0); i.less(limit); i = i.add(1)) {
    if (i.equal(1)) continue;
    if (i.equal(4)) break;
    seen.push(i.dataSync()[0]);
  }
  return seen;
}

export function forEver(x: tf.Scalar): number {
  let steps = 0;
  for (;;) {
    steps++;
    x = x.sub(1);
    if (x.lessEqual(0)) return steps;
  }
}

export function forReturn(limit: tf.Scalar): string {
  for (let i = tf.scalar(10); i.greater(limit); i = i.sub(3)) {
    if (i.equal(4)) return 'hit 4';
  }
  return 'missed';
}

export function forOfJumps(t: tf.Tensor1D): string {
  let s = '';
  for (const x of t) {
    if (x.less(0)) continue;
    if (x.equal(99)) return s + '!';
    if (x.greater(10)) break;
    s += x.dataSync()[0] + ',';
  }
  return s;
}

export function callbacks(xs: tf.Scalar[], t: tf.Scalar): number[] {
  const out: number[] = [];
  xs.forEach((x) => {
    if (t.greater(x)) out.push(x.dataSync()[0]);
  });
  const pick = function (x: tf.Scalar): number {
    return x.greater(t) ? 1 : x.equal(t) && x.greater(0) ? 0 : -1;
  };
  return out.concat(xs.map(pick));
}

export function pick(c: tf.Tensor): tf.Tensor {
  if (c) return tf.scalar(1);
  return tf.scalar(2);
}

export function pickNot(c: tf.Tensor): tf.Tensor {
  if (!c) return tf.scalar(1);
  return tf.scalar(2);
}

export function pickTernary(c: tf.Tensor): tf.Tensor {
  return c ? tf.scalar(1) : tf.scalar(2);
}

export function nested(t: tf.Scalar): number {
  function inner(n: tf.Scalar): number {
    let k = 0;
    while (n.greater(0)) {
      n = n.sub(1);
      k++;
    }
    return k;
  }
  const arrow = (m: tf.Scalar) => (m.greater(2) ? inner(m) * 10 : inner(m));
  return arrow(t);
}
`;

describe('adversarial: eager tensor semantics', () => {
  let m: Record<string, any>;
  const origin = /main\.ts:\d+:\d+/;
  before(function () {
    this.timeout(30000);
    const result = compile({ 'main.ts': `'use autograph';\n${source}` });
    expect(formatDiagnostics(result.diagnostics.filter((d) => d.code !== 99101))).to.equal('');
    m = load(result.js['main.ts']);
  });

  describe('scalar conditions of each dtype are read by JS truthiness', () => {
    const cases: Array<[string, () => tf.Tensor, string]> = [
      ['bool true', () => tf.scalar(true), 'then'],
      ['bool false', () => tf.scalar(false), 'else'],
      ['int32 0', () => tf.scalar(0, 'int32'), 'else'],
      ['int32 -7', () => tf.scalar(-7, 'int32'), 'then'],
      ['float32 0', () => tf.scalar(0, 'float32'), 'else'],
      ['float32 0.5', () => tf.scalar(0.5), 'then'],
      ['float32 1e-30', () => tf.scalar(1e-30), 'then'],
      ['float32 -0', () => tf.scalar(-0), 'else'],
      ['float32 NaN', () => tf.scalar(NaN), 'else'],
      ['float32 Infinity', () => tf.scalar(-Infinity), 'then'],
      ['int32 2**31-1', () => tf.scalar(2 ** 31 - 1, 'int32'), 'then'],
      ['shape [1]', () => tf.tensor1d([0]), 'else'],
      ['shape [1,1]', () => tf.tensor2d([[3]]), 'then'],
      ['shape [1,1,1] NaN', () => tf.tensor3d([[[NaN]]]), 'else'],
      ['a Variable', () => tf.variable(tf.scalar(0)), 'else'],
    ];
    for (const [name, make, expected] of cases) {
      it(name, () => {
        expect(m.branch(make())).to.equal(expected);
        expect(m.ternary(make())).to.equal(expected === 'then' ? 'yes' : 0);
        expect(m.whileCount(make())).to.equal(expected === 'then' ? 3 : 0);
        // `!` on NaN: see the NaN cases in the report (not asserted here).
        if (!name.includes('NaN')) {
          expect(m.notInCondition(make())).to.equal(expected === 'then' ? 2 : 1);
          expect(m.doubleNot(make())).to.equal(expected === 'then' ? 1 : 0);
        }
      });
    }
  });

  describe('conditions that are not one number or boolean are errors naming the source', () => {
    const bad: Array<[string, () => tf.Tensor, RegExp]> = [
      ['shape [2]', () => tf.tensor1d([1, 1]), /must be a scalar, got shape \[2\]/],
      ['shape [0]', () => tf.tensor1d([]), /must be a scalar, got shape \[0\]/],
      ['shape [2,1]', () => tf.tensor2d([[1], [0]]), /got shape \[2, 1\]/],
      ['a string scalar', () => tf.scalar('yes'), /dtype string cannot be a condition/],
      ['an empty string scalar', () => tf.scalar(''), /dtype string cannot be a condition/],
    ];
    for (const [name, make, message] of bad) {
      it(name, () => {
        const fs = name.includes('string') ? ['branch', 'ternary', 'whileCount'] : ['branch', 'ternary', 'whileCount', 'notInCondition'];
        for (const f of fs) {
          let error: unknown;
          try {
            m[f](make());
          } catch (e) {
            error = e;
          }
          expect(error, f).to.be.instanceOf(TypeError);
          expect((error as Error).message, f).to.match(message).and.match(origin);
        }
      });
    }
    it('the origin is the line and column of the condition statement', () => {
      const lines = `'use autograph';\n${source}`.split('\n');
      const line = lines.findIndex((l) => l.includes('if (c) {')) + 1;
      expect(() => m.branch(tf.tensor1d([1, 2]))).to.throw(`(main.ts:${line}:3)`);
    });
  });

  describe('&& and || return the deciding operand itself', () => {
    it('a falsy left tensor is returned by && (the same object), the right one is not evaluated', () => {
      const a = tf.scalar(0);
      const b = tf.scalar(5);
      expect(m.and(a, b)).to.equal(a);
      expect(m.andValue(a, 3)).to.equal(a);
    });
    it('a truthy left tensor makes && return the right operand itself', () => {
      const a = tf.scalar(true);
      const b = tf.scalar(NaN);
      expect(m.and(a, b)).to.equal(b);
      expect(m.andValue(a, 3)).to.equal(3);
    });
    it('|| returns a truthy left tensor itself, else the right operand itself', () => {
      const a = tf.scalar(-1, 'int32');
      const z = tf.scalar(-0);
      const b = tf.scalar(0);
      expect(m.or(a, b)).to.equal(a);
      expect(m.or(z, b)).to.equal(b);
      expect(m.orValue(z, 'fallback')).to.equal('fallback');
      expect(m.orValue(a, 'fallback')).to.equal(a);
    });
  });

  describe('! on tensors', () => {
    const cases: Array<[string, () => tf.Tensor, number]> = [
      ['bool true', () => tf.scalar(true), 0],
      ['bool false', () => tf.scalar(false), 1],
      ['int32 0', () => tf.scalar(0, 'int32'), 1],
      ['int32 3', () => tf.scalar(3, 'int32'), 0],
      ['float32 -0', () => tf.scalar(-0), 1],
      ['float32 0.25', () => tf.scalar(0.25), 0],
    ];
    for (const [name, make, expected] of cases) {
      it(`!${name} is a bool tensor ${expected}`, () => {
        const r = m.not(make());
        expect(r).to.be.instanceOf(tf.Tensor);
        expect(r.dtype).to.equal('bool');
        expect(r.dataSync()[0]).to.equal(expected);
      });
    }
    it('! keeps the shape of a non-scalar operand (element-wise)', () => {
      const r = m.not(tf.tensor1d([0, 2, 0]));
      expect(r.shape).to.deep.equal([3]);
      expect(Array.from(r.dataSync())).to.deep.equal([1, 0, 1]);
    });
  });

  describe('for...of over tensors and ranges', () => {
    it('1-D: scalar rows', () => {
      expect(m.rows(tf.tensor1d([1, 2, 3]))).to.deep.equal([[0, 1], [0, 2], [0, 3]]);
    });
    it('2-D: vector rows', () => {
      expect(m.rows(tf.tensor2d([[1, 2], [3, 4], [5, 6]]))).to.deep.equal([[1, 2, 3], [1, 2, 7], [1, 2, 11]]);
    });
    it('3-D: matrix rows', () => {
      expect(m.rows(tf.ones([2, 3, 4]))).to.deep.equal([[2, 3, 4, 12], [2, 3, 4, 12]]);
    });
    it('an empty first dimension runs no iteration', () => {
      expect(m.rows(tf.zeros([0, 3]))).to.deep.equal([]);
    });
    it('a scalar is an error naming the source', () => {
      expect(() => m.rows(tf.scalar(1))).to.throw(TypeError, /cannot iterate over a scalar tensor \(main\.ts:\d+:\d+\)/);
    });
    it('range with a negative tensor step counts down', () => {
      expect(m.rangeDown(tf.scalar(5, 'int32'), 0, tf.scalar(-2, 'int32'))).to.deep.equal([5, 3, 1]);
      expect(m.rangeDown(tf.scalar(1.5), -1, tf.scalar(-0.5))).to.deep.equal([1.5, 1, 0.5, 0, -0.5]);
      expect(m.rangeDown(tf.scalar(0, 'int32'), 3, tf.scalar(-1, 'int32'))).to.deep.equal([]);
    });
    it('range yields scalars of the bounds\' dtype', () => {
      expect(m.rangeDtypes(tf.scalar(2, 'int32'))).to.deep.equal(['int32:0', 'int32:1']);
      expect(m.rangeDtypes(tf.scalar(2))).to.deep.equal(['float32:0', 'float32:1']);
    });
    it('break, continue and return in a for...of over a tensor', () => {
      expect(m.forOfJumps(tf.tensor1d([1, -1, 2, 11, 3]))).to.equal('1,2,');
      expect(m.forOfJumps(tf.tensor1d([1, 99, 2]))).to.equal('1,!');
      expect(m.forOfJumps(tf.tensor1d([-5, 4]))).to.equal('4,');
    });
  });

  describe('do...while and for(;;) on tensor conditions', () => {
    it('do...while: continue re-tests the condition, break leaves', () => {
      expect(m.doWhile(tf.scalar(10))).to.deep.equal([1, 3, 4]);
      expect(m.doWhile(tf.scalar(3))).to.deep.equal([1, 3]);
      expect(m.doWhile(tf.scalar(0))).to.deep.equal([1]);
    });
    it('do...while: return from the body', () => {
      expect(m.doWhileReturn(tf.scalar(10))).to.equal('returned at 4');
      expect(m.doWhileReturn(tf.scalar(2))).to.equal('finished at 2');
    });
    it('for with a tensor condition: continue runs the update', () => {
      expect(m.forHeader(tf.scalar(10))).to.deep.equal([0, 2, 3]);
      expect(m.forHeader(tf.scalar(2))).to.deep.equal([0]);
    });
    it('for(;;) left by a return under a tensor condition', () => {
      expect(m.forEver(tf.scalar(3))).to.equal(3);
      expect(m.forEver(tf.scalar(-1))).to.equal(1);
    });
    it('for with a tensor condition and a return', () => {
      expect(m.forReturn(tf.scalar(0))).to.equal('hit 4');
      expect(m.forReturn(tf.scalar(5))).to.equal('missed');
    });
  });

  describe('staged conditions agree with eager ones', () => {
    const values: Array<[string, () => tf.Tensor]> = [
      ['bool true', () => tf.scalar(true)], ['bool false', () => tf.scalar(false)], ['int32 0', () => tf.scalar(0, 'int32')],
      ['int32 -7', () => tf.scalar(-7, 'int32')], ['float32 -0', () => tf.scalar(-0)], ['float32 0.5', () => tf.scalar(0.5)],
      ['shape [1,1]', () => tf.tensor2d([[0]])], ['shape [1]', () => tf.tensor1d([3])],
    ];
    for (const f of ['pick', 'pickNot', 'pickTernary']) {
      for (const [name, make] of values) {
        it(`${f}(${name})`, () => {
          const eager = m[f](make()).dataSync()[0];
          const staged = stage(m[f])(make()).dataSync()[0];
          expect(staged).to.equal(eager);
        });
      }
    }
  });

  describe('nested functions and callbacks', () => {
    it('a tensor if inside forEach, a tensor ?: and && inside a function expression', () => {
      const xs = [1, 5, 3].map((v) => tf.scalar(v));
      expect(m.callbacks(xs, tf.scalar(3))).to.deep.equal([1, -1, 1, 0]);
      expect(m.callbacks([tf.scalar(0)], tf.scalar(0))).to.deep.equal([-1]);
    });
    it('tensor loops in a nested function declaration called from an arrow', () => {
      expect(m.nested(tf.scalar(4))).to.equal(40);
      expect(m.nested(tf.scalar(2))).to.equal(2);
      expect(m.nested(tf.scalar(-1))).to.equal(0);
    });
  });
});
