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
