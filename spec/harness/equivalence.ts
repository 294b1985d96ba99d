/**
 * Behaviour equivalence: a program's `run()` must give the same result, the same log of side
 * effects and the same exception, compiled plainly and converted with every condition treated as
 * dynamic (so each statement goes through an operator's plain-value path).
 */
import { expect } from 'chai';
import * as ts from 'typescript';
import { compile, defaultOptions, formatDiagnostics, load } from './compile';

export function runPlain(source: string): unknown {
  const js = ts.transpileModule(source, { compilerOptions: { ...defaultOptions, sourceMap: false } }).outputText;
  return outcome(() => load(js).run());
}

export function convert(source: string): string {
  const result = compile({ 'main.ts': source }, { convert: 'all', forceDynamic: true });
  if (result.diagnostics.length > 0) throw new Error(formatDiagnostics(result.diagnostics));
  return result.js['main.ts'];
}

export function runConverted(source: string): unknown {
  const js = convert(source);
  return outcome(() => load(js).run());
}

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { threw: error instanceof Error ? `${error.constructor.name}: ${error.message}` : error };
  }
}

export function expectEquivalent(source: string): void {
  const plain = runPlain(source);
  let converted: unknown;
  try {
    converted = runConverted(source);
  } catch (error) {
    throw new Error(`conversion failed: ${(error as Error).message}`);
  }
  if (JSON.stringify(converted) !== JSON.stringify(plain)) {
    throw new Error(`converted code behaves differently\nplain:     ${JSON.stringify(plain)}\nconverted: ${JSON.stringify(converted)}\n--- emitted ---\n${convert(source)}`);
  }
  expect(converted).to.deep.equal(plain);
}
