/**
 * JS array methods on a list (an array a staged loop grew, staged_lists.ts), whose length only the
 * graph knows: `map` and `reduce` are staged loops over the list — the callback traced once on an
 * element, as a for...of body — with what eager code gives: `map` a new array (a list), `reduce`
 * the accumulator (a JS number accumulator promoted, read back if returned). The index the callback
 * gets is a promoted counter. Methods whose callback can only work by side effects on the
 * enclosing function's variables (forEach), or that need the contents now, stay refused.
 * `slice` and `concat` are staged loops that push into a new list (bounds clamped as JS does).
 */
import * as tf from '@tensorflow/tfjs-core';
import { binaryOp, inOperator } from '../../runtime/promoted_values';
import { activeStaging, type StagingHooks } from '../../runtime/staging_hooks';
import { userCallback } from '../../runtime/library_code';
import { StagingError } from '../common/errors';

type Callback = (...args: unknown[]) => unknown;

/** What a list answers for `key` when it is one of the methods staged here, else undefined.
 * `scalars`: a list of JS numbers or booleans (what slice and concat make is one too). */
export function listMethod(proxy: unknown[], name: string, key: string | symbol, scalars: boolean): Callback | undefined {
  if (key === 'map') return (f: unknown, thisArg?: unknown) => listMap(proxy, name, asCallback(f, name, key), thisArg);
  if (key === 'reduce') {
    return (f: unknown, ...init: unknown[]) => listReduce(proxy, name, asCallback(f, name, key), init);
  }
  if (key === 'slice') return (start?: unknown, end?: unknown) => listSlice(proxy, name, scalars, start, end);
  if (key === 'concat') return (...items: unknown[]) => listConcat(proxy, name, scalars, items);
  return undefined;
}

function asCallback(f: unknown, name: string, method: string): Callback {
  if (typeof f !== 'function') throw new TypeError(`${String(f)} is not a function (${name}.${method})`);
  return userCallback(f as Callback);
}

function hooks(name: string): StagingHooks {
  const staging = activeStaging();
  if (staging === undefined) throw new StagingError(`autograph-ts internal: '${name}' is a list outside a trace`);
  return staging;
}

/** `xs.map(f)`: a new list of f(x, i, xs) for each element, in a staged loop over xs. */
function listMap(proxy: unknown[], name: string, f: Callback, thisArg: unknown): unknown[] {
  const staging = hooks(name);
  const outName = `${name}.map(...)`;
  const out = staging.newList([], { name: outName, learnsScalars: true }) as unknown[];
  let index: unknown = 0;
  staging.forStmt(proxy, undefined, (x: unknown) => {
    out.push(f.call(thisArg, x, index, proxy));
    index = binaryOp('+', index, 1);
  }, () => [index], (values) => { [index] = values; }, [`the index of ${outName}`],
  { composites: () => ({ [outName]: out }), promote: [`the index of ${outName}`] });
  return out;
}

/**
 * `xs.reduce(f, init)`: the accumulator after f(acc, x, i, xs) for each element, in a staged loop. Without an
 * initial value the first element is, and the loop starts at the second; on an empty list the graph raises
 * the TypeError eager JS throws.
 */
function listReduce(proxy: unknown[], name: string, f: Callback, init: unknown[]): unknown {
  const staging = hooks(name);
  const accName = `the accumulator of ${name}.reduce`;
  const indexName = `the index of ${name}.reduce`;
  const length = proxy.length as unknown as tf.Tensor;
  if (init.length === 0) {
    staging.assert(inOperator(() => tf.greater(length, 0)), new TypeError('Reduce of empty array with no initial value'));
  }
  let acc = init.length === 0 ? proxy.at(0 as number) : init[0];
  let index: unknown = init.length === 0 ? inOperator(() => tf.scalar(1, 'int32')) : inOperator(() => tf.scalar(0, 'int32'));
  // (The test is autograph-ts's int32 arithmetic on the length, not the user's ops.)
  staging.whileStmt(() => inOperator(() => tf.less(index as tf.Tensor, length)), () => {
    acc = f(acc, proxy.at(index as number), index, proxy);
    index = binaryOp('+', index, 1);
  }, () => [acc, index], (values) => { [acc, index] = values; }, [accName, indexName],
  { promote: [accName, indexName] });
  return acc;
}

/** `xs.slice(start, end)`: a new list of the elements from start to end (JS's clamping: negative
 * counts from the end; bounds past the ends stop there), copied in a staged loop. */
function listSlice(proxy: unknown[], name: string, scalars: boolean, start: unknown, end: unknown): unknown[] {
  const staging = hooks(name);
  const outName = `${name}.slice(...)`;
  const out = staging.newList([], scalars ? { name: outName, scalars } : { name: outName }) as unknown[];
  const length = proxy.length as unknown as tf.Tensor;
  const [from, to] = inOperator(() => [sliceBound(start, 0, length, name), sliceBound(end, undefined, length, name)]);
  let index: unknown = from;
  // (The bounds and the test are autograph-ts's int32 arithmetic on the length, not the user's ops.)
  staging.whileStmt(() => inOperator(() => tf.less(index as tf.Tensor, to)), () => {
    out.push(proxy.at(index as number));
    index = binaryOp('+', index, 1);
  }, () => [index], (values) => { [index] = values; }, [`the index of ${outName}`],
  { composites: () => ({ [outName]: out }) });
  return out;
}

/** A slice bound as an int32 scalar in [0, length]: JS's ToIntegerOrInfinity and clamping. */
function sliceBound(bound: unknown, absent: number | undefined, length: tf.Tensor, name: string): tf.Tensor {
  if (bound === undefined) return absent === undefined ? length : tf.scalar(absent, 'int32');
  let i: tf.Tensor;
  if (typeof bound === 'number') {
    const n = Number.isNaN(bound) ? 0 : Math.trunc(bound);
    if (!Number.isFinite(n)) return n > 0 ? length : tf.scalar(0, 'int32');
    i = tf.scalar(Math.max(-(2 ** 31), Math.min(n, 2 ** 31 - 1)), 'int32');
  } else if (bound instanceof tf.Tensor && bound.rank === 0 && bound.dtype === 'int32') {
    i = bound;
  } else {
    throw new StagingError(`autograph-ts: '${name}.slice' with a bound that is not a JS number or an int32 scalar ` +
      `(${bound instanceof tf.Tensor ? `a ${bound.dtype} tensor of rank ${bound.rank}` : typeof bound}): '${name}' is a list whose ` +
      'length only the staged graph knows.');
  }
  const zero = tf.scalar(0, 'int32');
  return tf.where(tf.less(i, zero), tf.maximum(tf.add(length, i), zero), tf.minimum(i, length));
}

/** `xs.concat(...items)`: a new list of xs's elements, then each item's (an array or a list), or the item itself. */
function listConcat(proxy: unknown[], name: string, scalars: boolean, items: unknown[]): unknown[] {
  const staging = hooks(name);
  const outName = `${name}.concat(...)`;
  const out = staging.newList([], scalars ? { name: outName, scalars } : { name: outName }) as unknown[];
  for (const source of [proxy, ...items]) {
    // (An array is spread, as JS's concat does with any array; a list is one too.)
    if (!Array.isArray(source)) {
      out.push(source);
      continue;
    }
    staging.forStmt(source, undefined, (x: unknown) => {
      out.push(x);
    }, () => [], () => undefined, [], { composites: () => ({ [outName]: out }) });
  }
  return out;
}
