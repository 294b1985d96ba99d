/**
 * Lists a loop pushes to once per iteration and only stacks or concatenates afterwards lower as
 * ONNX Loop scan outputs (backends/onnx_model/scan_lists.ts), not as sequences: equal to eager
 * for lists that start empty or not, loops that run zero times (an empty stack still fails as in
 * eager), a break, and tf.concat; lists read inside the loop keep the sequence lowering.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { lowerProgram } from '../../backends/onnx_model/lower';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { describeOnnx, expectSameTensor } from './support';

const source = `
import * as tf from '@tensorflow/tfjs';

/** A decoder's shape: the list starts with one element, a push per step, a break. */
export function collect(x: tf.Tensor, steps: number, stop: tf.Tensor): tf.Tensor {
  'use autograph';
  const rows = [x];
  let h = x;
  for (let t = 0; t < steps; t++) {
    h = h.mul(0.5).add(1);
    rows.push(h);
    if (h.sum().greater(stop)) break;
  }
  return tf.stack(rows);
}

/** Starts empty: zero iterations leave nothing to stack (an error, as in eager). */
export function fromEmpty(x: tf.Tensor, n: tf.Tensor): tf.Tensor[] {
  'use autograph';
  const rows: tf.Tensor[] = [];
  const cols: tf.Tensor[] = [];
  let i = tf.scalar(0, 'int32');
  let h = x;
  while (i.less(n)) {
    h = h.neg().sub(i.toFloat());
    rows.push(h);
    cols.push(h.reshape([-1, 1]));
    i = i.add(tf.scalar(1, 'int32'));
  }
  return [tf.stack(rows), tf.concat(cols), h];
}

/** Saved in one loop, popped in the next (what a gradient's backward loop does): rows read by index. */
export function saveAndReplay(x: tf.Tensor, n: tf.Tensor, extra: tf.Tensor): tf.Tensor[] {
  'use autograph';
  const one = tf.scalar(1, 'int32');
  const saved: tf.Tensor[] = [];
  let i = tf.scalar(0, 'int32');
  let h = x;
  while (i.less(n)) {
    h = h.mul(2).sub(1);
    saved.push(h);
    i = i.add(one);
  }
  let acc = tf.zerosLike(x);
  let j = i.add(extra);
  while (j.greater(0)) {
    const v = saved.pop() as tf.Tensor;
    acc = acc.mul(0.5).add(v);
    j = j.sub(one);
  }
  return [acc, h];
}

