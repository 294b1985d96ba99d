/**
 * `range`: Python's range for `for...of`. With numbers it returns a plain array of numbers (so the
 * loop stays a JS loop, fully static). With a tensor bound it returns a TensorRange, which the
 * converted `for...of` turns into a While loop over a counter when staged, and a counted loop over
 * scalar tensors when eager.
 */
import * as tf from '@tensorflow/tfjs-core';
import { isTensor } from './tensors';

export class TensorRange implements Iterable<tf.Scalar> {
  constructor(
    readonly start: tf.Scalar | number,
    readonly limit: tf.Scalar | number,
    readonly delta: tf.Scalar | number,
    readonly dtype: 'int32' | 'float32',
  ) {}

  /** Eager iteration: reads the bounds once, yields scalars of `dtype`. */
  *[Symbol.iterator](): Iterator<tf.Scalar> {
    const start = readNumber(this.start);
    const limit = readNumber(this.limit);
    const delta = readNumber(this.delta);
    for (const value of numberRange(start, limit, delta)) yield tf.scalar(value, this.dtype);
  }
}

type Bound = number | tf.Tensor;

export function range(stop: number): number[];
export function range(start: number, stop: number, step?: number): number[];
export function range(stop: Bound): TensorRange;
export function range(start: Bound, stop: Bound, step?: Bound): TensorRange;
export function range(a: Bound, b?: Bound, c?: Bound): number[] | TensorRange {
  const [start, stop, step] = b === undefined ? [0, a, 1] : [a, b, c ?? 1];
  if (!isTensor(start) && !isTensor(stop) && !isTensor(step)) {
    return numberRange(start, stop, step);
  }
  const tensors = [start, stop, step].filter(isTensor);
  const dtype = tensors.every((t) => t.dtype === 'int32') ? 'int32' : 'float32';
  for (const t of tensors) {
    if (t.size !== 1) throw new TypeError(`autograph-ts: range() bounds must be scalars, got shape [${t.shape}]`);
  }
  return new TensorRange(start as tf.Scalar | number, stop as tf.Scalar | number, step as tf.Scalar | number, dtype);
}

export function numberRange(start: number, stop: number, step: number): number[] {
  if (step === 0) throw new RangeError('autograph-ts: range() step must not be zero');
  const values: number[] = [];
  for (let v = start; step > 0 ? v < stop : v > stop; v += step) values.push(v);
  return values;
}

function readNumber(value: tf.Tensor | number): number {
  return isTensor(value) ? value.dataSync()[0] : value;
}
