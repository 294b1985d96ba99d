/**
 * Writes through an element at a promoted index (ag__.atIndex: the statement for each element under a
 * staged `if (index === k)`), and results of JS arithmetic on exact promoted values computed in JS
 * after the call (runtime/js_recipes.ts). Before, each was refused: "'p' is an int32 tensor here" and
 * "'correct' is returned as a JS number, but ... computes it in float32".
 */
import { useFixture } from '../harness/fixtures';
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage, StagingError } from '../../index';

describe('writes at a promoted index; JS arithmetic on promoted values read back', () => {
  const fixture = useFixture('index_dispatch_programs.ts');
  const { agree } = fixture;
  const s = (v: number) => () => [tf.scalar(v)];

  it('compound assignments and increments of the element a tensor chose', () => {
    expect(agree('compound', s(1), s(-1))).to.deep.equal([[-1, 36], [6, 9]]);
  });

  it('nested arrays: m[1][p]++ and m[p][0] = 7', () => {
    expect(agree('nested', s(1), s(-1))).to.deep.equal([[[0, 0], [7, 1]], [[7, 0], [1, 0]]]);
  });

  it('a field array at an index a callee computes', () => {
    expect(agree('fieldCounts', () => [[tf.scalar(1), tf.scalar(-1), tf.scalar(9), tf.scalar(2)]])).to.deep.equal([[1, 2, 1]]);
  });

  it('pushes into the list a tensor chose of a list of lists; lengths and sums after', () => {
    const xs = () => [[tf.scalar(0), tf.scalar(2), tf.scalar(9), tf.scalar(3), tf.scalar(7)]];
    expect((agree('perClass', xs) as { sizes: number[] }[])[0].sizes).to.deep.equal([1, 2, 2]);
  });

  it('an index past the end (JS would grow the array) fails a check when the graph runs', () => {
    expect(fixture.m.pastTheEnd(tf.scalar(1))).to.deep.equal([0, 0, undefined, undefined, undefined, NaN]);
    const staged = stage(fixture.m.pastTheEnd);
    expect(staged(tf.scalar(-1))).to.deep.equal([1, 0]);
    expect(() => staged(tf.scalar(1))).to.throw(RangeError, /'a' is written at an index that is not one of its 2 elements/);
  });

  it('a field halved under a tensor test, written back after each call: computed in JS (0.1 * 0.5 ** k, not in float32)', () => {
    const losses = [5, 0.5, 3, 2, 0.1];
    const eager = new fixture.m.Schedule();
    for (const l of losses) fixture.m.scheduleStep(eager, tf.scalar(l));
    for (const engine of ['tfjs', 'auto'] as const) {
      const staged = new fixture.m.Schedule();
      const step = stage(fixture.m.scheduleStep, { engine });
      for (const l of losses) step(staged, tf.scalar(l));
      expect([staged.lr, staged.drops]).to.deep.equal([eager.lr, eager.drops]);
    }
    expect(eager.lr).to.equal(0.0125);
  });

  it('a draw of an LCG advanced under a tensor test, given to a tfjs op, is refused (was silently another number)', () => {
    expect(fixture.m.lcgWalk(tf.scalar(0.5), 6)).to.be.instanceOf(tf.Tensor);
    for (const engine of ['tfjs', 'auto'] as const) {
      expect(() => stage(fixture.m.lcgWalk, { engine })(tf.scalar(0.5), 6)).to.throw(StagingError,
        /'rng\.state' is a JS number that a staged statement .* computes from an int32 product that may wrap .* the tfjs kernel Sub/);
    }
  });

  it('JS arithmetic on exact promoted values, returned: computed in JS (as eagerly, not in float32)', () => {
    const r = agree('accuracy', () => [tf.tensor1d([1, 5, 3, 7, 2]), 2.5], () => [tf.tensor1d([1, 5, 3]), 0]) as { accuracy: number }[];
    expect(r.map((x) => x.accuracy)).to.deep.equal([0.6, 1]);
    expect(() => stage(fixture.m.accuracyTested)(tf.tensor1d([1, 5, 3]), 2.5)).to.throw(StagingError, /computed from 'correct' is computed in float32/);
  });
});
