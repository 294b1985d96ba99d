/**
 * tfjs ops given a promoted value (a JS number that a staged loop or conditional carries as a
 * scalar tensor: promoted_values.ts) where they take JS numbers: `x.slice([i], [1])`,
 * `tf.slice(scores, [y, x, k], [1, 1, 1])`, `tf.oneHot(labels, n)` (NUMBER_ARGUMENT_OPS). The
 * transformer emits `ag__.tensorMethodCall(x, "slice", [[i], [1]], origin)` or
 * `ag__.tfjsCall(tf.slice, "slice", [x, [i], [1]], origin)` for such a call. Without a promoted
 * value among those arguments (eagerly, always) it is the call as written. With one:
 *   - slice's begin is staged: the axes it gives a promoted start are gathered at
 *     `begin + [0, 1, ..., size - 1]` (the same values, dtype and shape as eager's slice), after a
 *     graph check that the window is inside the input (eager's slice throws there too);
 *   - anything else is a StagingError naming the variable, the op and the line: a promoted slice
 *     size (or a promoted begin whose size is -1, "to the end"), a shape, reps, paddings, depth,
 *     range bounds... decide the shape of the result, which a graph needs when it is traced.
 */
import * as tf from '@tensorflow/tfjs-core';
import { asLibrary } from './library_code';
import { NUMBER_ARGUMENT_OPS, numberArgumentIndex } from './names';
import { inOperator, Promotion, promotionOf } from './promoted_values';
import { StagingError } from './staging_error';
import { activeStaging } from './staging_hooks';
import { isTensor } from './tensors';
import { userError } from './user_frames';

/** A promoted value found in a number argument of an op. */
interface Found {
  param: string;
  value: tf.Tensor;
  promotion: Promotion;
}

/** `fn(...args)` for the tfjs function `op` (NUMBER_ARGUMENT_OPS), staged or refused on a promoted number. */
export function tfjsCall(fn: (...args: unknown[]) => unknown, op: string, args: unknown[], origin?: string): unknown {
  const found = promotedArgument(op, args, false);
  return found === undefined ? fn(...args) : asLibrary(() => staged(op, args, found, origin));
}

/** `receiver[method](...args)` for the Tensor method `method` (NUMBER_ARGUMENT_OPS), likewise. */
export function tensorMethodCall(receiver: unknown, method: string, args: unknown[], origin?: string): unknown {
  const found = isTensor(receiver) ? promotedArgument(method, args, true) : undefined;
  if (found === undefined) return (receiver as Record<string, (...a: unknown[]) => unknown>)[method](...args);
  return asLibrary(() => staged(method, [receiver, ...args], found, origin));
}

/** The first promoted value in `op`'s number arguments (alone or in nested arrays). */
function promotedArgument(op: string, args: unknown[], method: boolean): Found | undefined {
  const { numbers } = NUMBER_ARGUMENT_OPS[op] ?? { numbers: [] };
  for (let k = 0; k < numbers.length; k++) {
    const value = promotedLeaf(args[numberArgumentIndex(op, k, method)]);
    if (value !== undefined) return { param: numbers[k], value, promotion: promotionOf(value)! };
  }
  return undefined;
}

function promotedLeaf(value: unknown): tf.Tensor | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const leaf = promotedLeaf(item);
      if (leaf !== undefined) return leaf;
    }
    return undefined;
  }
  return isTensor(value) && promotionOf(value) !== undefined ? value : undefined;
}

/** The function form's arguments (`[x, begin, size]` for slice) with a promoted number among them. */
function staged(op: string, args: unknown[], found: Found, origin: string | undefined): unknown {
  const [x, begin, size] = args;
  const promotedSize = op === 'slice' ? promotedLeaf(size) : undefined;
  if (promotedSize !== undefined) found = { param: 'size', value: promotedSize, promotion: promotionOf(promotedSize)! };
  if (op !== 'slice' || found.param !== 'begin') throw refusal(op, found, origin, shapeReason(op, found.param));
  return stagedSlice(isTensor(x) ? x : tf.tensor(x as number[]), begin, size, origin);
}

