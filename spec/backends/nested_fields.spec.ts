/**
 * Objects held in fields of the objects a staged statement reads (`cb.model` of a callback whose
 * onBatchEnd sets `this.model.stop`), at any depth and through arrays: watched, restored between
 * the statement's attempts and carried (backends/staging/reachable_objects.ts). Eager == staged,
 * values and JS types, on the tfjs executor and 'auto' (spec/fixtures/nested_field_programs.ts).
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { useFixture } from '../harness/fixtures';


describe('fields of objects held in fields: watched, restored and carried by staged statements', () => {
  const fixture = useFixture('nested_field_programs.ts');
  const { agree } = fixture;
  const losses = (...xs: number[]) => () => [tf.tensor1d(xs)];

  it('a callback setting this.model.stop and this.seen under a tensor if, the loop broken on cb.model.stop', () => {
    // Was: a tensor computed in the body of the loop is used outside it (cb.model.stop kept the body's tensor).
    expect(agree('trainA', losses(1, 2, 3, NaN, 5), losses(1, 2, 3), losses(NaN))).to.deep.equal([
      { stopped: true, seen: 7 }, { stopped: false, seen: -1 }, { stopped: true, seen: 7 }]);
    // Stopped at the first batch (the staged loop runs no iteration), and no batch at all.
    expect(agree('trainA', losses(NaN, 1), losses())).to.deep.equal([{ stopped: true, seen: 7 }, { stopped: false, seen: -1 }]);
  });

  it('two levels deep: this.run.model.count promoted, this.run.model.stop breaking the loop', () => {
    expect(agree('trainDeep', losses(3, 1, 3, 3, 1), losses(1, 1), losses(3, 3))).to.deep.equal([
      { stop: true, count: 2, batches: 3 }, { stop: false, count: 0, batches: 2 }, { stop: true, count: 2, batches: 2 }]);
  });

  it('a CallbackList whose two callbacks share the model: stopTraining, and a patience callback\'s own fields', () => {
    const runs = agree('fitBatches', () => [tf.tensor1d([5, 4, 4.5, 4.6, 4.7, 3]), 2], () => [tf.tensor1d([5, NaN, 1]), 5],
      () => [tf.tensor1d([5, 4, 3]), 2]);
    expect(runs.map((r) => (r as { batches: number; stopped: boolean }).batches)).to.deep.equal([4, 2, 3]);
    expect(runs.map((r) => (r as { stopped: boolean }).stopped)).to.deep.equal([true, true, false]);
  });

  it('the model reached only through the list\'s field (list.model!.stopTraining), the callbacks through its array', () => {
    // Was silently wrong: the `!` hid the promoted field from the transformer, and JS read its tensor as true (1 batch).
    expect(agree('fitThroughList', losses(5, 4, 4.5, 4.6, 4.7, 3), losses(5, NaN, 1), losses(1, 2))).to.deep.equal([
      { batches: 4, stopped: true, wait: 2 }, { batches: 2, stopped: true, wait: 1 }, { batches: 2, stopped: false, wait: 1 }]);
  });

  it('an object made in the loop body is not state: its fields are the body\'s own', () => {
    expect(agree('countHigh', losses(1, 3, 5), losses(1))).to.deep.equal([2, 0]);
  });

  it('a trainer that outlives the call: its callback\'s model is state across calls, as eager leaves it', () => {
    for (const engine of ['tfjs', 'auto'] as const) {
      const eager = new fixture.m.Trainer(), staged = new fixture.m.Trainer();
      const fit = stage(staged.fit.bind(staged), { engine });
      for (const xs of [[1, 2], [3, NaN, 4], [5, 6]]) {
        expect(fit(tf.tensor1d(xs)), `${engine}: ${xs}`).to.equal(eager.fit(tf.tensor1d(xs)));
        expect([staged.cb.model.stop, staged.cb.seen, staged.batches]).to.deep.equal([eager.cb.model.stop, eager.cb.seen, eager.batches]);
      }
    }
  });

  it('stays refused: a JS string in a nested field that a tensor condition decides, at its line', () => {
    for (const engine of ['tfjs', 'auto'] as const) {
      expect(() => stage(fixture.m.trainStatus, { engine })(tf.tensor1d([1, NaN]))).to.throw(StagingError,
        /'this\.model\.status' is the JS string "nan" in the if branch and the JS string "ok" in the else branch of a conditional on a tensor \(main\.ts:168:5\)/);
    }
  });

  // A field read through an element access (`list.callbacks[0].model.stopTraining`) has no qualified name; its read is
  // promotable by node (analysis/promotion.ts). Was silently wrong: { batches: 1, stopped: false } for { batches: 2, stopped: true }.
  it('a flag read through an element access: list.callbacks[0].model.stopTraining', () => {
    expect(agree('fitThroughElement', losses(5, NaN, 1))).to.deep.equal([{ batches: 2, stopped: true }]);
  });
});
