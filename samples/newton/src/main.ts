import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { newtonCG, syntheticProblem } from './newton';

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  const { x, y } = syntheticProblem(2000, 50);
  const lambda = 1e-3;
  const staged = stage(newtonCG);
  let eagerW: Float32Array | undefined;
  for (const [mode, solve] of [['eager', newtonCG], ['staged', staged], ['staged', staged]] as const) {
    const started = performance.now();
    const { w, loss, newtonSteps, cgSteps } = solve(x, y, lambda, 1e-5, 50);
    const values = w.dataSync() as Float32Array;
    const ms = performance.now() - started;
    eagerW ??= values;
    const gap = Math.max(...values.map((v, i) => Math.abs(v - eagerW![i])));
    console.log(`newtonCG (${mode}): ${newtonSteps.dataSync()[0]} Newton steps, ${cgSteps.dataSync()[0]} CG steps, ` +
      `loss ${loss.dataSync()[0].toFixed(6)}, max |w - w_eager| ${gap.toExponential(1)}, ${ms.toFixed(0)} ms` +
      ` (traces so far: ${staged.traceCount})`);
  }
  const stats = staged.inspect(x, y, lambda, 1e-5, 50).stats;
  console.log(`staged graph: ${stats.whiles} While nodes, ${stats.kernels} kernels, traced ${staged.traceCount} time(s)`);
}

main();
