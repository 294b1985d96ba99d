/**
 * A staged loop's counter given to a tfjs op where it takes JS numbers (runtime/promoted_op_arguments.ts):
 * slice's begin stages (a Tensor method, tf.slice, a scalar begin, several promoted axes, any dtype),
 * eager == staged in values, dtypes and JS types on the tfjs executor and 'auto'; a window outside the
 * input is the graph's error; where the op's result shape would depend on the counter (slice's size or
 * a -1 size, reshape, tile, pad, split, oneHot's depth, range, a float begin) it is a StagingError
 * naming the variable, the op and the line.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { useFixture } from '../harness/fixtures';


describe('promoted values in tfjs ops\' number arguments', () => {
  const fixture = useFixture('promoted_op_argument_programs.ts');
  const { agree, lineOf } = fixture;
  const engines = ['tfjs', 'auto'] as const;

  describe('slice with a promoted begin stages', () => {
    it('emits the call through the operators, the receiver (or function) first', () => {
      expect(fixture.js).to.include('ag__.tensorMethodCall(xs, "slice", [[i], [1]], "main.ts:');
      expect(fixture.js).to.include('ag__.tfjsCall(tf.slice, "slice", [x, [r, 1], [2, 2]], "main.ts:');
    });

    it('a Tensor method with the counter of a loop a tensor break stages (the posenet shape)', () => {
      expect(agree('firstAbove', () => [tf.tensor1d([0.5, 1, 3, 0]), 2], () => [tf.tensor1d([0.5, 1, 3, 0]), 5])).to.deep.equal([2, -1]);
    });

    it('tf.slice with a promoted axis among static ones, and a scalar begin', () => {
      agree('rowWindows', () => [tf.tensor2d([[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 1, 1]]), tf.scalar(30)],
        () => [tf.tensor2d([[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 1, 1]]), tf.scalar(3)]);
      agree('scalarBegin', () => [tf.tensor2d([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), tf.scalar(10)]);
    });

    it('two promoted axes, on int32 and bool tensors: dtypes and shapes as eager', () => {
      const [run] = agree('diagonal', () => [tf.tensor2d([[1, 2, 3], [4, 5, 6], [7, 8, -9]], undefined, 'int32'),
        tf.tensor2d([[true, false, true], [false, false, true], [true, true, true]], undefined, 'bool')]);
      expect((run as { values: unknown[] }).values).to.have.length(2);
    });

    it('a window outside the input is an error of the graph, naming the counter (inside, the same graph runs)', () => {
      const inside = () => [tf.tensor1d([50, 60, 1, 1])];
      agree('pastTheEnd', inside);
      for (const engine of engines) {
        const staged = stage(fixture.m.pastTheEnd, { engine });
        expect(() => staged(tf.tensor1d([0.5, 1, 3, 0]))).to.throw(
          new RegExp(`Error in slice1D: begin\\[0\\] \\+ size\\[0\\] would overflow input\\.shape\\[0\\] \\(4\\).*'i' \\(main\\.ts:${lineOf('xs.slice([i], [2])')}:\\d+\\)`));
        expect(tf.tidy(() => (staged(...inside()) as tf.Tensor).arraySync())).to.equal(110);
      }
    });

    it('leaks no tensors across staged calls', () => {
      const staged = stage(fixture.m.rowWindows);
      const args = [tf.tensor2d([[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 1, 1]]), tf.scalar(30)];
      staged(...args).dispose();
      const before = tf.memory().numTensors;
      for (let k = 0; k < 3; k++) staged(...args).dispose();
      expect(tf.memory().numTensors).to.equal(before);
    });
  });

  describe('refused where the result\'s shape would depend on the promoted value', () => {
    const cases: [string, () => unknown[], string, string, string][] = [
      ['sizeFromCounter', () => [tf.tensor1d([-1, -2, 3])], "tf\\.slice's size holds 'n'", 'xs.slice([0], [n])', 'decides the shape'],
      ['toTheEnd', () => [tf.tensor1d([-1, -2, 3])], "tf\\.slice's begin holds 'i'", 'xs.slice([i])', 'size on axis 0 is -1 \\(to the end\\)'],
      ['reshapeByCounter', () => [tf.tensor1d([-1, -2, 3, 4, 5, 6])], "tf\\.reshape's shape holds 'i'", 'xs.reshape([i, -1])', 'decides the shape'],
      ['oneHotDepth', () => [tf.tensor1d([1, 2, 7])], "tf\\.oneHot's depth holds 'depth'", 'tf.oneHot(', 'decides the shape'],
      ['tileByCounter', () => [tf.tensor1d([1, 2])], "tf\\.tile's reps holds 'k'", 'xs.tile([k])', 'decides the shape'],
      ['padByCounter', () => [tf.tensor1d([0.5, 1, 3, 0])], "tf\\.pad's paddings holds 'k'", 'tf.pad(xs', 'decides the shape'],
      ['rangeToCounter', () => [tf.tensor1d([0.5, 1, 3, 0])], "tf\\.range's stop holds 'k'", 'tf.range(0, k)', 'decides the shape'],
      ['splitByCounter', () => [tf.tensor1d([1, 0, 0, 0])], "tf\\.split's numOrSizeSplits holds 'k'", 'xs.split(k)', 'decides the shape'],
      ['floatBegin', () => [tf.tensor1d([1, 0.5, 2])], "tf\\.slice's begin holds 'b'", 'xs.slice([b], [1])', 'a float32 tensor here.*takes an integer begin'],
    ];
    for (const [name, args, what, text, why] of cases) {
      it(`${name}: ${what.replace(/\\/g, '')}`, () => {
        expect(() => fixture.m[name](...args())).not.to.throw();
        for (const engine of engines) {
          expect(() => stage(fixture.m[name], { engine })(...args()), engine).to.throw(StagingError,
            new RegExp(`${what} \\(main\\.ts:${lineOf(text)}:\\d+\\).*${why}`));
        }
      });
    }
  });
});
