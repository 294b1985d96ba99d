/**
 * Lists of JS numbers and booleans (issue 17 item 5): a `number[]` / `boolean[]` that a staged
 * statement grows (pushed under a tensor condition, in a staged loop) is a list of promoted scalars
 * in the graph, and comes back as the JS array of JS values eager code returns. Reads that JS needs
 * as numbers are StagingErrors naming the array and the line.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, load } from '../harness/compile';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/number_list_programs.ts'), 'utf8');
const lineOf = (text: string): number => source.split('\n').findIndex((l) => l.includes(text)) + 1;
const value = (x: unknown): unknown => (x instanceof tf.Tensor ? x.arraySync()
  : Array.isArray(x) ? x.map(value) : typeof x === 'object' && x !== null ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, value(v)])) : x);
/** The JS types of a result's leaves (a tensor is 'Tensor'). */
const types = (x: unknown): unknown => (x instanceof tf.Tensor ? 'Tensor'
  : Array.isArray(x) ? x.map(types) : typeof x === 'object' && x !== null ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, types(v)])) : typeof x);

for (const engine of ['tfjs', 'auto'] as const) {
  describe(`lists of JS numbers and booleans grown by staged statements (engine '${engine}')`, () => {
    let m: Record<string, (...args: any[]) => any>;
    before(() => {
      m = load(compile({ 'main.ts': source }).js['main.ts']);
    });

    /** Eager and staged results (values and JS types) on each argument list, one trace; returns the eager values. */
    const agree = (name: string, ...argLists: unknown[][]): unknown[] => {
      const staged = stage(m[name], { engine });
      const results = argLists.map((args) => {
        const eager = m[name](...args);
        const got = staged(...args);
        expect(value(got), `${name} values`).to.deep.equal(value(eager));
        expect(types(got), `${name} types`).to.deep.equal(types(eager));
        return value(eager);
      });
      expect(staged.traceCount, `${name} traces`).to.equal(1);
      return results;
    };
    const refuses = (name: string, args: unknown[], message: RegExp): void => {
      expect(() => stage(m[name], { engine })(...args)).to.throw(StagingError, message);
    };

    it('CTC greedy decode: frame indices pushed under a tensor condition in a static for', () => {
      const logits = (classes: number[]): tf.Tensor2D => tf.oneHot(classes, 3).toFloat() as tf.Tensor2D;
      expect(agree('ctcDecode', [logits([0, 1, 1, 0, 2, 2, 1]), 0], [logits([0, 0, 0, 0, 0, 0, 0]), 0],
        [logits([2, 1, 2, 1, 2, 1, 2]), 0])).to.deep.equal([[1, 4, 6], [], [0, 1, 2, 3, 4, 5, 6]]);
    });
    it('the staged graph holds the indices as a list of int32 scalars', () => {
      const logits = tf.oneHot([0, 1, 1], 3).toFloat();
      const dump = stage(m.ctcDecode, { engine }).inspect(logits, 0).dump();
      expect(dump).to.match(/TensorListPushBack\(%\d+, %\d+\) : list<int32\[\]>/);
    });
    it('rewards `done ? 0 : 1` pushed in a staged while loop', () => {
      expect(agree('rewards', [tf.scalar(0), tf.scalar(10)], [tf.scalar(20), tf.scalar(10)], [tf.scalar(0), tf.scalar(4)]))
        .to.deep.equal([[1, 1, 0, 0], [], [0, 0]]);
    });
    it('a boolean mask pushed in both branches of a tensor conditional: JS booleans back', () => {
      expect(agree('mask', [tf.tensor1d([1, -2, 3])], [tf.tensor1d([-1, -1, -1])]))
        .to.deep.equal([[[true, false, true], 3], [[false, false, false], 3]]);
    });
    it('fractional numbers then integers (float32, exact), the length as a tensor', () => {
      // Integers first, a fraction later (under a tensor if, in a staged loop): traced again with the list float32.
      expect(agree('mixedKinds', [tf.scalar(1)], [tf.scalar(-1)])).to.deep.equal([[1, 0.5], [1]]);
      expect(agree('mixedInLoop', [tf.tensor1d([1, -2, 3])], [tf.tensor1d([-1, -2, 3])])).to.deep.equal([[0, 0.5, 0], [0.5, 0.5, 0]]);
      expect(agree('halves', [tf.scalar(3, 'int32')], [tf.scalar(0, 'int32')]))
        .to.deep.equal([{ values: [0.5, 2, 2, 2], count: 4 }, { values: [0.5], count: 1 }]);
    });
    it('a promoted counter and the list\'s own length (int32 tensors in the loop) pushed', () => {
      expect(agree('counts', [tf.scalar(2)], [tf.scalar(0)], [tf.scalar(3)])).to.deep.equal([[1, 1, 2, 3], [], [1, 1, 2, 3, 3, 5]]);
    });
    it('the length returned is read back as a JS number', () => {
      expect(agree('countPositives', [tf.tensor1d([1, -2, 3, 4])], [tf.tensor1d([-1, 0, -3, 0])])).to.deep.equal([3, 0]);
    });

    it('slice (JS clamping, negative bounds) and concat of a list of numbers: JS numbers back', () => {
      expect(agree('sliceConcat', [tf.scalar(3)], [tf.scalar(0)], [tf.scalar(1)])).to.deep.equal([
        [[10, 20], [10, 20], [10], [0, 10, 20], [0, 10, 20, 7, 8, 0, 10, 20]],
        [[], [], [], [], [7, 8]],
        [[], [0], [], [0], [0, 7, 8, 0]],
      ]);
    });
    it('slice and concat of a list of tensors: a JS array of tensors back', () => {
      expect(agree('sliceTensors', [tf.scalar(3)], [tf.scalar(1)])).to.deep.equal([[2, 4, -1], [-1]]);
    });
    it('leaks no tensors: the lists and their elements are freed after each run', () => {
      const staged = stage(m.rewards, { engine });
      const args = [tf.scalar(0), tf.scalar(10)];
      staged(...args);
      staged(...args);
      const before = tf.memory().numTensors;
      for (let k = 0; k < 3; k++) expect(staged(...args)).to.deep.equal([1, 1, 0, 0]);
      expect(tf.memory().numTensors).to.equal(before);
      const sliced = stage(m.sliceConcat, { engine });
      const n = tf.scalar(3);
      sliced(n);
      sliced(n);
      const beforeSlice = tf.memory().numTensors;
      for (let k = 0; k < 3; k++) expect(sliced(n)[1]).to.deep.equal([10, 20]);
      expect(tf.memory().numTensors).to.equal(beforeSlice);
    });

    describe('errors name the array and the line', () => {
      it('an element used as a JS index', () => {
        refuses('elementAsIndex', [tf.tensor1d([-1, 2]), ['a', 'b']],
          new RegExp(`'found\\[0\\]' is used as a JS number \\(main\\.ts:${lineOf('return names[found[0]]')}:\\d+\\), but 'found' is an array of numbers`));
      });
      it('the length used as a JS number', () => {
        refuses('lengthAsNumber', [tf.tensor1d([-1, 2])], new RegExp(`'found.length'.*main\\.ts:${lineOf('new Array(found.length)')}`));
      });
      it('a spread of the list is a new list (was refused: it needs the elements now)', () => {
        expect(agree('spread', [tf.scalar(2)], [tf.scalar(0)])).to.deep.equal([[0, 1], []]);
      });
      it('eager code is unchanged', () => {
        expect(m.elementAsIndex(tf.tensor1d([-1, 2]), ['a', 'b'])).to.equal('b');
        expect(m.lengthAsNumber(tf.tensor1d([-1, 2, 3]))).to.deep.equal([0, 0]);
        expect(m.mixedKinds(tf.scalar(1))).to.deep.equal([1, 0.5]);
      });
    });
  });
}
