/**
 * exportGraphModel of staged graphs with list values: TensorList ops on DT_VARIANT handles,
 * carried by StatelessWhile and StatelessIf; tf.loadGraphModel + executeAsync give the staged
 * (and eager) results.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { exportGraphModel } from '../../backends/export/graphmodel/export';
import { expectSameTensor, loadSample } from '../onnx/support';
import { loadExported } from './support';
import { compile, load } from '../harness/compile';
import { toGraphDef } from '../../backends/export/graphmodel/graph_def';
import type { Node, Program, TensorSpec } from '../../backends/graph/graph';

/** A list whose elements have an unknown dim once the argument's rows are relaxed. */
const ROW_SQUARES = `
import * as tf from '@tensorflow/tfjs';
export function rowSquares(t: tf.Tensor2D, n: tf.Scalar): tf.Tensor {
  'use autograph';
  const out: tf.Tensor[] = [];
  let i = tf.scalar(0);
  while (i.less(n)) {
    out.push(t.square().add(i));
    i = i.add(1);
  }
  return tf.stack(out);
}
`;

async function runAll(model: tf.GraphModel, feeds: Record<string, tf.Tensor>): Promise<tf.Tensor[]> {
  const result = await model.executeAsync(feeds, model.outputNodes);
  return Array.isArray(result) ? result : [result];
}

