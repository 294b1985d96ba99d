/**
 * `xs.forEach(f)` on an array the converted function made and a staged statement may grow (a
 * newList): the transformer emits `ag__.forEachItem(xs, f, { state, composites, observed })`, with
 * the variables f assigns in `state`. On a JS array it is the native call, as written; on a list of
 * the graph (its length known only when the graph runs) the staging engine runs it as a staged loop
 * over the list that carries those variables (backends/staging/list_for_each.ts).
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
