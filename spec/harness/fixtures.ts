/**
 * A program of spec/fixtures compiled with the transformer and loaded, for one describe block:
 * `const f = useFixture('closure_programs.ts')` registers the `before` hook that compiles it (no
 * diagnostics allowed); `f.m` is the module, `f.js` its emitted code, `f.agree(name, ...argLists)` runs an export eagerly and
 * staged on both engines (agreeOnEngines), `f.lineOf(text)` is the line of a source text.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { compile, formatDiagnostics, load } from './compile';
import { agreeOnEngines } from './typed_results';

export interface Fixture {
  readonly source: string;
  /** The loaded module (set by the before hook). */
  readonly m: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The emitted JavaScript (set by the before hook). */
  readonly js: string;
  agree(name: string, ...argLists: (() => unknown[])[]): unknown[];
  lineOf(text: string): number;
}

export function useFixture(file: string): Fixture {
  const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures', file), 'utf8');
  const fixture = {
    source,
    m: {} as Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
    js: '',
    agree: (name: string, ...argLists: (() => unknown[])[]): unknown[] => agreeOnEngines(fixture.m[name], name, argLists),
    lineOf: (text: string): number => source.split('\n').findIndex((l) => l.includes(text)) + 1,
  };
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    fixture.js = result.js['main.ts'];
    fixture.m = load(fixture.js);
  });
  return fixture;
}
