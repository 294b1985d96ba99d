/**
 * Every diagnostic code has a program that triggers it, reported at the right file:line:col; the
 * function it concerns is left unconverted and the compiler does not crash.
 */
import { expect } from 'chai';
import * as ts from 'typescript';
import { Diagnostics } from '../../transformer/diagnostics';
import { compile, formatDiagnostics } from '../harness/compile';

interface Case { code: number; file?: string; source: string; at: string; category?: ts.DiagnosticCategory }

const cases: Record<string, Case> = {
  YieldInConvertedStatement: {
    code: 99001, at: 'main.ts:5:19',
    source: `import * as tf from '@tensorflow/tfjs';
function* steps(x: tf.Scalar) {
  'use autograph';
  while (x.greater(0)) {
    x = x.sub(1); yield x;
  }
}
export { steps };`,
  },
  AwaitInConvertedStatement: {
    code: 99002, at: 'main.ts:4:28',
    source: `import * as tf from '@tensorflow/tfjs';
async function f(x: tf.Scalar, load: () => Promise<number>) {
  'use autograph';
  if (x.greater(0)) return await load();
  return 0;
}
export { f };`,
  },
  TensorSwitch: {
    code: 99003, at: 'main.ts:4:11',
    source: `import * as tf from '@tensorflow/tfjs';
export function f(x: tf.Scalar) {
  'use autograph';
  switch (x) { case undefined: return 1; default: return 2; }
}`,
  },
  CaseDeclarationAcrossClauses: {
    code: 99007, at: 'main.ts:6:11',
    source: `import * as tf from '@tensorflow/tfjs';
export function f(k: number, x: tf.Scalar) {
  'use autograph';
  switch (k) {
    case 1:
      let y = 1;
      if (x.greater(0)) { break; }
    case 2:
      return y;
  }
  return 0;
}`,
  },
  ForAwaitInConvertedStatement: {
    code: 99005, at: 'main.ts:5:5',
    source: `import * as tf from '@tensorflow/tfjs';
export async function f(x: tf.Scalar, xs: AsyncIterable<number>) {
  'use autograph';
  if (x.greater(0)) {
    for await (const v of xs) console.log(v);
  }
}`,
  },
  WithStatement: {
    code: 99006, at: 'main.js:6:5', file: 'main.js',
    source: `const tf = require('@tensorflow/tfjs');
/** @param {import('@tensorflow/tfjs').Scalar} x */
function f(x, o) {
  'use autograph';
  if (x.greater(0)) {
    with (o) { console.log(a); }
  }
}
module.exports = { f };`,
  },
  TensorValueAsBoolean: {
    code: 99101, at: 'main.ts:4:20', category: ts.DiagnosticCategory.Warning,
    source: `import * as tf from '@tensorflow/tfjs';
export function f(x: tf.Scalar) {
  'use autograph';
  const negative = !x.greater(0);
  return negative;
}`,
  },
  OptionalTensorCondition: {
    code: 99102, at: 'main.ts:4:7', category: ts.DiagnosticCategory.Warning,
    source: `import * as tf from '@tensorflow/tfjs';
export function f(x: tf.Tensor, mask?: tf.Tensor) {
  'use autograph';
  if (mask) x = x.mul(mask);
  return x;
}`,
  },
};

describe('diagnostics', () => {
  it('every code in the table has a triggering program here', () => {
    const tested = Object.values(cases).map((c) => c.code);
    const untestable: number[] = [Diagnostics.InternalError.code];
    for (const [key, { code }] of Object.entries(Diagnostics) as [string, { code: number }][]) {
      if (!untestable.includes(code)) expect(tested, key).to.include(code);
    }
  });

  for (const [name, c] of Object.entries(cases)) {
    it(`${name} (AG${c.code}) at ${c.at}`, () => {
      const file = c.file ?? 'main.ts';
      const result = compile({ [file]: c.source });
      expect(formatDiagnostics(result.diagnostics)).to.match(new RegExp(`^${c.at.replace(/\./g, '\\.')} AG${c.code}: autograph-ts: `));
      expect(result.diagnostics[0].category).to.equal(c.category ?? ts.DiagnosticCategory.Error);
      if ((c.category ?? ts.DiagnosticCategory.Error) === ts.DiagnosticCategory.Error) {
        // The function is left as written: no operator calls in it.
        expect(result.js[file]).not.to.contain('ag__.');
      }
    });
  }
});
