/**
 * Errors about what a staged function cannot do. They name the variable and the user's source
 * location (the `origin` the transformer passes, or the first stack frame in user code).
 */
import * as path from 'path';
import type { OperatorOptions } from '../runtime/options';

export class StagingError extends Error {
  override name = 'StagingError';
}

/** " (file.ts:12:5)" or "". */
export function at(opts: OperatorOptions | undefined): string {
  return opts?.origin ? ` (${opts.origin})` : '';
}

const OWN_DIRS = [__dirname + path.sep, path.resolve(__dirname, '..', 'runtime') + path.sep];
export const isEngineFrame = (line: string): boolean =>
  /[\\/]node_modules[\\/]|node:internal|\(internal\//.test(line) || OWN_DIRS.some((d) => line.includes(d));

/** The first stack frame outside tfjs and autograph-ts: the user's line, best effort. */
export function userFrame(): string | undefined {
  const stack = new Error().stack?.split('\n').slice(1) ?? [];
  for (const line of stack) {
    if (isEngineFrame(line)) continue;
    const match = /\(?([^()\s]+:\d+:\d+)\)?\s*$/.exec(line.trim());
    if (match) return match[1];
  }
  return undefined;
}
