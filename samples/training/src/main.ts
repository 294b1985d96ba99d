import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { fitUntil, linearModel } from './training';

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  const xs = tf.tensor2d([-1, 0, 1, 2, 3], [5, 1]);
  const ys = xs.mul(2).sub(1);                       // y = 2x - 1
  for (const [mode, fit] of [['eager', fitUntil], ['staged', stage(fitUntil)]] as const) {
    const model = linearModel();
    const started = performance.now();
    const { steps, loss } = fit(model, xs, ys, 1e-4, 500);
    const ms = performance.now() - started;
    const [kernel, bias] = model.getWeights().map((w) => w.dataSync()[0]);
    console.log(`fitUntil (${mode}): ${steps.dataSync()[0]} steps, loss ${loss.dataSync()[0].toExponential(2)}, ` +
      `y = ${kernel.toFixed(3)}x ${bias < 0 ? '-' : '+'} ${Math.abs(bias).toFixed(3)}, ${ms.toFixed(0)} ms${mode === 'staged' ? ' (tracing included)' : ''}`);
  }
}

main();
