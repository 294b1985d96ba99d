/**
 * The golden baselines (spec/baselines/<name>.ts -> <name>.js): one per converter and lowering.
 * A baseline that needs type packages says so on a line of its own: `// @types: node`.
 */
import * as fs from 'fs';

/** The type packages the given baseline sources ask for (`// @types: a, b`). */
export function baselineTypes(...sources: string[]): string[] {
  return [...new Set(sources.flatMap((source) =>
    /^\/\/ @types: (.+)$/m.exec(source)?.[1].split(',').map((t) => t.trim()) ?? []))];
}

/** The type packages the baseline files ask for, read from disk. */
export function baselineFileTypes(files: string[]): string[] {
  return baselineTypes(...files.map((f) => fs.readFileSync(f, 'utf8')));
}
