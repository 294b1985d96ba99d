/**
 * Timing and comparing in the page: after a warm-up call of each (whose values are kept for the
 * staged == eager check), eager and staged calls alternate, so that both see the same machine load;
 * a row shows the median time of each and the median of the per-round speed-ups. Rows are also
 * published as `window.sampleResults` for spec/browser.
 */
import * as tf from '@tensorflow/tfjs';

export interface Timed { ms: number; values: Float32Array | Int32Array | Uint8Array; shape: number[]; dtype: string }

type Call = () => tf.Tensor | Promise<tf.Tensor>;

const ROUNDS = 9;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** The warm-up call (which traces, for a staged function): its values, shape and dtype. */
async function warmUp(fn: Call): Promise<Omit<Timed, 'ms'>> {
  const first = await fn();
  const values = await first.data();
  const { shape, dtype } = first;
  first.dispose();
  return { values, shape, dtype };
}

/** ms of one call, its result read back. */
async function once(fn: Call): Promise<number> {
  const started = performance.now();
  const result = await fn();
  await result.data();
  const ms = performance.now() - started;
  result.dispose();
  return ms;
}

/** Eager and staged after their warm-up, alternating for ROUNDS rounds: median times and median per-round speed-up. */
export async function timePair(eager: Call, staged: Call): Promise<{ eager: Timed; staged: Timed; speedUp: number }> {
  const e = await warmUp(eager);
  const s = await warmUp(staged);
  const [eagerMs, stagedMs, ratios]: number[][] = [[], [], []];
  for (let round = 0; round < ROUNDS; round++) {
    eagerMs.push(await once(eager));
    stagedMs.push(await once(staged));
    ratios.push(eagerMs[round] / stagedMs[round]);
  }
  return { eager: { ...e, ms: median(eagerMs) }, staged: { ...s, ms: median(stagedMs) }, speedUp: median(ratios) };
}

/** Why staged differs from eager, or undefined when they agree (same dtype, shape and values within 1e-5). */
export function difference(eager: Timed, staged: Timed): string | undefined {
  if (eager.dtype !== staged.dtype) return `dtype ${staged.dtype} staged, ${eager.dtype} eager`;
  if (eager.shape.join() !== staged.shape.join()) return `shape [${staged.shape}] staged, [${eager.shape}] eager`;
  const gap = Array.from(eager.values).reduce((m, v, i) => Math.max(m, Math.abs(v - staged.values[i])), 0);
  return gap <= 1e-5 ? undefined : `max |staged - eager| = ${gap}`;
}

export interface SampleResult { backend: string; name: string; eagerMs?: number; stagedMs?: number; speedUp?: number; same: boolean; detail: string }

export const results: SampleResult[] = [];

export function row(result: SampleResult): void {
  results.push(result);
  const speedUp = result.speedUp !== undefined ? `${result.speedUp.toFixed(2)}×` : '';
  const tr = document.createElement('tr');
  for (const text of [result.backend, result.name, result.eagerMs?.toFixed(2) ?? '', result.stagedMs?.toFixed(2) ?? '', speedUp,
    result.same ? 'yes' : result.detail]) {
    tr.appendChild(Object.assign(document.createElement('td'), { textContent: text }));
  }
  document.getElementById('rows')!.appendChild(tr);
}

const message = (error: unknown) => `error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;

/** Times `eager` and `staged` side by side and adds their row. */
export async function compare(backend: string, name: string, eager: () => tf.Tensor, staged: Call): Promise<void> {
  try {
    await warmUp(eager);
  } catch (error) {
    row({ backend, name, same: false, detail: `eager ${message(error)}` });
    return;
  }
  try {
    const timed = await timePair(eager, staged);
    const differs = difference(timed.eager, timed.staged);
    row({ backend, name, eagerMs: timed.eager.ms, stagedMs: timed.staged.ms, speedUp: timed.speedUp, same: differs === undefined,
      detail: differs ?? 'staged == eager' });
  } catch (error) {
    row({ backend, name, same: false, detail: `staged ${message(error)}` });
  }
}
