/**
 * A JS boolean the function returns from a staged if or loop (`if (t) return true; return false;`):
 * the return value is among a statement's flags (for its "not returned yet" value), but a returned
 * `true` is the user's value, promoted and read back as a JS boolean, not a jump flag. Before, the
 * first was refused ("returned in one branch ... not in the other") and an if/else returning true or
 * false gave a bool Tensor where eager code gives a boolean: silently another type.
 */
import { useFixture } from '../harness/fixtures';
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';

describe('JS booleans returned under tensor conditions', () => {
  const fixture = useFixture('returned_boolean_programs.ts');
  const { agree } = fixture;
  const scalars = (...xs: number[]) => xs.map((x) => () => [tf.scalar(x)]);

  it('if (t) return true; return false; — and with the else branch, and a ?: after', () => {
    expect(agree('earlyTrue', ...scalars(1, -1))).to.deep.equal([true, false]);
    expect(agree('bothBranches', ...scalars(1, -1))).to.deep.equal([true, false]);
    expect(agree('thenTernary', ...scalars(1, -9, -1))).to.deep.equal([true, true, false]);
  });

  it('returned from staged loops: a for with a tensor test, a while with a JS counter', () => {
    expect(agree('anyOver', () => [tf.tensor1d([1, 3, 2]), 2], () => [tf.tensor1d([1, 1]), 2])).to.deep.equal([true, false]);
    expect(agree('untilDone', ...scalars(4, 100))).to.deep.equal([true, false]);
    expect(agree('firstIdx', () => [tf.tensor1d([0, 3, 2])])).to.deep.equal([1]);
  });

  it('a list predicate tested by an if that returns booleans', () => {
    expect(agree('listSome', () => [tf.tensor1d([1, 3, -1, 4])], () => [tf.tensor1d([1, 1, -1, 4])])).to.deep.equal([true, false]);
  });
});
