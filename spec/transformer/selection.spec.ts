/**
 * Which functions are converted (directive, file directive, convert: all, nested functions,
 * callees in the project's own files), and how the runtime is imported.
 */
import { expect } from 'chai';
import * as ts from 'typescript';
import { Diagnostics } from '../../transformer/diagnostics';
import { compile, formatDiagnostics, load } from '../harness/compile';

const tensorIf = (name: string) => `
export function ${name}(x: tf.Scalar) { if (x.greater(0)) { x = x.neg(); } return x; }`;

/** The emitted JS; no diagnostics but the warnings on functions left unconverted on purpose
 * (AG99103, specced in diagnostics.spec.ts). */
function emitted(files: Record<string, string>, config = {}, options: ts.CompilerOptions = {}): Record<string, string> {
  const result = compile(files, config, options);
  expect(formatDiagnostics(result.diagnostics.filter((d) => d.code !== Diagnostics.UnconvertedTensorCondition.code))).to.equal('');
  return result.js;
}

/** The emitted text of one top-level function. */
function fn(js: string, name: string): string {
  const start = js.indexOf(`function ${name}(`);
  const next = js.indexOf('\nfunction ', start + 1);
  const exp = js.indexOf('\nexport function ', start + 1);
  const ends = [next, exp].filter((i) => i > 0);
  return js.slice(start, ends.length ? Math.min(...ends) : undefined);
}

