/**
 * Gradients through staged control flow, computed in the graph: tf.grad, tf.valueAndGrad,
 * tf.variableGrads and optimizer.minimize called INSIDE a staged function over converted if/while
 * (compiled from TypeScript with the transformer), compared with the same calls run eagerly.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, formatDiagnostics, load } from '../harness/compile';
import * as ag__ from '../../runtime/operators';
import type { Graph, ListNode } from '../../backends/graph/graph';
import { listMemory, resetListMemoryPeak } from '../../backends/engines/tfjs/tensor_lists';

/** The list operations of `graph` and its sub-graphs, with the values they push. */
function listOps(graph: Graph, found: { op: string; pushed?: string }[] = []): { op: string; pushed?: string }[] {
  for (const node of graph.nodes) {
    if (node.kind === 'List') {
      const pushed = node.op === 'TensorListPushBack' ? graph.nodes[(node as ListNode).inputs[1].node] : undefined;
      found.push({ op: node.op, pushed: pushed && (pushed.kind === 'Kernel' ? pushed.op : pushed.kind) });
    }
    if (node.kind === 'If') [node.then, node.else].forEach((g) => listOps(g, found));
    if (node.kind === 'While') [node.cond, node.body].forEach((g) => listOps(g, found));
  }
  return found;
}

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

/** A loop with an early exit and an early return. */
export function untilLarge(x: tf.Tensor1D, w: tf.Tensor1D, limit: tf.Scalar): tf.Scalar {
  'use autograph';
  let h = x;
  for (const row of tf.stack([w, w.mul(2), w.mul(3), w.mul(4)])) {
    h = h.mul(row).add(0.1);
    if (h.sum().greater(limit)) break;
    if (h.sum().less(-100)) return h.sum().neg();
  }
  return h.sum();
}

/** Gradient descent as a tensor loop: a gradient (through another loop) taken in each iteration. */
export function descend(x: tf.Tensor1D, w: tf.Tensor1D, steps: tf.Scalar): tf.Tensor1D {
  'use autograph';
  let i = tf.scalar(0);
  while (i.less(steps)) {
    const g = tf.grad((v: tf.Tensor) => powerLoop(v.mul(w), tf.scalar(2)))(x);
    x = x.sub(g.mul(0.05));
    i = i.add(1);
  }
  return x;
}

