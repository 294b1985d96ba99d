/**
 * Backpropagation through time: a tanh RNN reads a sequence and predicts, at the end, a number that
 * depends on the whole sequence (a decaying sum of the inputs, so the gradient has to flow back
 * through many steps). Staged, the forward `for` over the time steps is a While node and the
 * gradient is a backward While in the same graph (see the README's Gradients section).
 */
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

export interface RnnWeights {
  wx: tf.Tensor2D;   // [features, units]
  wh: tf.Tensor2D;   // [units, units]
  b: tf.Tensor1D;    // [units]
  wo: tf.Tensor2D;   // [units, 1]
}

/** Mean squared error of the prediction read from the last hidden state. */
export function sequenceLoss(xs: tf.Tensor3D, targets: tf.Tensor2D, w: RnnWeights): tf.Scalar {
  'use autograph';
  let h: tf.Tensor = tf.zeros([xs.shape[1], w.wh.shape[0]]);
  for (const x of xs) {                        // the time steps: a While node when staged
    h = tf.tanh(x.matMul(w.wx).add(h.matMul(w.wh)).add(w.b));
  }
  return tf.losses.meanSquaredError(targets, h.matMul(w.wo));
}

/** The loss and its gradient with respect to each weight, through the loop over time. */
export function lossAndGradients(xs: tf.Tensor3D, targets: tf.Tensor2D, w: RnnWeights): { loss: tf.Scalar; grads: tf.Tensor[] } {
  const { value, grads } = tf.valueAndGrads((wx: tf.Tensor, wh: tf.Tensor, b: tf.Tensor, wo: tf.Tensor) =>
    sequenceLoss(xs, targets, { wx, wh, b, wo } as RnnWeights))([w.wx, w.wh, w.b, w.wo]);
  return { loss: value as tf.Scalar, grads };
}

/** One optimizer step on variables; returns the loss before the step. */
export function trainStep(xs: tf.Tensor3D, targets: tf.Tensor2D, w: RnnWeights, optimizer: tf.Optimizer): tf.Scalar {
  return optimizer.minimize(() => sequenceLoss(xs, targets, w), true) as tf.Scalar;
}

/** `steps` optimizer steps in one function: staged, the training loop itself is a While node too. */
export function train(xs: tf.Tensor3D, targets: tf.Tensor2D, w: RnnWeights, optimizer: tf.Optimizer,
                      steps: tf.Scalar): tf.Scalar {
  'use autograph';
  let loss: tf.Scalar = tf.scalar(0);
  for (const _ of range(steps)) {
    loss = trainStep(xs, targets, w, optimizer);
  }
  return loss;
}

/** Deterministic data: `samples` sequences of `time` steps; the target is sum_t 0.9^(time-1-t) x_t[0]. */
export function decayingSumTask(time: number, samples: number, features: number): { xs: tf.Tensor3D; targets: tf.Tensor2D } {
  return tf.tidy(() => {
    const xs = tf.randomUniform([time, samples, features], -1, 1, 'float32', 11) as tf.Tensor3D;
    const decay = tf.pow(0.9, tf.range(time - 1, -1, -1)).reshape([time, 1]);
    const first = xs.slice([0, 0, 0], [time, samples, 1]).reshape([time, samples]);
    return { xs, targets: first.mul(decay).sum(0).reshape([samples, 1]) as tf.Tensor2D };
  });
}

/** Small random weights from fixed seeds, as variables an optimizer can train. */
export function initialWeights(features: number, units: number): RnnWeights {
  const scaled = (shape: [number, number], seed: number) =>
    tf.variable(tf.randomNormal(shape, 0, 1 / Math.sqrt(shape[0]), 'float32', seed)) as tf.Variable<tf.Rank.R2>;
  // tidy frees the initial values' tensors (each variable has its own reference to their values).
  return tf.tidy(() => ({
    wx: scaled([features, units], 1),
    wh: scaled([units, units], 2),
    b: tf.variable(tf.zeros([units])) as tf.Variable<tf.Rank.R1>,
    wo: scaled([units, 1], 3),
  }));
}
