import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { collatzSteps } from './collatz';

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  // Like tf.function: traced once per input signature, then the recorded graph is run.
  const stagedSteps = stage(collatzSteps);
  for (const n of [1, 6, 27, 97]) {
    const eager = collatzSteps(tf.scalar(n)).dataSync()[0];
    const staged = stagedSteps(tf.scalar(n)).dataSync()[0];
    console.log(`collatz(${n}) = ${eager} steps (eager), ${staged} (staged)`);
  }
  console.log(`traced ${stagedSteps.traceCount} time(s); graph: ${JSON.stringify(stagedSteps.inspect(tf.scalar(1)).stats)}`);
}

main();
