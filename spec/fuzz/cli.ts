/**
 * The differential fuzzer's command line:
 *   npm run fuzz -- --n 2000 --seed 7 [--mode plain|tensor|stress|both] [--shrink] [--batch 200] [--show 3]
 * Prints one summary line per mode (programs, ok, and each failure category), then every failure
 * (or, with --show K, the first K of each category) with its seed and index — `--n 1 --seed S
 * --from I` regenerates program I alone — and, with --shrink, its shrunk reproduction.
 * Exits with status 1 if any program failed.
 */
import '@tensorflow/tfjs-backend-wasm';
import * as tf from '@tensorflow/tfjs';
import { describeFailure, fuzz, Mode, Summary } from './fuzz';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

function report(summary: Summary, show: number, out: (line: string) => void): void {
  const seen = new Map<string, number>();
  for (const f of summary.failures) {
    const n = (seen.get(f.category) ?? 0) + 1;
    seen.set(f.category, n);
    if (n <= show) out(describeFailure(f));
  }
}

async function main(): Promise<void> {
  const n = Number(option('n', '500'));
  const seed = Number(option('seed', '1'));
  const from = Number(option('from', '0'));
  const mode = option('mode', 'both') as Mode | 'both';
  const batch = Number(option('batch', '200'));
  const shrink = process.argv.includes('--shrink');
  // Shrinking takes seconds per failure: with --shrink, show (and shrink) one failure per category unless told.
  const show = Number(option('show', shrink ? '1' : '1000000'));
  await tf.setBackend(process.env.AUTOGRAPH_BACKEND ?? 'wasm');
  await tf.ready();
  let failed = false;
  for (const m of mode === 'both' ? ['plain', 'tensor', 'stress'] as const : [mode]) {
    const summary = fuzz({ mode: m, n, seed, from, batch, shrink, shrinkPerCategory: show });
    report(summary, show, (line) => console.log(line));
    const indices = new Map<string, number[]>();
    for (const f of summary.failures) indices.set(f.category, [...(indices.get(f.category) ?? []), f.index]);
    for (const [category, list] of indices) console.log(`${m} ${category} at index ${list.join(' ')}`);
    console.log(summary.line);
    failed ||= summary.failures.length > 0;
  }
  process.exitCode = failed ? 1 : 0;
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 2;
  });
}