describe('function selection and runtime import', () => {
  it('converts a function with the directive, and not its sibling', () => {
    const js = emitted({ 'main.ts': `import * as tf from '@tensorflow/tfjs';
export function marked(x: tf.Scalar) { 'use autograph'; if (x.greater(0)) { x = x.neg(); } return x; }
${tensorIf('unmarked')}` })['main.ts'];
    expect(fn(js, 'marked')).to.contain('ag__.ifStmt');
    expect(fn(js, 'marked')).not.to.contain('use autograph');
    expect(fn(js, 'unmarked')).not.to.contain('ag__');
  });

  it('warns about the tensor condition of the unconverted sibling, naming it', () => {
    const result = compile({ 'main.ts': `import * as tf from '@tensorflow/tfjs';
export function marked(x: tf.Scalar) { 'use autograph'; if (x.greater(0)) { x = x.neg(); } return x; }
${tensorIf('unmarked')}` });
    expect(formatDiagnostics(result.diagnostics)).to.match(/^main\.ts:4:46 AG99103: .* first statement of 'unmarked'\.$/);
  });

  it('converts every function of a file that starts with the directive', () => {
    const js = emitted({ 'main.ts': `'use autograph';\nimport * as tf from '@tensorflow/tfjs';${tensorIf('a')}${tensorIf('b')}` })['main.ts'];
    expect(fn(js, 'a')).to.contain('ag__.ifStmt');
    expect(fn(js, 'b')).to.contain('ag__.ifStmt');
    expect(js).not.to.contain('use autograph');
  });

  it('keeps the comments around a removed directive (a license header, a note)', () => {
    const js = emitted({ 'main.ts': `// Copyright 2026 Example\n// License: MIT\n\n'use autograph';\nimport * as tf from '@tensorflow/tfjs';
export function f(x: tf.Scalar) {\n  // why it converts\n  'use autograph'; // a note\n  if (x.greater(0)) { x = x.neg(); }\n  return x;\n}` })['main.ts'];
    for (const comment of ['// Copyright 2026 Example', '// License: MIT', '// why it converts', '// a note']) {
      expect(js).to.contain(comment);
    }
    expect(js).not.to.contain('use autograph');
  });

  it('converts every function with convert: "all"', () => {
    const js = emitted({ 'main.ts': `import * as tf from '@tensorflow/tfjs';${tensorIf('a')}` }, { convert: 'all' })['main.ts'];
    expect(fn(js, 'a')).to.contain('ag__.ifStmt');
  });

  it('converts nested functions, arrows, methods, and callees in other project files', () => {
    const out = emitted({
      'helpers.ts': `import * as tf from '@tensorflow/tfjs';${tensorIf('calledHelper')}${tensorIf('notCalled')}`,
      'main.ts': `import * as tf from '@tensorflow/tfjs';
import { calledHelper } from './helpers';
class Model { step(x: tf.Scalar) { if (x.less(0)) { x = x.abs(); } return x; } }
export function main(x: tf.Scalar) {
  'use autograph';
  const inner = (y: tf.Scalar) => y.greater(1) ? y : y.neg();
  function nested(z: tf.Scalar) { while (z.greater(1)) { z = z.div(2); } return z; }
  return [inner(x), nested(x), calledHelper(x), new Model().step(x), tf.abs(x)];
}`,
    });
    const main = out['main.ts'];
    expect(main).to.contain('ag__.ifExp(y.greater(1)');
    expect(main).to.contain('ag__.whileStmt');
    expect(main).to.contain('ag__.ifStmt(x.less(0)'); // Model.step: a method call the checker resolves
    expect(fn(out['helpers.ts'], 'calledHelper')).to.contain('ag__.ifStmt');
    expect(fn(out['helpers.ts'], 'notCalled')).not.to.contain('ag__');
  });

  it('imports the runtime under a fresh name when ag__ is taken', () => {
    const js = emitted({ 'main.ts': `import * as tf from '@tensorflow/tfjs';
const ag__ = 1;
export function f(x: tf.Scalar) { 'use autograph'; if (x.greater(ag__)) { x = x.neg(); } return x; }` })['main.ts'];
    expect(js).to.match(/const ag___1 = require\(/);
    expect(js).to.contain('ag___1.ifStmt(x.greater(ag__)');
  });

  it('uses import in ES module output and require in CommonJS output and scripts', () => {
    const src = `import * as tf from '@tensorflow/tfjs';${tensorIf('f').replace('{ if', "{ 'use autograph'; if")}`;
    const esm = emitted({ 'main.ts': src }, {}, { module: ts.ModuleKind.ES2022 })['main.ts'];
    expect(esm).to.match(/^import \* as ag__ from "/m);
    const cjs = emitted({ 'main.ts': src }, {}, { module: ts.ModuleKind.CommonJS })['main.ts'];
    expect(cjs).to.match(/^const ag__ = require\("/m);
    const script = emitted({ 'script.js': `function f(x) { 'use autograph'; if (x) { x = 0; } return x; }` },
      { forceDynamic: true })['script.js'];
    expect(script).to.match(/^const ag__ = require\("/m);
    expect(script).not.to.contain('exports');
  });
});

describe('methods called through a base type: every override is converted', () => {
  // No directive in callbacks.ts: the overrides are converted because train() calls the base
  // methods, and the call runs whichever override the object's class provides.
  const files = {
    'callbacks.ts': `import * as tf from '@tensorflow/tfjs';
export class Callback {
  stopTraining = false;
  onEpochEnd(loss: tf.Scalar): void {}
}
export class EarlyStopping extends Callback {
  best: tf.Scalar = tf.scalar(Infinity);
  wait = 0;
  constructor(private readonly patience: number) { super(); }
  onEpochEnd(loss: tf.Scalar): void {
    if (loss.less(this.best)) { this.best = loss; this.wait = 0; }
    else { this.wait++; if (this.wait >= this.patience) this.stopTraining = true; }
  }
}
export interface Logger { log(loss: tf.Scalar): void }
export class ThresholdLogger implements Logger {
  seen = 0;
  log(loss: tf.Scalar): void { if (loss.greater(2.6)) this.seen++; }
}
export class Unrelated { onEpochEnd(loss: tf.Scalar): void { if (loss.less(0)) console.log(loss); } }`,
    'main.ts': `import * as tf from '@tensorflow/tfjs';
import { Callback, Logger } from './callbacks';
export function train(losses: number[], callback: Callback, logger: Logger): number {
  'use autograph';
  let epochs = 0;
  for (const l of losses) {
    const loss = tf.scalar(l);
    callback.onEpochEnd(loss);
    logger.log(loss);
    epochs++;
    if (callback.stopTraining) break;
  }
  return epochs;
}`,
  };

  it('converts the subclass override and the interface implementation, not a same-named unrelated method', () => {
    const out = emitted(files);
    const callbacks = out['callbacks.ts'];
    expect(callbacks).to.contain('.ifStmt(loss.less(this.best)');
    expect(callbacks).to.contain('.ifStmt(loss.greater(2.6)');
    expect(callbacks).not.to.contain('ifStmt(loss.less(0)');
    // ... and so Unrelated.onEpochEnd, not converted, has its condition reported.
    expect(formatDiagnostics(compile(files).diagnostics)).to.match(/^callbacks\.ts:20:66 AG99103: .*'Unrelated\.onEpochEnd'\.$/);
  });

  it('eagerly, the override reads the tensor condition by value: training stops', () => {
    const out = emitted(files);
    // The emitted modules require each other by relative name.
    const modules: Record<string, Record<string, any>> = {};
    const loadWith = (js: string) => {
      const module = { exports: {} as Record<string, any> };
      new Function('require', 'module', 'exports', js)(
        (id: string) => (id === './callbacks' ? modules.callbacks : require(id)), module, module.exports);
      return module.exports;
    };
    modules.callbacks = loadWith(out['callbacks.ts']);
    const main = loadWith(out['main.ts']);
    const early = new modules.callbacks.EarlyStopping(2);
    const logger = new modules.callbacks.ThresholdLogger();
    // 3, 2 improve; 2.5, 2.8 do not: patience 2 runs out after 4 epochs (an always-true
    // condition would run all 6).
    expect(main.train([3, 2, 2.5, 2.8, 1, 0.5], early, logger)).to.equal(4);
    expect(early.wait).to.equal(2);
    expect(early.best.dataSync()[0]).to.equal(2);
    expect(logger.seen).to.equal(2);
  });
});

describe('sloppy-mode scripts', () => {
  const source = `
function blockFunction(flag) {
  'use autograph';
  if (flag) { function g() { return 'g'; } }
  return typeof g === 'function' ? g() : 'none';
}
function directEval(flag) {
  'use autograph';
  if (flag) { eval('var fromEval = 42'); }
  return typeof fromEval === 'undefined' ? 'none' : fromEval;
}
module.exports = { blockFunction, directEval };`;

  it('keep Annex B block functions and direct-eval vars visible to the whole function', () => {
    const sloppy = { strict: false, alwaysStrict: false };
    const result = compile({ 'main.js': source }, { forceDynamic: true }, sloppy);
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    const m = load(result.js['main.js']);
    const plain = load(ts.transpileModule(source, { compilerOptions: { alwaysStrict: false } }).outputText);
    for (const flag of [true, false]) {
      expect(m.blockFunction(flag)).to.equal(plain.blockFunction(flag));
      expect(m.directEval(flag)).to.equal(plain.directEval(flag));
    }
    expect(m.blockFunction(true)).to.equal('g');
    expect(m.directEval(true)).to.equal(42);
  });
});

describe('compile time on deep nests', () => {
  it('20 nested labeled loops with jumps at every level compile (liveness is not exponential)', function () {
    this.timeout(20000);
    let open = '';
    let close = '';
    for (let d = 0; d < 20; d++) {
      open += `l${d}: for (let i${d} = 0; i${d} < 2; i${d}++) { if (x${d}) continue l${d > 0 ? d - 1 : 0}; if (y) break l0; `;
      close += ' }';
    }
    const params = Array.from({ length: 20 }, (_, d) => `x${d}: any`).join(', ');
    const result = compile({ 'main.ts': `export function f(y: any, ${params}) { let s = 0; ${open} s++; ${close} return s; }` },
      { convert: 'all' });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    const f = load(result.js['main.ts']).f as (...args: unknown[]) => number;
    expect(f(true, ...new Array(20).fill(false))).to.equal(0); // break l0 at once
  });
});
