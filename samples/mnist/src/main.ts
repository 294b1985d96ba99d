import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { loadMnist } from './data';
import { accuracy, createModel, trainLoop, trainStep } from './training';

const STEPS = Number(process.env.MNIST_STEPS ?? 1000);

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  const { train, test } = loadMnist();
  const runs: [string, (model: ReturnType<typeof createModel>) => tf.Scalar][] = [
    ['eager loop', (model) => {
      const optimizer = tf.train.sgd(0.5);
      let loss = tf.scalar(0);
      for (let step = 0; step < STEPS; step++) {
        loss.dispose();
        loss = tf.tidy(() => trainStep(model, optimizer, train.images, train.labels, step));
      }
      return loss;
    }],
    ['staged step, JS loop', (model) => {
      const optimizer = tf.train.sgd(0.5);
      const step = stage(trainStep);
      let loss = tf.scalar(0);
      for (let k = 0; k < STEPS; k++) {
        loss.dispose();
        loss = step(model, optimizer, train.images, train.labels, tf.scalar(k, 'int32'));
      }
      return loss;
    }],
    ['staged loop (one graph)', (model) => {
      const optimizer = tf.train.sgd(0.5);
      return stage(trainLoop)(model, optimizer, train.images, train.labels, tf.scalar(STEPS, 'int32'));
    }],
  ];
  let eagerMs = 0;
  for (const [name, run] of runs) {
    const model = createModel();
    const started = performance.now();
    const loss = run(model);
    const lossValue = loss.dataSync()[0];
    const ms = performance.now() - started;
    eagerMs ||= ms;
    console.log(`mnist softmax, ${STEPS} SGD steps of ${train.images.shape[0] >= 200 ? 200 : 0} (${name}): ` +
      `final batch loss ${lossValue.toFixed(4)}, test accuracy ${(accuracy(model, test.images, test.labels) * 100).toFixed(1)}%, ` +
      `${(ms / 1000).toFixed(2)} s${ms === eagerMs ? '' : ` (${(eagerMs / ms).toFixed(1)}x the eager loop, tracing included)`}`);
  }
}

main();
