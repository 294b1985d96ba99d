/**
 * Every diagnostic code has a program that triggers it, reported at the right file:line:col; the
 * function it concerns is left unconverted and the compiler does not crash.
 */
import { expect } from 'chai';
import * as ts from 'typescript';
import { Diagnostics } from '../../transformer/diagnostics';
import { compile, formatDiagnostics, plainEmit } from '../harness/compile';

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
  TensorComparator: {
    code: 99008, at: 'main.ts:4:27',
    source: `import * as tf from '@tensorflow/tfjs';
export function f(xs: tf.Scalar[]) {
  'use autograph';
  return (xs as any).sort((a: tf.Scalar, b: tf.Scalar) => a.sub(b));
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
  UnconvertedTensorCondition: {
    code: 99103, at: 'main.ts:3:7', category: ts.DiagnosticCategory.Warning,
    source: `import * as tf from '@tensorflow/tfjs';
export function f(x: tf.Scalar) {
  if (x.greater(0)) x = x.neg();
  return x;
}`,
  },
  UnconvertedTensorPredicate: {
    code: 99104, at: 'main.ts:3:10', category: ts.DiagnosticCategory.Warning,
    source: `import * as tf from '@tensorflow/tfjs';
export function f(xs: tf.Scalar[]) {
  return xs.some((x) => x.greater(0));
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

describe('AG99103: a Tensor condition in code that is not converted', () => {
  const WARNING = Diagnostics.UnconvertedTensorCondition.code;
  /** Each form: a statement in g's body, the reported condition between « and ». */
  const forms: Record<string, string> = {
    'if': 'if («t») n++;',
    'while': 'while («t.greater(0)») t = t.sub(1);',
    'do': 'do { t = t.sub(1); } while («t.greater(0)»);',
    'for': 'for (let i = 0; «t.greater(i)»; i++) n++;',
    '?:': 'n = «t» ? 1 : 0;',
    '!': 'const b = !«t»;',
    '&&': 'const b = «t» && n;',
    '||': 'const b = «t.greater(0)» || n;',
    '|| as a condition (right operand)': 'if (n > 0 || «t.greater(0)») n++;',
    '! as a condition': 'if (!«t.greater(0)») n++;',
    '!! and && in a ?: condition': 'n = !!(n > 1 && «t») ? 1 : 0;',
  };
  const program = (statement: string, directive = '') => `import * as tf from '@tensorflow/tfjs';
export function g(t: tf.Tensor, n: number) {${directive}
  ${statement}
  return n;
}`;

  for (const [form, marked] of Object.entries(forms)) {
    it(`${form}: warns exactly once, at the condition, and the emitted JS is unchanged`, () => {
      const source = program(marked.replace(/[«»]/g, ''));
      const result = compile({ 'main.ts': source }, {}, { sourceMap: false });
      expect(result.diagnostics.map((d) => d.code)).to.deep.equal([WARNING]);
      const [d] = result.diagnostics;
      const statementStart = program(marked).indexOf(marked);
      expect(d.start).to.equal(statementStart + marked.indexOf('«'));
      expect(d.length).to.equal(marked.indexOf('»') - marked.indexOf('«') - 1);
      expect(d.category).to.equal(ts.DiagnosticCategory.Warning);
      expect(ts.flattenDiagnosticMessageText(d.messageText, '\n')).to.match(
        /always treats as true .* Add 'use autograph' as the first statement of 'g'\.$/);
      expect(result.js['main.ts']).to.equal(plainEmit({ 'main.ts': source })['main.ts']);
    });
  }

  it('none in converted functions (with the directive, or nested in one)', () => {
    for (const marked of Object.values(forms)) {
      expect(compile({ 'main.ts': program(marked.replace(/[«»]/g, ''), " 'use autograph';") }).diagnostics.map((d) => d.code)).not.to.include(WARNING);
    }
    const nested = `import * as tf from '@tensorflow/tfjs';
export function outer(t: tf.Tensor) {
  'use autograph';
  const inner = (u: tf.Tensor) => u.greater(0) ? u : u.neg();
  return inner(t);
}`;
    expect(compile({ 'main.ts': nested }).diagnostics).to.deep.equal([]);
  });

  it('none for conditions typed any, unknown, or a union (their value may be plain)', () => {
    const source = `import * as tf from '@tensorflow/tfjs';
export function g(a: any, u: unknown, m: tf.Tensor | undefined, e: tf.Tensor | number, n: number) {
  if (a) n++;
  while (a.greater(0)) a = a.sub(1);
  if (u) n++;
  if (m) n++;
  const b = !e || (m && a);
  return n ? b : m;
}`;
    expect(formatDiagnostics(compile({ 'main.ts': source }).diagnostics)).to.equal('');
  });

  it('names an anonymous function by where it starts, and says module-level code is never converted', () => {
    const source = `import * as tf from '@tensorflow/tfjs';
const t = tf.scalar(1);
export const f = [(x: tf.Scalar) => x.greater(0) ? x : x.neg()];
if (t) console.log('always');`;
    expect(formatDiagnostics(compile({ 'main.ts': source }).diagnostics).split('\n')).to.deep.equal([
      `main.ts:3:37 AG99103: autograph-ts: ${Diagnostics.UnconvertedTensorCondition.message} Add 'use autograph' as the first statement of the function at line 3, column 19.`,
      `main.ts:4:5 AG99103: autograph-ts: ${Diagnostics.UnconvertedTensorCondition.message} Code outside a function is never converted: move it into a function and add 'use autograph' to that function.`,
    ]);
  });
});
