/**
 * `[a, ...xs, b]` where xs is a list — an array a staged loop grew here or in a converted callee
 * that returned it (issue 17, "spread [...xs]"): a new list of the items, returned as the JS array
 * eager code gives, or given to tf.stack. Was refused ("iterating (... a spread ...) of 'out'").
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { useFixture } from '../harness/fixtures';

describe('spreading lists', () => {
  const fixture = useFixture('list_spread_programs.ts');
  const { agree } = fixture;
  const values = (r: unknown) => (r as { tensor: unknown }[]).map((t) => t.tensor);

  it('tensors around a spread list, returned (and the list empty)', () => {
    const [a, b] = agree('sp', () => [tf.tensor1d([1, 2, -1, 4])], () => [tf.tensor1d([-1])]);
    expect([values(a), values(b)]).to.deep.equal([[7, 1, 2, 9], [7, 9]]);
  });

  it("a list of JS numbers a converted callee returned, spread: JS numbers", () => {
    expect(agree('spn', () => [tf.tensor1d([1, 2, -1, 4])], () => [tf.tensor1d([5, 6])])).to.deep.equal([[0, 1, 100], [0, 1, 100]]);
  });

  it('a spread list stacked', () => {
    expect(agree('spStack', () => [tf.tensor1d([1, 2, -1, 4])]).map((r) => (r as { tensor: unknown }).tensor)).to.deep.equal([[1, 2, 0]]);
  });
});
