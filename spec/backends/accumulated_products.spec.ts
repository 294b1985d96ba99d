/**
 * Sums over a loop's steps of row products computed once after the loop
 * (backends/optimize/accumulated_products.ts): Σ_t x_tᵀ y_t and Σ_t Σ_rows y_t, as a backward
 * loop's weight and bias gradients accumulate them, equal eager on both engines within the op
 * checks' tolerance, for loops of zero, some and all steps, with -0 terms; left alone when the
 * sum starts elsewhere than at zeros or is read in the loop; the BPTT training step staged.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../index';
import type { Graph, WhileNode } from '../../backends/graph/graph';
import { onnxRuntimeAvailable } from '../../backends/engines/onnx/runtime';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { expectSameTensor, loadSample } from '../onnx/support';

const source = `
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

export function sums(xs: tf.Tensor3D, ys: tf.Tensor3D, steps: tf.Scalar): tf.Tensor[] {
  'use autograph';
  let dw: tf.Tensor = tf.zeros([xs.shape[2], ys.shape[2]]);
  let db: tf.Tensor = tf.zeros([ys.shape[2]]);
  for (const t of range(steps)) {
    const x = xs.gather(t);
    const y = ys.gather(t).tanh();
    dw = dw.add(x.matMul(y, true, false));
    db = db.add(y.sum(0));
  }
  return [dw, db];
}

export function startsElsewhere(xs: tf.Tensor3D, ys: tf.Tensor3D, steps: tf.Scalar): tf.Tensor {
  'use autograph';
  let dw: tf.Tensor = tf.ones([xs.shape[2], ys.shape[2]]);
  for (const t of range(steps)) dw = dw.add(xs.gather(t).matMul(ys.gather(t), true, false));
  return dw;
}

export function readInLoop(xs: tf.Tensor3D, ys: tf.Tensor3D, steps: tf.Scalar): tf.Tensor {
  'use autograph';
  let dw: tf.Tensor = tf.zeros([xs.shape[2], ys.shape[2]]);
  let norm: tf.Tensor = tf.scalar(0);
  for (const t of range(steps)) {
    dw = dw.add(xs.gather(t).matMul(ys.gather(t), true, false));
    norm = norm.add(dw.square().sum());
  }
  return dw.add(norm);
}
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
let m: Record<string, any>;
/** BatchMatMul's tolerance in the op checks (spec/onnx/op_cases.ts). */
const TOLERANCE = 1e-6;
const ENGINES = onnxRuntimeAvailable() ? (['tfjs', 'onnx'] as const) : (['tfjs'] as const);

const loopOf = (g: Graph): WhileNode => g.nodes.find((n): n is WhileNode => n.kind === 'While')!;
const kernels = (g: Graph, op: string): number => g.nodes.filter((n) => n.kind === 'Kernel' && n.op === op).length;

function sequences(steps = 5): { xs: tf.Tensor3D; ys: tf.Tensor3D } {
  return tf.tidy(() => ({
    xs: tf.randomNormal([steps, 3, 4], 0, 1, 'float32', 1) as tf.Tensor3D,
    ys: tf.randomNormal([steps, 3, 2], 0, 1, 'float32', 2) as tf.Tensor3D,
  }));
}

/** Staged on `engine` equals eager (exactly: -0 is not 0) for each argument list; returns the graph and the optimizer's notes. */
function equalsEager(name: string, engine: 'tfjs' | 'onnx', argLists: unknown[][], options = {}): { graph: Graph; optimizations: string[] } {
  const staged = stage(m[name], { engine, ...options });
  try {
    for (const args of argLists) {
      const want = [tf.tidy(() => m[name](...args) as tf.Tensor | tf.Tensor[])].flat();
      const got = [staged(...args) as tf.Tensor | tf.Tensor[]].flat();
      got.forEach((g, i) => expectSameTensor(g, want[i], TOLERANCE, `${name} result ${i} on ${engine}`));
      tf.dispose([...want, ...got]);
    }
    const info = staged.inspect(...argLists[0]);
    return { graph: info.program.graph, optimizations: info.optimizations };
  } finally {
    staged.dispose();
  }
}

