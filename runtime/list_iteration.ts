/**
 * Iterating arrays that may be lists of the graph (arrays a staged loop grew, whose length only the
 * graph knows):
 *
 * `xs.forEach(f)` on an array the converted function made and a staged statement may grow (a
 * newList): the transformer emits `ag__.forEachItem(xs, f, { state, composites, observed })`, with
 * the variables f assigns in `state`. On a JS array it is the native call, as written; on a list of
 * the graph (its length known only when the graph runs) the staging engine runs it as a staged loop
 * over the list that carries those variables (backends/staging/list_iteration.ts).
 */
import type { OperatorOptions } from './options';
import { STAGED_LIST } from './promoted_values';
import { activeStaging } from './staging_hooks';

type Callback = (this: unknown, item: unknown, index: unknown, array: unknown) => unknown;

export function forEachItem(receiver: unknown, callback: unknown, opts?: OperatorOptions, ...rest: unknown[]): void {
  const staging = activeStaging();
  const isList = Array.isArray(receiver) && (receiver as { [STAGED_LIST]?: boolean })[STAGED_LIST] === true;
  if (staging?.forEachItem !== undefined && isList && typeof callback === 'function') {
    return staging.forEachItem(receiver as unknown[], callback as Callback, rest[0], opts);
  }
  (receiver as { forEach(f: unknown, thisArg?: unknown): void }).forEach(callback, ...rest);
}

/**
 * `[a, ...xs, b]` where xs may be a list: the transformer emits `ag__.spreadItems([a, xs, b], [1])`
 * (the indices of the spread parts). The array JS builds (each spread part iterated); in a trace,
 * where a spread part is a list, a new list of the items (backends/staging/list_iteration.ts).
 */
export function spreadItems(parts: unknown[], spreads: readonly number[], opts?: OperatorOptions): unknown[] {
  const staging = activeStaging();
  const isList = (p: unknown): boolean => Array.isArray(p) && (p as { [STAGED_LIST]?: boolean })[STAGED_LIST] === true;
  if (staging?.spreadItems !== undefined && spreads.some((i) => isList(parts[i]))) return staging.spreadItems(parts, spreads, opts);
  return parts.flatMap((part, i) => (spreads.includes(i) ? [...(part as Iterable<unknown>)] : [part]));
}
