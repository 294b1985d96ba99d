/**
 * `xs.some((x) => x.greater(5))` & co. while stage() traces (ag__.arrayPredicate, runtime/array_predicates.ts),
 * on an array whose callback may return a tensor. The callback runs on every element, in order (a
 * JS result that decides the answer — `some` given true — stops there, as natively); the tensor
 * results are combined into what eager code gives, as a promoted value (read back as a JS boolean
 * or number when the function returns it, a staged condition when an `if` tests it):
 *   some / every            →  logicalOr / logicalAnd of the results: a boolean;
 *   findIndex / findLastIndex  →  the first (last) index whose result is true, else -1: a number.
 * On a list (an array a staged loop grew, staged_lists.ts) the same is a staged loop over the list.
 *   filter                  →  a new array: each element whose result is a tensor pushed under a staged
 *                              `if` on it, so the array becomes a list of the graph (staged_lists.ts).
 * find and findLast give an element or undefined, which depends on tensor values and cannot be traced;
 * refused, naming the method, the receiver and the user's line. A callback that returns no tensor is
 * the native method, exactly.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { ArrayPredicate } from '../../runtime/names';
import type { OperatorOptions } from '../../runtime/options';
import { binaryOp, markPromoted } from '../../runtime/promoted_values';
import type { StagingHooks } from '../../runtime/staging_hooks';
import { at, StagingError } from '../common/errors';
import { stagedArrayState } from './staged_lists';
import { conditionTensor, type TraceFacts } from './staged_values';

type Callback = (...args: unknown[]) => unknown;
const isTensor = (value: unknown): value is tf.Tensor => value instanceof tf.Tensor;

export function stageArrayPredicate(hooks: StagingHooks, facts: TraceFacts, receiver: unknown[], method: ArrayPredicate,
                                    callback: Callback, args: unknown[], opts: OperatorOptions | undefined): unknown {
  const call = `${opts?.name ?? 'an array'}.${method}(...)`;
  const truth = (result: unknown): tf.Tensor => (isTensor(result) ? conditionTensor(facts, result, opts) : tf.scalar(Boolean(result)));
  if (method === 'filter') return filterItems(hooks, receiver, callback, args[0], truth, call, opts);
  if (stagedArrayState(receiver)?.isList) return listPredicate(hooks, receiver, method, callback, args, truth, call, opts);
  const found: { index: number; truth: tf.Tensor }[] = [];
  // A tensor result is recorded and answered with what lets the native method go on to the next element.
  const neutral = method === 'every';
  const native = (receiver as unknown as Record<string, Callback>)[method](function (this: unknown, ...params: unknown[]): unknown {
    const result = callback.apply(this, params);
    if (!isTensor(result)) return result;
    found.push({ index: params[1] as number, truth: truth(result) });
    return neutral;
  }, ...args);
  if (found.length === 0) return native;
  const promoted = (t: tf.Tensor): tf.Tensor => markPromoted(t, call, opts?.origin);
  switch (method) {
    case 'some': return native === true ? true : promoted(found.reduce((a, f) => tf.logicalOr(a, f.truth), tf.scalar(false)));
    case 'every': return native === false ? false : promoted(found.reduce((a, f) => tf.logicalAnd(a, f.truth), tf.scalar(true)));
    // The native answer stands unless a tensor result called before it is true (the first called wins:
    // `found` is in call order, from the end for findLastIndex).
    case 'findIndex': case 'findLastIndex': return promoted(found.reduceRight((a, f) => tf.where(f.truth,
      tf.scalar(f.index, 'int32'), a), tf.scalar(native as number, 'int32')));
    default: throw refusal(method, call, opts);
  }
}

/** The same on a list: a staged loop over its elements (each traced once, as a for...of body). */
function listPredicate(hooks: StagingHooks, list: unknown[], method: ArrayPredicate, callback: Callback, args: unknown[],
                       truth: (result: unknown) => tf.Tensor, call: string, opts: OperatorOptions | undefined): unknown {
  if (method !== 'some' && method !== 'every' && method !== 'findIndex' && method !== 'findLastIndex') throw refusal(method, call, opts);
  const indexName = `the index of ${call}`;
  let result = markPromoted(method === 'some' ? tf.scalar(false) : method === 'every' ? tf.scalar(true) : tf.scalar(-1, 'int32'),
    call, opts?.origin);
  let index: unknown = 0;
  hooks.forStmt(list, undefined, (x: unknown) => {
    const t = truth(callback.call(args[0], x, index, list));
    const i = isTensor(index) ? index : tf.scalar(index as number, 'int32');
    result = method === 'some' ? tf.logicalOr(result, t) : method === 'every' ? tf.logicalAnd(result, t)
      : method === 'findIndex' ? tf.where(tf.logicalAnd(tf.less(result, 0), t), i, result) : tf.where(t, i, result);
    index = binaryOp('+', index, 1);
  }, () => [result, index], (values) => { [result, index] = values as [tf.Tensor, unknown]; }, [call, indexName],
  { origin: opts?.origin, promote: [call, indexName] });
  return result;
}

/**
 * `xs.filter(f)`: f runs on each element in order, as natively; the elements kept are those whose result is
 * true, an element whose result is a tensor pushed under a staged `if` on it (the result array then a list:
 * its length is known only when the graph runs). On a list, the same in a staged loop over it. Until a
 * result is a tensor the result is the JS array native filter gives.
 */
function filterItems(hooks: StagingHooks, receiver: unknown[], callback: Callback, thisArg: unknown,
                     truth: (result: unknown) => tf.Tensor, call: string, opts: OperatorOptions | undefined): unknown[] {
  const origin = opts?.origin === undefined ? {} : { origin: opts.origin };
  let out: unknown[] = [];
  let staged = false;
  const keep = (item: unknown, result: unknown): void => {
    if (!isTensor(result)) {
      if (result) out.push(item);
      return;
    }
    if (!staged) out = hooks.newList(out, { name: call, ...origin, learnsScalars: true });
    staged = true;
    hooks.ifStmt(truth(result), () => { out.push(item); }, () => undefined, () => [], () => undefined, [], 0,
      { ...origin, composites: () => ({ [call]: out }) });
  };
  if (stagedArrayState(receiver)?.isList) {
    out = hooks.newList([], { name: call, ...origin, learnsScalars: true });
    staged = true;
    let index: unknown = 0;
    hooks.forStmt(receiver, undefined, (item: unknown) => {
      keep(item, callback.call(thisArg, item, index, receiver));
      index = binaryOp('+', index, 1);
    }, () => [index], (values) => { [index] = values; }, [`the index of ${call}`],
    { ...origin, composites: () => ({ [call]: out }), promote: [`the index of ${call}`] });
    return out;
  }
  const length = receiver.length;
  for (let i = 0; i < length; i++) if (i in receiver) keep(receiver[i], callback.call(thisArg, receiver[i], i, receiver));
  return out;
}

function refusal(method: ArrayPredicate, call: string, opts: OperatorOptions | undefined): StagingError {
  return new StagingError(`autograph-ts: ${call} with a callback that returns a tensor cannot be staged${at(opts)}: ` +
    `which elements ${method} gives depends on tensor values, known only when the graph runs. Use findIndex, some or ` +
    'every (staged), filter (a list), or compute a mask with tensor ops (tf.stack the elements, then tf.where / tf.booleanMaskAsync outside the trace).');
}
