import * as tf from '@tensorflow/tfjs';

// An else-if chain longer than LONG_CHAIN (16) branches is emitted flat: one ag__.ifStmt per
// branch after a branch_taken flag, instead of 17 nested closures.
export function lookup(x: tf.Scalar): tf.Scalar {
  'use autograph';
  let y = tf.scalar(-1);
  if (x.equal(0)) {
    y = tf.scalar(0);
  } else if (x.equal(1)) {
    y = tf.scalar(10);
  } else if (x.equal(2)) {
    y = tf.scalar(20);
  } else if (x.equal(3)) {
    y = tf.scalar(30);
  } else if (x.equal(4)) {
    y = tf.scalar(40);
  } else if (x.equal(5)) {
    y = tf.scalar(50);
  } else if (x.equal(6)) {
    y = tf.scalar(60);
  } else if (x.equal(7)) {
    y = tf.scalar(70);
  } else if (x.equal(8)) {
    y = tf.scalar(80);
  } else if (x.equal(9)) {
    y = tf.scalar(90);
  } else if (x.equal(10)) {
    y = tf.scalar(100);
  } else if (x.equal(11)) {
    y = tf.scalar(110);
  } else if (x.equal(12)) {
    y = tf.scalar(120);
  } else if (x.equal(13)) {
    y = tf.scalar(130);
  } else if (x.equal(14)) {
    y = tf.scalar(140);
  } else if (x.equal(15)) {
    y = tf.scalar(150);
  } else if (x.equal(16)) {
    y = tf.scalar(160);
  } else {
    y = tf.scalar(-2);
  }
  return y;
}
