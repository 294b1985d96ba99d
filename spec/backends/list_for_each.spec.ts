/**
 * `xs.forEach(f)` on a list — an array a staged loop grew, in this function or in a converted callee
 * that returned it (issue 17, "JS array methods on a list"): a staged loop over the list carrying what
 * the callback assigns (a tensor sum, a JS counter, an index), the arrays it pushes to, as eagerly.
 * Was refused ("'forEach' of 'out' ... is a list of tensors in the staged graph").
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { useFixture } from '../harness/fixtures';

describe('forEach on lists', () => {
  const fixture = useFixture('list_for_each_programs.ts');
  const { agree } = fixture;
  const lists = () => [() => [tf.tensor1d([1, 2, 3, -1, 4])], () => [tf.tensor1d([-1, 2])], () => [tf.tensor1d([5, -1])]];

  it('a tensor sum over a list grown here, and over one a converted callee returned', () => {
    for (const name of ['sumLocal', 'sumReturned']) {
      expect(agree(name, ...lists()).map((r) => (r as { tensor: number }).tensor), name).to.deep.equal([6, 0, 5]);
    }
  });

  it('a JS counter, the last index and pushes to another list under a tensor if in the callback', () => {
    const [a, b, c] = agree('countBig', ...lists()) as { n: number; lastIdx: number; big: unknown[] }[];
    expect([a.n, a.lastIdx, a.big.length, b.n, b.lastIdx, c.n, c.lastIdx]).to.deep.equal([2, 2, 2, 0, -1, 1, 0]);
  });

  it('forEach on a JS array that cannot be a list stays the native call as written (a tensor if inside it staged)', () => {
    expect(agree('plainArr', () => [tf.tensor1d([1, -2, 3])])).to.deep.equal([4]);
    expect(fixture.js).to.match(/ws\.forEach\(/).and.to.match(/ag__\.forEachItem\(out, /);
  });
});
