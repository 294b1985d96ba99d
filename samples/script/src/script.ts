// A script: no import or export statement, so TypeScript treats this file as a global script.
// The transformer brings in the runtime with require() (an import would turn it into a module).
declare function require(id: string): any;
const tf: typeof import('@tensorflow/tfjs') = require('@tensorflow/tfjs');
require('@tensorflow/tfjs-backend-wasm');
const { stage } = require('autograph-ts') as typeof import('autograph-ts');
const { halvings } = require('./legacy.js') as typeof import('./legacy.js');

/** How many base-`base` digits n has: a do...while on a tensor condition. */
function digitCount(n: import('@tensorflow/tfjs').Tensor, base: number) {
  'use autograph';
  let digits = tf.scalar(0);
  do {
    n = n.div(base).floor();
    digits = digits.add(1);
  } while (n.greater(0));
  return digits;
}

tf.setBackend('wasm').then(() => {
  const stagedDigitCount = stage(digitCount);
  for (const [n, base] of [[65535, 16], [0, 10]]) {
    const eager = digitCount(tf.scalar(n), base).dataSync()[0];
    const staged = stagedDigitCount(tf.scalar(n), base).dataSync()[0];
    console.log(`digitCount(${n}, ${base}) = ${eager} (eager), ${staged} (staged)`);
  }
  console.log(`halvings(1000) = ${halvings(tf.scalar(1000)).dataSync()[0]} (eager), ` +
    `${stage(halvings)(tf.scalar(1000)).dataSync()[0]} (staged)`);
});