/** A training loop: runs step() while the step counter is below steps (a tensor). */
export function trainLoop(step: () => tf.Scalar, steps: tf.Scalar): tf.Scalar {
  'use autograph';
  let loss = tf.scalar(0);
  let i = tf.scalar(0);
  while (i.less(steps)) {
    loss = step();
    i = i.add(1);
  }
  return loss;
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

  describe('backpropagation through time over a staged 64-step tanh RNN (hidden 16, batch 4)', () => {
    const [T, B, I, H] = [64, 4, 3, 16];
    type Weights = { wx: tf.Tensor; wh: tf.Tensor; b: tf.Tensor; h0: tf.Tensor };
    let xs: tf.Tensor3D;
    let target: tf.Tensor;
    let init: Weights;
    before(() => {
      xs = tf.randomNormal([T, B, I], 0, 1, 'float32', 1) as tf.Tensor3D;
      target = tf.randomNormal([B, H], 0, 1, 'float32', 2);
      init = {
        wx: tf.randomNormal([I, H], 0, 0.5, 'float32', 3), wh: tf.randomNormal([H, H], 0, 0.3, 'float32', 4),
        b: tf.randomNormal([H], 0, 0.1, 'float32', 5), h0: tf.randomNormal([B, H], 0, 0.1, 'float32', 6),
      };
    });
    after(() => tf.dispose([xs, target, init]));
    const lossOf = (w: Weights, x: tf.Tensor3D) =>
      m.rnn(x, w.h0, w.wx, w.wh, w.b).sub(target).square().mean() as tf.Scalar;

    it('tf.grads of the weights equal eager within 1e-5', () => {
      const gradsOf = (x: tf.Tensor3D, wx: tf.Tensor, wh: tf.Tensor, b: tf.Tensor, h0: tf.Tensor) =>
        tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor, e: tf.Tensor) => lossOf({ wx: a, wh: c, b: d, h0: e }, x))([wx, wh, b, h0]);
      const staged = stage(gradsOf);
      const got = staged(xs, init.wx, init.wh, init.b, init.h0);
      const want = gradsOf(xs, init.wx, init.wh, init.b, init.h0);
      got.forEach((g, i) => close(g, want[i]));
      expect(Math.max(...got.map((g) => g.abs().max().dataSync()[0]))).to.be.greaterThan(1e-3);
    });

    it('tf.variableGrads of variables read in the loop equal eager', () => {
      const vars = { wx: tf.variable(init.wx), wh: tf.variable(init.wh), b: tf.variable(init.b), h0: tf.variable(init.h0) };
      const f = (x: tf.Tensor3D) => {
        const { value, grads } = tf.variableGrads(() => lossOf(vars, x));
        return [value, grads[vars.wx.name], grads[vars.wh.name], grads[vars.b.name], grads[vars.h0.name]];
      };
      const staged = stage(f);
      const got = staged(xs);
      const want = f(xs);
      got.forEach((g, i) => close(g, want[i]));
      Object.values(vars).forEach((v) => v.dispose());
    });

    it('accumulates the hidden state and the row index only: memory linear in steps, no tensor leaks', () => {
      // The tfjs executor's list accounting (with 'auto' these lists would be ONNX sequences), of
      // the gradient's own lists: the optimizer's accumulated products would push each step's rows
      // of the weight gradients' products too (spec/backends/accumulated_products.spec.ts).
      const gradsOf = stage((x: tf.Tensor3D, wx: tf.Tensor, wh: tf.Tensor, b: tf.Tensor, h0: tf.Tensor) =>
        tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => lossOf({ wx: a, wh: c, b: d, h0 }, x))([wx, wh, b]),
      { engine: 'tfjs', optimize: { accumulatedProducts: false } });
      const pushes = listOps(gradsOf.inspect(xs, init.wx, init.wh, init.b, init.h0).program.graph)
        .filter((o) => o.op === 'TensorListPushBack').map((o) => o.pushed).sort();
      // h_t (a loop variable, read by MatMul's gradient; tanh's output is h_{t+1}, carried over) and
      // the row index t (the row x_t = xs[t] is gathered again): no constants, weights or rows.
      expect(pushes).to.deep.equal(['Input', 'Input']);
      const figures: string[] = [];
      for (const steps of [16, 64, 256]) {
        const x = tf.randomNormal([steps, B, I], 0, 1, 'float32', 7) as tf.Tensor3D;
        tf.dispose(gradsOf(x, init.wx, init.wh, init.b, init.h0)); // traces
        const tensors = tf.memory().numTensors;
        resetListMemoryPeak();
        for (let call = 0; call < 2; call++) tf.dispose(gradsOf(x, init.wx, init.wh, init.b, init.h0));
        expect(tf.memory().numTensors).to.equal(tensors);
        expect(listMemory.elements).to.equal(0);
        expect(listMemory.peakElements).to.equal(2 * steps);
        expect(listMemory.peakBytes).to.equal(steps * (B * H * 4 + 4));
        figures.push(`${steps} steps: ${listMemory.peakElements} tensors, ${listMemory.peakBytes} bytes`);
        x.dispose();
      }
      if (process.env.AUTOGRAPH_FIGURES) console.log(`      accumulators: ${figures.join('; ')}`);
    });

    it('optimizer.minimize: a staged training step, then a whole staged training loop, equal eager training', () => {
      const make = () => ({ wx: tf.variable(init.wx), wh: tf.variable(init.wh), b: tf.variable(init.b), h0: tf.variable(init.h0) });
      const eager = make();
      const eagerOpt = tf.train.adam(0.01);
      const staged = make();
      const stagedOpt = tf.train.adam(0.01);
      const step = stage((x: tf.Tensor3D) => stagedOpt.minimize(() => lossOf(staged, x), true)!);
      for (let i = 0; i < 3; i++) {
        const loss = step(xs);
        const eagerLoss = eagerOpt.minimize(() => lossOf(eager, xs), true)!;
        close(loss, eagerLoss);
      }
      (Object.keys(eager) as (keyof typeof eager)[]).forEach((k) => close(staged[k], eager[k]));
      expect(step.traceCount).to.equal(1);

      // The training loop itself staged: an outer tensor loop over steps, the BPTT loop inside it.
      const looped = make();
      const loopOpt = tf.train.sgd(0.05);
      const train = stage((x: tf.Tensor3D, steps: tf.Scalar) => m.trainLoop(() => loopOpt.minimize(() => lossOf(looped, x), true)!, steps));
      const eagerLooped = make();
      const eagerLoopOpt = tf.train.sgd(0.05);
      const last = train(xs, tf.scalar(5)) as tf.Scalar;
      let eagerLast: tf.Scalar | undefined;
      for (let i = 0; i < 5; i++) eagerLast = eagerLoopOpt.minimize(() => lossOf(eagerLooped, xs), true)!;
      close(last, eagerLast!);
      (Object.keys(eager) as (keyof typeof eager)[]).forEach((k) => close(looped[k], eagerLooped[k]));
      expect(train.inspect(xs, tf.scalar(5)).stats.whiles).to.equal(3); // training loop, BPTT forward, BPTT backward
      [eager, staged, looped, eagerLooped].forEach((w) => Object.values(w).forEach((v) => v.dispose()));
    });
  });

  it('through a loop with break and return', () => {
    const gradOf = (x: tf.Tensor1D, w: tf.Tensor1D, limit: tf.Scalar) =>
      tf.grads((a: tf.Tensor, b: tf.Tensor) => m.untilLarge(a, b, limit))([x, w]);
    const staged = stage(gradOf);
    const x = tf.tensor1d([0.5, 0.8]);
    const w = tf.tensor1d([1.1, 0.9]);
    for (const limit of [1, 3, 1000]) {
      const got = staged(x, w, tf.scalar(limit));
      gradOf(x, w, tf.scalar(limit)).forEach((g, i) => close(got[i], g));
    }
    expect(staged.traceCount).to.equal(1);
  });

  it('a gradient taken inside a loop body, through a loop of its own', () => {
    const staged = stage(m.descend);
    const x = tf.tensor1d([0.4, -0.3]);
    const w = tf.tensor1d([0.7, 1.2]);
    close(staged(x, w, tf.scalar(4)), m.descend(x, w, tf.scalar(4)));
    const dot = staged.inspect(x, w, tf.scalar(4)).dot();
    expect(dot).to.contain('TensorListPushBack').and.to.contain('list<float32[2]>');
  });

  it('a variable the loop reads and the function assigns after the loop: the gradient uses the value the loop read', () => {
    const v = tf.variable(tf.tensor1d([0.5, 0.25]));
    const f = (a: tf.Tensor) => {
      let h = a;
      let i = tf.scalar(0);
      ag__.whileStmt(() => i.less(3), () => {
        h = h.mul(v).sin();
        i = i.add(1);
      }, () => [h, i], ([b, c]) => {
        h = b as tf.Tensor;
        i = c as tf.Scalar;
      }, ['h', 'i'], { origin: 'assign_after.ts:4:3' });
      v.assign(v.add(1));
      return h.sum() as tf.Scalar;
    };
    const staged = stage((x: tf.Tensor) => tf.grad(f)(x));
    const x = tf.tensor1d([1, 2]);
    const got = staged(x);
    v.assign(tf.tensor1d([0.5, 0.25]));
    close(got, tf.grad(f)(x));
    v.dispose();
  });

  it('fused kernels in a loop body (tf.layers.dense and tf.fused.matMul trace as _FusedMatMul there)', () => {
    const w = tf.tensor2d([[0.5, -0.2], [0.3, 0.8]]);
    const b = tf.tensor1d([0.1, -0.1]);
    const f = (x: tf.Tensor, activation: 'relu' | 'sigmoid' | 'linear') => {
      let h = x;
      let i = tf.scalar(0);
      ag__.whileStmt(() => i.less(3), () => {
        h = tf.fused.matMul({ a: h as tf.Tensor2D, b: w, bias: b, activation });
        i = i.add(1);
      }, () => [h, i], ([c, d]) => {
        h = c as tf.Tensor;
        i = d as tf.Scalar;
      }, ['h', 'i'], { origin: 'fused.ts:4:3' });
      return h.sum() as tf.Scalar;
    };
    const x = tf.tensor2d([[1, 2], [-0.5, 0.3]]);
    for (const activation of ['relu', 'sigmoid', 'linear'] as const) {
      const gradOf = (a: tf.Tensor) => tf.grad((v: tf.Tensor) => f(v, activation))(a);
      close(stage(gradOf)(x), gradOf(x));
    }
  });

  it('a loop recorded under a tape whose gradient is not taken keeps no counter or accumulators', () => {
    const staged = stage((x: tf.Tensor1D) => {
      let aux: tf.Tensor = x;
      const g = tf.grad((v: tf.Tensor) => {
        aux = m.powerLoop(v, tf.scalar(3)); // depends on v, but is not part of what is differentiated
        return v.square().sum() as tf.Scalar;
      })(x);
      return [g, aux];
    });
    const x = tf.tensor1d([0.5, 2]);
    const [g, aux] = staged(x);
    close(g, x.mul(2));
    close(aux, m.powerLoop(x, tf.scalar(3)));
    const info = staged.inspect(x);
    expect(listOps(info.program.graph)).to.deep.equal([]);
    expect(info.stats.whiles).to.equal(1);
  });

  it('does not accumulate constants or loop variables the body passes through', () => {
    const f = (x: tf.Tensor1D, w: tf.Tensor1D, n: tf.Scalar): tf.Scalar => {
      let h = x;
      let scale = w; // loop state the body never changes
      let i = tf.scalar(0);
      ag__.whileStmt(() => i.less(n), () => {
        h = h.mul(scale).add(tf.tensor1d([0.5, 0.25])).sin() as tf.Tensor1D;
        i = i.add(1);
      }, () => [h, scale, i], ([a, s2, c]) => {
        h = a as tf.Tensor1D;
        scale = s2 as tf.Tensor1D;
        i = c as tf.Scalar;
      }, ['h', 'scale', 'i'], { origin: 'pass.ts:4:3' });
      return h.sum();
    };
    const gradOf = (x: tf.Tensor1D, w: tf.Tensor1D, n: tf.Scalar) => tf.grads((a: tf.Tensor, b: tf.Tensor) => f(a as tf.Tensor1D, b as tf.Tensor1D, n))([x, w]);
    const staged = stage(gradOf);
    const x = tf.tensor1d([0.2, -0.4]);
    const w = tf.tensor1d([1.5, 0.5]);
    const got = staged(x, w, tf.scalar(3));
    gradOf(x, w, tf.scalar(3)).forEach((g, i) => close(got[i], g));
    const pushes = listOps(staged.inspect(x, w, tf.scalar(3)).program.graph).filter((o) => o.op === 'TensorListPushBack');
    // h (read by Mul's gradient) and the argument of sin (read by its gradient): not scale, not the constant.
    expect(pushes.map((o) => o.pushed).sort()).to.deep.equal(['Add', 'Input']);
  });

  it('tf.grad of a staged function: one step on the tape, its gradient a backward program', () => {
    const x = tf.tensor1d([0.3, -0.2]);
    const w = tf.variable(tf.tensor1d([0.9, 1.1]));
    const f = (a: tf.Tensor1D, n: tf.Scalar): tf.Scalar => m.bouncing(a, w, n);
    const staged = stage(f);
    const tapeSteps = (run: () => tf.Tensor): number => {
      let steps = 0;
      tf.dispose(tf.grad(() => {
        const y = run();
        steps = (tf.engine().state as unknown as { activeTape: unknown[] }).activeTape.length;
        return y as tf.Scalar;
      })(x));
      return steps;
    };
    expect(tapeSteps(() => staged(x, tf.scalar(5)))).to.equal(1);
    for (const n of [1, 5]) {
      close(tf.grad((a: tf.Tensor) => staged(a as tf.Tensor1D, tf.scalar(n)))(x), tf.grad((a: tf.Tensor) => f(a as tf.Tensor1D, tf.scalar(n)))(x));
      const got = tf.variableGrads(() => staged(x, tf.scalar(n)));
      const want = tf.variableGrads(() => f(x, tf.scalar(n)));
      close(got.value, want.value);
      close(got.grads[w.name], want.grads[w.name]);
    }
    const before = tf.memory().numTensors;
    tf.dispose(tf.grad((a: tf.Tensor) => staged(a as tf.Tensor1D, tf.scalar(5)))(x));
    expect(tf.memory().numTensors).to.equal(before);
    // Under a gradient of a gradient the staged function runs kernel by kernel on the tape.
    const second = (g: (a: tf.Tensor1D, n: tf.Scalar) => tf.Scalar) =>
      tf.grad((a: tf.Tensor) => tf.grad((b: tf.Tensor) => g(b as tf.Tensor1D, tf.scalar(3)))(a).sum())(x);
    close(second(staged), second(f));
    w.dispose();
  });

  describe('what raises a StagingError instead of giving a wrong gradient', () => {
    const loop = (x: tf.Tensor, body: (h: tf.Tensor) => tf.Tensor): tf.Scalar => {
      let h = x;
      let i = tf.scalar(0);
      ag__.whileStmt(() => i.less(2), () => {
        h = body(h);
        i = i.add(1);
      }, () => [h, i], ([a, c]) => {
        h = a as tf.Tensor;
        i = c as tf.Scalar;
      }, ['h', 'i'], { origin: 'errors.ts:7:3' });
      return h.sum();
    };

    it('a loop that assigns a variable', () => {
      const v = tf.variable(tf.scalar(1));
      const staged = stage((x: tf.Tensor) => tf.grad((a: tf.Tensor) => loop(a, (h) => {
        v.assign(v.add(1));
        return h.mul(v);
      }))(x));
      expect(() => staged(tf.tensor1d([1, 2]))).to.throw(StagingError, /loop \(errors\.ts:7:3\).*assigns the variable/);
      expect(v.dataSync()[0]).to.equal(1);
      v.dispose();
    });

    it('a gradient of a gradient inside the staged function (at the top level it runs on the tape)', () => {
      const first = (x: tf.Tensor) => tf.grad((a: tf.Tensor) => loop(a, (h) => h.mul(a).sin()))(x).sum();
      const staged = stage((x: tf.Tensor) => tf.grad(first)(x));
      expect(() => staged(tf.tensor1d([0.5, 0.7]))).to.throw(StagingError, /gradient of a gradient/);
      const x = tf.tensor1d([0.5, 0.7]);
      close(tf.grad(stage(first))(x), tf.grad(first)(x));
    });
  });

  it('a kernel without a registered gradient is a StagingError naming it and the line, only when differentiated', () => {
    const staged = stage((x: tf.Tensor1D) => tf.grad((v: tf.Tensor) => m.cumulative(v, tf.scalar(2)))(x));
    expect(() => staged(tf.tensor1d([1, 2]))).to.throw(StagingError, /'Cumprod'.*main\.ts:\d+/);
    // The same loop staged without a gradient runs.
    const forward = stage((x: tf.Tensor1D) => m.cumulative(x, tf.scalar(2)));
    close(forward(tf.tensor1d([1, 2])), m.cumulative(tf.tensor1d([1, 2]), tf.scalar(2)));
  });
});
