// Plain JavaScript (allowJs): the directive works the same; the checker takes types from JSDoc
// and from the required module's declarations.
const tf = require('@tensorflow/tfjs');

/**
 * How many times x can be halved before it is at most 1.
 * @param {import('@tensorflow/tfjs').Tensor} x
 */
function halvings(x) {
  'use autograph';
  let count = tf.scalar(0);
  while (x.greater(1)) {
    x = x.div(2);
    count = count.add(1);
  }
  return count;
}

module.exports = { halvings };
