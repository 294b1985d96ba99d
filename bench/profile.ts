/**
 * One bench case, staged (or eager), in a loop: for `node --cpu-prof` and quick A/B timings.
 *   node --cpu-prof dist/bench/profile.js <case> <backend> [staged|eager] [seconds]
 * case: chain | collatz | rnn64 | rnn256 | gated | transposed | adapter; mode `dump` prints the optimized graph
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from '../backends/stage';
import { allCases as cases } from './cases';

async function main(): Promise<void> {
  const [name = 'rnn64', backend = 'cpu', mode = 'staged', seconds = '10'] = process.argv.slice(2);
  await tf.setBackend(backend);
  await tf.ready();
  const c = cases.find((k) => k.key === name);
  if (c === undefined) throw new Error(`unknown case ${name}: ${cases.map((k) => k.key).join(', ')}`);
  const { fn, args } = c.prepare();
  // mode `staged-no-cse` / `staged-no-loopInvariant` / `staged-no-constantFolding` / `staged-no-all`
  const off = /^(?:staged|dump)-no-(\w+)$/.exec(mode)?.[1];
  // The tfjs executor is what this profiles (the ONNX engine runs natively: --cpu-prof does not see inside).
  const staged = stage(fn, { engine: 'tfjs', ...(off === undefined ? {} : { optimize: off === 'all' ? false : { [off]: false } }) });
  if (mode.startsWith('dump')) {
    console.log(staged.inspect(...(args as never[])).dump());
    return;
  }
  const call = mode === 'eager' ? (): tf.Tensor => tf.tidy(() => fn(...args)) : (): tf.Tensor => staged(...args);
  call().dispose();
  const before = tf.memory().numTensors;
  const end = performance.now() + Number(seconds) * 1000;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  while (performance.now() < end) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const out = call();
    out.dataSync();
    out.dispose();
    const c1 = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpuTimes.push((c1.user + c1.system) / 1000);
  }
  const med = (xs: number[]): string => [...xs].sort((a, b) => a - b)[xs.length >> 1].toFixed(3);
  console.log(`${name} ${backend} ${mode}: ${times.length} calls, median ${med(times)} ms (cpu time ${med(cpuTimes)} ms), ` +
    `min ${Math.min(...times).toFixed(3)} ms, tensors ${before} -> ${tf.memory().numTensors}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
