/**
 * A softmax classifier on MNIST trained with SGD, batch 200 — the AutoGraph paper's in-graph
 * training workload, three ways:
 *   - trainStep: one SGD step; call it from a JS loop, eagerly or staged (a graph per step);
 *   - trainLoop: the whole loop over steps as one function; staged, the loop is a While node and
 *     the whole training run is a single graph call.
 */
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

export const BATCH = 200;

export interface Model {
  weights: tf.Variable;
  bias: tf.Variable;
}

export function createModel(): Model {
  // tidy frees the zeros (a variable has its own reference to their values).
  return tf.tidy(() => ({
    weights: tf.variable(tf.zeros([784, 10]), true, undefined),
    bias: tf.variable(tf.zeros([10]), true, undefined),
  }));
}

function logits(model: Model, images: tf.Tensor): tf.Tensor {
  return images.matMul(model.weights).add(model.bias);
}

/** The rows of batch `step` (wrapping around the data set), as a tensor of indices. */
function batchRows(step: tf.Tensor | number, count: number): tf.Tensor {
  const counter = typeof step === 'number' ? tf.scalar(step, 'int32') : step;
  const start = counter.mul(tf.scalar(BATCH, 'int32')).mod(tf.scalar(count, 'int32'));
  return tf.range(0, BATCH, 1, 'int32').add(start);
}

export function trainStep(model: Model, optimizer: tf.Optimizer, images: tf.Tensor2D, labels: tf.Tensor2D,
                          step: tf.Tensor | number): tf.Scalar {
  const rows = batchRows(step, images.shape[0]);
  const x = tf.gather(images, rows);
  const y = tf.gather(labels, rows);
  return optimizer.minimize(() => tf.losses.softmaxCrossEntropy(y, logits(model, x)), true) as tf.Scalar;
}

export function trainLoop(model: Model, optimizer: tf.Optimizer, images: tf.Tensor2D, labels: tf.Tensor2D,
                          steps: tf.Scalar): tf.Scalar {
  'use autograph';
  let loss: tf.Scalar = tf.scalar(0);
  for (const step of range(steps)) {
    loss = trainStep(model, optimizer, images, labels, step);
  }
  return loss;
}

export function accuracy(model: Model, images: tf.Tensor2D, labels: tf.Tensor2D): number {
  return tf.tidy(() => logits(model, images).argMax(1).equal(labels.argMax(1)).mean().dataSync()[0]);
}
