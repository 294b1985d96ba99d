/**
 * List values (TensorList nodes: what a gradient through a staged loop accumulates) lowered to
 * ONNX sequences: as Loop state pushed in the forward loop and popped in the backward one. A
 * staged gradient through the RNN sample's loop runs in ONNX Runtime equal to the tfjs executor
 * and to eager tf.grad.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { describeOnnx, expectSameTensor, loadSample } from './support';

/** Whether the graph (or a sub-graph) holds a List node of each of these ops. */
function listOps(graph: { nodes: any[] }, into = new Set<string>()): Set<string> {
  for (const node of graph.nodes) {
    if (node.kind === 'List') into.add(node.op);
    if (node.kind === 'If') [node.then, node.else].forEach((g) => listOps(g, into));
    if (node.kind === 'While') [node.cond, node.body].forEach((g) => listOps(g, into));
  }
  return into;
}

describeOnnx('onnx: lists as sequences (gradients through staged loops)', () => {
  it('the gradient of the RNN sample through its staged loop: ORT equals the tfjs executor and eager', () => {
    const { rnn } = loadSample('rnn/src/rnn.ts');
    const loss = (xs: tf.Tensor, h0: tf.Tensor, wx: tf.Tensor, wh: tf.Tensor, b: tf.Tensor): tf.Scalar =>
      rnn(xs, h0, { wx, wh, b }).square().mean() as tf.Scalar;
    type Args = [tf.Tensor, tf.Tensor, tf.Tensor, tf.Tensor, tf.Tensor];
    const gradients = (xs: tf.Tensor, h0: tf.Tensor, wx: tf.Tensor, wh: tf.Tensor, b: tf.Tensor): tf.Tensor[] =>
      tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => loss(xs, h0, a, c, d))([wx, wh, b]);
    const args = tf.tidy(() => [tf.randomNormal([6, 3, 4]), tf.randomNormal([3, 5]), tf.randomNormal([4, 5]).mul(0.5),
      tf.randomNormal([5, 5]).mul(0.5), tf.randomNormal([5])]) as Args;
    const onOrt = stage(gradients, { engine: 'onnx' });
    const onTfjs = stage(gradients, { engine: 'tfjs' });
    const info = onOrt.inspect(...args);
    expect(info.engine.engine).to.equal('onnx');
    expect([...listOps(info.program.graph)].sort()).to.deep.equal(['EmptyTensorList', 'TensorListPopBack', 'TensorListPushBack']);
    const got = onOrt(...args);
    const executor = onTfjs(...args);
    const eager = gradients(...args);
    got.forEach((g, i) => {
      expectSameTensor(g, executor[i], 1e-5, `gradient ${i} vs the tfjs executor`);
      expectSameTensor(g, eager[i], 1e-5, `gradient ${i} vs eager`);
    });
    // One step: one element pushed and popped.
    const one = [args[0].slice([0], [1]), ...args.slice(1)] as Args;
    const oneOnTfjs = onTfjs(...one);
    onOrt(...one).forEach((g, i) => expectSameTensor(g, oneOnTfjs[i], 1e-5, `gradient ${i}, one step`));
    [onOrt, onTfjs].forEach((s) => s.dispose());
  });
});
