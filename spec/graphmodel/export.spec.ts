/**
 * exportGraphModel: the written model loads with tf.loadGraphModel and executeAsync gives the
 * staged function's results, under the function's parameter and result names.
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
import * as ag__ from '../../runtime/operators';

/** Runs the model on `feeds` (by input name); results by output name. */
async function run(model: tf.GraphModel, feeds: Record<string, tf.Tensor>): Promise<Record<string, tf.Tensor>> {
  const outputs = model.outputNodes;
  const result = await model.executeAsync(feeds, outputs);
  const list = Array.isArray(result) ? result : [result];
  return Object.fromEntries(outputs.map((o, i) => [o, list[i]]));
}

describe('graph model: exportGraphModel', () => {
  let dir: string;
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-graphmodel-')); });
  after(() => dir !== undefined && fs.rmSync(dir, { recursive: true, force: true }));

  it('a straight-line function: model.json names inputs and outputs; executeAsync gives its results', async () => {
    function affine(x: tf.Tensor, scale: tf.Tensor): { y: tf.Tensor; total: tf.Tensor } {
      const y = tf.tanh(x.matMul(scale).add(0.5)).reshape([-1]);
      return { y, total: y.sum().mul(tf.scalar(2)) };
    }
    const x = tf.tensor2d([[1, 2], [3, -4]]);
    const scale = tf.tensor2d([[0.5, -1], [0.25, 2]]);
    const out = path.join(dir, 'affine');
    const exported = await exportGraphModel(stage(affine), [x, scale], out);
    expect(exported.inputs).to.deep.equal(['x', 'scale']);
    expect(exported.outputs).to.deep.equal(['y', 'total']);
    const json = JSON.parse(fs.readFileSync(path.join(out, 'model.json'), 'utf8'));
    expect(json.format).to.equal('graph-model');
    const model = await loadExported(out);
    expect(model.inputNodes).to.deep.equal(['x', 'scale']);
    // No control flow: the synchronous execute() runs it too.
    const [y, total] = model.execute({ x, scale }, model.outputNodes) as tf.Tensor[];
    const got = { y, total };
    const want = affine(x, scale);
    expectSameTensor(got.y, want.y, 1e-6);
    expectSameTensor(got.total, want.total, 1e-6);
  });

  it('collatz (sample): a StatelessWhile with a StatelessIf in its body, one model for every n', async () => {
    const { collatzSteps } = loadSample('collatz/src/collatz.ts');
    const out = path.join(dir, 'collatz');
    await exportGraphModel(stage(collatzSteps), [tf.scalar(27)], out);
    const json = fs.readFileSync(path.join(out, 'model.json'), 'utf8');
    expect(json).to.include('"StatelessWhile"').and.include('"StatelessIf"');
    const model = await loadExported(out);
    for (const n of [27, 97, 1, 6]) {
      const got = await run(model, { n: tf.scalar(n) });
      expectSameTensor(got.output, collatzSteps(tf.scalar(n)));
    }
  });

  it("function bodies refer to outputs as TF's FunctionDef does (node:out_arg:k); tfjs runs them", async () => {
    // In an If branch: a binary op (z), a list output (Unpack: output:1), a Const, TopKV2's two
    // output args (indices beyond output 0: the form tfjs-converter reads, node:1).
    const pick = (x: tf.Tensor, flag: tf.Tensor): tf.Tensor[] => {
      let top: tf.Tensor = tf.zeros([2]);
      let at: tf.Tensor = tf.zeros([2], 'int32');
      let second: tf.Tensor = tf.zeros([3]);
      ag__.ifStmt(flag, () => {
        const { values, indices } = tf.topk(x.mul(2).add(1), 2);
        top = values.sub(tf.scalar(0.5));
        at = indices.add(tf.scalar(1, 'int32'));
        second = tf.unstack(x.reshape([2, 3]))[1].neg();
      }, () => {}, () => [top, at, second], (s) => { [top, at, second] = s as tf.Tensor[]; }, ['top', 'at', 'second'], 3);
      return [top, at, second];
    };
    const x = tf.tensor1d([3, -1, 7, 2, 9, 0]);
    const out = path.join(dir, 'refs');
    await exportGraphModel(stage(pick), [x, tf.scalar(true)], out);
    const json = JSON.parse(fs.readFileSync(path.join(out, 'model.json'), 'utf8'));
    const functions: { signature: { inputArg: { name: string }[] }; nodeDef: { name: string; op: string; input?: string[] }[];
      ret: Record<string, string> }[] = json.modelTopology.library.function;
    const then = functions.find((f) => f.nodeDef.some((n) => n.op === 'TopKV2'))!;
    const inputs = then.nodeDef.flatMap((n) => n.input ?? []);
    const args = new Set(then.signature.inputArg.map((a) => a.name));
    const opOf = new Map(then.nodeDef.map((n) => [n.name, n.op]));
    for (const input of inputs) {
      if (args.has(input)) continue;
      const [node, arg, k] = input.split(':');
      const op = opOf.get(node);
      if (op === 'TopKV2' && arg === '1') continue;   // the tfjs-converter form, beyond output 0
      expect(k, `${input}: node:out_arg:k`).to.match(/^\d+$/);
      const expected: Record<string, string> = { Mul: 'z', AddV2: 'z', Add: 'z', Sub: 'z', Neg: 'y', Reshape: 'output', Const: 'output',
        Unpack: 'output', TopKV2: 'values' };
      if (op !== undefined && expected[op] !== undefined) expect(arg, input).to.equal(expected[op]);
    }
    expect(inputs.some((i) => /:output:1$/.test(i) && opOf.get(i.split(':')[0]) === 'Unpack'), 'Unpack output 1').to.equal(true);
    expect(inputs.some((i) => /:values:0$/.test(i)), 'TopKV2 values').to.equal(true);
    expect(Object.values(then.ret).every((r) => /^[^:]+:output:0$/.test(r))).to.equal(true);
    const model = await loadExported(out);
    for (const flag of [true, false]) {
      const got = await model.executeAsync({ x, flag: tf.scalar(flag) }, model.outputNodes) as tf.Tensor[];
      pick(x, tf.scalar(flag)).forEach((want, i) => expectSameTensor(got[i], want, 0, `output ${i} (flag ${flag})`));
    }
  });

  it('the RNN sample: rnn and greedyDecode (a loop with a break) with their names', async () => {
    const { rnn, greedyDecode, fixedWeights } = loadSample('rnn/src/rnn.ts');
    const w = fixedWeights(4, 8, 6);
    const inputs = tf.sin(tf.range(0, 5 * 2 * 4).mul(0.21)).reshape([5, 2, 4]);
    const h0 = tf.zeros([2, 8]);
    const out = path.join(dir, 'rnn');
    const exported = await exportGraphModel(stage(rnn), [inputs, h0, w], out);
    expect(exported.inputs).to.deep.equal(['inputs', 'h0', 'w_wx', 'w_wh', 'w_b', 'w_embedding', 'w_wo']);
    const feeds = { inputs, h0, w_wx: w.wx, w_wh: w.wh, w_b: w.b, w_embedding: w.embedding, w_wo: w.wo };
    const model = await loadExported(out);
    const got = await run(model, Object.fromEntries(model.inputNodes.map((n) => [n, feeds[n as keyof typeof feeds]])));
    expectSameTensor(got.output, rnn(inputs, h0, w), 1e-5);

    const decodeDir = path.join(dir, 'decode');
    const args = [tf.scalar(0, 'int32'), tf.scalar(10, 'int32'), 3, w];
    const decode = await exportGraphModel(stage(greedyDecode), args, decodeDir);
    expect(decode.outputs).to.deep.equal(['length', 'checksum']);
    const byName: Record<string, tf.Tensor> = { start: args[0] as tf.Tensor, maxLength: args[1] as tf.Tensor,
      w_wx: w.wx, w_wh: w.wh, w_b: w.b, w_embedding: w.embedding, w_wo: w.wo };
    const decoder = await loadExported(decodeDir);
    for (const start of [0, 2, 5]) {
      const got = await run(decoder, Object.fromEntries(decoder.inputNodes.map((n) => [n, n === 'start' ? tf.scalar(start, 'int32') : byName[n]])));
      const want = greedyDecode(tf.scalar(start, 'int32'), args[1], 3, w);
      expectSameTensor(got.length, want.length);
      expectSameTensor(got.checksum, want.checksum);
    }
  });

  it('the control sample: return from a loop, break in a nested loop, ?:, a fixed non-tensor argument', async () => {
    const control = loadSample('control/src/control.ts');
    const runs: [string, unknown[], tf.Tensor[][]][] = [
      ['firstNegative', [tf.tensor1d([3, 1, -4, -1])], [[tf.tensor1d([2, 5, 1, 0])], [tf.tensor1d([0, -0.5, -7, 2])]]],
      ['rowPrefixSums', [tf.tensor2d([[1, -2, 3, 0, 5], [4, 0, 6, 7, 8], [-1, 2, 2, 2, 0]])],
        [[tf.tensor2d([[0, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 0, 0, 0, 9]])]]],
      ['sign', [tf.scalar(-2.5)], [[tf.scalar(3)], [tf.scalar(0)]]],
      ['powerIfPositive', [tf.scalar(2), 10], [[tf.scalar(-1.5)], [tf.scalar(1.1)]]],
    ];
    for (const [name, args, others] of runs) {
      const out = path.join(dir, name);
      const exported = await exportGraphModel(stage(control[name]), args, out);
      const model = await loadExported(out);
      // The traced arguments, then others of the same signature: one model for all.
      const tensorArgs = args.filter((a): a is tf.Tensor => a instanceof tf.Tensor);
      for (const tensors of [tensorArgs, ...others]) {
        const got = await run(model, Object.fromEntries(exported.inputs.map((n, i) => [n, tensors[i]])));
        const callArgs = args.map((a) => (a instanceof tf.Tensor ? tensors[tensorArgs.indexOf(a)] : a));
        expectSameTensor(got.output, control[name](...callArgs), 0, `${name}(${tensors.map((t) => t.arraySync()).join('; ')})`);
      }
    }
  });

  it('the newton sample: three nested data-dependent loops (Newton-CG) give the eager results', async () => {
    const { newtonCG, syntheticProblem } = loadSample('newton/src/newton.ts');
    const problem = syntheticProblem(60, 4);
    const args = [problem.x, problem.y, 1e-3, 1e-5, 10];
    const out = path.join(dir, 'newton');
    const exported = await exportGraphModel(stage(newtonCG), args, out);
    expect(exported.inputs).to.deep.equal(['x', 'y']);
    expect(exported.outputs).to.deep.equal(['w', 'loss', 'newtonSteps', 'cgSteps']);
    const model = await loadExported(out);
    const got = await run(model, { x: problem.x, y: problem.y });
    const want = newtonCG(...args);
    for (const key of exported.outputs) expectSameTensor(got[key], want[key], 1e-5, key);
  });

  it('a variable the function reads is a weight: its value at export', async () => {
    const scale = tf.variable(tf.tensor1d([2, -3]), true, 'scale');
    const scaled = (x: tf.Tensor): tf.Tensor => x.mul(scale);
    const out = path.join(dir, 'variable');
    const exported = await exportGraphModel(stage(scaled), [tf.tensor1d([1, 2])], out);
    expect(exported.inputs).to.deep.equal(['x']);
    scale.assign(tf.tensor1d([10, 10]));
    const model = await loadExported(out);
    const got = model.execute({ x: tf.tensor1d([1, 2]) }) as tf.Tensor;
    expectSameTensor(got, tf.tensor1d([2, -6]));
    scale.dispose();
  });

  it('refuses what a GraphModel cannot express, naming each node: random draws, host checks and prints, variable assignments', async () => {
    const failure = async (p: Promise<unknown>): Promise<string> => p.then(() => 'exported', (e: unknown) => String(e));
    const noisy = (x: tf.Tensor): tf.Tensor => x.add(tf.randomUniform(x.shape));
    expect(await failure(exportGraphModel(stage(noisy), [tf.ones([2])], path.join(dir, 'noisy'))))
      .to.match(/noisy does not export to a GraphModel: Random randomUniform \(the function, node %\d+\): a random draw/);
    const { checkedSqrt } = loadSample('control/src/control.ts');
    expect(await failure(exportGraphModel(stage(checkedSqrt), [tf.scalar(4)], path.join(dir, 'checked'))))
      .to.match(/checkedSqrt does not export to a GraphModel: Check \(the function, If .*\): a host check/);
    const { fitUntil, linearModel } = loadSample('training/src/training.ts');
    const xs = tf.tensor2d([-1, 0, 1, 2, 3], [5, 1]);
    expect(await failure(exportGraphModel(stage(fitUntil), [linearModel(), xs, xs.mul(2), 1e-4, 500], path.join(dir, 'fit'))))
      .to.match(/fitUntil does not export to a GraphModel: AssignVariable \(.*\): assigns variable '.*' \(a GraphModel has no state\)/);
    const chatty = (x: tf.Tensor): tf.Tensor => { x.print(); return x.add(1); };
    expect(await failure(exportGraphModel(stage(chatty), [tf.ones([2])], path.join(dir, 'chatty'))))
      .to.match(/chatty does not export to a GraphModel: Print \(the function, node %\d+\): a host callback/);
    expect(fs.existsSync(path.join(dir, 'noisy'))).to.equal(false);
  });
});
