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
import * as ag__ from '../../runtime/operators';
import { stage } from '../../backends/stage';
import { exportOnnx } from '../../backends/export/onnx/export';
import { parameterNames } from '../../backends/export/naming';
import { describeOnnx, expectSameTensor, loadSample } from './support';

/** The part of onnxruntime-node's public API used here (typed locally: the package is optional). */
interface Ort {
  InferenceSession: { create(path: string, options?: object): Promise<{
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
    const session = await ort.InferenceSession.create(file, { logSeverityLevel: 3 });
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

  /** The tensors among `args`, in the order the model's inputs are (objects by key order); tf.Variables
   * are read as variable inputs (model.variableInputs), named where they were passed. */
  function tensorLeaves(value: unknown, into: tf.Tensor[] = []): tf.Tensor[] {
    if (value instanceof tf.Variable) return into;
    if (value instanceof tf.Tensor) into.push(value);
    else if (Array.isArray(value)) value.forEach((v) => tensorLeaves(v, into));
    else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => tensorLeaves(v, into));
    return into;
  }

  /** Exports `fn` staged on `args`, runs the file in ORT and compares every output with eager. */
  async function exportsAndAgrees(name: string, fn: (...a: any[]) => any, args: unknown[], tol: number): Promise<void> {
    const file = path.join(dir, `${name}.onnx`);
    const { model } = exportOnnx(stage(fn), args, file);
    const leaves = tensorLeaves(args);
    expect(model.inputs).to.have.length(leaves.length);
    const program = stage(fn).inspect(...args).program;
    const feeds = Object.fromEntries([...model.inputs.map((io, i) => [io.name, leaves[i]]),
      ...model.variableInputs.map((io) => [io.name, program.variables[io.variable]])]);
    const out = await runExported(file, feeds);
    const want = fn(...args);
    const wants = tensorLeaves(want);
    expect(model.outputs).to.have.length(wants.length);
    model.outputs.forEach((o, i) => expectSameTensor(out[o.name], wants[i], tol, `${name} output ${o.name}`));
  }

  it('the seq2seq sample: greedy decoding and beam search that push tokens to lists (ONNX sequences) export and agree', async () => {
    const { randomModel, randomSource } = loadSample('seq2seq/src/model.ts');
    const { greedyDecode, beamSearch } = loadSample('seq2seq/src/decode.ts');
    const m = randomModel(60, 16, 4.5);
    const source = randomSource(3, 4, 60);
    await exportsAndAgrees('greedy', greedyDecode, [m, source, 12], 0);
    await exportsAndAgrees('beam', beamSearch, [m, source, 12, 3], 1e-4);
  });

  it('the newton sample: three nested solver loops export and agree', async () => {
    const { newtonCG, syntheticProblem } = loadSample('newton/src/newton.ts');
    const { x, y } = syntheticProblem(200, 8);
    await exportsAndAgrees('newton', newtonCG, [x, y, 1e-3, 1e-5, 20], 1e-4);
  });

  it('the bptt sample: the loss and its gradients through the staged loop over time export and agree', async () => {
    const { lossAndGradients, decayingSumTask, initialWeights } = loadSample('bptt/src/bptt.ts');
    const { xs, targets } = decayingSumTask(6, 4, 3);
    const w = initialWeights(3, 5);
    await exportsAndAgrees('bptt', lossAndGradients, [xs, targets, w], 1e-5);
    const { model } = exportOnnx(stage(lossAndGradients), [xs, targets, w], path.join(dir, 'bptt-names.onnx'));
    expect(model.variableInputs.map((v) => v.name).sort()).to.deep.equal(Object.keys(w).map((k) => `w_${k}`).sort());
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

  it('the control sample: each function exports and runs with its eager results (checkedSqrt does not: a host check)', async () => {
    const control = loadSample('control/src/control.ts');
    const runs: [string, unknown[]][] = [
      ['firstNegative', [tf.tensor1d([3, 1, -4, -1])]],
      ['rowPrefixSums', [tf.tensor2d([[1, -2, 3, 0, 5], [4, 0, 6, 7, 8], [-1, 2, 2, 2, 0]])]],
      ['sign', [tf.scalar(-2.5)]],
      ['powerIfPositive', [tf.scalar(2), 10]],
    ];
    for (const [name, args] of runs) {
      const file = path.join(dir, `${name}.onnx`);
      const { model } = exportOnnx(stage(control[name]), args, file);
      const tensors = args.filter((a): a is tf.Tensor => a instanceof tf.Tensor);
      const out = await runExported(file, Object.fromEntries(model.inputs.map((io, i) => [io.name, tensors[i]])));
      expectSameTensor(out.output, control[name](...args), 0, name);
    }
    expect(() => exportOnnx(stage(control.checkedSqrt), [tf.scalar(4)], path.join(dir, 'checked.onnx')))
      .to.throw(/checkedSqrt does not export to ONNX: Check .*host check/);
  });

  it('the training sample: variables are inputs named after them, their new values outputs', async () => {
    const { fitUntil, linearModel } = loadSample('training/src/training.ts');
    const xs = tf.tensor2d([-1, 0, 1, 2, 3], [5, 1]);
    const ys = xs.mul(2).sub(1);
    const model = linearModel();
    const staged = stage(fitUntil);
    const args = [model, xs, ys, 1e-4, 500];
    const file = path.join(dir, 'training.onnx');
    const exported = exportOnnx(staged, args, file).model;
    expect(exported.inputs.map((i) => i.name)).to.deep.equal(['xs', 'ys']);
    expect(exported.outputs.map((o) => o.name)).to.deep.equal(['steps', 'loss']);
    const variables = staged.inspect(...args).program.variables;
    const initial = Object.fromEntries(exported.variableInputs.map((io) => [io.name, variables[io.variable].clone()]));
    const out = await runExported(file, { xs, ys, ...initial });
    const eagerModel = linearModel();
    const want = fitUntil(eagerModel, xs, ys, 1e-4, 500);
    expectSameTensor(out.steps, want.steps);
    expectSameTensor(out.loss, want.loss, 1e-5);
    for (const io of exported.variableOutputs) {
      const index = eagerModel.weights.findIndex((w: tf.LayerVariable) => variables[io.variable].name.endsWith(w.originalName.split('/').pop()!));
      expectSameTensor(out[io.name], eagerModel.getWeights()[index], 1e-5, io.name);
    }
    expect(exported.variableOutputs.length).to.equal(2);
    // Exporting did not run the function: the model's weights are untouched.
    expect(model.getWeights().map((w: tf.Tensor) => w.dataSync()[0])).to.deep.equal([0, 0]);
  });

  it('an output named like an input gets the next free name: { x, steps } of a function of x has outputs x_1 and steps', async () => {
    function countDown(x: tf.Tensor): { x: tf.Tensor; steps: tf.Tensor } {
      let steps: tf.Tensor = tf.scalar(0);
      ag__.whileStmt(() => x.greater(0), () => { x = x.sub(1); steps = steps.add(1); }, () => [x, steps],
        ([a, b]) => { x = a as tf.Tensor; steps = b as tf.Tensor; }, ['x', 'steps'], { origin: 'count.ts:3:3' });
      return { x, steps };
    }
    const file = path.join(dir, 'count_down.onnx');
    const { model } = exportOnnx(stage(countDown), [tf.scalar(3)], file);
    expect(model.inputs.map((i) => i.name)).to.deep.equal(['x']);
    expect(model.outputs.map((o) => o.name)).to.deep.equal(['x_1', 'steps']);
    const out = await runExported(file, { x: tf.scalar(4.5) });
    expectSameTensor(out.x_1, tf.scalar(-0.5));
    expectSameTensor(out.steps, tf.scalar(5));
  });

  it('parameter names from function sources', () => {
    expect(parameterNames(function f(a: unknown, { b }: { b: unknown }, ...rest: unknown[]) { return [a, b, rest]; } as never))
      .to.deep.equal(['a', 'arg1', 'rest']);
    expect(parameterNames(((x: unknown) => x) as never)).to.deep.equal(['x']);
    expect(parameterNames(((x: number, y = 2) => x + y) as never)).to.deep.equal(['x', 'y']);
  });
});
