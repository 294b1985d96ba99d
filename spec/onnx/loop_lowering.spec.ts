/**
 * How loops and their flags lower (backends/onnx_model/lower.ts): a counted loop (`i < n [&& rest]`
 * with i += 1, what `for (const i of range(n))` becomes) uses ONNX Loop's trip count, and an If
 * that only sets flags (break, return) becomes Or/And instead of an If sub-graph. Each against
 * eager, on the boundaries: no iterations, a negative bound, a start past the bound, a break on
 * the first and the last iteration, the counter's final value used after the loop, and loops
 * that look alike but must keep their test (a step of 2, a bound that changes in the loop).
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { lowerProgram } from '../../backends/onnx_model/lower';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { describeOnnx, expectSameTensor } from './support';

const source = `
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

export function sumUntil(n: tf.Scalar, limit: tf.Scalar): tf.Tensor {
  'use autograph';
  let total: tf.Tensor = tf.scalar(0, 'int32');
  for (const i of range(n)) {
    total = total.add(i);
    if (total.greater(limit)) break;
  }
  return total;
}

export function countFrom(start: tf.Scalar, n: tf.Scalar): tf.Tensor[] {
  'use autograph';
  let i: tf.Tensor = start;
  let sum: tf.Tensor = tf.scalar(0, 'int32');
  while (i.less(n)) {
    sum = sum.add(i.mul(i));
    i = i.add(tf.scalar(1, 'int32'));
  }
  return [i, sum];
}

export function byTwos(start: tf.Scalar, n: tf.Scalar): tf.Tensor[] {
  'use autograph';
  let i: tf.Tensor = start;
  let steps: tf.Tensor = tf.scalar(0, 'int32');
  while (i.less(n)) {
    i = i.add(tf.scalar(2, 'int32'));
    steps = steps.add(tf.scalar(1, 'int32'));
  }
  return [i, steps];
}

export function squaresBelow(n: tf.Scalar, stop: tf.Scalar): tf.Tensor[] {
  'use autograph';
  let i: tf.Tensor = tf.scalar(0, 'int32');
  let total: tf.Tensor = tf.scalar(0, 'int32');
  while (i.mul(i).less(n)) {
    total = total.add(i);
    if (total.greaterEqual(stop)) break;
    i = i.add(tf.scalar(1, 'int32'));
  }
  return [i, total];
}

export function pick(flag: tf.Scalar, a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  'use autograph';
  let k: tf.Tensor;
  if (flag.greater(0)) {
    k = a.add(b);
  } else {
    k = tf.maximum(a.sub(b), tf.scalar(-5, 'int32'));
  }
  return k;
}

export function divideIfNonZero(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  'use autograph';
  let q: tf.Tensor = tf.zerosLike(a);
  if (tf.all(b.notEqual(0))) {
    q = tf.floorDiv(a, b);
  }
  return q;
}

export function decodeLike(limit: tf.Scalar, maxLen: number): tf.Tensor[] {
  'use autograph';
  let step: tf.Tensor = tf.scalar(0, 'int32');
  let total: tf.Tensor = tf.scalar(0, 'int32');
  while (step.less(maxLen)) {
    total = total.add(step);
    step = step.add(tf.scalar(1, 'int32'));
    if (total.greater(limit)) break;
  }
  return [step, total];
}

export function rowSum(xs: tf.Tensor2D, n: tf.Scalar): tf.Tensor {
  'use autograph';
  let total: tf.Tensor = tf.zeros([xs.shape[1]]);
  for (const i of range(n)) total = total.add(tf.gather(xs, i));
  return total;
}

export function rowSumFrom(xs: tf.Tensor2D, start: tf.Scalar, n: tf.Scalar): tf.Tensor {
  'use autograph';
  let total: tf.Tensor = tf.zeros([xs.shape[1]]);
  let i: tf.Tensor = start;
  while (i.less(n)) {
    total = total.add(tf.gather(xs, i));
    i = i.add(tf.scalar(1, 'int32'));
  }
  return total;
}

export function shrinking(n: tf.Scalar): tf.Tensor[] {
  'use autograph';
  let i: tf.Tensor = tf.scalar(0, 'int32');
  let bound: tf.Tensor = n;
  while (i.less(bound)) {
    i = i.add(tf.scalar(1, 'int32'));
    bound = bound.sub(tf.scalar(1, 'int32'));
  }
  return [i, bound];
}
`;

/** Whether the encoded model has a node of this op type (NodeProto.op_type is field 4). */
function hasOp(bytes: Uint8Array, opType: string): boolean {
  const pattern = Buffer.from([0x22, opType.length, ...Buffer.from(opType)]);
  return Buffer.from(bytes).includes(pattern);
}

