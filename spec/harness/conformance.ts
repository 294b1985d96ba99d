/**
 * Batched equivalence suites: every program registered by any suite loaded in this mocha run is
 * compiled (converted with `convert: 'all'` + `forceDynamic`) in ONE TypeScript program, once,
 * before the first of them runs — many times faster than a program per test. Each test then compares the plain and the
 * converted outcome as expectEquivalent does (sync), or awaited (async).
 */
import { expect } from 'chai';
import * as path from 'path';
import * as ts from 'typescript';
import { compile, defaultOptions, formatDiagnostics, load } from './compile';

type Outcome = { value: unknown } | { threw: unknown };

function describeError(error: unknown): unknown {
  return error instanceof Error ? `${error.constructor.name}: ${error.message}` : error;
}

function outcomeSync(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { threw: describeError(error) };
  }
}

async function outcomeAsync(run: () => unknown): Promise<Outcome> {
  try {
    return { value: await run() };
  } catch (error) {
    return { threw: describeError(error) };
  }
}

interface Converted { js?: string; error?: string }

/** Programs registered but not compiled yet, keyed by `suite title > program name`; forced
 * (every condition dynamic) or typed (conditions classified by their types: `any` converts, a
 * number stays native — static and converted statements side by side). */
const pending = { forced: new Map<string, string>(), typed: new Map<string, string>() };
const compiled = new Map<string, Converted>();

function convertPending(): void {
  for (const mode of ['forced', 'typed'] as const) {
    if (pending[mode].size === 0) continue;
    const batch = Object.fromEntries(pending[mode]);
    pending[mode].clear();
    for (const [key, value] of convertAll(batch, mode === 'forced')) compiled.set(key, value);
  }
}

function convertAll(programs: Record<string, string>, forceDynamic: boolean): Map<string, Converted> {
  const names = Object.keys(programs);
  const files: Record<string, string> = {};
  names.forEach((name, i) => { files[`p${i}.ts`] = programs[name]; });
  const result = compile(files, { convert: 'all', forceDynamic });
  const converted = new Map<string, Converted>();
  names.forEach((name, i) => {
    const file = `p${i}.ts`;
    const diagnostics = result.diagnostics.filter((d) => d.file !== undefined && path.basename(d.file.fileName) === file);
    converted.set(name, diagnostics.length > 0 ? { error: formatDiagnostics(diagnostics) } : { js: result.js[file] });
  });
  const unattributed = result.diagnostics.filter((d) => d.file === undefined);
  if (unattributed.length > 0) throw new Error(formatDiagnostics(unattributed));
  return converted;
}

function plainJs(source: string): string {
  return ts.transpileModule(source, { compilerOptions: { ...defaultOptions, sourceMap: false } }).outputText;
}

function compare(plain: Outcome, converted: Outcome, js: string): void {
  if (JSON.stringify(converted) !== JSON.stringify(plain)) {
    throw new Error(`converted code behaves differently\nplain:     ${JSON.stringify(plain)}\nconverted: ${JSON.stringify(converted)}\n--- emitted ---\n${js}`);
  }
  expect(converted).to.deep.equal(plain);
}

/** One mocha `describe` whose tests check each program's `run()` (sync, or awaited with `async`);
 * `typed` converts by the conditions' types instead of forcing every condition dynamic. */
export function equivalenceSuite(title: string, programs: Record<string, string>,
                                 options: { async?: boolean; typed?: boolean } = {}): void {
  describe(title, () => {
    for (const [name, source] of Object.entries(programs)) pending[options.typed ? 'typed' : 'forced'].set(`${title} > ${name}`, source);
    before(convertPending);
    for (const [name, source] of Object.entries(programs)) {
      it(name, async () => {
        const { js, error } = compiled.get(`${title} > ${name}`)!;
        if (js === undefined) throw new Error(`conversion failed: ${error}`);
        if (options.async) {
          compare(await outcomeAsync(() => load(plainJs(source)).run()), await outcomeAsync(() => load(js).run()), js);
        } else {
          compare(outcomeSync(() => load(plainJs(source)).run()), outcomeSync(() => load(js).run()), js);
        }
      });
    }
  });
}
