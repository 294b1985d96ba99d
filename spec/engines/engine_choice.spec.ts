/**
 * Which engine runs a staged graph, and that inspect() says the truth about it (issue 19):
 * - 'auto' times ONNX Runtime against the tfjs executor on a graph's first calls and keeps the
 *   faster (a single-sequence GRU decoder: the rule about loops that branch on small values kept
 *   it on the slower executor);
 * - the decision rule itself on given timings (engine_trial.ts decideByTimes);
 * - a [1]-shaped break condition runs on ORT under engine: 'onnx' (ORT refused the lowered Loop,
 *   and the call ran on the executor without a word);
 * - an engine that was asked for and cannot run the graph throws saying why;
 * - inspect().engine.lastCall: the engine that ran the last call.
 */
import * as fs from 'fs';
import * as path from 'path';
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { chooseEngine, runOn } from '../../backends/engines/choice';
import { decideByTimes, median, NOISE, ROUND } from '../../backends/engines/engine_trial';
import type { OnnxRunner } from '../../backends/engines/onnx/runner';
import { likelySlowerOnOrt } from '../../backends/engines/onnx/engine';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { describeOnnx, expectSameTensor } from '../onnx/support';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Fn = (...args: any[]) => any;

const FIXTURE = path.resolve(__dirname, '../../../spec/fixtures/gru_decoder.ts');

function loadFixture(): Record<string, Fn> {
  const result = compile({ 'main.ts': fs.readFileSync(FIXTURE, 'utf8') });
  if (result.diagnostics.length > 0) throw new Error(formatDiagnostics(result.diagnostics));
  return load(result.js['main.ts']);
}

describe('engines: the decision of engine_trial.ts on given timings', () => {
  const names = ['onnx', 'tfjs'];
  const t = (wall: number[], cpu: number[] = []) => ({ wall, cpu });

  it('one engine whose every call is over twice as fast as the other\'s fastest wins after two calls each', () => {
    expect(decideByTimes(names, [t([1]), t([5])]), 'one call each').to.equal(undefined);
    const verdict = decideByTimes(names, [t([5, 6]), t([1, 2])]);
    expect(verdict?.winner).to.equal(1);
    expect(verdict?.why).to.match(/^tfjs is faster: onnx 5\.500 ms, tfjs 1\.500 ms per call \(median of 2 calls each, every tfjs call over 2x faster\)/);
    expect(decideByTimes(names, [t([1, 3]), t([5, 2.5])]), 'overlapping').to.equal(undefined);
  });

  it(`after a round (${ROUND} calls each) the lower median wins, a slow outlier aside`, () => {
    const verdict = decideByTimes(names, [t([1, 1.1, 9, 1.05, 1]), t([1.5, 1.6, 1.4, 1.5, 0.9])]);
    expect(verdict).to.deep.equal({ winner: 0, why: 'onnx is faster: onnx 1.050 ms, tfjs 1.500 ms per call (median of 5 calls each)' });
  });

  it(`medians within ${NOISE * 100}% (or within the calls' spread) take a second round, then the one using less CPU`, () => {
    const a = [1, 1.02, 0.98, 1.01, 1];
    const b = [1.05, 1.04, 1.06, 1.03, 1.05];
    expect(decideByTimes(names, [t(a), t(b)]), 'one round').to.equal(undefined);
    // Apart by 30% but the calls spread wider than that: noise too.
    expect(decideByTimes(names, [t([1, 2, 0.5, 1.5, 1]), t([1.3, 0.4, 2.6, 1.3, 1.9])]), 'spread').to.equal(undefined);
    const cpu = (x: number) => Array(10).fill(x);
    const verdict = decideByTimes(names, [t([...a, ...a], cpu(1.9)), t([...b, ...b], cpu(1.05))]);
    expect(verdict?.winner).to.equal(1);
    expect(verdict?.why).to.match(/^within noise, tfjs kept as the cheaper to run: CPU onnx 1\.900 ms, tfjs 1\.050 ms per call: onnx 1\.000 ms, tfjs 1\.050 ms/);
    const noCpu = decideByTimes(names, [t([...b, ...b]), t([...a, ...a])]);
    expect(noCpu?.winner, 'without CPU times: the engine the calls started on').to.equal(0);
    expect(noCpu?.why).to.match(/^within noise, onnx kept as the engine the calls started on \(no CPU time to compare\)/);
  });
});

