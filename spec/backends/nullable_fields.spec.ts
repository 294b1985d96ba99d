/**
 * A field of an object that may be null, written under a tensor if: the statement's state getter
 * reads it as undefined where the object is null (`cur?.end`) and its setter writes it nowhere
 * (`(cur ?? {}).end`), eagerly and staged; an object made on one path and null on the other is
 * refused, naming the variable and the line.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { agreeOnEngines } from '../harness/typed_results';

const SOURCE = `import * as tf from '@tensorflow/tfjs';
export function endOfNull(x: tf.Scalar): number {
  'use autograph';
  let cur: { start: number; end?: number } | null = null;
  if (x.equal(0)) {
    if (cur) { cur.end = 1; }
  }
  return cur ? 1 : 0;
}
export function endOfObject(x: tf.Scalar): tf.Tensor {
  'use autograph';
  const cur: { start: number; end: tf.Tensor } | null = { start: 0, end: tf.scalar(0) };
  if (x.equal(0)) {
    if (cur) { cur.end = tf.scalar(1); }
  }
  return cur ? cur.end : tf.scalar(-1);
}
export function madeOnOnePath(x: tf.Scalar, s: number): number {
  'use autograph';
  let cur: { start: number } | null = null;
  if (x.equal(0)) {
    cur = { start: s };
  }
  return cur ? 1 : 0;
}
`;

describe('fields of a nullable object written under a tensor if', () => {
  let m: Record<string, any>;
  let js: string;
  before(() => {
    const result = compile({ 'main.ts': SOURCE });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    js = result.js['main.ts'];
    m = load(js);
  });

  it('the state of cur.end reads undefined where cur is null and is written back only to an object', () => {
    expect(js).to.contain('() => [cur?.end]').and.to.contain('[(cur ?? {}).end] = vars_');
  });

  it('a null object: eager == staged, no TypeError', () => {
    expect(agreeOnEngines(m.endOfNull, 'endOfNull', [() => [tf.scalar(0)], () => [tf.scalar(1)]])).to.deep.equal([0, 0]);
  });

  it('an object: its field written under the tensor if, eager == staged', () => {
    expect(agreeOnEngines(m.endOfObject, 'endOfObject', [() => [tf.scalar(0)], () => [tf.scalar(1)]]).map((r) => (r as { tensor: number }).tensor)).to.deep.equal([1, 0]);
  });

  it('an object on one path and null on the other is refused, naming the variable and the line', () => {
    expect(m.madeOnOnePath(tf.scalar(0), 3)).to.equal(1);
    for (const engine of ['tfjs', 'auto'] as const) {
      expect(() => stage(m.madeOnOnePath, { engine })(tf.scalar(0), 3)).to.throw(StagingError,
        /'cur' has a different structure in the two branches of a tensor conditional \(main\.ts:\d+:3\)/);
    }
  });
});
