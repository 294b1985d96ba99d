import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { accepts, checkedSqrt, firstNegative, powerIfPositive, rowPrefixSums, sign } from './control';

const value = (t: tf.Tensor): number => t.dataSync()[0];

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  console.log(`firstNegative([3, 1, -4, -1]) = ${value(firstNegative(tf.tensor1d([3, 1, -4, -1])))}`);
  console.log(`firstNegative([3, 1]) = ${value(firstNegative(tf.tensor1d([3, 1])))}`);
  const m = tf.tensor2d([[1, -2, 3, 0, 5], [4, 0, 6, 7, 8], [-1, 2, 2, 2, 0]]);
  console.log(`rowPrefixSums = ${value(rowPrefixSums(m as tf.Tensor2D))}`);
  console.log(`sign(-2.5), sign(0), sign(7) = ${[-2.5, 0, 7].map((x) => value(sign(tf.scalar(x)))).join(', ')}`);
  console.log(`accepts(5 | 11 | 42 | NaN) = ${[5, 11, 42, NaN].map((x) => accepts(tf.scalar(x), 0, 10, 42)).join(', ')}`);
  console.log(`powerIfPositive(2, 10), powerIfPositive(-2, 10) = ${value(powerIfPositive(tf.scalar(2), 10))}, ${value(powerIfPositive(tf.scalar(-2), 10))}`);
  console.log(`checkedSqrt(16) = ${value(checkedSqrt(tf.scalar(16)))}`);
  try {
    checkedSqrt(tf.scalar(-1));
  } catch (error) {
    console.log(`checkedSqrt(-1) threw: ${(error as Error).message}`);
  }
}

main();
