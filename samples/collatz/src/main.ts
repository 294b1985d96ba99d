import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { collatzSteps } from './collatz';

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  for (const n of [1, 6, 27, 97]) {
    const steps = collatzSteps(tf.scalar(n, 'int32'));
    console.log(`collatz(${n}) = ${steps.dataSync()[0]} steps`);
  }
}

main();