describe('stage(): sums of row products over a loop computed after it', () => {
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });

  for (const engine of ENGINES) {
    it(`Σ x_tᵀ y_t and Σ y_t over the rows: one product and one Sum after the loop, equal to eager for 0, 1 and 5 steps [${engine}]`, () => {
      const { xs, ys } = sequences();
      const counts = [0, 1, 5].map((n) => tf.scalar(n, 'int32'));
      const { graph, optimizations } = equalsEager('sums', engine, counts.map((n) => [xs, ys, n]));
      const body = loopOf(graph).body;
      expect(kernels(body, 'BatchMatMul') + kernels(body, 'Sum')).to.equal(0);
      expect(kernels(graph, 'BatchMatMul')).to.equal(1);
      expect(optimizations).to.deep.equal(['2 sums over the steps of the loop at main.ts:9:3 computed after it (one product of the rows of all steps each)']);
      tf.dispose([xs, ys, ...counts]);
    });

    it(`terms that are all -0 sum to +0, as the loop's sum from +0 does [${engine}]`, () => {
      const xs = tf.zeros([3, 2, 4]) as tf.Tensor3D;
      const ys = tf.fill([3, 2, 2], -1) as tf.Tensor3D;
      const negated = xs.neg() as tf.Tensor3D; // -0 rows: every product and row sum is -0
      const steps = tf.scalar(3, 'int32');
      equalsEager('sums', engine, [[negated, ys, steps], [xs, ys, steps]]);
      tf.dispose([xs, ys, negated, steps]);
    });
  }

  it('leaves a sum that does not start at zeros, or that the loop reads, in the loop', () => {
    const { xs, ys } = sequences();
    const steps = tf.scalar(4, 'int32');
    for (const engine of ENGINES) {
      for (const name of ['startsElsewhere', 'readInLoop']) {
        const { graph, optimizations } = equalsEager(name, engine, [[xs, ys, steps]]);
        expect(kernels(loopOf(graph).body, 'BatchMatMul'), name).to.equal(1);
        expect(optimizations, name).to.deep.equal([]);
      }
    }
    tf.dispose([xs, ys, steps]);
  });

  it('optimize: { accumulatedProducts: false } keeps the sums in the loop', () => {
    const { xs, ys } = sequences();
    const steps = tf.scalar(4, 'int32');
    const { graph, optimizations } = equalsEager('sums', 'tfjs', [[xs, ys, steps]], { optimize: { accumulatedProducts: false } });
    expect(kernels(loopOf(graph).body, 'BatchMatMul')).to.equal(1);
    expect(optimizations).to.deep.equal([]);
    tf.dispose([xs, ys, steps]);
  });

  it('samples/bptt: the backward loop\'s weight and bias gradients are sums after it; the SGD step equals eager', () => {
    const bptt = loadSample('bptt/src/bptt.ts');
    const { xs, targets } = bptt.decayingSumTask(8, 16, 4) as { xs: tf.Tensor; targets: tf.Tensor };
    for (const engine of ENGINES) {
      const eagerWeights = bptt.initialWeights(4, 16) as Record<string, tf.Variable>;
      const stagedWeights = bptt.initialWeights(4, 16) as Record<string, tf.Variable>;
      const optimizer = tf.train.sgd(0.1);
      const staged = stage(bptt.trainStep, { engine });
      for (let step = 0; step < 2; step++) {
        const want = bptt.trainStep(xs, targets, eagerWeights, optimizer) as tf.Tensor;
        const got = staged(xs, targets, stagedWeights, optimizer) as tf.Tensor;
        expectSameTensor(got, want, 1e-5, `loss on ${engine}`);
        for (const k of Object.keys(eagerWeights)) expectSameTensor(stagedWeights[k], eagerWeights[k], 1e-5, `${k} on ${engine}`);
        tf.dispose([want, got]);
      }
      const notes = staged.inspect(xs, targets, stagedWeights, optimizer).optimizations;
      expect(notes.some((n: string) => /^3 sums over the steps of the loop/.test(n)), notes.join('\n')).to.equal(true);
      staged.dispose();
      optimizer.dispose();
      tf.dispose([...Object.values(eagerWeights), ...Object.values(stagedWeights)]);
    }
    tf.dispose([xs, targets]);
  });
});
