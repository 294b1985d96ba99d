/**
 * Training with tf.layers and an optimizer until the loss is small enough: the stopping rule is a
 * tensor condition (`loss.greater(tolerance)`), combined with a step budget by `&&`.
 */
import * as tf from '@tensorflow/tfjs';

/** A one-unit dense layer, starting from zeros so that every run prints the same numbers. */
export function linearModel(): tf.Sequential {
  const model = tf.sequential();
  model.add(tf.layers.dense({ units: 1, inputShape: [1], kernelInitializer: 'zeros', biasInitializer: 'zeros' }));
  return model;
}

export function fitUntil(model: tf.LayersModel, xs: tf.Tensor, ys: tf.Tensor, tolerance: number,
                         maxSteps: number): { steps: tf.Tensor; loss: tf.Tensor } {
  'use autograph';
  const optimizer = tf.train.sgd(0.1);
  const mse = (): tf.Scalar => tf.losses.meanSquaredError(ys, model.predict(xs) as tf.Tensor);
  let loss: tf.Tensor = mse();
  let steps: tf.Tensor = tf.scalar(0);
  while (loss.greater(tolerance) && steps.less(maxSteps)) {
    loss = optimizer.minimize(mse, true)!;
    steps = steps.add(1);
  }
  return { steps, loss };
}