describeOnnx('engines: engine choice under auto, and the engine that ran', () => {
  let m: Record<string, Fn>;
  before(() => {
    m = loadFixture();
  });

  /** Calls `staged` until 'auto' has decided; every call's tokens equal eager's. Returns the engines that ran the calls. */
  function callUntilDecided(staged: Fn & { inspect: Fn }, args: unknown[], eager: tf.Tensor): string[] {
    const ran: string[] = [];
    for (let call = 0; call < 80 && staged.inspect(...args).engine.measurement?.decided !== true; call++) {
      const got = staged(...args) as tf.Tensor;
      expectSameTensor(got, eager, 0, `call ${call}`);
      got.dispose();
      ran.push(staged.inspect(...args).engine.lastCall.engine);
    }
    return ran;
  }

  for (const [units, vocabulary, guess] of [[64, 100, 'onnx'], [24, 30, 'tfjs']] as const) {
    it(`a GRU decoder (hidden ${units}) ends on the engine with the lower measured median, saying so; results equal eager on both`, () => {
      const w = m.gruWeights(16, units, vocabulary);
      const args = [tf.tensor1d([3], 'int32'), tf.scalar(60, 'int32'), 7, w];
      const eager = m.decode(...args) as tf.Tensor;
      const staged = stage(m.decode, { engine: 'auto' });
      const before = staged.inspect(...args);
      // The rule about the graph's shape is only where the calls start (issue 19's decoder: tfjs).
      expect(likelySlowerOnOrt(before.program) === undefined ? 'onnx' : 'tfjs', 'the first guess').to.equal(guess);
      expect(before.engine.engine).to.equal(guess);
      expect(before.engine.reason).to.match(/^engine 'auto' times onnx against tfjs on this graph's first calls and keeps the faster/);
      const tensorsBefore = tf.memory().numTensors;
      const ran = callUntilDecided(staged, args, eager);
      expect(tf.memory().numTensors, 'tensors left by the measured calls').to.equal(tensorsBefore);
      const { engine, reason, measurement } = staged.inspect(...args).engine;
      expect(measurement?.decided, `decided after ${ran.length} calls (${reason})`).to.equal(true);
      expect(new Set(ran), 'the engines that ran the calls').to.deep.equal(new Set(['onnx', 'tfjs']));
      const samples = measurement!.samples;
      expect(samples.onnx.length, 'timed onnx calls').to.be.at.least(2);
      expect(samples.tfjs.length, 'timed tfjs calls').to.be.at.least(2);
      const [onnx, tfjs] = [median(samples.onnx), median(samples.tfjs)];
      expect(reason).to.match(/^engine 'auto' timed (onnx and tfjs|tfjs and onnx) on this graph's first calls: /);
      if (/within noise/.test(reason!)) {
        expect(reason).to.contain(`${engine} kept as the cheaper to run`);
      } else {
        expect(engine, `medians: onnx ${onnx} ms, tfjs ${tfjs} ms`).to.equal(onnx <= tfjs ? 'onnx' : 'tfjs');
        expect(reason).to.contain(`${engine} is faster: `);
      }
      // From now on the winner runs every call.
      for (let call = 0; call < 3; call++) {
        const got = staged(...args) as tf.Tensor;
        expectSameTensor(got, eager, 0, `after the decision, call ${call}`);
        got.dispose();
        expect(staged.inspect(...args).engine.lastCall).to.deep.equal({ engine, async: false });
      }
      staged.dispose();
      tf.dispose([eager, args.filter((a) => a instanceof tf.Tensor) as tf.Tensor[], Object.values(w)]);
    });
  }

  it("a break on a [1]-shaped condition runs on ONNX Runtime under engine: 'onnx' and equals eager", () => {
    const counted = stage(m.countTo, { engine: 'onnx' });
    for (const n of [1, 4, 9]) {
      const limit = tf.tensor1d([n], 'int32');
      const got = counted(limit) as tf.Tensor;
      expectSameTensor(got, m.countTo(limit), 0, `countTo(${n})`);
      expect(counted.inspect(limit).engine).to.deep.include({ engine: 'onnx', lastCall: { engine: 'onnx', async: false } });
      tf.dispose([got, limit]);
    }
    counted.dispose();
  });

  it("engine: 'onnx' that ORT cannot load throws saying why; 'auto' then runs the tfjs executor and says so", () => {
    const counted = stage(m.countTo, { engine: 'tfjs' });
    const limit = tf.tensor1d([3], 'int32');
    const squared = stage((x: tf.Tensor) => x.mul(x).add(1), { engine: 'tfjs' });
    const x = tf.tensor1d([1, 2]);
    const cases = [['onnx', counted.inspect(limit).program, limit, m.countTo(limit)], ['auto', squared.inspect(x).program, x, x.mul(x).add(1)]] as const;
    for (const [option, program, arg, eager] of cases) {
      const choice = chooseEngine(program, option, { graph: option === 'onnx' ? 'countTo' : 'squared' });
      expect(choice.engine).to.equal('onnx');
      // A model ORT refuses, as it refused the lowered Loop with a [1]-shaped test.
      (choice.runner as OnnxRunner).model.bytes = new Uint8Array([8, 7, 18, 1]);
      if (option === 'onnx') {
        expect(() => runOn(choice, program, [arg])).to.throw(/^autograph-ts: engine 'onnx' cannot run countTo: onnxruntime could not load the lowered graph: /);
        expect(choice.engine).to.equal('onnx');
      } else {
        const [got] = runOn(choice, program, [arg]);
        expectSameTensor(got, eager, 0, 'auto');
        expect(choice.engine).to.equal('tfjs');
        expect(choice.reason).to.match(/onnx cannot run it: onnxruntime could not load the lowered graph/);
        expect(choice.lastCall?.engine).to.equal('tfjs');
        got.dispose();
      }
      choice.runner?.dispose();
      eager.dispose();
    }
    [counted, squared].forEach((s) => s.dispose());
    tf.dispose([limit, x]);
  });

  it("engine: 'onnx-web' called synchronously throws saying why", () => {
    const counted = stage(m.countTo, { engine: 'onnx-web' });
    const limit = tf.tensor1d([3], 'int32');
    expect(() => counted(limit)).to.throw(/engine 'onnx-web' runs only asynchronously: call `staged.run\(...\)`/);
    counted.dispose();
    limit.dispose();
  });

  it('under a gradient tape the last call ran on tfjs, and inspect() says why', () => {
    const square = stage((x: tf.Tensor) => x.mul(x), { engine: 'onnx' });
    const x = tf.scalar(3);
    const g = tf.grad((v: tf.Tensor) => square(v) as tf.Scalar)(x);
    expect(g.dataSync()[0]).to.equal(6);
    expect(square.inspect(x).engine).to.deep.include({ engine: 'onnx' });
    expect(square.inspect(x).engine.lastCall).to.deep.equal({ engine: 'tfjs', async: false,
      reason: 'under a gradient tape (tf.grad around the call): autodiff needs the tfjs kernels' });
    const y = square(x) as tf.Tensor;
    expect(square.inspect(x).engine.lastCall).to.deep.equal({ engine: 'onnx', async: false });
    tf.dispose([g, x, y]);
    square.dispose();
  });
});
