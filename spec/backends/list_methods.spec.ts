/**
 * Lists that leave the function that grew them (returned, passed) and are read as JS arrays: a
 * for...of over one in a caller or callee goes through ag__.forStmt (analysis/plan.ts: arrays a call
 * returned or a parameter holds may be lists); filter on a tensor test makes a list (it was refused);
 * reduce without an initial value starts from the first element and raises reduce's TypeError on an
 * empty list when the graph runs (it was refused); map and filter learn that they hold JS numbers
 * from their first element (a list of scalars, read back as JS numbers).
 */
import { useFixture } from '../harness/fixtures';
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../index';

describe('lists read as JS arrays outside the function that grew them', () => {
  const fixture = useFixture('list_method_programs.ts');
  const { agree } = fixture;
  const s = (v: number) => () => [tf.scalar(v)];

  it('for...of over a callee\'s list (a call, a variable it initialized)', () => {
    agree('sumOfHalvings', s(20), s(0.5));
    expect(fixture.m.sumOfHalvings(tf.scalar(20)).arraySync()).to.equal(38.75);
  });

  it('a plain for...of over a parameter stays native (static by type): a list passed to it is refused by name', () => {
    expect(fixture.js).to.match(/for \(const t of xs\)/);
    expect(() => stage(fixture.m.passedList)(tf.scalar(20))).to.throw(/iterating \(a for\.\.\.of that is not converted.*\) of 'out'/);
    expect(fixture.m.passedList(tf.scalar(20)).arraySync()).to.equal(19.375);
  });

  it('filter on a tensor test: of a list (its length and elements), of JS numbers (read back as numbers)', () => {
    expect((agree('bigHalvings', s(20), s(0.5), s(3)) as { n: number }[]).map((r) => r.n)).to.deep.equal([3, 0, 0]);
    expect(agree('keptThresholds', s(2.5), s(0), s(9))).to.deep.equal([[1, 2], [], [1, 2, 3, 4]]);
  });

  it('reduce without an initial value; on an empty list the staged call throws reduce\'s TypeError', () => {
    agree('productOfHalvings', s(20), s(3));
    expect(() => fixture.m.productOfHalvings(tf.scalar(0.5))).to.throw(TypeError, 'Reduce of empty array with no initial value');
    for (const engine of ['tfjs', 'auto'] as const) {
      const staged = stage(fixture.m.productOfHalvings, { engine });
      expect((staged(tf.scalar(20)) as tf.Tensor).arraySync()).to.be.closeTo(10 * 5 * 2.5 * 1.25 * 0.625, 1e-4);
      expect(() => staged(tf.scalar(0.5))).to.throw(TypeError, 'Reduce of empty array with no initial value');
    }
  });

  it('map to JS numbers of the records a tensor test kept', () => {
    expect(agree('keptIds', s(1.5), s(0.5), s(3))).to.deep.equal([[2, 3], [], [1, 2, 3]]);
  });

  it('done[i] ||= t on an element: staged, the array carried (it was left native, a tensor always truthy)', () => {
    const rows = () => [tf.tensor1d([1, 5]), tf.tensor1d([0, 2]), tf.tensor1d([3, 3])];
    agree('anyAbovePerRow', () => [rows(), 2], () => [rows(), 4], () => [rows(), 0]);
    expect(fixture.js).to.match(/ag__\.or\(\(\) => done\[.*composites: \(\) => \(\{ done \}\)/);
  });

  it('leaks no tensors', () => {
    const staged = stage(fixture.m.bigHalvings);
    tf.dispose((staged(tf.scalar(20)) as { big: tf.Tensor[] }).big);
    const x = tf.scalar(20);
    const before = tf.memory().numTensors;
    tf.dispose((staged(x) as { big: tf.Tensor[] }).big);
    expect(tf.memory().numTensors).to.equal(before);
  });
});
