/**
 * A statement that writes through an element at an index that may be promoted — `counts[p] += 1`,
 * `m[p][1] = 7`, `m[1][p]++`, `byClass[c].push(box)`, `this.counts[arm] += 1`, `counts[pick(x)]++`:
 * the transformer emits `ag__.atIndex(array, index, (array_, k_) => { STATEMENT on array_[k_] }, getState,
 * setState, names, opts)` (transformer/analysis/index_dispatch.ts). On a JS index it is the statement,
 * exactly. In a trace, where the index is a promoted tensor (a number a staged statement chose), it is
 * the statement for each element under a staged `if (index === k)`: the element the graph's index names
 * is the one changed, whatever it holds; an index that names no element (past the end, where JS would
 * grow the array, or a fraction) fails a check when the graph runs.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { OperatorOptions } from './options';
import { inOperator, STAGED_LIST } from './promoted_values';
import { activeStaging, type GetState, type SetState } from './staging_hooks';
import { isTensor } from './tensors';
import { StagingError } from './staging_error';

type Body = (array: unknown[], index: number) => void;

export function atIndex(array: unknown, index: unknown, body: Body, getState: GetState, setState: SetState,
                        names: string[], opts?: OperatorOptions): void {
  const staging = activeStaging();
  if (staging === undefined || !isTensor(index)) return body(array as unknown[], index as number);
  const name = opts?.name ?? 'the array';
  const where = opts?.origin === undefined ? '' : ` (${opts.origin})`;
  if (!Array.isArray(array) || (array as { [STAGED_LIST]?: boolean })[STAGED_LIST] === true) {
    throw new StagingError(`autograph-ts: '${name}' is written at an index only the staged graph knows${where}, but it is ` +
      `${Array.isArray(array) ? 'a list of the graph (a staged loop changes its length)' : 'not a JS array'}: the element to ` +
      'change cannot be chosen among its elements. Keep the values in a tensor and update it with tf.where / oneHot ops.');
  }
  const matches = array.map((_, k) => inOperator(() => tf.equal(index, tf.scalar(k, index.dtype))));
  staging.assert(inOperator(() => matches.reduce((a, b) => tf.logicalOr(a, b), tf.scalar(false))), new RangeError(
    `autograph-ts: '${name}' is written at an index that is not one of its ${array.length} elements${where}, where eager JS ` +
    'would add one: the staged graph cannot grow the array.'), opts);
  // A statement that changes the inside of elements that are arrays (`byClass[c].push(box)`, `m[p][1] = 7`) changes
  // those arrays, not which arrays the elements are: each is a composite by its name (an array the trace may make a
  // list: ag__.newList, itself until a staged statement changes its length). Otherwise the array is.
  const within = opts?.within === true && array.length > 0 && array.every((item) => Array.isArray(item));
  const changed: Record<string, unknown> = within ? {} : { [name]: array };
  if (within) {
    array.forEach((item, k) => {
      array[k] = staging.newList(item as unknown[], { name: `${name}[${k}]`, ...(opts?.origin === undefined ? {} : { origin: opts.origin }) });
      changed[`${name}[${k}]`] = array[k];
    });
  }
  const statementOpts: OperatorOptions = {
    ...opts,
    composites: () => ({ ...(opts?.composites?.() ?? {}), ...changed }),
    observed: () => ({ ...(opts?.observed?.() ?? {}), [name]: array }),
  };
  matches.forEach((match, k) => {
    staging.ifStmt(match, () => body(array, k), () => undefined, getState, setState, names, names.length, statementOpts);
  });
}
