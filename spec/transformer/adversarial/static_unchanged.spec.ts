/**
 * Tensor-free code is emitted byte for byte as plain tsc emits it: with `convert: 'all'` (no
 * forceDynamic) and with 'use autograph' directives (which alone disappear).
 */
import { expect } from 'chai';
import * as path from 'path';
import * as ts from 'typescript';
import { compile, formatDiagnostics } from '../../harness/compile';
import { plainEmit } from './plain_emit';
import { staticCorpus } from './static_corpus';

const DIRECTIVE_LINE = /^[ \t]*'use autograph';[ \t]*\r?\n/gm;
const withoutDirectives = (s: string) => s.replace(DIRECTIVE_LINE, '');

function byFile(programs: Record<string, string>): { names: string[]; files: Record<string, string> } {
  const names = Object.keys(programs);
  const files: Record<string, string> = {};
  names.forEach((name, i) => { files[`s${i}.ts`] = programs[name]; });
  return { names, files };
}

function typeErrors(diagnostics: readonly ts.Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

describe('adversarial: static code is emitted unchanged', () => {
  const { names, files } = byFile(staticCorpus);
  const stripped = Object.fromEntries(Object.entries(files).map(([f, s]) => [f, withoutDirectives(s)]));
  let reference: Record<string, string>;
  let all: ReturnType<typeof compile>;
  let directives: ReturnType<typeof compile>;
  let fileDirective: ReturnType<typeof compile>;
  before(function () {
    this.timeout(30000);
    reference = plainEmit(stripped);
    all = compile(stripped, { convert: 'all' }, { sourceMap: false });
    directives = compile(files, {}, { sourceMap: false });
    fileDirective = compile(Object.fromEntries(Object.entries(stripped).map(([f, s]) => [f, `'use autograph';\n${s}`])), {}, { sourceMap: false });
  });

  it('the corpus type-checks and has directives to remove', () => {
    expect(typeErrors(all.typeErrors)).to.deep.equal([]);
    for (const f of Object.keys(files)) expect(files[f]).to.not.equal(stripped[f]);
  });
  names.forEach((name, i) => {
    const file = `s${i}.ts`;
    it(`convert: 'all' — ${name}`, () => {
      expect(formatDiagnostics(all.diagnostics)).to.equal('');
      expect(all.js[file]).to.equal(reference[file]);
    });
    it(`'use autograph' in functions — ${name}`, () => {
      expect(formatDiagnostics(directives.diagnostics)).to.equal('');
      expect(directives.js[file]).to.equal(reference[file]);
    });
    it(`'use autograph' for the file — ${name}`, () => {
      expect(formatDiagnostics(fileDirective.diagnostics)).to.equal('');
      expect(fileDirective.js[file]).to.equal(reference[file]);
    });
  });
});

describe('adversarial: directive removal keeps the rest of a static function as tsc emits it', () => {
  // [with directive, the same program without it]
  const cases: Record<string, [string, string]> = {
    'double quotes': [`export function f(a: number) {\n  "use autograph";\n  return a;\n}\n`, `export function f(a: number) {\n  return a;\n}\n`],
    'after use strict': [`export function f(a: number) {\n  'use strict';\n  'use autograph';\n  return a;\n}\n`, `export function f(a: number) {\n  'use strict';\n  return a;\n}\n`],
    'only the directive': [`export function f() {\n  'use autograph';\n}\n`, `export function f() {\n}\n`],
    'arrow function': [`export const f = (a: number) => {\n  'use autograph';\n  return a > 1 ? a : 0;\n};\n`, `export const f = (a: number) => {\n  return a > 1 ? a : 0;\n};\n`],
    'one-line body': [`export function f(a: number) { 'use autograph'; return a; }\n`, `export function f(a: number) { return a; }\n`],
    'the same string outside the prologue stays': [`export function f(a: number) {\n  'use autograph';\n  const s = 'use autograph';\n  { 'use autograph'; }\n  return a + s;\n}\n`, `export function f(a: number) {\n  const s = 'use autograph';\n  { 'use autograph'; }\n  return a + s;\n}\n`],
    'decorated method': [`function d(t: any, k: string) {}\nexport class C {\n  @d m(a: number) {\n    'use autograph';\n    if (a) return 1;\n    return 0;\n  }\n}\n`, `function d(t: any, k: string) {}\nexport class C {\n  @d m(a: number) {\n    if (a) return 1;\n    return 0;\n  }\n}\n`],
    'overloads': [`export function f(a: number): number;\nexport function f(a: string): string;\nexport function f(a: any): any {\n  'use autograph';\n  return a;\n}\n`, `export function f(a: number): number;\nexport function f(a: string): string;\nexport function f(a: any): any {\n  return a;\n}\n`],
    'parameter properties and a ?: default': [`export class C {\n  constructor(private a: number, public b = a > 1 ? 1 : 2) {\n    'use autograph';\n    if (a > 0) this.a = 2;\n  }\n}\n`, `export class C {\n  constructor(private a: number, public b = a > 1 ? 1 : 2) {\n    if (a > 0) this.a = 2;\n  }\n}\n`],
  };
  const names = Object.keys(cases);
  const withDirective: Record<string, string> = {};
  const without: Record<string, string> = {};
  names.forEach((name, i) => { [withDirective[`d${i}.ts`], without[`d${i}.ts`]] = cases[name]; });
  for (const [target, label] of [[undefined, 'ES2022'], [2 /* ES2015 */, 'ES2015 + experimentalDecorators']] as const) {
    const options = target === undefined ? { sourceMap: false } : { sourceMap: false, target, experimentalDecorators: true };
    let converted: ReturnType<typeof compile>;
    let reference: Record<string, string>;
    before(function () {
      this.timeout(30000);
      converted = compile(withDirective, {}, options);
      reference = plainEmit(without, options);
    });
    names.forEach((name, i) => {
      it(`${name} (${label})`, () => {
        expect(formatDiagnostics(converted.diagnostics)).to.equal('');
        expect(converted.js[`d${i}.ts`]).to.equal(reference[`d${i}.ts`]);
      });
    });
  }
});