describe('graph model: lists', () => {
  let dir: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let lists: Record<string, any>;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-graphmodel-lists-'));
    lists = loadSample('seq2seq/src/decode.ts');
  });
  after(() => dir !== undefined && fs.rmSync(dir, { recursive: true, force: true }));

  it('seq2seq greedy decode: a push loop with a break, stacked; equal to staged and eager for other sources', async () => {
    const { randomModel, randomSource } = loadSample('seq2seq/src/model.ts');
    const m = randomModel(12, 16, 1.5);
    const source = randomSource(3, 5, 12);
    const out = path.join(dir, 'greedy');
    const fn = (src: tf.Tensor2D): tf.Tensor2D => lists.greedyDecode(m, src, 9);
    const exported = await exportGraphModel(stage(fn), [source], out);
    const json = fs.readFileSync(path.join(out, 'model.json'), 'utf8');
    expect(json).to.include('"TensorListPushBack"').and.include('"TensorListStack"').and.include('"DT_VARIANT"');
    const model = await loadExported(out);
    for (const seed of [2, 3, 4]) {
      const src = randomSource(3, 5, 12, seed);
      const [got] = await runAll(model, { [exported.inputs[0]]: src });
      expectSameTensor(got, fn(src));
    }
  });

  it('seq2seq beam search: two lists pushed per step, TopKV2 and gathers in the body; ids, parents and scores equal', async () => {
    const { randomModel, randomSource } = loadSample('seq2seq/src/model.ts');
    const m = randomModel(10, 12, 0.5);
    const fn = (src: tf.Tensor2D): tf.Tensor[] => {
      const { ids, parents, scores } = lists.beamSearch(m, src, 6, 3);
      return [ids, parents, scores];
    };
    const out = path.join(dir, 'beam');
    const exported = await exportGraphModel(stage(fn), [randomSource(2, 4, 10)], out);
    const model = await loadExported(out);
    for (const seed of [2, 5]) {
      const src = randomSource(2, 4, 10, seed);
      const got = await runAll(model, { [exported.inputs[0]]: src });
      fn(src).forEach((want, i) => expectSameTensor(got[i], want, 1e-5, `output ${i} (seed ${seed})`));
    }
  });

  it('a gradient through a staged While (accumulators pushed forward, popped backward) equals staged and eager', async () => {
    const { rnn, fixedWeights } = loadSample('rnn/src/rnn.ts');
    const w = fixedWeights(4, 8, 6);
    const rnnGrads = (inputs: tf.Tensor, h0: tf.Tensor, wx: tf.Tensor, wh: tf.Tensor): tf.Tensor[] =>
      tf.grads((a: tf.Tensor, b: tf.Tensor) => rnn(inputs, h0, { ...w, wx: a, wh: b }).square().sum())([wx, wh]);
    const inputs = tf.sin(tf.range(0, 5 * 2 * 4).mul(0.37)).reshape([5, 2, 4]);
    const h0 = tf.zeros([2, 8]);
    const staged = stage(rnnGrads);
    const out = path.join(dir, 'grad');
    const exported = await exportGraphModel(staged, [inputs, h0, w.wx, w.wh], out);
    const json = fs.readFileSync(path.join(out, 'model.json'), 'utf8');
    expect(json).to.include('"TensorListPushBack"').and.include('"TensorListGetItem"').and.include('"TensorListResize"');
    const model = await loadExported(out);
    for (const x of [inputs, inputs.mul(-0.5)]) {
      const got = await runAll(model, Object.fromEntries(exported.inputs.map((n, i) => [n, [x, h0, w.wx, w.wh][i]])));
      const want = rnnGrads(x, h0, w.wx, w.wh);
      const viaStaged = staged(x, h0, w.wx, w.wh);
      want.forEach((g, i) => {
        expectSameTensor(got[i], g, 1e-4, `gradient ${i} vs eager`);
        expectSameTensor(got[i], viaStaged[i], 1e-5, `gradient ${i} vs staged`);
      });
    }
  });

  it("a list value with two uses that append to it: each gets a copy (tfjs-converter's TensorListPushBack mutates its input)", async () => {
    // xs = [x]; a = [...xs, 5]; b = [...xs, 7]; results: stack(a), stack(b), xs.length.
    const list: TensorSpec = { shape: [], dtype: 'float32', list: 1 };
    const nodes: Node[] = [
      { kind: 'Input', param: 0, outputs: [{ shape: [], dtype: 'float32' }] },
      { kind: 'List', op: 'EmptyTensorList', inputs: [], outputs: [list] },
      { kind: 'List', op: 'TensorListPushBack', inputs: [{ node: 1, output: 0 }, { node: 0, output: 0 }], outputs: [list] },
      { kind: 'Constant', constant: 0, outputs: [{ shape: [], dtype: 'float32' }] },
      { kind: 'Constant', constant: 1, outputs: [{ shape: [], dtype: 'float32' }] },
      { kind: 'List', op: 'TensorListPushBack', inputs: [{ node: 2, output: 0 }, { node: 3, output: 0 }], outputs: [list] },
      { kind: 'List', op: 'TensorListPushBack', inputs: [{ node: 2, output: 0 }, { node: 4, output: 0 }], outputs: [list] },
      { kind: 'List', op: 'TensorListStack', inputs: [{ node: 5, output: 0 }], attrs: { axis: 0 }, outputs: [{ shape: [-1], dtype: 'float32' }] },
      { kind: 'List', op: 'TensorListStack', inputs: [{ node: 6, output: 0 }], attrs: { axis: 0 }, outputs: [{ shape: [-1], dtype: 'float32' }] },
      { kind: 'List', op: 'TensorListLength', inputs: [{ node: 2, output: 0 }], outputs: [{ shape: [], dtype: 'int32' }] },
    ];
    const program: Program = { graph: { numParams: 1, nodes, results: [7, 8, 9].map((node) => ({ node, output: 0 })) },
      constants: [tf.scalar(5), tf.scalar(7)], variables: [], errors: [] };
    const written = toGraphDef(program, { scope: 'shared', inputs: ['x'], outputs: ['a', 'b', 'n'] });
    if (!written.ok) throw new Error(JSON.stringify(written.problems));
    const { graphDef, weights, inputs, outputs } = written.export;
    const { data, specs } = await tf.io.encodeWeights(weights.map((w) => ({ name: w.name, tensor: w.tensor })));
    const model = await tf.loadGraphModel(tf.io.fromMemory({ modelTopology: graphDef, weightSpecs: specs, weightData: data,
      signature: { inputs, outputs } } as tf.io.ModelArtifacts));
    // TensorList ops run only in executeAsync.
    const [a, b, n] = await runAll(model, { x: tf.scalar(3) });
    expect(await a.array()).to.deep.equal([3, 5]);
    expect(await b.array()).to.deep.equal([3, 7]);
    expect(await n.array()).to.equal(1);
  });

  describe('the list programs of spec/fixtures (push, length, at, pop, stack, concat; in If and nested While)', () => {
    const S = (v: number, dtype: 'float32' | 'int32' = 'float32'): tf.Scalar => tf.scalar(v, dtype);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let m: Record<string, (...args: any[]) => any>;
    before(() => {
      const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/tensor_list_programs.ts'), 'utf8');
      const js = compile({ 'main.ts': source }).js['main.ts'];
      m = load(js);
      Object.assign(m, load(compile({ 'rows.ts': ROW_SQUARES }).js['rows.ts']));
    });
    const chain = (): tf.Tensor2D => tf.tensor2d(Array.from({ length: 36 }, (_, i) => (i % 6 === (Math.floor(i / 6) + 1) % 6 ? 1 : 0)), [6, 6]);
    // The traced arguments first, then others of the same signature (other lengths, other branches).
    const cases: [string, () => unknown[][]][] = [
      ['greedyDecodeJsCounter', () => [[tf.tensor1d([0, 2], 'int32'), chain(), 4, 10], [tf.tensor1d([3, 3], 'int32'), chain(), 4, 10]]],
      ['squares', () => [[S(3)], [S(1)], [S(6)]]],
      ['chunks', () => [[S(3, 'int32')], [S(1, 'int32')], [S(0, 'int32')]]],
      ['fibonacci', () => [[S(6)], [S(2)], [S(9)]]],
      ['reversed', () => [[S(4)], [S(1)], [S(7)]]],
      ['sumOfList', () => [[S(4)], [S(0)]]],
      ['endsAfterLoop', () => [[S(3)], [S(1)]]],
      ['oddsOnly', () => [[S(6)], [S(1)], [S(9)]]],
      ['pushOrPop', () => [[S(3)], [S(-2)]]],
      ['powersSum', () => [[S(1.5), S(4)], [S(-2), S(3)]]],
      ['triangle', () => [[S(3)], [S(1)], [S(5)]]],
      ['staticAndStaged', () => [[S(2)], [S(0)]]],
      ['rowsAndDoWhile', () => [[tf.tensor2d([[1, 2], [3, 4]]), S(2)], [tf.tensor2d([[0, -1], [5, 6]]), S(0)]]],
    ];
    for (const [name, makeArgs] of cases) {
      it(`${name}: the loaded GraphModel equals eager`, async () => {
        const [traced, ...others] = makeArgs();
        const out = path.join(dir, `fixture_${name}`);
        const exported = await exportGraphModel(stage(m[name]), traced, out);
        const model = await loadExported(out);
        for (const args of [traced, ...others]) {
          const tensors = args.filter((a): a is tf.Tensor => a instanceof tf.Tensor);
          const [got] = await runAll(model, Object.fromEntries(exported.inputs.map((n, i) => [n, tensors[i]])));
          expectSameTensor(got, m[name](...args) as tf.Tensor, 0, `${name}(${tensors.map((t) => JSON.stringify(t.arraySync())).join(', ')})`);
        }
      });
    }

    it('unknown dims (relaxed after calls with other shapes) are -1 in Placeholder shapes and list element shapes', async () => {
      const staged = stage(m.rowSquares);
      staged(tf.ones([2, 3]), S(2));
      staged(tf.ones([4, 3]), S(1));
      const out = path.join(dir, 'relaxed');
      const exported = await exportGraphModel(staged, [tf.ones([5, 3]), S(3)], out);
      const json = JSON.parse(fs.readFileSync(path.join(out, 'model.json'), 'utf8'));
      const sizes = (shape: { dim: { size: string }[] }): string[] => shape.dim.map((d) => d.size);
      const placeholder = json.modelTopology.node.find((n: { op: string }) => n.op === 'Placeholder');
      expect(sizes(placeholder.attr.shape.shape)).to.deep.equal(['-1', '3']);
      // The list's element shape (EmptyTensorList's first input) is a Const [-1, 3].
      const empty = json.modelTopology.library.function.flatMap((f: { nodeDef: unknown[] }) => f.nodeDef)
        .concat(json.modelTopology.node).find((n: { op: string }) => n.op === 'EmptyTensorList');
      const spec = json.weightsManifest[0].weights.find((w: { name: string }) => w.name === empty.input[0].split(':')[0]);
      expect(spec.shape).to.deep.equal([2]);
      const model = await loadExported(out);
      expect(await (model.weights[spec.name][0] as tf.Tensor).array()).to.deep.equal([-1, 3]);
      expect(sizes(json.signature.inputs[exported.inputs[0]].tensorShape)).to.deep.equal(['-1', '3']);
      for (const rows of [1, 6]) {
        const t = tf.range(0, rows * 3).reshape([rows, 3]);
        const [got] = await runAll(model, { [exported.inputs[0]]: t, [exported.inputs[1]]: S(3) });
        expectSameTensor(got, m.rowSquares(t, S(3)) as tf.Tensor, 0, `${rows} rows`);
      }
    });

    it('refuses a concat of elements that differ in dim 0, naming the op and why', async () => {
      const failure = await exportGraphModel(stage(m.prefixAndPairs), [S(2)], path.join(dir, 'pairs')).then(() => 'exported', String);
      expect(failure).to.match(/prefixAndPairs does not export to a GraphModel: TensorListConcat \(the function, node %\d+\): elements that differ in dim 0/);
    });
  });
});
