/**
 * One fuzzing run: generate programs from a seed, run them in batches, count the verdicts,
 * and shrink the failures on request. Used by the command line (cli.ts) and the CI spec.
 */
import { generatePlain } from './generate_plain';
import { generateStress, generateTensor } from './generate_tensor';
import { printProgram, Program, programSeed } from './program';
import { runPlainBatch, Verdict } from './runner';
import { shrink } from './shrink';
import { printTensorProgram, runTensorBatch } from './tensor';

export type Mode = 'plain' | 'tensor' | 'stress';

export interface Failure extends Verdict {
  mode: Mode;
  seed: number;
  index: number;
  source: string;
  reproduction?: string;
}

export interface Summary {
  mode: Mode;
  programs: number;
  counts: Map<string, number>;
  failures: Failure[];
  seconds: number;
  /** `plain: 500 programs in 9.1 s (55/s): ok 470, wrong 3, refused 27 (TS99004 25, TS99005 2)` */
  line: string;
}

export interface FuzzOptions {
  mode: Mode;
  n: number;
  seed: number;
  /** Shrink only the first this many failures of each category (default: all). */
  shrinkPerCategory?: number;
  /** Index of the first program (to regenerate one program of a larger run). */
  from?: number;
  batch?: number;
  shrink?: boolean;
}

export const MODES: Record<Mode, {
  generate: (seed: number) => Program;
  run: (programs: readonly Program[]) => Verdict[];
  print: (program: Program) => string;
}> = {
  plain: { generate: generatePlain, run: runPlainBatch, print: (p) => printProgram(p) },
  tensor: { generate: generateTensor, run: runTensorBatch, print: printTensorProgram },
  stress: { generate: generateStress, run: runTensorBatch, print: printTensorProgram },
};

export function fuzz(options: FuzzOptions): Summary {
  const mode = MODES[options.mode];
  const from = options.from ?? 0;
  const batchSize = options.batch ?? 200;
  const counts = new Map<string, number>();
  const failures: Failure[] = [];
  const start = Date.now();
  for (let first = from; first < from + options.n; first += batchSize) {
    const indices = Array.from({ length: Math.min(batchSize, from + options.n - first) }, (_, k) => first + k);
    const programs = indices.map((i) => mode.generate(programSeed(options.seed, i)));
    mode.run(programs).forEach((verdict, k) => {
      counts.set(verdict.category, (counts.get(verdict.category) ?? 0) + 1);
      if (verdict.category !== 'ok') {
        failures.push({ ...verdict, mode: options.mode, seed: options.seed, index: indices[k], source: mode.print(programs[k]) });
      }
    });
  }
  const seconds = (Date.now() - start) / 1000;
  if (options.shrink) {
    const shrunk = new Map<string, number>();
    for (const failure of failures) {
      const n = shrunk.get(failure.category) ?? 0;
      if (n >= (options.shrinkPerCategory ?? Infinity)) continue;
      shrunk.set(failure.category, n + 1);
      const program = mode.generate(programSeed(options.seed, failure.index));
      const small = shrink(program, failure.category, mode.run);
      failure.reproduction = mode.print(small.program);
      failure.detail = small.verdict.detail;
    }
  }
  return { mode: options.mode, programs: options.n, counts, failures, seconds, line: summaryLine(options.mode, options.n, counts, seconds) };
}

export function describeFailure(f: Failure): string {
  return [
    `=== ${f.mode} ${f.category}: seed ${f.seed} index ${f.index}`,
    f.detail ?? '',
    ...(f.reproduction ? ['--- shrunk reproduction ---', f.reproduction] : ['--- program ---', f.source]),
  ].join('\n');
}

function summaryLine(mode: Mode, n: number, counts: Map<string, number>, seconds: number): string {
  const groups = new Map<string, { total: number; codes: string[] }>();
  for (const [category, count] of [...counts].sort()) {
    const [group, code] = category.split(' ');
    const entry = groups.get(group) ?? { total: 0, codes: [] };
    entry.total += count;
    if (code) entry.codes.push(`${code} ${count}`);
    groups.set(group, entry);
  }
  const parts = ['ok', ...[...groups.keys()].filter((g) => g !== 'ok')].map((g) => {
    const entry = groups.get(g) ?? { total: 0, codes: [] };
    return `${g} ${entry.total}${entry.codes.length > 0 ? ` (${entry.codes.join(', ')})` : ''}`;
  });
  return `${mode}: ${n} programs in ${seconds.toFixed(1)} s (${(n / seconds).toFixed(1)}/s): ${parts.join(', ')}`;
}