describeOnnx('onnx: loop lowering (trip counts, flag selections)', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let fns: Record<string, any>;
  before(() => {
    const result = compile({ 'loops.ts': source });
    if (result.diagnostics.length) throw new Error(formatDiagnostics(result.diagnostics));
    fns = load(result.js['loops.ts']);
  });

  const i32 = (v: number): tf.Scalar => tf.scalar(v, 'int32');
  const modelOf = (staged: { inspect(...a: unknown[]): { program: Parameters<typeof lowerProgram>[0] } }, ...args: unknown[]): Uint8Array => {
    const lowered = lowerProgram(staged.inspect(...args).program);
    if (!lowered.ok) throw new Error('does not lower');
    return lowered.model.bytes;
  };

  it('a range loop with a break: the trip count counts, the break flag is an Or (no If)', () => {
    const staged = stage(fns.sumUntil, { engine: 'onnx' });
    for (const [n, limit] of [[10, 1000], [10, 20], [10, -1], [0, 5], [-3, 5], [1, 0], [7, 21]]) {
      expectSameTensor(staged(i32(n), i32(limit)), fns.sumUntil(i32(n), i32(limit)), 0, `sumUntil(${n}, ${limit})`);
    }
    const bytes = modelOf(staged, i32(10), i32(5));
    expect(Buffer.from(bytes).includes('trip_count')).to.equal(true);
    expect(hasOp(bytes, 'Loop')).to.equal(true);
    expect(hasOp(bytes, 'If')).to.equal(false);
    staged.dispose();
  });

  it("a counted while: the counter's final value and a start past the bound are as eager", () => {
    const staged = stage(fns.countFrom, { engine: 'onnx' });
    for (const [start, n] of [[0, 5], [3, 3], [8, 2], [-4, 2], [2147483640, 2147483647], [-2147483648, -2147483645]]) {
      const got = staged(i32(start), i32(n));
      const want = fns.countFrom(i32(start), i32(n));
      got.forEach((t: tf.Tensor, k: number) => expectSameTensor(t, want[k], 0, `countFrom(${start}, ${n}) result ${k}`));
    }
    expect(Buffer.from(modelOf(staged, i32(0), i32(5))).includes('trip_count')).to.equal(true);
    staged.dispose();
  });

  it('a loop test with a break (`!broke && i * i < n`) is Not, Mul, Less, And: no If in the loop', () => {
    const staged = stage(fns.squaresBelow, { engine: 'onnx' });
    for (const [n, stop] of [[50, 1000], [50, 6], [50, 0], [0, 5], [-1, 5], [1, 0], [2147483647, 3]]) {
      const got = staged(i32(n), i32(stop));
      const want = fns.squaresBelow(i32(n), i32(stop));
      got.forEach((t: tf.Tensor, k: number) => expectSameTensor(t, want[k], 0, `squaresBelow(${n}, ${stop}) result ${k}`));
    }
    const bytes = modelOf(staged, i32(50), i32(6));
    expect(hasOp(bytes, 'Loop')).to.equal(true);
    expect(hasOp(bytes, 'If')).to.equal(false);
    staged.dispose();
  });

  it('an If computing ints with kernels that cannot fail is a Where of both branches; one that can fail stays an If', () => {
    const staged = stage(fns.pick, { engine: 'onnx' });
    const a = tf.tensor1d([1, -7, 2147483647, 0], 'int32');
    const b = tf.tensor1d([2, 3, 1, -2147483648], 'int32');
    for (const flag of [1, 0, -1]) expectSameTensor(staged(i32(flag), a, b), fns.pick(i32(flag), a, b), 0, `pick(${flag})`);
    expect(hasOp(modelOf(staged, i32(1), a, b), 'If')).to.equal(false);
    expect(hasOp(modelOf(staged, i32(1), a, b), 'Where')).to.equal(true);
    // An integer division by zero in a branch not taken must not run: ORT's int Div by zero is a crash.
    const divide = stage(fns.divideIfNonZero, { engine: 'onnx' });
    const zeros = tf.tensor1d([0, 0, 0, 0], 'int32');
    expectSameTensor(divide(a, zeros), fns.divideIfNonZero(a, zeros), 0, 'divideIfNonZero(a, 0)');
    expectSameTensor(divide(a, b), fns.divideIfNonZero(a, b), 0, 'divideIfNonZero(a, b)');
    expect(hasOp(modelOf(divide, a, b), 'If')).to.equal(true);
    [staged, divide].forEach((s) => s.dispose());
  });

  it('a loop up to a JS number with a break (the decoder\'s shape): the trip count counts, the test is only the break flag', () => {
    const staged = stage(fns.decodeLike, { engine: 'onnx' });
    for (const maxLen of [0, 1, 5, 20]) {
      for (const limit of [-1, 0, 3, 6, 1000]) {
        const got = staged(i32(limit), maxLen);
        const want = fns.decodeLike(i32(limit), maxLen);
        got.forEach((t: tf.Tensor, k: number) => expectSameTensor(t, want[k], 0, `decodeLike(${limit}, ${maxLen}) result ${k}`));
      }
    }
    const bytes = modelOf(staged, i32(3), 20);
    expect(Buffer.from(bytes).includes('trip_count')).to.equal(true);
    expect(hasOp(bytes, 'If')).to.equal(false);
    staged.dispose();
  });

  it('a gather by the counter of a loop counted from 0 has no check for negative indices; from a start it does not know, it has', () => {
    const xs = tf.tensor2d([[1, 2], [3, 4], [5, 6], [7, 8]]);
    const fromZero = stage(fns.rowSum, { engine: 'onnx' });
    for (const n of [0, 1, 4]) expectSameTensor(fromZero(xs, i32(n)), fns.rowSum(xs, i32(n)), 0, `rowSum(${n})`);
    expect(() => fns.rowSum(xs, i32(5))).to.throw(/index value 4 is not in \[0, 3\]/);
    expect(() => fromZero(xs, i32(5))).to.throw();
    const counted = modelOf(fromZero, xs, i32(4));
    expect(['Less', 'Where'].map((op) => hasOp(counted, op))).to.deep.equal([false, false]);
    const fromStart = stage(fns.rowSumFrom, { engine: 'onnx' });
    for (const [start, n] of [[0, 4], [2, 4], [5, 4]]) {
      expectSameTensor(fromStart(xs, i32(start), i32(n)), fns.rowSumFrom(xs, i32(start), i32(n)), 0, `rowSumFrom(${start}, ${n})`);
    }
    expect(() => fns.rowSumFrom(xs, i32(-1), i32(2))).to.throw(/index value -1 is not in \[0, 3\]/);
    expect(() => fromStart(xs, i32(-1), i32(2))).to.throw();
    expect(['Less', 'Where'].map((op) => hasOp(modelOf(fromStart, xs, i32(0), i32(4)), op))).to.deep.equal([true, true]);
    [fromZero, fromStart].forEach((s) => s.dispose());
    xs.dispose();
  });

  it('loops that only look counted keep their test: a step of 2, a bound the body changes', () => {
    const twos = stage(fns.byTwos, { engine: 'onnx' });
    for (const [start, n] of [[0, 5], [0, 6], [9, 2]]) {
      const got = twos(i32(start), i32(n));
      const want = fns.byTwos(i32(start), i32(n));
      got.forEach((t: tf.Tensor, k: number) => expectSameTensor(t, want[k], 0, `byTwos(${start}, ${n}) result ${k}`));
    }
    expect(Buffer.from(modelOf(twos, i32(0), i32(5))).includes('trip_count')).to.equal(false);
    const shrink = stage(fns.shrinking, { engine: 'onnx' });
    for (const n of [0, 1, 6, 7]) {
      const got = shrink(i32(n));
      const want = fns.shrinking(i32(n));
      got.forEach((t: tf.Tensor, k: number) => expectSameTensor(t, want[k], 0, `shrinking(${n}) result ${k}`));
    }
    expect(Buffer.from(modelOf(shrink, i32(4))).includes('trip_count')).to.equal(false);
    [twos, shrink].forEach((s) => s.dispose());
  });
});
