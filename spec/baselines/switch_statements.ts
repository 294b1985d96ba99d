import * as tf from '@tensorflow/tfjs';

// A break out of the switch under a tensor condition: lowered to an if chain with a break flag.
export function clampByMode(mode: string, x: tf.Scalar): tf.Scalar {
  'use autograph';
  let y = x;
  switch (mode) {
    case 'relu':
      if (x.less(0)) { y = tf.scalar(0); break; }
    case 'identity':
      y = y.mul(1);
      break;
    default:
      y = y.neg();
  }
  return y;
}

// Nothing converted inside: the switch stays native.
export function scaleByMode(mode: string, x: tf.Scalar): tf.Scalar {
  'use autograph';
  let scale = 1;
  switch (mode) {
    case 'double': scale = 2; break;
    case 'half': scale = 0.5; break;
  }
  if (x.greater(0)) x = x.mul(scale);
  return x;
}
