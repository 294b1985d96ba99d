/**
 * Scalar loops lowered without sub-graph calls or sign fix-ups (backends/onnx_model/sign_facts.ts,
 * kernels/elementwise.ts floatMod and selectWhole): collatz's loop body is the nine nodes a
 * hand-built graph has, and every value equals eager bit for bit, -0 and NaN included, where the
 * facts do not hold (negative and -0 dividends, a test that proves nothing) as where they do.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { lowerProgram } from '../../backends/onnx_model/lower';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { describeOnnx, expectSameTensor } from './support';

const source = `
import * as tf from '@tensorflow/tfjs';

export function collatz(n: tf.Tensor): tf.Tensor {
  'use autograph';
  let steps = tf.scalar(0);
  while (n.greater(1)) {
    if (n.mod(2).equal(0)) n = n.div(2).floor();
    else n = n.mul(3).add(1);
    steps = steps.add(1);
  }
  return steps;
}

/** The same body under a test that proves nothing about n's sign. */
export function collatzBelow(n: tf.Tensor, limit: tf.Tensor): tf.Tensor[] {
  'use autograph';
  let steps = tf.scalar(0);
  while (steps.less(limit)) {
    if (n.mod(2).equal(0)) n = n.div(2).floor();
    else n = n.mul(3).add(1);
    steps = steps.add(1);
  }
  return [n, steps];
}

/** Floor modulo by constants of either sign, and by a value. */
export function mods(x: tf.Tensor, d: tf.Tensor): tf.Tensor[] {
  'use autograph';
  return [x.mod(2), x.mod(0.75), x.mod(-2), x.mod(d)];
}

/** A float If whose branches may give -0: selected without an If, the sign kept. */
export function pickSigned(c: tf.Tensor, x: tf.Tensor): tf.Tensor {
  'use autograph';
  let y = x;
  if (c.greater(0)) y = x.mul(-1);
  else y = x.div(4).floor();
  return y;
}

/** A loop whose test proves x positive inside: mod, div and the select use the facts. */
export function halveWhileAbove(x: tf.Tensor, d: tf.Tensor): tf.Tensor[] {
  'use autograph';
  let odd = tf.scalar(0);
  while (x.greater(0.5)) {
    odd = odd.add(x.mod(2));
    if (x.mod(2).equal(1)) x = x.sub(1).div(2);
    else x = x.div(2);
    x = x.floor().add(d);
  }
  return [x, odd];
}
`;

/** How many nodes of this op type the encoded model has (NodeProto.op_type is field 4). */
function opCount(bytes: Uint8Array, opType: string): number {
  const pattern = Buffer.from([0x22, opType.length, ...Buffer.from(opType)]);
  const buffer = Buffer.from(bytes);
  let count = 0;
  for (let at = buffer.indexOf(pattern); at >= 0; at = buffer.indexOf(pattern, at + 1)) count++;
  return count;
}

describeOnnx('onnx: scalar loops without sub-graph calls (sign facts, floor modulo, float selections)', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let fns: Record<string, any>;
  before(() => {
    const result = compile({ 'scalars.ts': source });
    if (result.diagnostics.length) throw new Error(formatDiagnostics(result.diagnostics));
    fns = load(result.js['scalars.ts']);
  });

  const f = (v: number): tf.Scalar => tf.scalar(v);
  const modelOf = (staged: { inspect(...a: unknown[]): { program: Parameters<typeof lowerProgram>[0] } }, ...args: unknown[]): Uint8Array => {
    const lowered = lowerProgram(staged.inspect(...args).program);
    if (!lowered.ok) throw new Error('does not lower');
    return lowered.model.bytes;
  };
  const same = (got: tf.Tensor | tf.Tensor[], want: tf.Tensor | tf.Tensor[], what: string): void => {
    const [g, w] = [got, want].map((v) => (Array.isArray(v) ? v : [v]));
    g.forEach((t, k) => expectSameTensor(t, w[k], 0, `${what} result ${k}`));
  };

  it("collatz's loop body is the hand-built graph's nine nodes (no If, no sign fix-up), equal to eager", () => {
    const staged = stage(fns.collatz, { engine: 'onnx' });
    for (const n of [27, 97, 1, 0, -0, -5, 6.5, 2 ** 20 + 1, NaN, 1.5]) same(staged(f(n)), fns.collatz(f(n)), `collatz(${n})`);
    expect(staged.inspect(f(27)).engine.engine).to.equal('onnx');
    const bytes = modelOf(staged, f(27));
    expect(opCount(bytes, 'If')).to.equal(0);
    expect(opCount(bytes, 'Mod')).to.equal(1);
    expect(opCount(bytes, 'Where')).to.equal(1);
    for (const op of ['Xor', 'Reciprocal', 'Gather', 'Less']) expect(opCount(bytes, op), op).to.equal(0);
    staged.dispose();
  });

  it('the same body under a test that proves nothing keeps the exact modulo and selection (negative and -0 values)', () => {
    const staged = stage(fns.collatzBelow, { engine: 'onnx' });
    for (const n of [27, -0, -7, -6, 0, -2.5, 7.25, NaN]) {
      for (const limit of [0, 1, 5]) same(staged(f(n), f(limit)), fns.collatzBelow(f(n), f(limit)), `collatzBelow(${n}, ${limit})`);
    }
    const bytes = modelOf(staged, f(27), f(5));
    expect(opCount(bytes, 'If')).to.equal(0);
    expect(opCount(bytes, 'Gather')).to.equal(1);   // the float selection, stacked and gathered
    staged.dispose();
  });

  it('floor modulo by a positive constant, a negative one and a value equals eager on signed zeros, NaN and infinities', () => {
    const staged = stage(fns.mods, { engine: 'onnx' });
    const xs = tf.tensor1d([-0, 0, -4, 4, -3.5, 3.5, -1e-30, 1e-30, NaN, Infinity, -Infinity, 7, -7, 0.75, -0.75, 16777217]);
    for (const d of [2, -2, 0, -0, 0.3, Infinity, -Infinity, NaN]) {
      const dv = tf.fill(xs.shape, d);
      same(staged(xs, dv), fns.mods(xs, dv), `mods(xs, ${d})`);
    }
    expect(staged.inspect(xs, tf.fill(xs.shape, 2)).engine.engine).to.equal('onnx');
    staged.dispose();
  });

  it('a float If selects without a sub-graph and keeps a selected -0', () => {
    const staged = stage(fns.pickSigned, { engine: 'onnx' });
    for (const c of [1, 0, -1]) {
      for (const x of [0, -0, 3, -3, -0.5, NaN, Infinity]) same(staged(f(c), f(x)), fns.pickSigned(f(c), f(x)), `pickSigned(${c}, ${x})`);
    }
    expect(opCount(modelOf(staged, f(1), f(0)), 'If')).to.equal(0);
    staged.dispose();
  });

  it('facts from the loop test carry through sub, div, floor and add only where they hold', () => {
    const staged = stage(fns.halveWhileAbove, { engine: 'onnx' });
    for (const x of [100, 0.75, 0.5, -3, 7.5, 1e6 + 3]) {
      for (const d of [0, -0, 0.25, -0.25]) same(staged(f(x), f(d)), fns.halveWhileAbove(f(x), f(d)), `halveWhileAbove(${x}, ${d})`);
    }
    staged.dispose();
  });
});
