/**
 * `xs.some((x) => x.greater(5))`: an array method whose callback's result JS reads as a truth value
 * (some, every, filter, find, findIndex, findLast, findLastIndex; sort's comparator as a number),
 * called with a callback that may return a tensor. Natively a Tensor object is always truthy, so
 * `some` gives true and `filter` keeps everything. The transformer emits
 * `ag__.arrayPredicate(xs, "some", (x) => ..., { origin, name: "xs" })` for such a call:
 *  - a receiver that is not an array at run time (a tfjs object, a user class with a `some`
 *    method) gets the native call, as written;
 *  - eagerly the native method runs with the callback's tensor result read as a condition (what a
 *    converted `if (t)` does: a non-scalar is the same error), so call order and short-circuit are
 *    the native ones;
 *  - in a trace the staging engine decides (backends/staging/array_predicates.ts);
 *  - a sort comparator that returns a tensor is refused: sort needs a JS number for every pair.
 */
import type { ArrayPredicate } from './names';
import { describeOrigin, OperatorOptions } from './options';
import { activeStaging } from './staging_hooks';
import { isTensor, readCondition } from './tensors';
import { userError } from './user_frames';

type Method = (this: unknown, ...args: unknown[]) => unknown;

export function arrayPredicate(receiver: unknown, method: ArrayPredicate, callback: unknown, opts?: OperatorOptions,
                               ...rest: unknown[]): unknown {
  const native = (fn: unknown): unknown => (receiver as Record<string, Method>)[method](fn, ...rest);
  if (!Array.isArray(receiver) || typeof callback !== 'function') return native(callback);
  if (method === 'sort') return native(comparator(callback as Method, opts));
  const staging = activeStaging();
  if (staging !== undefined) return staging.arrayPredicate(receiver, method, callback as Method, rest, opts);
  return native(function (this: unknown, ...args: unknown[]): unknown {
    const result = (callback as Method).apply(this, args);
    return isTensor(result) ? readCondition(result, opts) : result;
  });
}

/** A comparator that refuses a tensor result (eagerly and in a trace alike). */
function comparator(callback: Method, opts: OperatorOptions | undefined): Method {
  return function (this: unknown, ...args: unknown[]): unknown {
    const result = callback.apply(this, args);
    if (!isTensor(result)) return result;
    throw userError(new TypeError(`autograph-ts: the comparator of ${opts?.name ?? 'an array'}.sort returns a tensor` +
      `${describeOrigin(opts)}: sort needs a JS number for every pair. Sort in the graph (tf.topk of the keys, then ` +
      'tf.gather), or compare JS numbers read from the tensors.'));
  };
}
