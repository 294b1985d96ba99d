import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { accepts, checkedSqrt, firstNegative, powerIfPositive, rowPrefixSums, sign } from './control';

const value = (t: tf.Tensor): number => t.dataSync()[0];

/** Runs fn eagerly and staged on each argument list and prints both results. */
function show<A extends unknown[]>(label: string, fn: (...args: A) => tf.Tensor, ...argLists: A[]): void {
  const staged = stage(fn);
  const eager = argLists.map((args) => value(fn(...args)));
  const graph = argLists.map((args) => value(staged(...args)));
  console.log(`${label} = ${eager.join(', ')} (eager), ${graph.join(', ')} (staged)`);
}

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  show('firstNegative([3, 1, -4, -1]), firstNegative([3, 1])', firstNegative,
    [tf.tensor1d([3, 1, -4, -1])], [tf.tensor1d([3, 1])]);
  show('rowPrefixSums([[1, -2, 3, 0, 5], [4, 0, 6, 7, 8], [-1, 2, 2, 2, 0]])', rowPrefixSums,
    [tf.tensor2d([[1, -2, 3, 0, 5], [4, 0, 6, 7, 8], [-1, 2, 2, 2, 0]])]);
  show('sign(-2.5), sign(0), sign(7)', sign, [tf.scalar(-2.5)], [tf.scalar(0)], [tf.scalar(7)]);
  show('powerIfPositive(2, 10), powerIfPositive(-2, 10)', powerIfPositive, [tf.scalar(2), 10], [tf.scalar(-2), 10]);
  show('checkedSqrt(16)', checkedSqrt, [tf.scalar(16)]);
  // Strings are JS values: this one runs eagerly only (a staged if must yield tensors).
  console.log(`accepts(5 | 11 | 42 | NaN) = ${[5, 11, 42, NaN].map((x) => accepts(tf.scalar(x), 0, 10, 42)).join(', ')} (eager)`);
  for (const [mode, fn] of [['eager', checkedSqrt], ['staged', stage(checkedSqrt)]] as const) {
    try {
      fn(tf.scalar(-1));
    } catch (error) {
      console.log(`checkedSqrt(-1) threw (${mode}): ${(error as Error).message}`);
    }
  }
}

main();
