/**
 * Escaping closures (transformer/analysis/closure_writes.ts escapingWritesOf): a function that
 * assigns the enclosing function's variables, stored in a config object or passed as an argument,
 * may run at any call of the user's code in a staged loop: what it assigns is loop state and
 * promotable. Eager == staged, value and JS type, on the tfjs executor and 'auto'.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { useFixture } from '../harness/fixtures';


describe('escaping closures: a stored or passed function assigning enclosing variables, run in a staged loop', () => {
  const fixture = useFixture('escaping_closures.ts');
  const { agree } = fixture;

  it('a callback stored in a config object counts under its own tensor if and in plain JS', () => {
    const [a, b] = agree('countWithHooks', () => [tf.tensor1d([1, 3, 4, 1, 5]), tf.scalar(8)], () => [tf.tensor1d([1, 1]), tf.scalar(100)]);
    expect(a).to.deep.equal({ n: 3, big: 2, steps: 3, last: 2 });
    expect(b).to.deep.equal({ n: 2, big: 0, steps: 2, last: -1 });
  });

  it('a closure passed as an argument to a function of the user\'s that calls it', () => {
    const [a] = agree('countByArgument', () => [tf.tensor1d([2, 0.5, 3, 1]), tf.scalar(5)]);
    expect(a).to.deep.equal({ n: 3, above: 2 });
  });

  it('a stored closure never called in the staged loop', () => {
    const [a] = agree('neverCalledInLoop', () => [tf.tensor1d([1, 2]), tf.scalar(7)]);
    expect(a).to.deep.equal({ n: 3, calls: 2 });
  });
});
