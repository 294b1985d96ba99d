/**
 * Lists that staged loops grow, changed beyond push and pop (spec/fixtures/list_mutation_programs.ts):
 * shift() (TensorListPopFront), `xs[i] = v` at an index the graph knows (TensorListSetItem; past the
 * end it leaves holes, as JS does, and reading one is an error when the graph runs), a JS array of
 * tensors or records read at such an index, a JS array written at one (every element a conditional, also
 * through a function of the project that writes its argument), and the list a converted callee returns, a list
 * in its caller.
 * Eager == staged (values and JS types) on the tfjs executor and 'auto'; and on ONNX itself, which
 * runs every call but those that leave holes (those fail there on purpose and the executor runs them).
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { useFixture } from '../harness/fixtures';
import { typed } from '../harness/typed_results';

describe('lists changed in place: shift, element writes, reads at a staged index, lists from callees', () => {
  const fixture = useFixture('list_mutation_programs.ts');
  const { agree } = fixture;
  const xs = (...v: number[]) => () => [tf.tensor1d(v)];
  /** Eager == staged on the ONNX engine (a second call: the first returns its trace's values); the engine that ran it. */
  const onOnnx = (name: string, args: () => unknown[]): string => {
    const staged = stage(fixture.m[name], { engine: 'onnx' });
    staged(...args());
    expect(typed(staged(...args())), `${name} on onnx`).to.deep.equal(typed(fixture.m[name](...args())));
    return staged.inspect(...args()).engine.lastCall!.engine;
  };

  describe('shift()', () => {
    it('of a list of tensors, past a window of m: the last m pushed', () => {
      const runs = [[1, -2, 3, 4, -1, 5], [-1, -2], [7], [1, 2, 3, 4, 5, 6, 7]].map((v) => () => [tf.tensor1d(v), 2]);
      expect(agree('lastPositives', ...runs).map((r) => (r as unknown[]).length)).to.deep.equal([2, 0, 1, 2]);
      expect(onOnnx('lastPositives', runs[0])).to.equal('onnx');
    });

    it('of a list of JS numbers: a JS number, the rest read back as JS numbers', () => {
      expect(agree('dropFirstIndex', xs(-1, 2, 3, -4, 5), xs(-1, -2))).to.deep.equal([{ first: 1, rest: [2, 4] }, { first: -1, rest: [] }]);
      expect(onOnnx('dropFirstIndex', xs(-1, 2, 3, -4, 5))).to.equal('onnx');
    });

    it('of a list of records: each field\'s list', () => {
      agree('queueOfRecords', xs(1, -2, 3, 4, -1, 5), xs(5, 4, 3), xs(1, 2, 3));
      expect(onOnnx('queueOfRecords', xs(1, -2, 3, 4, -1, 5))).to.equal('onnx');
    });

    it('in a branch before anything was pushed: the trace learns the element from the pushes after it', () => {
      agree('shiftInBranch', xs(1, -2, 3, 4, -1, 5), xs(-1, 2, -3), xs(-1));
      expect(onOnnx('shiftInBranch', xs(1, -2, 3, 4, -1, 5))).to.equal('onnx');
    });

    it('of an empty list is an error when the graph runs (eagerly undefined, which a list of tensors cannot give)', () => {
      agree('firstPositive', xs(-1, 2, 3), xs(4));
      expect(fixture.m.firstPositive(tf.tensor1d([-1]))).to.equal(undefined);
      for (const engine of ['tfjs', 'auto', 'onnx'] as const) {
        const staged = stage(fixture.m.firstPositive, { engine });
        staged(tf.tensor1d([1]));
        expect(() => staged(tf.tensor1d([-1])), engine).to.throw(/shift\(\) of an empty list/);
      }
    });
  });

  describe('xs[i] = v at an index the graph knows', () => {
    it('written from the last index down into an empty array (holes, then filled)', () => {
      const results = agree('doubledBackwards', xs(1, -2, 3, 4, -1, 5), xs(-1), xs(2));
      expect(results.map((r) => (r as unknown[]).length)).to.deep.equal([4, 0, 1]);
      // A first write past the end is out of range for an ONNX sequence: that call runs on the executor.
      expect(onOnnx('doubledBackwards', xs(1, -2, 3))).to.equal('tfjs');
      expect(onOnnx('doubledBackwards', xs(-1, -2))).to.equal('onnx');
    });

    it('replacing elements of a list under a tensor test, then read', () => {
      agree('clippedInPlace', () => [tf.tensor1d([1, 0, 5, 2, 9]), 3], () => [tf.tensor1d([0, 0]), 3]);
      expect(onOnnx('clippedInPlace', () => [tf.tensor1d([1, 0, 5, 2, 9]), 3])).to.equal('onnx');
    });

    it('into a list of JS numbers: promoted values in, JS numbers back', () => {
      expect(agree('scaledCounts', xs(1, -2, 3, 4, -1, 5), xs(-3))).to.deep.equal([[0, 5, 8, 13], []]);
      expect(onOnnx('scaledCounts', xs(1, -2, 3, 4, -1, 5))).to.equal('onnx');
    });

    it('reading a hole is an error when the graph runs, naming the read\'s line (eagerly: undefined, a TypeError)', () => {
      expect(() => fixture.m.readsAHole(tf.tensor1d([1, 2]))).to.throw();
      const read = new RegExp(`element 2 is read but was never written[^]*main\\.ts:${fixture.lineOf('all = all.add(kept[i])')}:`);
      for (const engine of ['tfjs', 'auto'] as const) {
        const staged = stage(fixture.m.readsAHole, { engine });
        expect(() => staged(tf.tensor1d([1, 2])), engine).to.throw(RangeError, read);
        expect(() => staged(tf.tensor1d([1, 2])), `${engine}, traced`).to.throw(RangeError, read);
      }
    });
  });

  describe('a JS array (not one a staged loop grows) written at an index the graph knows: every element a conditional', () => {
    it('of numbers: the written element a JS number again', () => {
      expect(agree('markFirstAtLeast', () => [tf.tensor1d([1, 5, 3, 4]), 3], () => [tf.tensor1d([9, 1, 1, 1]), 3]))
        .to.deep.equal([[0, 1, 0, 0], [1, 0, 0, 0]]);
      expect(onOnnx('markFirstAtLeast', () => [tf.tensor1d([1, 5, 3, 4]), 3])).to.equal('onnx');
    });

    // (Swapping the record objects is refused by design: which object sits at a slot would depend on a tensor, and a
    // variable holding one would see the other's values — control_flow.ts objectMoves. Tensors and numbers swap.)
    it('of records, swapped by a function of the project: refused naming the element, which object is where would depend on a tensor', () => {
      expect(fixture.m.bubbleFirst(tf.tensor1d([5, 1, 2, 9]), 3)).to.deep.equal([1, 2, 0, 3]);
      for (const engine of ['tfjs', 'auto'] as const) {
        expect(() => stage(fixture.m.bubbleFirst, { engine })(tf.tensor1d([5, 1, 2, 9]), 3), engine)
          .to.throw(StagingError, /'pairs\[0\]' holds the object that was 'pairs\[1\]'/);
      }
    });

    it('past its end: eagerly the array grows; staged, the write\'s check fails when the graph runs, naming the index', () => {
      expect(typed(fixture.m.writePastEnd(tf.tensor1d([1, -1])))).to.have.length(4);
      for (const engine of ['tfjs', 'auto'] as const) {
        expect(() => stage(fixture.m.writePastEnd, { engine })(tf.tensor1d([1, -1])), engine)
          .to.throw(RangeError, new RegExp(`written at 'i \\+ 2' \\(main\\.ts:${fixture.lineOf('rows[i + 2] =')}:\\d+\\), past its end`));
      }
    });
  });

  it('a JS array of tensors (tf.unstack) read at the index a staged loop moves: a gather', () => {
    agree('firstAtLeast', () => [tf.tensor1d([1, -2, 3, 4]), 2], () => [tf.tensor1d([5, 1]), 2]);
    // Past the end eager JS reads undefined: staged, the read's check fails.
    expect(() => fixture.m.firstAtLeast(tf.tensor1d([1]), 2)).to.throw(TypeError);
    expect(() => stage(fixture.m.firstAtLeast, { engine: 'tfjs' })(tf.tensor1d([1]), 2)).to.throw(/'rows\[i\]' reads past the end of a JS array of 1/);
  });

  describe('a list a converted callee returns is a list in the caller', () => {
    it('of JS numbers: its length a loop bound and an if test, its elements summed into a JS number', () => {
      expect(agree('sumOfPositiveIndices', () => [tf.tensor1d([1, -2, 3, 4]), 2], () => [tf.tensor1d([-1]), 1], () => [tf.tensor1d([2, 2]), 5]))
        .to.deep.equal([{ sum: 5, few: false }, { sum: 0, few: true }, { sum: 1, few: true }]);
      expect(onOnnx('sumOfPositiveIndices', () => [tf.tensor1d([1, -2, 3, 4]), 2])).to.equal('onnx');
    });

    it('of tensors: read by index in the caller, and passed on to a callee that reads its length', () => {
      agree('positiveSums', xs(1, -2, 3, 4), xs(-1));
      expect(onOnnx('positiveSums', xs(1, -2, 3, 4))).to.equal('onnx');
    });
  });
});
