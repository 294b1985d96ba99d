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
  // 200 calls of collatz(27) each way: every eager iteration reads a tensor condition back to JS.
  const n = tf.scalar(27);
  const time = (fn: (n: tf.Tensor) => tf.Tensor): number => {
    const started = performance.now();
    for (let k = 0; k < 200; k++) tf.tidy(() => fn(n)).dataSync();
    return (performance.now() - started) / 200;
  };
  const eagerMs = time(collatzSteps);
  const stagedMs = time(stagedSteps);
  console.log(`collatz(27): eager ${eagerMs.toFixed(2)} ms, staged ${stagedMs.toFixed(2)} ms: ${(eagerMs / stagedMs).toFixed(1)}x`);
}

main();
