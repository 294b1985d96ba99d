/**
 * List values (TensorList nodes: what a gradient through a staged loop accumulates) lowered to
 * ONNX sequences: as Loop state pushed in the forward loop and popped in the backward one. A
 * staged gradient through the RNN sample's loop runs in ONNX Runtime equal to the tfjs executor
 * and to eager tf.grad.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import * as fs from 'fs';
import * as path from 'path';
import { compile, load } from '../harness/compile';
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
    // (TensorListConcat: the rows of the weight gradients' products, summed after the backward loop: accumulated_products.ts.)
    expect([...listOps(info.program.graph)].sort()).to.deep.equal(['EmptyTensorList', 'TensorListConcat', 'TensorListPopBack', 'TensorListPushBack']);
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

describeOnnx('onnx: arrays of tensors grown by staged loops (push, length, at, pop, stack, concat) as sequences', () => {
  const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/tensor_list_programs.ts'), 'utf8');
  const S = (v: number, dtype: 'float32' | 'int32' = 'float32'): tf.Scalar => tf.scalar(v, dtype);
  let m: Record<string, (...args: any[]) => any>;
  before(() => {
    const js = compile({ 'main.ts': source }).js['main.ts'];
    m = load(js);
  });
  const chain = (): tf.Tensor2D => tf.tensor2d(Array.from({ length: 36 }, (_, i) => (i % 6 === (Math.floor(i / 6) + 1) % 6 ? 1 : 0)), [6, 6]);
  const cases: [string, () => unknown[][]][] = [
    ['greedyDecodeJsCounter', () => [[tf.tensor1d([0, 2], 'int32'), chain(), 4, 10], [tf.tensor1d([3, 3], 'int32'), chain(), 4, 10]]],
    ['squares', () => [[S(3)], [S(1)]]],
    ['chunks', () => [[S(3, 'int32')], [S(1, 'int32')]]],
    ['fibonacci', () => [[S(6)], [S(2)]]],
    ['reversed', () => [[S(4)], [S(1)]]],
    ['endsAfterLoop', () => [[S(3)], [S(1)]]],
    ['oddsOnly', () => [[S(6)], [S(1)]]],
    ['triangle', () => [[S(3)], [S(1)]]],
    ['prefixAndPairs', () => [[S(2)], [S(0)]]],
  ];
  for (const [name, makeArgs] of cases) {
    it(`${name}: ONNX Runtime equals eager`, () => {
      const argLists = makeArgs();
      const staged = stage(m[name], { engine: 'onnx' });
      for (const args of argLists) {
        expect(staged.inspect(...args).engine.engine).to.equal('onnx');
        const want = m[name](...args) as tf.Tensor;
        expectSameTensor(staged(...args) as tf.Tensor, want, 0, `${name}`);
        expect(staged.inspect(...args).engine, 'still on ORT after a run').to.include({ engine: 'onnx' });
      }
      staged.dispose();
    });
  }
  it('an index past the end fails the run in ORT as in the tfjs executor (never another element)', () => {
    const staged = stage(m.endsAfterLoop, { engine: 'onnx' });
    expect(staged.inspect(S(3)).engine.engine).to.equal('onnx');
    expect(() => staged(S(0))).to.throw();
    staged.dispose();
  });
});
