/**
 * JS array methods on a list (an array a staged loop grew, staged_lists.ts), whose length only the
 * graph knows: `map` and `reduce` are staged loops over the list — the callback traced once on an
 * element, as a for...of body — with what eager code gives: `map` a new array (a list), `reduce`
 * the accumulator (a JS number accumulator promoted, read back if returned). The index the callback
 * gets is a promoted counter. Methods whose callback can only work by side effects on the
 * enclosing function's variables (forEach), or that need the contents now, stay refused.
 */
import { binaryOp } from '../../runtime/promoted_values';
import { activeStaging, type StagingHooks } from '../../runtime/staging_hooks';
import { userCallback } from '../../runtime/library_code';
import { StagingError } from '../common/errors';

type Callback = (...args: unknown[]) => unknown;

/** What a list answers for `key` when it is one of the methods staged here, else undefined. */
export function listMethod(proxy: unknown[], name: string, key: string | symbol): Callback | undefined {
  if (key === 'map') return (f: unknown, thisArg?: unknown) => listMap(proxy, name, asCallback(f, name, key), thisArg);
  if (key === 'reduce') {
    return (f: unknown, ...init: unknown[]) => listReduce(proxy, name, asCallback(f, name, key), init);
  }
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
  const out = staging.newList([], { name: outName }) as unknown[];
  let index: unknown = 0;
  staging.forStmt(proxy, undefined, (x: unknown) => {
    out.push(f.call(thisArg, x, index, proxy));
    index = binaryOp('+', index, 1);
  }, () => [index], (values) => { [index] = values; }, [`the index of ${outName}`],
  { composites: () => ({ [outName]: out }), promote: [`the index of ${outName}`] });
  return out;
}

/** `xs.reduce(f, init)`: the accumulator after f(acc, x, i, xs) for each element, in a staged loop. */
function listReduce(proxy: unknown[], name: string, f: Callback, init: unknown[]): unknown {
  if (init.length === 0) {
    throw new StagingError(`autograph-ts: '${name}.reduce' without an initial value: '${name}' is a list whose length ` +
      'only the staged graph knows (it may be empty, where reduce throws). Give reduce an initial value ' +
      '(e.g. `xs.reduce((a, x) => a.add(x), tf.zeros(shape))`).');
  }
  const staging = hooks(name);
  const accName = `the accumulator of ${name}.reduce`;
  const indexName = `the index of ${name}.reduce`;
  let acc = init[0];
  let index: unknown = 0;
  staging.forStmt(proxy, undefined, (x: unknown) => {
    acc = f(acc, x, index, proxy);
    index = binaryOp('+', index, 1);
  }, () => [acc, index], (values) => { [acc, index] = values; }, [accName, indexName],
  { promote: [accName, indexName] });
  return acc;
}
