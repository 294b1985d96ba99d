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
import { exportGraphModel } from '../../backends/graphmodel/export';
import { expectSameTensor, loadSample } from '../onnx/support';
import { loadExported } from './support';

async function runAll(model: tf.GraphModel, feeds: Record<string, tf.Tensor>): Promise<tf.Tensor[]> {
  const result = await model.executeAsync(feeds, model.outputNodes);
  return Array.isArray(result) ? result : [result];
}

describe('graph model: lists', () => {
  let dir: string;
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
});
