/**
 * Arrays held in fields that a staged statement grows (observed_fields.ts, control_flow.ts
 * withObservedFields): carried as the converted code's own arrays are, a list of the graph when a
 * staged loop grows them; in an object that outlives the call, written back after every call.
 * And an object the call makes, whose tensor field a helper replaces: not state from before the call.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { useFixture } from '../harness/fixtures';

describe('arrays held in fields, grown by staged statements', () => {
  const fixture = useFixture('field_array_programs.ts');
  const { agree } = fixture;

  it("a callback's this.epochs.push(epoch) and this.losses.push(loss) in a staged loop with a tensor break", () => {
    const [stopped, full] = agree('fitRecorded', () => [tf.tensor1d([3, 2, 0.5, 4])], () => [tf.tensor1d([3, 2, 5])]);
    expect((stopped as { epochs: number[] }).epochs).to.deep.equal([0, 1, 2]);
    expect((full as { epochs: number[] }).epochs).to.deep.equal([0, 1, 2]);
    expect((stopped as { losses: { tensor: number }[] }).losses.map((t) => t.tensor)).to.deep.equal([3, 2, 0.5]);
  });

  it("an object literal's array field pushed in a staged loop", () => {
    const [seen] = agree('literalField', () => [tf.tensor1d([3, 2, 0.5, 4])], () => [tf.tensor1d([0])]);
    expect(seen).to.deep.equal([0, 1]);
  });

  it('a field array pushed under a tensor if in a staged loop', () => {
    const [r] = agree('underTensorIf', () => [tf.tensor1d([3, 1, 5, 0])], () => [tf.tensor1d([1])]);
    expect(r).to.deep.equal({ big: [0, 2], n: 4 });
  });

  for (const engine of ['tfjs', 'auto'] as const) {
    it(`an object that outlives the call: its arrays grow on every staged call as eagerly (${engine})`, () => {
      const staged = stage(fixture.m.halveLogged, { engine });
      const eagerLog = new fixture.m.Logger(), stagedLog = new fixture.m.Logger();
      for (const x of [[8, 2], [3, 1], [0.5, 0.25], [8, 2]]) {
        expect(staged(tf.tensor1d(x), stagedLog)).to.equal(fixture.m.halveLogged(tf.tensor1d(x), eagerLog));
        expect(stagedLog.steps).to.deep.equal(eagerLog.steps);
        expect(stagedLog.values.map((t: tf.Tensor) => Array.from(t.dataSync()))).to.deep.equal(eagerLog.values.map((t: tf.Tensor) => Array.from(t.dataSync())));
      }
      expect(stagedLog.steps).to.deep.equal([0, 1, 2, 0, 1, 0, 1, 2]);
      // Tensors of another shape pushed after the ones it holds: no one element shape for a list, refused by name.
      expect(() => staged(tf.tensor1d([9]), stagedLog)).to.throw(/'logger\.values'.*elements differ in shape/);
    });
  }

  it("a helper replacing a tensor field of an object the call makes (best.value = xs.gather(i)) under a tensor if", () => {
    const [r] = agree('bestOf', () => [tf.tensor1d([1, 7, 3, 9, 2])], () => [tf.tensor1d([4])]);
    expect((r as { index: number; visits: number })).to.include({ index: 3, visits: 5 });
  });

  it('an array an if carries first, then the staged loop around it (a do-while\'s first iteration), with a field bumped in the other branch', () => {
    expect(agree('bumpOrNote', () => [tf.scalar(-2), tf.scalar(0)], () => [tf.scalar(-2), tf.scalar(1)], () => [tf.scalar(2), tf.scalar(0)]))
      .to.deep.equal([[0, [0, 0]], [2, []], [0, []]]);
  });
});