/** Read inside the loop: stays a sequence. */
export function readBack(x: tf.Tensor, n: tf.Tensor): tf.Tensor {
  'use autograph';
  const rows = [x];
  let i = tf.scalar(0, 'int32');
  while (i.less(n)) {
    rows.push(rows[rows.length - 1].add(1));
    i = i.add(tf.scalar(1, 'int32'));
  }
  return tf.stack(rows);
}
`;

function hasOp(bytes: Uint8Array, opType: string): boolean {
  return Buffer.from(bytes).includes(Buffer.from([0x22, opType.length, ...Buffer.from(opType)]));
}

function opCount(bytes: Uint8Array, opType: string): number {
  const pattern = Buffer.from([0x22, opType.length, ...Buffer.from(opType)]);
  const buffer = Buffer.from(bytes);
  let count = 0;
  for (let at = buffer.indexOf(pattern); at >= 0; at = buffer.indexOf(pattern, at + 1)) count++;
  return count;
}

describeOnnx('onnx: lists pushed once per iteration as Loop scan outputs', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let fns: Record<string, any>;
  before(() => {
    const result = compile({ 'scans.ts': source });
    if (result.diagnostics.length) throw new Error(formatDiagnostics(result.diagnostics));
    fns = load(result.js['scans.ts']);
  });
  const modelOf = (staged: { inspect(...a: unknown[]): { program: Parameters<typeof lowerProgram>[0] } }, ...args: unknown[]): Uint8Array => {
    const lowered = lowerProgram(staged.inspect(...args).program);
    if (!lowered.ok) throw new Error('does not lower');
    return lowered.model.bytes;
  };
  const same = (got: tf.Tensor | tf.Tensor[], want: tf.Tensor | tf.Tensor[], what: string): void => {
    const [g, w] = [got, want].map((v) => (Array.isArray(v) ? v : [v]));
    expect(g.length, what).to.equal(w.length);
    g.forEach((t, k) => expectSameTensor(t, w[k], 0, `${what} result ${k}`));
  };

  it('a list that starts with an element, pushed per step with a break: no sequence op, equal to eager', () => {
    const staged = stage(fns.collect, { engine: 'onnx' });
    const x = tf.tensor1d([1, -2, 0.5]);
    for (const steps of [0, 1, 5]) {
      for (const stop of [-100, 4, 100]) same(staged(x, steps, tf.scalar(stop)), fns.collect(x, steps, tf.scalar(stop)), `collect(${steps}, ${stop})`);
    }
    const bytes = modelOf(staged, x, 5, tf.scalar(4));
    // [x] and the first step's push, before the loop (the trace runs the first iteration before the While).
    expect(opCount(bytes, 'SequenceInsert')).to.equal(2);
    expect(opCount(bytes, 'ConcatFromSequence')).to.equal(1);   // of [x]: the rows follow
    expect(hasOp(bytes, 'Loop')).to.equal(true);
    expect(staged.inspect(x, 5, tf.scalar(4)).engine.engine).to.equal('onnx');
    staged.dispose();
  });

  it('lists that start empty: stack and concat equal eager; zero iterations fail as eager does', () => {
    const staged = stage(fns.fromEmpty, { engine: 'onnx' });
    const x = tf.tensor1d([1, -0, 2]);
    for (const n of [1, 3, 6]) same(staged(x, tf.scalar(n, 'int32')), fns.fromEmpty(x, tf.scalar(n, 'int32')), `fromEmpty(${n})`);
    const bytes = modelOf(staged, x, tf.scalar(3, 'int32'));
    for (const op of ['SequenceInsert', 'ConcatFromSequence']) expect(hasOp(bytes, op), op).to.equal(false);
    let eagerError = '';
    try { fns.fromEmpty(x, tf.scalar(0, 'int32')); } catch (e) { eagerError = (e as Error).message; }
    expect(eagerError).to.match(/at least one tensor/);
    expect(() => staged(x, tf.scalar(0, 'int32'))).to.throw(/at least one tensor/);
    staged.dispose();
  });

  it('a list saved in one loop and popped once per iteration in the next: rows read by index, no sequence op', () => {
    const staged = stage(fns.saveAndReplay, { engine: 'onnx' });
    const x = tf.tensor1d([0.25, -0, 3]);
    const i32 = (v: number): tf.Scalar => tf.scalar(v, 'int32');
    for (const [n, extra] of [[1, 0], [4, 0], [6, -2], [0, 0], [3, -5]]) {
      same(staged(x, i32(n), i32(extra)), fns.saveAndReplay(x, i32(n), i32(extra)), `saveAndReplay(${n}, ${extra})`);
    }
    const bytes = modelOf(staged, x, i32(4), i32(0));
    for (const op of ['SequenceInsert', 'SequenceErase', 'SequenceAt']) expect(hasOp(bytes, op), op).to.equal(false);
    expect(staged.inspect(x, i32(4), i32(0)).engine.engine).to.equal('onnx');
    staged.dispose();
  });

  it('popping more than was pushed fails as eager does', () => {
    const staged = stage(fns.saveAndReplay, { engine: 'onnx' });
    const x = tf.tensor1d([1, 2]);
    const i32 = (v: number): tf.Scalar => tf.scalar(v, 'int32');
    let eagerFailed = false;
    try { fns.saveAndReplay(x, i32(2), i32(1)); } catch { eagerFailed = true; }
    expect(eagerFailed, 'eager pops an empty list').to.equal(true);
    expect(() => staged(x, i32(2), i32(1))).to.throw();
    staged.dispose();
  });

  it('a list read inside the loop keeps the sequence lowering', () => {
    const staged = stage(fns.readBack, { engine: 'onnx' });
    const x = tf.tensor1d([1, 2]);
    for (const n of [0, 3]) same(staged(x, tf.scalar(n, 'int32')), fns.readBack(x, tf.scalar(n, 'int32')), `readBack(${n})`);
    expect(opCount(modelOf(staged, x, tf.scalar(3, 'int32')), 'SequenceInsert')).to.equal(2);
    staged.dispose();
  });
});
