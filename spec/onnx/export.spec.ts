/**
 * exportOnnx: the written model loads in onnxruntime-node through its public API
 * (InferenceSession.create + run) and gives the eager results, with the function's name and its
 * parameters' names.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { exportOnnx, parameterNames } from '../../backends/onnx/export';
import { describeOnnx, expectSameTensor, loadSample } from './support';

/** The part of onnxruntime-node's public API used here (typed locally: the package is optional). */
interface Ort {
  InferenceSession: { create(path: string): Promise<{
    run(feeds: Record<string, unknown>): Promise<Record<string, { data: ArrayLike<number>; dims: readonly number[]; type: string }>>;
    release(): Promise<void>;
  }> };
  Tensor: new (type: string, data: ArrayBufferView, dims: readonly number[]) => unknown;
}

describeOnnx('onnx: exportOnnx', () => {
  let dir: string;
  let ort: Ort;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-onnx-'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ort = require('onnxruntime-node') as Ort;
  });
  after(() => dir !== undefined && fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs the file at `file` with the public async API; results by output name as tfjs tensors. */
  async function runExported(file: string, feeds: Record<string, tf.Tensor>): Promise<Record<string, tf.Tensor>> {
    const session = await ort.InferenceSession.create(file);
    try {
      const ortFeeds = Object.fromEntries(Object.entries(feeds).map(([k, t]) =>
        [k, new ort.Tensor(t.dtype as 'float32', t.dataSync() as Float32Array, t.shape)]));
      const out = await session.run(ortFeeds);
      return Object.fromEntries(Object.entries(out).map(([k, v]) =>
        [k, tf.tensor(v.data as Float32Array, v.dims as number[], v.type === 'bool' ? 'bool' : v.type as 'float32')]));
    } finally {
      await session.release();
    }
  }

  it('the RNN sample: inputs named after the parameters (w.wx -> w_wx), the graph after the function', async () => {
    const { rnn, greedyDecode, fixedWeights } = loadSample('rnn/src/rnn.ts');
    const w = fixedWeights(4, 8, 6);
    const inputs = tf.sin(tf.range(0, 5 * 2 * 4).mul(0.21)).reshape([5, 2, 4]);
    const h0 = tf.zeros([2, 8]);
    const file = path.join(dir, 'rnn.onnx');
    const { model } = exportOnnx(stage(rnn), [inputs, h0, w], file);
    expect(model.inputs.map((i) => i.name)).to.deep.equal(['inputs', 'h0', 'w_wx', 'w_wh', 'w_b', 'w_embedding', 'w_wo']);
    expect(model.outputs.map((o) => o.name)).to.deep.equal(['output']);
    const feeds = { inputs, h0, w_wx: w.wx, w_wh: w.wh, w_b: w.b, w_embedding: w.embedding, w_wo: w.wo };
    const out = await runExported(file, feeds);
    expectSameTensor(out.output, rnn(inputs, h0, w), 1e-5);
    expect(fs.readFileSync(file).includes(Buffer.from('rnn'))).to.equal(true);

    const decodeFile = path.join(dir, 'decode.onnx');
    const args = [tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), 3, w];
    const exported = exportOnnx(stage(greedyDecode), args, decodeFile).model;
    expect(exported.outputs.map((o) => o.name)).to.deep.equal(['length', 'checksum']);
    expect(exported.inputs.map((i) => i.name)).to.deep.equal(['start', 'maxLength', 'w_wx', 'w_wh', 'w_b', 'w_embedding', 'w_wo']);
    const byName: Record<string, tf.Tensor> = { start: args[0] as tf.Tensor, maxLength: args[1] as tf.Tensor,
      w_wx: w.wx, w_wh: w.wh, w_b: w.b, w_embedding: w.embedding, w_wo: w.wo };
    const decoded = await runExported(decodeFile, Object.fromEntries(exported.inputs.map((i) => [i.name, byName[i.name]])));
    const want = greedyDecode(...args);
    expectSameTensor(decoded.length, want.length);
    expectSameTensor(decoded.checksum, want.checksum);
  });

  it('collatz (sample) exports with its control flow: one model for every n', async () => {
    const { collatzSteps } = loadSample('collatz/src/collatz.ts');
    const file = path.join(dir, 'collatz.onnx');
    exportOnnx(stage(collatzSteps), [tf.scalar(27)], file);
    for (const n of [27, 97, 1]) {
      const out = await runExported(file, { n: tf.scalar(n) });
      expect(out.output.dataSync()[0]).to.equal(collatzSteps(tf.scalar(n)).dataSync()[0]);
    }
  });

  it('parameter names from function sources', () => {
    expect(parameterNames(function f(a: unknown, { b }: { b: unknown }, ...rest: unknown[]) { return [a, b, rest]; } as never))
      .to.deep.equal(['a', 'arg1', 'rest']);
    expect(parameterNames(((x: unknown) => x) as never)).to.deep.equal(['x']);
    expect(parameterNames(((x: number, y = 2) => x + y) as never)).to.deep.equal(['x', 'y']);
  });
});
