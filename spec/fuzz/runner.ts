/**
 * Runs a batch of plain-mode programs both ways and classifies each one. The batch is ONE
 * TypeScript program with a file per generated program (p0.ts, p1.ts, …), compiled once with the
 * plugin and once with plain tsc (the spec harness's `compile` / `plainEmit`), so a syntax error
 * in one emitted file does not hide the others. Each program's `run(a, b)` is called on a fixed
 * list of argument pairs (truthy, falsy, NaN, 0, '', objects), under a time guard; its log, its
 * result and the class and message of what it threw must be identical.
 */
import * as path from 'path';
import * as ts from 'typescript';
import * as vm from 'vm';
import { compile, defaultOptions, formatDiagnostics, load } from '../harness/compile';
import { printProgram, Program } from './program';

/** A program's classification: `ok`, or the kind of failure with what to show. */
export interface Verdict {
  /** 'ok' | 'wrong' | 'invalid' | 'refused TS99004' | 'internal TS99900' | 'generator' | … */
  category: string;
  detail?: string;
}

export const PLAIN_ARGUMENTS: (() => [unknown, unknown])[] = [
  () => [true, false], () => [0, 1], () => [NaN, 'x'], () => ['', {}], () => [{ k: 1 }, [0]], () => [undefined, -1],
];

export const TIME_LIMIT_MS = 1000;

/** Calls fn under a time guard: a conversion bug that loops forever becomes a 'timeout' outcome. */
const guardedCall = new vm.Script('globalThis.__fuzzCall()');
export function guarded<T>(fn: () => T, limitMs = TIME_LIMIT_MS): T {
  (globalThis as Record<string, unknown>).__fuzzCall = fn;
  try {
    return guardedCall.runInThisContext({ timeout: limitMs }) as T;
  } finally {
    delete (globalThis as Record<string, unknown>).__fuzzCall;
  }
}

export function isTimeout(error: unknown): boolean {
  return (error as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/** A deterministic rendering of any value a program logs or returns (NaN, -0, undefined, cycles). */
export function show(value: unknown, depth = 0): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'function';
  if (value === null || typeof value !== 'object') return String(value);
  if (depth > 3) return '…';
  if (Array.isArray(value)) return `[${value.map((v) => show(v, depth + 1)).join(', ')}]`;
  const name = value.constructor?.name ?? 'null-prototype';
  return `${name === 'Object' ? '' : name + ' '}{${Object.keys(value).map((k) => `${k}: ${show((value as Record<string, unknown>)[k], depth + 1)}`).join(', ')}}`;
}

export function describeThrown(error: unknown): string {
  if (isTimeout(error)) return 'timeout';
  return error instanceof Error ? `threw ${error.constructor.name}: ${error.message}` : `threw ${show(error)}`;
}

/** Calls run on every argument pair; returns one line per call: its log, then its result. */
function outcomes(run: (a: unknown, b: unknown) => unknown): string[] {
  const lines: string[] = [];
  for (const args of PLAIN_ARGUMENTS) {
    const events: string[] = [];
    (globalThis as Record<string, unknown>).log = (...values: unknown[]) => {
      if (events.length < 500) events.push(values.map((v) => show(v)).join(' '));
    };
    let result: string;
    try {
      result = 'returned ' + show(guarded(() => run(...args())));
    } catch (error) {
      result = describeThrown(error);
    }
    lines.push(`run(${args().map((v) => show(v)).join(', ')}): ${events.join(' | ')} => ${result}`);
  }
  return lines;
}

export function fileName(index: number): string {
  return `p${index}.ts`;
}

/** Diagnostics of one file of the batch. */
export function diagnosticsOf(diagnostics: readonly ts.Diagnostic[], file: string): ts.Diagnostic[] {
  return diagnostics.filter((d) => d.file !== undefined && path.basename(d.file.fileName) === file);
}

/** Classifies the plugin's diagnostics of one file: refused / internal, or undefined if it converted. */
export function refusal(diagnostics: readonly ts.Diagnostic[]): Verdict | undefined {
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length === 0) return undefined;
  const code = errors[0].code;
  return { category: `${code === 99900 ? 'internal' : 'refused'} TS${code}`, detail: formatDiagnostics(errors) };
}

/** Plain tsc's output for one file (no type information is needed to emit these programs). */
/** Why a program of a compiled batch cannot run: the generator wrote a type error, or the
 * plugin refused it (a TS99xxx error); undefined when it compiled cleanly. */
export function compileProblem(compiled: ReturnType<typeof compile>, file: string): Verdict | undefined {
  const typeErrors = diagnosticsOf(compiled.typeErrors, file);
  if (typeErrors.length > 0) return { category: 'generator', detail: formatDiagnostics(typeErrors) };
  return refusal(diagnosticsOf(compiled.diagnostics, file));
}

export function plainJs(source: string): string {
  return ts.transpileModule(source, { compilerOptions: { ...defaultOptions, sourceMap: false } }).outputText;
}

export function runPlainBatch(programs: readonly Program[]): Verdict[] {
  const files: Record<string, string> = {};
  programs.forEach((p, i) => { files[fileName(i)] = printProgram(p); });
  const converted = compile(files);
  return programs.map((_, i) => {
    const file = fileName(i);
    const problem = compileProblem(converted, file);
    if (problem) return problem;
    let module: Record<string, any>;
    try {
      module = load(converted.js[file]);
    } catch (error) {
      return { category: 'invalid', detail: `${describeThrown(error)}\n--- emitted ---\n${converted.js[file]}` };
    }
    let reference: Record<string, any>;
    try {
      reference = load(plainJs(files[file]));
    } catch (error) {
      return { category: 'generator', detail: describeThrown(error) };
    }
    const expected = outcomes(reference.run);
    if (expected.some((line) => line.endsWith('=> timeout'))) return { category: 'generator', detail: expected.join('\n') };
    const actual = outcomes(module.run);
    const differing = expected.findIndex((line, k) => line !== actual[k]);
    if (differing < 0) return { category: 'ok' };
    return {
      category: 'wrong',
      detail: `plain:     ${expected[differing]}\nconverted: ${actual[differing]}\n--- emitted ---\n${converted.js[file]}`,
    };
  });
}
