/**
 * Gradients through staged control flow, computed in the graph: tf.grad, tf.valueAndGrad,
 * tf.variableGrads and optimizer.minimize called INSIDE a staged function over converted if/while
 * (compiled from TypeScript with the transformer), compared with the same calls run eagerly.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../index';
import { StagingError } from '../../backends/errors';
import { compile, formatDiagnostics, load } from '../harness/compile';

const source = `
import * as tf from '@tensorflow/tfjs';

export function powerLoop(x: tf.Tensor, n: tf.Scalar): tf.Scalar {
  'use autograph';
  let h = x;
  let i = tf.scalar(0);
  while (i.less(n)) {
    h = h.mul(x).add(0.5);
    i = i.add(1);
  }
  return h.sum();
}

export function branchy(x: tf.Tensor): tf.Scalar {
  'use autograph';
  let y = x.square().sum();
  if (y.greater(10)) {
    y = y.mul(x.sum()).sin();
  } else {
    y = y.add(x.prod()).exp();
  }
  return y;
}

export function rnn(xs: tf.Tensor3D, h0: tf.Tensor2D, wx: tf.Tensor2D, wh: tf.Tensor2D, b: tf.Tensor1D): tf.Tensor2D {
  'use autograph';
  let h = h0;
  for (const x of xs) {
    h = tf.tanh(x.matMul(wx).add(h.matMul(wh)).add(b));
  }
  return h;
}

/** An if in a loop body: which branch runs changes per iteration. */
export function bouncing(x: tf.Tensor1D, w: tf.Tensor1D, n: tf.Scalar): tf.Scalar {
  'use autograph';
  let h = x;
  let i = tf.scalar(0);
  while (i.less(n)) {
    if (h.sum().greater(0)) {
      h = h.mul(w).sub(1);
    } else {
      h = h.square().add(w);
    }
    i = i.add(1);
  }
  return h.sum();
}

/** A loop in a loop. */
export function nestedLoops(x: tf.Tensor1D, w: tf.Tensor1D, n: tf.Scalar): tf.Scalar {
  'use autograph';
  let h = x;
  let i = tf.scalar(0);
  while (i.less(n)) {
    let j = tf.scalar(0);
    while (j.less(i)) {
      h = h.mul(w).sin();
      j = j.add(1);
    }
    h = h.add(x);
    i = i.add(1);
  }
  return h.sum();
}

/** A loop in a branch. */
export function loopInBranch(x: tf.Tensor1D, w: tf.Tensor1D): tf.Scalar {
  'use autograph';
  let h = x;
  if (x.sum().greater(0)) {
    let i = tf.scalar(0);
    while (i.less(3)) {
      h = h.mul(w).cos();
      i = i.add(1);
    }
  } else {
    h = h.mul(w).mul(w);
  }
  return h.sum();
}

export function cumulative(x: tf.Tensor1D, n: tf.Scalar): tf.Scalar {
  'use autograph';
  let h = x;
  let i = tf.scalar(0);
  while (i.less(n)) {
    h = tf.cumprod(h);
    i = i.add(1);
  }
  return h.sum();
}
`;

let m: Record<string, any>;

const close = (actual: tf.Tensor, expected: tf.Tensor, tolerance = 1e-5): void => {
  expect(actual.shape).to.deep.equal(expected.shape);
  const a = actual.dataSync();
  const e = expected.dataSync();
  a.forEach((v, i) => expect(v, `element ${i}`).to.be.closeTo(e[i], tolerance * Math.max(1, Math.abs(e[i]))));
};

describe('stage(): gradients through staged control flow, computed in the graph', () => {
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });

  it('tf.grad through a tensor while loop equals eager, for 0, 1 and 4 iterations', () => {
    const gradOf = (x: tf.Tensor, n: tf.Scalar): tf.Tensor => tf.grad((v: tf.Tensor) => m.powerLoop(v, n))(x);
    const staged = stage(gradOf);
    const x = tf.tensor1d([0.5, -1.5, 2]);
    for (const n of [0, 1, 4]) close(staged(x, tf.scalar(n)), gradOf(x, tf.scalar(n)));
    expect(staged.traceCount).to.equal(1);
    const { stats } = staged.inspect(x, tf.scalar(1));
    expect(stats.whiles).to.equal(2); // the forward loop and the backward loop
  });

  it('tf.grad through a tensor if equals eager on both branches', () => {
    const gradOf = (x: tf.Tensor): tf.Tensor => tf.grad(m.branchy)(x);
    const staged = stage(gradOf);
    for (const xs of [[0.1, 0.2, 0.3], [2, 3, -1]]) close(staged(tf.tensor1d(xs)), gradOf(tf.tensor1d(xs)));
    expect(staged.traceCount).to.equal(1);
    expect(staged.inspect(tf.tensor1d([1, 2, 3])).stats.ifs).to.equal(2);
  });

  it('tf.valueAndGrad over a loop with an if in its body', () => {
    const f = (x: tf.Tensor1D, w: tf.Tensor1D, n: tf.Scalar) =>
      tf.valueAndGrads((a: tf.Tensor, b: tf.Tensor) => m.bouncing(a, b, n))([x, w]);
    const staged = stage((x: tf.Tensor1D, w: tf.Tensor1D, n: tf.Scalar) => {
      const { value, grads } = f(x, w, n);
      return [value, ...grads];
    });
    const x = tf.tensor1d([0.3, -0.2]);
    const w = tf.tensor1d([0.9, 1.1]);
    for (const n of [1, 3, 6]) {
      const [value, dx, dw] = staged(x, w, tf.scalar(n)) as tf.Tensor[];
      const eager = f(x, w, tf.scalar(n));
      close(value, eager.value);
      close(dx, eager.grads[0]);
      close(dw, eager.grads[1]);
    }
  });

  it('loops in loops and loops in branches', () => {
    const x = tf.tensor1d([0.3, -0.7]);
    const w = tf.tensor1d([0.8, 1.2]);
    const nested = (a: tf.Tensor1D, b: tf.Tensor1D, n: tf.Scalar) => tf.grads((u: tf.Tensor, v: tf.Tensor) => m.nestedLoops(u, v, n))([a, b]);
    const stagedNested = stage(nested);
    for (const n of [2, 4]) {
      const got = stagedNested(x, w, tf.scalar(n));
      const want = nested(x, w, tf.scalar(n));
      got.forEach((g, i) => close(g, want[i]));
    }
    const inBranch = (a: tf.Tensor1D, b: tf.Tensor1D) => tf.grads((u: tf.Tensor, v: tf.Tensor) => m.loopInBranch(u, v))([a, b]);
    const stagedInBranch = stage(inBranch);
    for (const a of [x, x.neg() as tf.Tensor1D]) {
      const got = stagedInBranch(a, w);
      const want = inBranch(a, w);
      got.forEach((g, i) => close(g, want[i]));
    }
  });

  it('a kernel without a registered gradient is a StagingError naming it and the line, only when differentiated', () => {
    const staged = stage((x: tf.Tensor1D) => tf.grad((v: tf.Tensor) => m.cumulative(v, tf.scalar(2)))(x));
    expect(() => staged(tf.tensor1d([1, 2]))).to.throw(StagingError, /'Cumprod'.*main\.ts:\d+/);
    // The same loop staged without a gradient runs.
    const forward = stage((x: tf.Tensor1D) => m.cumulative(x, tf.scalar(2)));
    close(forward(tf.tensor1d([1, 2])), m.cumulative(tf.tensor1d([1, 2]), tf.scalar(2)));
  });
});
