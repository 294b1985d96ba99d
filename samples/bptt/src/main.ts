import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { decayingSumTask, initialWeights, lossAndGradients, train, trainStep } from './bptt';

const TIME = 20;
const BATCH = 32;
const FEATURES = 4;
const UNITS = 32;
const STEPS = Number(process.env.BPTT_STEPS ?? 100);

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  const { xs, targets } = decayingSumTask(TIME, BATCH, FEATURES);

  // The gradient through the loop over time: computed in the graph when staged, on tfjs's tape when eager.
  const w0 = initialWeights(FEATURES, UNITS);
  const eager = lossAndGradients(xs, targets, w0);
  const staged = stage(lossAndGradients)(xs, targets, w0);
  const gap = Math.max(...eager.grads.map((g, i) => tf.tidy(() => g.sub(staged.grads[i]).abs().max().dataSync()[0])));
  console.log(`gradients of the loss through ${TIME} time steps: max |staged - eager| ${gap.toExponential(1)} ` +
    `(loss ${eager.loss.dataSync()[0].toFixed(4)} eager, ${staged.loss.dataSync()[0].toFixed(4)} staged)`);

  // Training with the staged step called from a JS loop; the eager step timed on a few steps for the speed-up.
  const we = initialWeights(FEATURES, UNITS);
  const eagerOptimizer = tf.train.sgd(0.1);
  let started = performance.now();
  for (let k = 0; k < 5; k++) tf.tidy(() => trainStep(xs, targets, we, eagerOptimizer)).dispose();
  const eagerMs = (performance.now() - started) / 5;

  const w = initialWeights(FEATURES, UNITS);
  const optimizer = tf.train.sgd(0.1);
  const step = stage(trainStep);
  const report: string[] = [];
  let stagedMs = 0;
  for (let k = 0; k <= STEPS; k++) {
    started = performance.now();
    const loss = step(xs, targets, w, optimizer);
    const value = loss.dataSync()[0];
    loss.dispose();
    if (k > 0) stagedMs += (performance.now() - started) / STEPS;   // the first call traces
    if (k % 20 === 0) report.push(`${k}: ${value.toFixed(4)}`);
  }
  console.log(`SGD with the staged step, loss before step ${report.join(', ')}`);
  console.log(`one training step: eager ${eagerMs.toFixed(1)} ms, staged ${stagedMs.toFixed(1)} ms ` +
    `(${step.inspect(xs, targets, w, optimizer).engine.engine}): ${(eagerMs / stagedMs).toFixed(1)}x`);

  // The whole training loop staged: the same weights after the same number of steps.
  const wl = initialWeights(FEATURES, UNITS);
  const final = stage(train)(xs, targets, wl, tf.train.sgd(0.1), tf.scalar(STEPS + 1, 'int32'));
  console.log(`the whole loop staged (${STEPS + 1} steps in one graph call): last loss ${final.dataSync()[0].toFixed(4)}, ` +
    `max |weights - staged step's| ${Math.max(...(['wx', 'wh', 'b', 'wo'] as const).map((k) =>
      tf.tidy(() => wl[k].sub(w[k]).abs().max().dataSync()[0]))).toExponential(1)}`);
}

main();
