/**
 * Projections of a sequence's step slices hoisted out of loops (backends/optimize/projection_hoisting.ts):
 * the RNN's x_t W computed for every step as one product before the loop, on both engines, equal
 * to eager within the op checks' tolerance; and left alone when the sequence or the matrix changes
 * in the loop.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../index';
import type { Graph, WhileNode } from '../../backends/graph/graph';
import { onnxRuntimeAvailable } from '../../backends/engines/onnx/runtime';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { expectSameTensor } from '../onnx/support';
import { HOIST_INNER_FROM, HOIST_ROWS_UP_TO, HOIST_UP_TO_WORK } from '../../backends/optimize/projection_hoisting';

const source = `
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

export function forOf(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = tf.zeros([xs.shape[1], u.shape[0]]);
  for (const x of xs) h = tf.tanh(x.matMul(w).add(h.matMul(u)));
  return h;
}

export function byCounter(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D, steps: tf.Scalar): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = tf.zeros([xs.shape[1], u.shape[0]]);
  const one = tf.scalar(1, 'int32');
  for (let t = tf.scalar(0, 'int32'); t.less(steps); t = t.add(one)) {
    h = tf.tanh(xs.gather(t).matMul(w, false, true).add(h.matMul(u)));
  }
  return h;
}

export function byRange(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D, steps: tf.Scalar): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = tf.zeros([xs.shape[1], u.shape[0]]);
  for (const t of range(steps)) h = tf.tanh(tf.gather(xs, t).matMul(w).add(h.matMul(u)));
  return h;
}

export function withBreak(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D, limit: number): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = tf.zeros([xs.shape[1], u.shape[0]]);
  for (const x of xs) {
    h = tf.tanh(x.matMul(w).add(h.matMul(u)));
    if (h.sum().greater(limit)) break;
  }
  return h;
}

export function sequenceChanges(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D, steps: tf.Scalar): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = tf.zeros([xs.shape[1], u.shape[0]]);
  for (const t of range(steps)) {
    h = tf.tanh(xs.gather(t).matMul(w).add(h.matMul(u)));
    xs = xs.mul(0.5);
  }
  return h;
}

export function matrixChanges(xs: tf.Tensor3D, w: tf.Tensor2D, u: tf.Tensor2D): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = tf.zeros([xs.shape[1], u.shape[0]]);
  for (const x of xs) {
    h = tf.tanh(x.matMul(w).add(h.matMul(u)));
    w = w.mul(0.9);
  }
  return h;
}

export function variableAssigned(xs: tf.Tensor3D, w: tf.Variable, u: tf.Tensor2D): tf.Tensor {
  'use autograph';
  let h: tf.Tensor = tf.zeros([xs.shape[1], u.shape[0]]);
  for (const x of xs) {
    h = tf.tanh(x.matMul(w).add(h.matMul(u)));
    w.assign(w.mul(0.9));
  }
  return h;
}
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let m: Record<string, any>;
/** BatchMatMul's tolerance in the op checks (spec/onnx/op_cases.ts). */
const TOLERANCE = 1e-6;
const ENGINES = onnxRuntimeAvailable() ? (['tfjs', 'onnx'] as const) : (['tfjs'] as const);

const loopOf = (g: Graph): WhileNode => g.nodes.find((n): n is WhileNode => n.kind === 'While')!;
const products = (g: Graph): number => g.nodes.filter((n) => n.kind === 'Kernel' && n.op === 'BatchMatMul').length;

function weights(features = 3, units = 4): { xs: tf.Tensor3D; w: tf.Tensor2D; u: tf.Tensor2D } {
  return tf.tidy(() => ({
    xs: tf.randomNormal([6, 2, features], 0, 1, 'float32', 1) as tf.Tensor3D,
    w: tf.randomNormal([features, units], 0, 0.5, 'float32', 2) as tf.Tensor2D,
    u: tf.randomNormal([units, units], 0, 0.5, 'float32', 3) as tf.Tensor2D,
  }));
}

/** Staged on `engine` equals eager for each argument list; returns the staged function's graph for the first. */
function equalsEager(name: string, engine: 'tfjs' | 'onnx', argLists: unknown[][]): { graph: Graph; optimizations: string[] } {
  const staged = stage(m[name], { engine });
  try {
    for (const args of argLists) {
      const want = tf.tidy(() => m[name](...args) as tf.Tensor);
      const got = staged(...args) as tf.Tensor;
      expectSameTensor(got, want, TOLERANCE, `${name} on ${engine}`);
      tf.dispose([want, got]);
    }
    const info = staged.inspect(...argLists[0]);
    return { graph: info.program.graph, optimizations: info.optimizations };
  } finally {
    staged.dispose();
  }
}