/** tf.slice(x, begin, size) where begin holds promoted values (see the module comment). */
function stagedSlice(x: tf.Tensor, begin: unknown, size: unknown, origin: string | undefined): tf.Tensor {
  const [begins, sizes] = sliceParams(x.rank, begin, size);
  const dynamic = begins.flatMap((b, axis) => (promotionOf(b) !== undefined ? [axis] : []));
  for (const axis of dynamic) {
    const found: Found = { param: 'begin', value: begins[axis] as tf.Tensor, promotion: promotionOf(begins[axis])! };
    if (sizes[axis] === -1) throw refusal('slice', found, origin, `Its size on axis ${axis} is -1 (to the end), so the shape of the result (x.shape[${axis}] - begin[${axis}]) would depend on it: give the size`);
    if (found.value.dtype !== 'int32') throw refusal('slice', found, origin, 'tf.slice takes an integer begin: Math.floor of it is an int32 tensor');
  }
  return inOperator(() => {
    const rest = tf.slice(x, begins.map((b, axis) => (dynamic.includes(axis) ? 0 : b as number)), sizes.map((s, axis) => (dynamic.includes(axis) ? -1 : s as number)));
    return dynamic.reduce((t, axis) => gatherWindow(t, begins[axis] as tf.Tensor, sizes[axis] as number, axis, origin), rest);
  });
}

/** begin and size completed to the rank as tfjs's parseSliceParams completes them (0 and -1). */
function sliceParams(rank: number, begin: unknown, size: unknown): [unknown[], unknown[]] {
  const complete = (v: unknown, fill: number): unknown[] => {
    const given = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
    return [...given, ...new Array(Math.max(rank - given.length, 0)).fill(fill)];
  };
  return [complete(begin, 0), complete(size, -1)];
}

/** `x` along `axis` at begin, begin + 1, ..., begin + size - 1, checked in the graph to be inside x. */
function gatherWindow(x: tf.Tensor, begin: tf.Tensor, size: number, axis: number, origin: string | undefined): tf.Tensor {
  const start = tf.reshape(begin, []);
  const dim = x.shape[axis];
  const inside = tf.logicalAnd(tf.greaterEqual(start, tf.scalar(0, 'int32')), tf.lessEqual(start, tf.scalar(dim - size, 'int32')));
  activeStaging()?.assert(inside, new Error(`Error in slice${x.rank}D: begin[${axis}] + size[${axis}] would overflow ` +
    `input.shape[${axis}] (${dim}), or begin[${axis}] is negative: it is '${promotionOf(begin)?.name ?? 'begin'}'${origin ? ` (${origin})` : ''}`), { origin });
  const offsets = tf.tensor1d(Array.from({ length: size }, (_, k) => k), 'int32');
  return tf.gather(x, tf.add(start, offsets), axis);
}

function shapeReason(op: string, param: string): string {
  return `Its ${param} decides the shape of tf.${op}'s result, and a staged graph needs every shape when it is traced: ` +
    `compute the ${param} from values known before the staged loop, or select with tensor ops (tf.gather, tf.where)`;
}

function refusal(op: string, found: Found, origin: string | undefined, why: string): StagingError {
  const { name } = found.promotion;
  const dtype = found.value.dtype;
  return userError(new StagingError(`autograph-ts: tf.${op}'s ${found.param} holds '${name}'${origin ? ` (${origin})` : ''}, ` +
    `${dtype === 'int32' ? 'an' : 'a'} ${dtype} tensor here: it changes in a loop or conditional staged on a tensor ` +
    `condition${found.promotion.origin ? ` (${found.promotion.origin})` : ''}, which carries it as a tensor. ${why}.`));
}
