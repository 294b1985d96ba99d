/**
 * Every TypeScript example in docs/reference.md is compiled with the transformer and run: a doc
 * that shows code which does not work is a bug. Each ```ts block is a whole program that checks
 * its own results with node:assert. A block preceded by `<!-- diagnostic: TS99xxx -->` must fail
 * to convert with exactly that code instead; `<!-- not run -->` blocks are only compiled.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { compile, formatDiagnostics } from '../harness/compile';

const ROOT = path.resolve(__dirname, '../../..');
const DOC = path.join(ROOT, 'docs/reference.md');

interface Example { line: number; code: string; diagnostic?: number; run: boolean; heading: string }

function examples(): Example[] {
  const lines = fs.readFileSync(DOC, 'utf8').split('\n');
  const found: Example[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('#')) heading = lines[i].replace(/^#+\s*/, '');
    if (lines[i].trim() !== '```ts') continue;
    const before = lines.slice(Math.max(0, i - 2), i).join('\n');
    const end = lines.indexOf('```', i + 1);
    found.push({
      line: i + 1, heading, code: lines.slice(i + 1, end).join('\n'),
      diagnostic: Number(/<!-- diagnostic: TS(\d+) -->/.exec(before)?.[1]) || undefined,
      run: !/<!-- not run -->/.test(before),
    });
    i = end;
  }
  return found;
}

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, types: ['node'],
};

/** Runs an example as a user's program runs: a .js file with its source map next to it, so that
 * stack frames and error locations resolve to main.ts as they would in a project. */
function runAsFile(js: string, map: string, line: number, base: string): void {
  const dir = path.join(ROOT, 'spec-virtual-docs', String(line), 'out');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${base}.js`);  // the name its sourceMappingURL expects
  try {
    fs.writeFileSync(file, js);
    fs.writeFileSync(`${file}.map`, map);
    require(file);
  } finally {
    delete require.cache[file];
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

describe('docs/reference.md examples', () => {
  const all = examples();
  const name = (e: Example): string => `example${e.line}.ts`;
  let result: ReturnType<typeof compile>;
  before(() => {
    // One program for all examples: the library declarations are checked once.
    result = compile(Object.fromEntries(all.map((e) => [name(e), e.code])), {}, options);
  });
  const of = (diagnostics: readonly ts.Diagnostic[], e: Example) =>
    diagnostics.filter((d) => d.file !== undefined && path.basename(d.file.fileName) === name(e));

  for (const example of all) {
    it(`${example.heading} (line ${example.line})`, () => {
      expect(formatDiagnostics(of(result.typeErrors, example)), 'type errors').to.equal('');
      const conversion = of(result.diagnostics, example);
      if (example.diagnostic !== undefined) {
        expect(conversion.map((d) => d.code)).to.include(example.diagnostic);
        return;
      }
      expect(formatDiagnostics(conversion.filter((d) => d.category === ts.DiagnosticCategory.Error)), 'conversion errors').to.equal('');
      if (example.run) runAsFile(result.js[name(example)], result.maps[name(example)], example.line, `example${example.line}`);
    });
  }
});