describe('stage(): projections of a sequence hoisted out of loops', () => {
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });

  for (const engine of ENGINES) {
    it(`for (const x of xs): x W is one product before the loop, equal to eager, 0 steps included [${engine}]`, () => {
      const { xs, w, u } = weights();
      const empty = tf.zeros([0, 2, 3]);
      const { graph, optimizations } = equalsEager('forOf', engine, [[xs, w, u], [empty, w, u]]);
      expect(products(loopOf(graph).body)).to.equal(1); // h U only
      expect(products(graph)).to.equal(1); // xs W
      expect(optimizations).to.have.length(1);
      expect(optimizations[0]).to.match(/1 matrix product .* hoisted out of the loop at main\.ts:\d+:\d+/);
      tf.dispose([xs, w, u, empty]);
    });

    it(`xs.gather(t) with the counter (transposed W, a step of tf.scalar(1) from outside) and range(): 0, some and all steps [${engine}]`, () => {
      const { xs, w, u } = weights();
      const wT = w.transpose();
      const counts = [0, 2, 6].map((n) => tf.scalar(n, 'int32'));
      const counter = equalsEager('byCounter', engine, counts.map((n) => [xs, wT, u, n]));
      expect(products(loopOf(counter.graph).body)).to.equal(1);
      const ranged = equalsEager('byRange', engine, counts.map((n) => [xs, w, u, n]));
      expect(products(loopOf(ranged.graph).body)).to.equal(1);
      tf.dispose([xs, wT, w, u, ...counts]);
    });

    it(`a loop that breaks early: the rows it does not reach are computed and never read [${engine}]`, () => {
      const { xs, w, u } = weights();
      const { graph } = equalsEager('withBreak', engine, [[xs, w, u, 0.5], [xs, w, u, -100], [xs, w, u, 100]]);
      expect(products(loopOf(graph).body)).to.equal(1);
      tf.dispose([xs, w, u]);
    });
  }

  it('leaves the loop alone when the sequence or the matrix changes in it', () => {
    const { xs, w, u } = weights();
    const steps = tf.scalar(4, 'int32');
    for (const engine of ENGINES) {
      const sequence = equalsEager('sequenceChanges', engine, [[xs, w, u, steps]]);
      expect(products(loopOf(sequence.graph).body)).to.equal(2);
      expect(sequence.optimizations).to.deep.equal([]);
      const matrix = equalsEager('matrixChanges', engine, [[xs, w, u]]);
      expect(products(loopOf(matrix.graph).body)).to.equal(2);
    }
    const v = tf.variable(w.clone());
    const staged = stage(m.variableAssigned, { engine: 'tfjs' });
    const got = staged(xs, v, u) as tf.Tensor;
    v.assign(w);
    const want = tf.tidy(() => m.variableAssigned(xs, v, u) as tf.Tensor);
    expectSameTensor(got, want, TOLERANCE, 'variableAssigned');
    expect(products(loopOf(staged.inspect(xs, v, u).program.graph).body)).to.equal(2);
    staged.dispose();
    tf.dispose([xs, w, u, steps, v, got, want]);
  });

  it('tf.grad of the staged RNN with respect to W equals eager (runs the program as it was before hoisting), relaxed dims included', () => {
    const { xs, w, u } = weights();
    const shorter = xs.slice([0, 0, 0], [4, 2, 3]);
    const staged = stage(m.forOf);
    for (const seq of [xs, shorter, xs]) {
      const gradOf = (f: (...a: unknown[]) => tf.Tensor) => tf.grad((v: tf.Tensor) => f(seq, v, u).square().sum())(w);
      const want = gradOf(m.forOf);
      const got = gradOf(staged as unknown as (...a: unknown[]) => tf.Tensor);
      expectSameTensor(got, want, 1e-5, 'dW');
      tf.dispose([want, got]);
    }
    expect(staged.inspect(xs, w, u).optimizations).to.have.length(1);
    staged.dispose();
    tf.dispose([xs, w, u, shorter]);
  });

  it('leaves a per-step product above HOIST_UP_TO_WORK in the loop (it runs at GEMM speed there)', () => {
    const xs = tf.randomNormal([2, 64, 64], 0, 1, 'float32', 5) as tf.Tensor3D;
    const w = tf.randomNormal([64, 128], 0, 0.1, 'float32', 6) as tf.Tensor2D;
    const u = tf.randomNormal([128, 128], 0, 0.1, 'float32', 7) as tf.Tensor2D;
    expect(64 * 64 * 128).to.be.above(HOIST_UP_TO_WORK);
    const { graph, optimizations } = equalsEager('forOf', 'tfjs', [[xs, w, u]]);
    expect(products(loopOf(graph).body)).to.equal(2);
    expect(optimizations).to.deep.equal([]);
    tf.dispose([xs, w, u]);
  });

  it('leaves a product with a large step result and a small inner dim in the loop, hoists it with a larger inner dim', () => {
    const u = tf.randomNormal([32, 32], 0, 0.1, 'float32', 7) as tf.Tensor2D;
    const hoisted = (features: number): boolean => {
      const xs = tf.randomNormal([3, 64, features], 0, 1, 'float32', 5) as tf.Tensor3D;
      const w = tf.randomNormal([features, 32], 0, 0.1, 'float32', 6) as tf.Tensor2D;
      const { graph } = equalsEager('forOf', 'tfjs', [[xs, w, u]]);
      tf.dispose([xs, w]);
      return products(loopOf(graph).body) === 1;
    };
    expect(64 * 32).to.be.above(HOIST_ROWS_UP_TO);
    expect(hoisted(4)).to.equal(false); // 4 multiply-adds per element of a [64, 32] step result
    expect(hoisted(HOIST_INNER_FROM)).to.equal(true);
    u.dispose();
  });

  it('the program run under a gradient tape keeps maximumIterations', () => {
    const { xs, w, u } = weights();
    const staged = stage(m.forOf, { maximumIterations: 3 });
    expect(() => staged(xs, w, u)).to.throw(/maximumIterations \(3\)/);
    expect(() => tf.grad((v: tf.Tensor) => (staged(xs, v, u) as tf.Tensor).sum())(w)).to.throw(/maximumIterations \(3\)/);
    expect(staged.inspect(xs, w, u).optimizations).to.have.length(1);
    staged.dispose();
    tf.dispose([xs, w, u]);
  });

  it('optimize: { hoistProjections: false } keeps the product in the loop', () => {
    const { xs, w, u } = weights();
    const staged = stage(m.forOf, { engine: 'tfjs', optimize: { hoistProjections: false } });
    const info = staged.inspect(xs, w, u);
    expect(products(loopOf(info.program.graph).body)).to.equal(2);
    expect(info.optimizations).to.deep.equal([]);
    staged.dispose();
    tf.dispose([xs, w, u]);
  });
});
