/**
 * `xs.forEach(f)` on a list (an array a staged loop grew, staged_lists.ts): a staged loop over its
 * elements — f traced once, as a for...of body — that carries what f assigns in the enclosing
 * function (opts.state from the transformer: `s = s.add(t)`, `count++`), its JS numbers and
 * booleans promoted, and the arrays and objects it changes in place (opts.composites, opts.observed).
 */
import type { OperatorOptions } from '../../runtime/options';
import { binaryOp } from '../../runtime/promoted_values';
import type { StagingHooks } from '../../runtime/staging_hooks';

type Callback = (this: unknown, item: unknown, index: unknown, array: unknown) => unknown;

export function stageListForEach(hooks: StagingHooks, list: unknown[], callback: Callback, thisArg: unknown,
                                 opts: OperatorOptions | undefined): void {
  const state = opts?.state ?? { names: [], get: () => [], set: () => undefined };
  const indexName = `the index of ${opts?.name ?? 'the list'}.forEach`;
  const plain = state.get().map((v) => typeof v === 'number' || typeof v === 'boolean');
  let index: unknown = 0;
  hooks.forStmt(list, undefined, (item: unknown) => {
    callback.call(thisArg, item, index, list);
    index = binaryOp('+', index, 1);
  }, () => [...state.get(), index], (values) => {
    state.set(values.slice(0, -1));
    index = values[values.length - 1];
  }, [...state.names, indexName], {
    ...(opts?.origin === undefined ? {} : { origin: opts.origin }),
    ...(opts?.composites === undefined ? {} : { composites: opts.composites }),
    ...(opts?.observed === undefined ? {} : { observed: opts.observed }),
    promote: [...state.names.filter((_, i) => plain[i]), indexName],
  });
}
