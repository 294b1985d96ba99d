import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import * as ag__ from '../../runtime/operators';
import { stage } from '../../backends/stage';

const values = (t: unknown): number[] => Array.from((t as tf.Tensor).dataSync());

function captureLog<T>(fn: () => T): { out: T; lines: string[] } {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => { lines.push(args.map(String).join(' ')); };
  try {
    return { out: fn(), lines };
  } finally {
    console.log = log;
  }
}

describe('stage(): stateful effects', () => {
  it('assigns a Variable inside the staged function on every call', () => {
    const v = tf.variable(tf.scalar(1));
    const bump = stage((x: tf.Scalar) => {
      v.assign(v.add(x));
      return v.mul(10);
    });
    expect(values(bump(tf.scalar(2)))).to.deep.equal([30]);
    expect(values(v)).to.deep.equal([3]);
    expect(values(bump(tf.scalar(2)))).to.deep.equal([50]);
    expect(values(v)).to.deep.equal([5]);
    v.dispose();
  });

  it('assigns a Variable in a staged loop body each iteration', () => {
    const acc = tf.variable(tf.scalar(0));
    const f = stage((n: tf.Scalar) => {
      let i = tf.scalar(0);
      ag__.whileStmt(() => i.less(n), () => { acc.assign(acc.add(i)); i = i.add(1); }, () => [i],
        ([a]) => { i = a as tf.Scalar; }, ['i'], { origin: 'acc.ts:3:3' });
      return i;
    });
    f(tf.scalar(4));
    expect(values(acc)).to.deep.equal([0 + 1 + 2 + 3]);
    f(tf.scalar(3));
    expect(values(acc)).to.deep.equal([6 + 3]);
    acc.dispose();
  });

  it('draws fresh random values on every call, unless seeded', () => {
    const noisy = stage((x: tf.Tensor) => x.add(tf.randomNormal([4])));
    const a = values(noisy(tf.zeros([4])));
    const b = values(noisy(tf.zeros([4])));
    expect(a).to.not.deep.equal(b);
    const seeded = stage((x: tf.Tensor) => x.add(tf.randomUniform([4], 0, 1, 'float32', 7)));
    expect(values(seeded(tf.zeros([4])))).to.deep.equal(values(seeded(tf.zeros([4]))));
    const drop = stage((x: tf.Tensor) => tf.dropout(x, 0.5));
    const masks = [0, 1, 2, 3].map(() => values(drop(tf.ones([64]))).join());
    expect(new Set(masks).size).to.be.greaterThan(1);
  });

  it('refuses Math.random() in the function (its draw would repeat on every call); tfjs draws and Math.random after it work', () => {
    const f = stage((x: tf.Tensor) => x.add(Math.random()));
    expect(() => f(tf.scalar(1))).to.throw(/Math\.random\(\) was called while stage\(\) traces the function .*tf\.randomUniform/);
    const g = stage((x: tf.Tensor) => x.add(tf.randomUniform([])));
    const [a, b] = [values(g(tf.scalar(0)))[0], values(g(tf.scalar(0)))[0]];
    expect(a).to.not.equal(b);
    expect(Math.random()).to.be.within(0, 1);
  });

  it('prints tensors at run time, on every call, in program order', () => {
    const f = stage((x: tf.Tensor) => {
      console.log('first', x);
      const y = x.add(1);
      y.print();
      console.log('trace-time only');
      return y;
    });
    const first = captureLog(() => f(tf.tensor1d([1])));
    const second = captureLog(() => f(tf.tensor1d([5])));
    expect(first.lines).to.deep.equal(['trace-time only', 'first Tensor\n    [1]', 'Tensor\n    [2]']);
    expect(second.lines).to.deep.equal(['first Tensor\n    [5]', 'Tensor\n    [6]']);
  });

  it('turns a throw under a tensor condition into a run-time check', () => {
    class NegativeInput extends Error {}
    const f = stage((x: tf.Scalar) => {
      let y = x;
      ag__.ifStmt(x.less(0), () => { throw new NegativeInput('x must be >= 0'); }, () => { y = x.sqrt() as tf.Scalar; },
        () => [y], ([a]) => { y = a as tf.Scalar; }, ['y'], 1, { origin: 'sqrt.ts:3:3' });
      return y;
    });
    expect(values(f(tf.scalar(9)))).to.deep.equal([3]);
    for (let i = 0; i < 2; i++) {
      expect(() => f(tf.scalar(-1))).to.throw(NegativeInput, 'x must be >= 0');
    }
    expect(values(f(tf.scalar(16)))).to.deep.equal([4]);
    expect(f.traceCount).to.equal(1);
  });

  it('stages ag__.assert with a tensor condition', () => {
    const f = stage((x: tf.Tensor) => {
      ag__.assert(x.sum().greater(0), ['sum must be positive'], (ok, message) => { if (!ok) throw new ag__.AssertionFailure(String(message)); }, { origin: 'a.ts:2:3' });
      return x.log();
    });
    expect(values(f(tf.tensor1d([1])))).to.deep.equal([0]);
    expect(() => f(tf.tensor1d([-1]))).to.throw(ag__.AssertionFailure, 'sum must be positive');
  });
});

describe('stage(): gradients', () => {
  it('gives the right gradients when called inside tf.grad', () => {
    const g = (x: tf.Tensor): tf.Tensor => {
      let y = x.square().sum();
      ag__.ifStmt(y.greater(10), () => { y = y.mul(3); }, () => { y = y.add(x.sum()); }, () => [y],
        ([a]) => { y = a as tf.Tensor; }, ['y'], 1, { origin: 'g.ts:3:3' });
      return y;
    };
    const staged = stage(g);
    for (const xs of [[1, 2], [3, 4]]) {
      const x = tf.tensor1d(xs);
      expect(values(tf.grad(staged)(x))).to.deep.equal(values(tf.grad(g)(x)));
    }
  });

  it('traces tf.grad and an optimizer step inside the staged function', () => {
    const w = tf.variable(tf.tensor1d([1, -1]));
    const opt = tf.train.sgd(0.1);
    const step = stage((x: tf.Tensor1D) => opt.minimize(() => w.mul(x).sum().square() as tf.Scalar, true)!);
    const eagerW = tf.variable(tf.tensor1d([1, -1]));
    const eagerOpt = tf.train.sgd(0.1);
    for (let i = 0; i < 3; i++) {
      const x = tf.tensor1d([1, 2 + i]);
      const loss = step(x);
      const eagerLoss = eagerOpt.minimize(() => eagerW.mul(x).sum().square() as tf.Scalar, true)!;
      expect(values(loss)[0]).to.be.closeTo(values(eagerLoss)[0], 1e-4);
      values(w).forEach((v, k) => expect(v).to.be.closeTo(values(eagerW)[k], 1e-5));
    }
    w.dispose();
    eagerW.dispose();
  });
});
