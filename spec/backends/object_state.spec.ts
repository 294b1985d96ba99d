/**
 * Objects as state of a staged function (issue 17): a staged call that changes fields of an
 * object that outlives it (`this.best = loss`, `this.wait++`, `state.best = x`) leaves them as the
 * eager call does, call after call — a tensor field is a graph input and output, a JS field a
 * value the graph is traced for (a call with other values traces again). Never the state of the
 * first trace repeated.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage, exportOnnx } from '../../index';
import { compile, formatDiagnostics, load } from '../harness/compile';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/stateful_programs.ts'), 'utf8');
const plain = (x: unknown): unknown => (x instanceof tf.Tensor ? Array.from(x.dataSync()).map((v) => Math.round(v * 1e5) / 1e5) : x);

describe('objects as state: fields a staged call changes are written back on every call (issue 17)', () => {
  let m: Record<string, any>;
  let js: string;
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    js = result.js['main.ts'];
    m = load(js);
  });

  /** Calls `method` of two fresh objects per engine, eagerly and staged, with the same inputs; compares results and fields. */
  const sameAcrossCalls = (make: () => any, method: string, inputs: (() => unknown[])[], fields: string[]): void => {
    for (const engine of ['tfjs', 'auto'] as const) {
      const eager = make();
      const staged = make();
      const call = stage(staged[method].bind(staged), { engine });
      inputs.forEach((args, i) => {
        const e = plain(eager[method](...args()));
        const s = plain(call(...args()));
        expect(s, `${engine}: call ${i + 1}`).to.deep.equal(e);
        for (const f of fields) expect(plain(staged[f]), `${engine}: ${f} after call ${i + 1}`).to.deep.equal(plain(eager[f]));
      });
    }
  };

  it('the transformer observes the fields a function writes, after its directive', () => {
    expect(js).to.match(/onEpochEnd\(loss\) \{\n\s+ag__\.observeFields\(this, \["best", "wait", "stopTraining"\], "this", \{ origin: "main\.ts:\d+:\d+" \}\);/);
    expect(js).to.match(/ag__\.observeFields\(state, \["best", "improved"\], "state"/);
  });

  it('early stopping called once per epoch: stops when eager stops, its counters as eager leaves them', () => {
    const losses = [5, 4, 4.5, 4.6, 4.7, 3, 3.5];
    sameAcrossCalls(() => new m.EarlyStopping(2), 'onEpochEnd', losses.map((l) => () => [tf.scalar(l)]), ['best', 'wait', 'stopTraining']);
  });

  it('a filter whose state starts null, then a tensor carried in and out of the graph (two traces, not one per call)', () => {
    const xs = [[1, 2], [2, 2], [5, 2], [5.5, 2.2], [5.6, 2]];
    sameAcrossCalls(() => new m.LowPass(0.5), 'filter', xs.map((x) => () => [tf.tensor1d(x)]), ['y']);
    const l = new m.LowPass(0.5);
    const s = stage(l.filter.bind(l), { engine: 'tfjs' });
    for (const x of xs) s(tf.tensor1d(x));
    expect(s.traceCount).to.equal(2);
  });

  it('a stateful RNN cell: the hidden state on the object is an input and an output of one graph', () => {
    const make = () => new m.StatefulCell(tf.tensor2d([[0.5, -0.3], [0.8, 0.2]]), tf.tensor2d([[0.9, 0.1], [-0.4, 0.7]]));
    sameAcrossCalls(make, 'step', [[1, 2], [0.5, -1], [2, 2], [0, 0.1]].map((x) => () => [tf.tensor2d([x])]), ['h']);
    const cell = make();
    const s = stage(cell.step.bind(cell), { engine: 'tfjs' });
    for (let i = 0; i < 4; i++) s(tf.tensor2d([[1, i]]));
    expect(s.traceCount).to.equal(1);
  });

  it('a JS counter bumped by every call counts every call; state passed in an argument object', () => {
    sameAcrossCalls(() => new m.Calls(), 'double', [1, 2, 3].map((v) => () => [tf.scalar(v)]), ['count']);
    for (const engine of ['tfjs', 'auto'] as const) {
      const e = { best: tf.scalar(10), improved: 0 };
      const st = { best: tf.scalar(10), improved: 0 };
      const call = stage(m.track, { engine });
      for (const v of [5, 7, 3, 3, 1]) {
        expect(plain(call(st, tf.scalar(v))), engine).to.deep.equal(plain(m.track(e, tf.scalar(v))));
        expect([plain(st.best), st.improved], engine).to.deep.equal([plain(e.best), e.improved]);
      }
    }
  });

  it('an array field pushed by every call (a history): pushed once per call, as eagerly', () => {
    sameAcrossCalls(() => new m.History(), 'record', [2, 0.5, 0.7, 3].map((l, e) => () => [tf.scalar(l), e]), ['epochs', 'improved']);
  });

  it('a Map on the object holding tensors the call made: right while traced again, then a loud disposed-tensor error, never a stale value', () => {
    const eager = new m.Ema();
    const kept = new m.Ema();
    const update = stage(kept.update.bind(kept), { engine: 'tfjs' });
    expect(plain(update('w', tf.scalar(1), 0.5))).to.deep.equal(plain(eager.update('w', tf.scalar(1), 0.5)));
    expect(plain(update('w', tf.scalar(2), 0.5))).to.deep.equal(plain(eager.update('w', tf.scalar(2), 0.5)));
    expect(() => update('w', tf.scalar(3), 0.5)).to.throw(/made while stage\(\) traced .* disposed when the trace ended/);
  });

  it('export refuses a function that keeps state on objects, naming the fields', () => {
    const cell = new m.StatefulCell(tf.tensor2d([[0.5, -0.3], [0.8, 0.2]]), tf.tensor2d([[0.9, 0.1], [-0.4, 0.7]]));
    expect(() => exportOnnx(stage(cell.step.bind(cell)), [tf.tensor2d([[1, 2]])])).to.throw(/keeps state in 'this\.h'/);
  });
});
