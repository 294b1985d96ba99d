/**
 * JS iteration of lists (arrays a staged loop grew, staged_lists.ts; runtime/list_iteration.ts).
 *
 * `xs.forEach(f)` on a list (an array a staged loop grew, staged_lists.ts): a staged loop over its
 * elements — f traced once, as a for...of body — that carries what f assigns in the enclosing
 * function (opts.state from the transformer: `s = s.add(t)`, `count++`), its JS numbers and
 * booleans promoted, and the arrays and objects it changes in place (opts.composites, opts.observed).
 */
import type { OperatorOptions } from '../../runtime/options';
import { binaryOp, STAGED_LIST } from '../../runtime/promoted_values';
import type { StagingHooks } from '../../runtime/staging_hooks';
import { stagedArrayState } from './staged_lists';

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

/**
 * `[a, ...xs, b]` with a list among the spread parts: a new list (a StagedArray that the staged loop
 * copying the list into it makes a list) of the items in order, each spread part's elements pushed
 * by a staged loop (a list) or one by one (a JS iterable).
 */
export function stageSpread(hooks: StagingHooks, parts: unknown[], spreads: readonly number[], opts: OperatorOptions | undefined): unknown[] {
  const name = `the array of ${opts?.name ?? 'a spread'}`;
  // (Spreading a list of JS numbers or booleans gives one too.)
  const scalars = parts.some((part, i) => spreads.includes(i) && stagedArrayState(part)?.scalars === true);
  const out = hooks.newList([], { name, ...(opts?.origin === undefined ? {} : { origin: opts.origin }), ...(scalars ? { scalars } : {}) });
  parts.forEach((part, i) => {
    if (!spreads.includes(i)) return void out.push(part);
    if (!(Array.isArray(part) && (part as { [STAGED_LIST]?: boolean })[STAGED_LIST] === true)) {
      for (const item of part as Iterable<unknown>) out.push(item);
      return;
    }
    hooks.forStmt(part, undefined, (item: unknown) => {
      out.push(item);
    }, () => [], () => undefined, [], { composites: () => ({ [name]: out }), ...(opts?.origin === undefined ? {} : { origin: opts.origin }) });
  });
  return out;
}
