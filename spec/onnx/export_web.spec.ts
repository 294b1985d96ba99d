/**
 * exportOnnx in the page's terms: bytes without a path, models that onnxruntime-web loads
 * whatever backend traced them (float32 lowering by default; float64 kept as an option), and
 * input names from the input signature.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { exportOnnx } from '../../backends/export/onnx/export';
import { expectSameTensor, loadSample } from './support';

interface WebOrt {
  env: { wasm: { numThreads?: number } };
  InferenceSession: { create(model: Uint8Array, options?: object): Promise<{
    run(feeds: Record<string, unknown>): Promise<Record<string, { data: ArrayLike<number>; dims: readonly number[]; type: string }>>;
    release(): Promise<void>;
  }> };
  Tensor: new (type: string, data: ArrayBufferView, dims: readonly number[]) => unknown;
}

describe('onnx: exportOnnx for onnxruntime-web', () => {
  let ort: WebOrt;
  let backend: string;
  before(async () => {
    ort = (await import('onnxruntime-web')) as unknown as WebOrt;
    ort.env.wasm.numThreads = 1;
    backend = tf.getBackend();
  });
  afterEach(async () => {
    await tf.setBackend(backend);
  });

  async function runInWeb(bytes: Uint8Array, feeds: Record<string, tf.Tensor>): Promise<Record<string, tf.Tensor>> {
    const session = await ort.InferenceSession.create(bytes, { logSeverityLevel: 3 });
    try {
      const out = await session.run(Object.fromEntries(Object.entries(feeds).map(([k, t]) =>
        [k, new ort.Tensor(t.dtype, t.dataSync() as Float32Array, t.shape)])));
      return Object.fromEntries(Object.entries(out).map(([k, v]) =>
        [k, tf.tensor(v.data as Float32Array, v.dims as number[], v.type === 'bool' ? 'bool' : v.type as 'float32')]));
    } finally {
      await session.release();
    }
  }

  for (const traced of ['cpu', 'wasm']) {
    it(`a model traced on ${traced} loads and runs in onnxruntime-web and equals eager (RNN, greedy decoder)`, async () => {
      await tf.setBackend(traced);
      const { rnn, greedyDecode, fixedWeights } = loadSample('rnn/src/rnn.ts');
      const w = fixedWeights(4, 8, 6);
      const inputs = tf.sin(tf.range(0, 40).mul(0.21)).reshape([5, 2, 4]);
      const h0 = tf.zeros([2, 8]);
      const exported = exportOnnx(stage(rnn), [inputs, h0, w]);
      expect(exported.bytes).to.be.instanceOf(Uint8Array);
      expect(exported.path).to.equal(undefined);
      const out = await runInWeb(exported.bytes, { inputs, h0, w_wx: w.wx, w_wh: w.wh, w_b: w.b, w_embedding: w.embedding, w_wo: w.wo });
      expectSameTensor(out.output, rnn(inputs, h0, w), 1e-5, `rnn traced on ${traced}`);

      const args = [tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), 3, w];
      const decoder = exportOnnx(stage(greedyDecode), args);
      const byName: Record<string, tf.Tensor> = { start: args[0] as tf.Tensor, maxLength: args[1] as tf.Tensor,
        w_wx: w.wx, w_wh: w.wh, w_b: w.b, w_embedding: w.embedding, w_wo: w.wo };
      const decoded = await runInWeb(decoder.bytes, Object.fromEntries(decoder.model.inputs.map((i) => [i.name, byName[i.name]])));
      const want = greedyDecode(...args);
      expectSameTensor(decoded.length, want.length);
      expectSameTensor(decoded.checksum, want.checksum);
    });
  }

  it("a cpu trace's float64 arithmetic is the default no more, and stays an option", async () => {
    await tf.setBackend('cpu');
    const fn = (x: tf.Tensor): tf.Tensor => tf.exp(x).sum();
    const x = tf.tensor1d([0.1, 1e-3, 2]);
    const f32 = exportOnnx(stage(fn), [x]).bytes;
    const f64 = exportOnnx(stage(fn), [x], undefined, { precision: 'float64' }).bytes;
    // ONNX TensorProto.DOUBLE is element type 11: the float64 model casts to it, the float32 one never.
    // (AttributeProto: name 'to' = field 1, i = field 3 as a varint.)
    const castsToDouble = (bytes: Uint8Array): boolean => /\n\x02to[\s\S]{0,4}\x18\x0b/.test(Buffer.from(bytes).toString('latin1'));
    expect(castsToDouble(f64), 'float64 model').to.equal(true);
    expect(castsToDouble(f32), 'float32 model').to.equal(false);
    const out = await runInWeb(f32, { x });
    expectSameTensor(out.output, fn(x), 1e-6);
  });

  it('inputs are named after the input signature (minifiers rename parameters), or the names given', () => {
    const fn = (a: tf.Tensor, b: tf.Tensor): tf.Tensor => a.add(b);
    const staged = stage(fn, { inputSignature: [{ shape: [2], name: 'left' }, { shape: [2], name: 'right' }] });
    const args = [tf.tensor1d([1, 2]), tf.tensor1d([3, 4])];
    expect(exportOnnx(staged, args).model.inputs.map((i) => i.name)).to.deep.equal(['left', 'right']);
    expect(exportOnnx(stage(fn), args, undefined, { inputNames: ['p', 'q'] }).model.inputs.map((i) => i.name)).to.deep.equal(['p', 'q']);
    expect(exportOnnx(stage(fn), args).model.inputs.map((i) => i.name)).to.deep.equal(['a', 'b']);
    expect(() => exportOnnx(stage(fn), args, undefined, { inputNames: ['p'] })).to.throw(/1 input names given/);
  });
});
