/**
 * `Math.floor((lo + hi) / 2)`, `Math.max(t, 1)` where an argument may be a promoted number (a JS
 * counter a staged loop or conditional carries as a tensor: promoted_values.ts). The transformer
 * emits `ag__.mathCall(Math.floor, [args])` for such a call: on plain values it is the call itself
 * (whatever `Math` is in the user's scope); on a promoted value it is the tfjs equivalent of the
 * built-in, with JS's rounding (Math.round is floor(x + 0.5), not round-half-even), and an
 * integral result (floor, ceil, round, trunc; min/max of integers) as int32, so that it indexes
 * (`xs.gather(mid)`) as eager's number does. The result is promoted like its argument.
 */
import * as tf from '@tensorflow/tfjs-core';
import { PROMOTED_MATH } from './names';
import { StagingError } from './staging_error';
import { inOperator, isExactLeaf, isInexact, mayHaveWrapped, noteInexactValue, promotionOf, propagate } from './promoted_values';
import { noteRecipe } from './js_recipes';
import { isTensor } from './tensors';
import { userError } from './user_frames';

type PromotedMath = (typeof PROMOTED_MATH)[number];

export function mathCall(fn: (...args: number[]) => number, args: unknown[]): unknown {
  // Eagerly nothing is promoted: the call as written (a Tensor that is not a promoted value is
  // whatever JS makes of it there, as in the original).
  if (!args.some((a) => isTensor(a) && promotionOf(a) !== undefined)) return fn(...(args as number[]));
  const name = PROMOTED_MATH.find((n) => Math[n] === fn);
  if (name === undefined) {
    throw userError(new StagingError(`autograph-ts: ${fn.name || 'a function'} is given a value that a staged loop or ` +
      'conditional carries as a tensor; only the built-in Math functions ' + `(${PROMOTED_MATH.join(', ')}) take one.`));
  }
  const promotion = args.map(promotionOf).find((p) => p !== undefined);
  // (sqrt, exp and log in float32 are other numbers than JS's float64 ones.)
  const result = propagate(inOperator(() => tensorMath(name, args)), promotion) as tf.Tensor;
  const wrapped = args.some((a) => mayHaveWrapped(promotionOf(a), a));
  if (name === 'sqrt' || name === 'exp' || name === 'log' || args.some((a) => isInexact(undefined, a))) noteInexactValue(result, wrapped);
  noteRecipe(result, args, (...values) => fn(...(values as number[])), isExactLeaf);
  return result;
}

const isInt32 = (v: unknown): boolean => (isTensor(v) ? v.dtype === 'int32' || v.dtype === 'bool'
  : typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31);

function asTensor(v: unknown, dtype: 'int32' | 'float32'): tf.Tensor {
  if (!isTensor(v)) return tf.scalar(v as number, dtype);
  return v.dtype === dtype ? v : tf.cast(v, dtype);
}

function tensorMath(name: PromotedMath, args: unknown[]): tf.Tensor {
  const [x] = args;
  switch (name) {
    case 'floor': case 'ceil': case 'round': case 'trunc': {
      if (isTensor(x) && x.dtype === 'int32') return tf.clone(x);
      const f = asTensor(x, 'float32');
      const r = name === 'floor' ? tf.floor(f) : name === 'ceil' ? tf.ceil(f)
        : name === 'round' ? tf.floor(tf.add(f, tf.scalar(0.5))) : tf.mul(tf.sign(f), tf.floor(tf.abs(f)));
      return tf.cast(r, 'int32');
    }
    case 'min': case 'max': {
      const dtype = args.every(isInt32) ? 'int32' : 'float32';
      return args.map((a) => asTensor(a, dtype)).reduce((a, b) => (name === 'min' ? tf.minimum(a, b) : tf.maximum(a, b)));
    }
    case 'abs': return tf.abs(asTensor(x, isInt32(x) ? 'int32' : 'float32'));
    case 'sign': return tf.sign(asTensor(x, isInt32(x) ? 'int32' : 'float32'));
    default: return tf[name](asTensor(x, 'float32'));
  }
}
