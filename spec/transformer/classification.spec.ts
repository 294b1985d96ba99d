/**
 * With tfjs in the program, object types are classified by asking the checker whether a Tensor is
 * assignable to them: only types that could hold a Tensor are converted.
 */
import { expect } from 'chai';
import { compile, formatDiagnostics } from '../harness/compile';

const probes: Record<string, 'static' | 'dynamic' | 'staged'> = {
  'tf.Tensor': 'staged',
  'tf.Scalar | tf.Tensor1D': 'staged',
  'tf.Variable': 'staged',
  'tf.Tensor & { brand: "x" }': 'staged',
  'tf.Tensor | undefined': 'dynamic',
  '{}': 'dynamic',
  'object': 'dynamic',
  'Object': 'dynamic',
  'unknown': 'dynamic',
  '{ shape: number[] }': 'dynamic',           // a Tensor has a shape: it could be one
  '{ [k: string]: number }': 'static',
  'Record<string, unknown>': 'static',        // class instances have no index signature
  'object & { a: number }': 'static',
  'number[]': 'static',
  '() => void': 'static',
  'Map<string, tf.Tensor>': 'static',
  'tf.Tensor[]': 'static',                    // the array, not its elements
  'Promise<tf.Tensor>': 'static',
};

describe('classification with tfjs in the program', () => {
  it('converts exactly the conditions whose type may be a Tensor', () => {
    const names = Object.keys(probes);
    const source = `import * as tf from '@tensorflow/tfjs';\n` + names.map((type, i) =>
      `export function probe${i}(x: ${type}) { 'use autograph'; if (x) { return 1; } return 0; }`).join('\n');
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.match(/^main\.ts:6:\d+ AG99102: [^\n]*$/); // tf.Tensor | undefined
    const js = result.js['main.ts'];
    const got: Record<string, string> = {};
    names.forEach((type, i) => {
      const start = js.indexOf(`function probe${i}(`);
      const body = js.slice(start, js.indexOf('\nfunction ', start + 1) > 0 ? js.indexOf('\nfunction ', start + 1) : undefined);
      got[type] = body.includes('ag__.ifStmt(x,') ? (probes[type] === 'staged' ? 'staged' : 'dynamic') : 'static';
    });
    expect(got).to.deep.equal(probes);
  });
});

describe('composite targets: what a mutator method changes in place, asked of the checker (issue 16)', () => {
  it('tf.fill in a staged loop does not make the tf namespace loop state; xs.fill / xs.push on arrays do', () => {
    const source = `import * as tf from '@tensorflow/tfjs';
export function f(x: tf.Tensor, xs: number[], ys: Float32Array, zs: any) {
  'use autograph';
  while (x.sum().greater(0)) { x = x.sub(tf.fill([2], 1)); xs.fill(0); ys.fill(1); zs.push(1); }
  return x;
}`;
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    const composites = /composites: \(\) => \(\{ ([^}]*) \}\)/.exec(result.js['main.ts']);
    expect(composites?.[1]).to.equal('xs, ys, zs');
  });
});
