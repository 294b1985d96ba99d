/**
 * Lists of records (issue 17 item 5, loop-created nested structures): an array of plain objects
 * that a staged statement grows is a list per field in the graph (record_lists.ts) and comes back
 * as the JS array of objects eager code returns, with eager's JS types; what a list cannot hold is
 * a StagingError naming the field and the line.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, load } from '../harness/compile';
import { agreeOnEngines } from '../harness/typed_results';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/record_list_programs.ts'), 'utf8');
const lineOf = (text: string): number => source.split('\n').findIndex((l) => l.includes(text)) + 1;

describe('lists of records grown by staged statements', () => {
  let m: Record<string, (...args: any[]) => any>;
  before(() => {
    m = load(compile({ 'main.ts': source }).js['main.ts']);
  });
  const agree = (name: string, ...argLists: (() => unknown[])[]): unknown[] => agreeOnEngines(m[name], name, argLists);

  it('records pushed under a tensor if: tensor, number, boolean and constant string fields; none and several', () => {
    const [none, some] = agree('pushedUnderIf', () => [tf.tensor1d([-1, -2])], () => [tf.tensor1d([1, -2, 3, 4])]);
    expect(none).to.deep.equal([]);
    expect(some).to.deep.equal([0, 2, 3].map((k) => ({ v: { tensor: [1, 3, 4][[0, 2, 3].indexOf(k)] * 2, dtype: 'float32' }, k, ok: k % 2 === 0, label: 'hit' })));
  });

  it('grown in a staged loop, then read: for...of over it, map, its length as the returned number', () => {
    const [none, some] = agree('grownInLoop', () => [tf.tensor1d([-1, 2]), tf.scalar(1)], () => [tf.tensor1d([1, -2, 3, 4]), tf.scalar(4)]);
    expect(none).to.deep.include({ count: 0, out: [], shifted: [] });
    expect(some).to.deep.include({ count: 3, total: { tensor: 18, dtype: 'float32' } });
  });

  it('an array that held records before the loop keeps them; a number field widened to fractions', () => {
    const [out] = agree('startedWithOne', () => [tf.tensor1d([1, 2, 3]), tf.scalar(3)]);
    expect((out as { k: number }[]).map((r) => r.k)).to.deep.equal([-1, 0, 0.5, 1]);
  });

  it('frees what it computes: no tensors left across calls but the results', () => {
    for (const engine of ['tfjs', 'auto'] as const) {
      const staged = stage(m.grownInLoop, { engine });
      const args = [tf.tensor1d([1, -2, 3, 4]), tf.scalar(4)];
      const run = (): void => {
        const r = staged(...args);
        tf.dispose([r.total, ...r.shifted, ...r.out.map((h: { v: tf.Tensor }) => h.v)]);
      };
      run();
      run();
      const before = tf.memory().numTensors;
      for (let k = 0; k < 3; k++) run();
      expect(tf.memory().numTensors, engine).to.equal(before);
    }
  });

  describe('refused, naming the field and the line', () => {
    const refuses = (name: string, args: unknown[], message: RegExp): void => {
      for (const engine of ['tfjs', 'auto'] as const) expect(() => stage(m[name], { engine })(...args)).to.throw(StagingError, message);
      expect(() => m[name](...args)).not.to.throw();
    };
    it('a string field that differs between elements', () => {
      refuses('labelsDiffer', [tf.tensor1d([1, -2, 3])], new RegExp(`'out\\[i\\]\\.label' is the JS string "later" here \\(main\\.ts:${lineOf("label: i === 0 ? 'first'")}:\\d+\\)`));
    });
    it('a field no list can hold (a function)', () => {
      refuses('functionField', [tf.tensor1d([1, -2, 3])], new RegExp(`'out\\[i\\]\\.f' is .*\\(main\\.ts:${lineOf('f: () => i')}:\\d+\\)`));
    });
  });
});
