/**
 * Timing and comparing in the page: median of 5 calls after a warm-up call, the values of the
 * warm-up call kept for the staged == eager check, and a table row per comparison (also published
 * as `window.sampleResults` for spec/browser).
 */
import * as tf from '@tensorflow/tfjs';

export interface Timed { ms: number; values: Float32Array | Int32Array | Uint8Array; shape: number[]; dtype: string }

/** Median ms of 5 calls after a warm-up call (which traces, for a staged function). */
export async function time(fn: () => tf.Tensor | Promise<tf.Tensor>): Promise<Timed> {
  const first = await fn();
  const values = await first.data();
  const { shape, dtype } = first;
  first.dispose();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const result = await fn();
    await result.data();
    times.push(performance.now() - started);
    result.dispose();
  }
  return { ms: times.sort((a, b) => a - b)[2], values, shape, dtype };
}

/** Why staged differs from eager, or undefined when they agree (same dtype, shape and values within 1e-5). */
export function difference(eager: Timed, staged: Timed): string | undefined {
  if (eager.dtype !== staged.dtype) return `dtype ${staged.dtype} staged, ${eager.dtype} eager`;
  if (eager.shape.join() !== staged.shape.join()) return `shape [${staged.shape}] staged, [${eager.shape}] eager`;
  const gap = Array.from(eager.values).reduce((m, v, i) => Math.max(m, Math.abs(v - staged.values[i])), 0);
  return gap <= 1e-5 ? undefined : `max |staged - eager| = ${gap}`;
}

export interface SampleResult { backend: string; name: string; eagerMs?: number; stagedMs?: number; same: boolean; detail: string }

export const results: SampleResult[] = [];

export function row(result: SampleResult): void {
  results.push(result);
  const speedUp = result.eagerMs !== undefined && result.stagedMs !== undefined ? `${(result.eagerMs / result.stagedMs).toFixed(2)}×` : '';
  const tr = document.createElement('tr');
  for (const text of [result.backend, result.name, result.eagerMs?.toFixed(2) ?? '', result.stagedMs?.toFixed(2) ?? '', speedUp,
    result.same ? 'yes' : result.detail]) {
    tr.appendChild(Object.assign(document.createElement('td'), { textContent: text }));
  }
  document.getElementById('rows')!.appendChild(tr);
}

const message = (error: unknown) => `error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;

/** Times `eager` and `staged` side by side and adds their row. */
export async function compare(backend: string, name: string, eager: () => tf.Tensor,
                              staged: () => tf.Tensor | Promise<tf.Tensor>): Promise<void> {
  let e: Timed;
  try {
    e = await time(eager);
  } catch (error) {
    row({ backend, name, same: false, detail: `eager ${message(error)}` });
    return;
  }
  try {
    const s = await time(staged);
    const differs = difference(e, s);
    row({ backend, name, eagerMs: e.ms, stagedMs: s.ms, same: differs === undefined, detail: differs ?? 'staged == eager' });
  } catch (error) {
    row({ backend, name, eagerMs: e.ms, same: false, detail: `staged ${message(error)}` });
  }
}
