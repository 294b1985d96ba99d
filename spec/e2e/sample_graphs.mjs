// Run by spec/e2e/samples.spec.ts inside the folder of compiled samples: stages every exported
// model function of the samples on small arguments and prints its graph as DOT, one JSON line per
// function: { name, dot, whiles, ifs }.
import tf from '@tensorflow/tfjs';
import { stage } from 'autograph-ts';

const load = (file) => import(new URL(file, `file://${process.cwd()}/`).href);
const collatz = await load('./collatz/out/collatz.js');
const control = await load('./control/out/control.js');
const rnn = await load('./rnn/out/rnn.js');
const training = await load('./training/out/training.js');
const newton = await load('./newton/out/newton.js');
const mnist = await load('./mnist/out/training.js');
const bptt = await load('./bptt/out/bptt.js');

await tf.setBackend('cpu');
const w = rnn.fixedWeights(4, 8, 6);
const problem = newton.syntheticProblem(60, 4);
const images = tf.randomUniform([400, 784], 0, 1, 'float32', 1);
const labels = tf.oneHot(tf.randomUniform([400], 0, 10, 'int32', 2), 10).toFloat();
const xs = tf.tensor2d([-1, 0, 1, 2], [4, 1]);
const sequences = bptt.decayingSumTask(3, 2, 2);
const cases = [
  ['collatzSteps', collatz.collatzSteps, [tf.scalar(27)]],
  ['firstNegative', control.firstNegative, [tf.tensor1d([3, 1, -4])]],
  ['rowPrefixSums', control.rowPrefixSums, [tf.tensor2d([[1, -2], [3, 4]])]],
  ['sign', control.sign, [tf.scalar(-2)]],
  ['powerIfPositive', control.powerIfPositive, [tf.scalar(2), 3]],
  ['checkedSqrt', control.checkedSqrt, [tf.scalar(4)]],
  ['rnn', rnn.rnn, [tf.ones([3, 2, 4]), tf.zeros([2, 8]), w]],
  ['greedyDecode', rnn.greedyDecode, [tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), 5, w]],
  ['fitUntil', training.fitUntil, [training.linearModel(), xs, xs.mul(2), 1e-4, 20]],
  ['newtonCG', newton.newtonCG, [problem.x, problem.y, 1e-3, 1e-5, 10]],
  ['trainLoop', mnist.trainLoop, [mnist.createModel(), tf.train.sgd(0.5), images, labels, tf.scalar(2, 'int32')]],
  ['decodeBatch', rnn.decodeBatch, [tf.tensor1d([0, 1], 'int32'), tf.zeros([2, 8]), 4, 5, w]],
  ['sequenceLoss', bptt.sequenceLoss, [sequences.xs, sequences.targets, bptt.initialWeights(2, 3)]],
  ['train', bptt.train, [sequences.xs, sequences.targets, bptt.initialWeights(2, 3), tf.train.sgd(0.1), tf.scalar(2, 'int32')]],
];
for (const [name, fn, args] of cases) {
  const info = stage(fn).inspect(...args);
  console.log(JSON.stringify({ name, dot: info.dot(), whiles: info.stats.whiles, ifs: info.stats.ifs }));
}
