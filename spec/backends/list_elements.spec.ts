/**
 * A list read by index before its first push (in a staged loop that runs zero times while the list
 * is empty, inside the staged loop that pushes): the function is traced again with the element
 * spec the pushes taught (backends/staging/list_elements.ts). Eager == staged, values and types.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { agreeOnEngines } from '../harness/typed_results';

const SOURCE = `import * as tf from '@tensorflow/tfjs';
export function distinct(xs: tf.Tensor1D): tf.Tensor[] {
  'use autograph';
  const kept: tf.Tensor[] = [];
  for (let i = 0; i < xs.shape[0]; i++) {
    const x = xs.gather(i);
    if (x.less(0)) break;
    let dup = false;
    for (let j = kept.length - 1; j >= 0; --j) if (kept[j].equal(x)) dup = true;
    if (!dup) kept.push(x);
  }
  return kept;
}
`;

describe('a list read before its first push', () => {
  let m: Record<string, any>;
  before(() => {
    const result = compile({ 'main.ts': SOURCE });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });

  it('is traced again with the element spec its pushes taught: eager == staged', () => {
    const runs = [[1, 2, 1, 3, 2, -1, 5], [-1, 2], [4, 4, 4]].map((v) => () => [tf.tensor1d(v)]);
    const results = agreeOnEngines(m.distinct, 'distinct', runs) as { tensor: number[] }[][];
    expect(results.map((r) => r.length)).to.deep.equal([3, 0, 1]);
  });

  it('once: the element spec is kept for later calls (one retrace, not one per call)', () => {
    const staged = stage(m.distinct);
    staged(tf.tensor1d([1, 2, 1]));
    staged(tf.tensor1d([3, 3, 4]));
    expect(staged.traceCount).to.equal(1);
  });
});
