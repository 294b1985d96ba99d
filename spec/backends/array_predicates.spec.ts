/**
 * Array predicates given a callback that returns a tensor (`xs.some((x) => x.greater(5))`: natively
 * always true): eagerly the tensor is read as a condition; staged, some/every/findIndex/findLastIndex
 * give promoted values (JS booleans and numbers back), filter/find/findLast and tensor sort
 * comparators are refused by name and line; plain values and non-array receivers are native.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { agreeOnEngines } from '../harness/typed_results';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/array_predicate_programs.ts'), 'utf8');
const lineOf = (text: string): number => source.split('\n').findIndex((l) => l.includes(text)) + 1;
const scalars = (...vs: number[]): tf.Scalar[] => vs.map((v) => tf.scalar(v));

describe('array predicates with tensor callbacks', () => {
  let m: Record<string, (...args: any[]) => any>;
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });
  const agree = (name: string, ...argLists: (() => unknown[])[]): unknown[] => agreeOnEngines(m[name], name, argLists);

  describe('eager == staged (values and JS types, tfjs and auto)', () => {
    it('some / every: JS booleans, for both answers', () => {
      expect(agree('anyAbove', () => [scalars(1, 2), 5], () => [scalars(1, 7), 5], () => [[], 5])).to.deep.equal([false, true, false]);
      expect(agree('allAbove', () => [scalars(6, 7), 5], () => [scalars(6, 2), 5], () => [[], 5])).to.deep.equal([true, false, true]);
    });
    it('findIndex / findLastIndex: JS numbers, -1 when none', () => {
      expect(agree('firstAbove', () => [scalars(1, 7, 8), 5], () => [scalars(1, 2), 5])).to.deep.equal([1, -1]);
      expect(agree('lastAbove', () => [scalars(7, 8, 1), 5], () => [scalars(1, 2), 5])).to.deep.equal([1, -1]);
    });
    it('a number result is read by its truthiness', () => {
      expect(agree('anyNonzero', () => [scalars(3, 3), 3], () => [scalars(3, 4), 3])).to.deep.equal([false, true]);
    });
    it('a JS result that decides stops there, as natively', () => {
      expect(agree('mixed', () => [scalars(1, 1, 5), 1], () => [scalars(1, 1, 1), 2], () => [scalars(5, 5), 9]))
        .to.deep.equal([[true, false], [true, false], [true, true]]);
    });
    it('the result as a staged condition: if (...) continue, and !...?:', () => {
      expect(agree('countFar', () => [scalars(0, 10), scalars(0.5, 5, 9.5, 20)])).to.deep.equal([2]);
      expect(agree('noneClose', () => [scalars(0, 10), tf.scalar(5)], () => [scalars(0, 10), tf.scalar(9.5)])).to.deep.equal([1, 0]);
    });
    it("the callback's this (thisArg)", () => {
      expect(agree('withThisArg', () => [scalars(1, 2)], () => [scalars(1, 3)])).to.deep.equal([false, true]);
    });
    it('on a list a staged loop grew: some, every, findIndex as a staged loop over the list', () => {
      expect(agree('grown', () => [tf.scalar(3), tf.scalar(4)], () => [tf.scalar(1), tf.scalar(2)]))
        .to.deep.equal([[true, true, 2, -1], [false, false, -1, -1]]);
    });
    it('the staged graph computes the answer (no constant): another input, the same trace', () => {
      const staged = stage(m.anyAbove);
      expect([staged(scalars(1, 2), 5), staged(scalars(1, 9), 5)]).to.deep.equal([false, true]);
      expect(staged.traceCount).to.equal(1);
    });
    it('leaks no tensors across staged calls', () => {
      const staged = stage(m.countFar);
      const args = [scalars(0, 10), scalars(0.5, 5, 9.5, 20)];
      staged(...args);
      staged(...args);
      const before = tf.memory().numTensors;
      for (let k = 0; k < 3; k++) expect(staged(...args)).to.equal(2);
      expect(tf.memory().numTensors).to.equal(before);
    });
  });

  describe('filter in a trace: a list of the elements a tensor keeps (it was refused)', () => {
    it('on a JS array and on a list a staged loop grew: its length and the elements, as eagerly', () => {
      expect(agree('kept', () => [scalars(1, 7, 8), 5], () => [scalars(1, 2), 5])).to.deep.equal([2, 0]);
      expect(agree('grownFilter', () => [tf.scalar(4), tf.scalar(4)], () => [tf.scalar(1), tf.scalar(2)])).to.deep.equal([2, 0]);
    });
  });

  describe('eagerly what the tensor values say', () => {
    it('filter keeps the elements whose result is true; find gives the first', () => {
      expect(m.kept(scalars(1, 7, 8), 5)).to.equal(2);
      expect(m.found(scalars(1, 7, 8), 5).arraySync()).to.equal(7);
      expect(m.found(scalars(1, 2), 5)).to.equal(undefined);
    });
  });

  describe('refusals name the method, the receiver and the line', () => {
    const refuses = (name: string, args: unknown[], pattern: RegExp): void => {
      for (const engine of ['tfjs', 'auto'] as const) expect(() => stage(m[name], { engine })(...args)).to.throw(StagingError, pattern);
    };
    it('find in a trace (an element or undefined, which a tensor chooses)', () => {
      refuses('found', [scalars(1, 7), 5], new RegExp(`xs\\.find\\(\\.\\.\\.\\) with a callback that returns a tensor cannot be staged \\(main\\.ts:${lineOf('xs.find((x)')}:\\d+\\)`));
    });
    it('a non-scalar result: the error a converted if gives, eagerly and staged', () => {
      const args = [[tf.tensor1d([1, 2])]];
      const line = lineOf('xs.some((x) => x.greater(0))');
      expect(() => m.rows(...args)).to.throw(TypeError, new RegExp(`must be a scalar, got shape \\[2\\] \\(main\\.ts:${line}:\\d+\\)`));
      refuses('rows', args, new RegExp(`must be a scalar, got shape \\[2\\] \\(main\\.ts:${line}:\\d+\\)`));
    });
    it('a sort comparator that returns a tensor, eagerly and staged', () => {
      const pattern = new RegExp(`the comparator of xs\\.sort returns a tensor \\(main\\.ts:${lineOf('xs.sort(')}:\\d+\\)`);
      expect(() => m.sorted(scalars(3, 1))).to.throw(TypeError, pattern);
      expect(() => stage(m.sorted)(scalars(3, 1))).to.throw(pattern);
    });
  });

  describe('native behaviour', () => {
    it('plain values through the operator: results and call order of the native methods', () => {
      const native = (nums: number[], f: (v: number) => any): unknown[] => {
        const calls: string[] = [];
        const g = (v: number): any => { calls.push(`${v}`); return f(v); };
        return [nums.some(g), nums.every(g), nums.filter(g), nums.find(g), nums.findIndex(g), (nums as any).findLastIndex(g), calls];
      };
      for (const f of [(v: number) => v > 2, (v: number) => (v % 2 ? 'odd' : 0), () => undefined]) {
        expect(m.plain([1, 2, 3, 4], f)).to.deep.equal(native([1, 2, 3, 4], f));
        expect(stage(m.plain)([1, 2, 3, 4], f)).to.deep.equal(native([1, 2, 3, 4], f));
      }
    });
    it('a receiver that is not an array keeps its own method, given the callback as written', () => {
      const receiver = { some: (f: (y: tf.Scalar) => unknown) => ['custom', f(tf.scalar(5)) instanceof tf.Tensor] };
      expect(m.custom(receiver, tf.scalar(1))).to.deep.equal(['custom', true]);
      expect(stage(m.custom)(receiver, tf.scalar(1))).to.deep.equal(['custom', true]);
      expect(() => m.custom(undefined, tf.scalar(1))).to.throw(TypeError, /reading 'some'/);
    });
  });
});
