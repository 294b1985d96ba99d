/**
 * What the staged control flow knows about values beyond the graph: which tensors stand for a
 * return value that may be undefined (placeholders), which bool tensors are negations of others
 * (the guards the transformer emits), and how JS values become tensors. The per-trace facts are a
 * `TraceFacts` that the Tracer owns (`tracer.facts`): nothing here outlives a trace.
 */
import { ObjectState } from './object_state';
import * as tf from '@tensorflow/tfjs-core';
import { Undefined, UndefinedReturnValue } from '../../runtime/undefined_values';
import type { OperatorOptions } from '../../runtime/options';
import { conditionProblem } from '../../runtime/tensors';
import { isInexact, promotionOf } from '../../runtime/promoted_values';
import type { TensorSpec } from '../graph/graph';
import { at, StagingError } from '../common/errors';
import { isOpaqueLeaf } from '../common/nest';

/**
 * A tensor that holds a return value on some paths and a zeros placeholder on the others. Its
 * value is defined exactly when the flag variable `flag` (the lowered `do_return`) is true.
 */
export interface MaybeUndefined {
  flag: string | undefined;
  origin: string | undefined;
}


export function isUndefinedValue(value: unknown): boolean {
  return value === undefined || value instanceof Undefined;
}

export function isReturnSentinel(value: unknown): boolean {
  return value === UndefinedReturnValue.instance;
}

export function describeValue(value: unknown): string {
  if (value instanceof tf.Tensor) return `a ${value.dtype} tensor of shape [${value.shape.join(', ')}]`;
  if (isOpaqueLeaf(value) || (typeof value === 'object' && value !== null && 'listSpec' in value)) return 'a list of tensors';
  if (value === undefined || value instanceof Undefined) return 'undefined';
  if (isReturnSentinel(value)) return 'no return value';
  if (value === null) return 'null';
  return `the JS ${typeof value} ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
}

/**
 * A staged `a && b`, `a || b` or `c ? a : b` whose two possible values differ in dtype or shape
 * (`k.less(1) && x`, x float32): no single graph value is the JS result, but its truthiness is.
 * The expression then gives a token tensor that stands for that truthiness: a condition (if,
 * while, !, &&, ||, assert) reads `truth`; any other use of the token is the `misuse` error.
 */
export interface ConditionOnly {
  truth: tf.Tensor;
  misuse: string;
}

/** The facts one trace knows about its tensors; owned by the Tracer (`tracer.facts`). */
export class TraceFacts {
  /** Tensors that may stand for an undefined value (see MaybeUndefined). */
  readonly maybeUndefined = new WeakMap<tf.Tensor, MaybeUndefined>();
  /** Bool tensors that are true on every path (a flag set in both branches of an If). */
  readonly knownTrue = new WeakSet<tf.Tensor>();
  /** result -> operand, for every tensor produced by ag__.not while tracing. */
  readonly negationOf = new WeakMap<tf.Tensor, tf.Tensor>();
  /** Token tensors that stand for a truthiness only (see ConditionOnly). */
  readonly conditionOnly = new WeakMap<object, ConditionOnly>();
  /** Placeholders that stand only for "not set on this path" (a return value not returned yet). */
  readonly unset = new WeakSet<tf.Tensor>();
  /** The user's objects that staged statements observed (observed_fields.ts), by the name code reads them by. */
  readonly observedObjects = new Map<object, string>();
  /** Their fields as first seen, and what the graph carries of them (object_state.ts). */
  readonly objects = new ObjectState();
  /** The field watches of the staged statements being traced, innermost last (observed_fields.ts). */
  readonly watches: { holds(array: unknown): boolean }[] = [];
  /** Arrays held in watched fields that a promoted value was pushed into (carried as lists of them). */
  readonly promotedPushes = new Set<unknown>();
  /** The first error a staged throw raises on the traced values (a call that eagerly throws it): what a kernel failing after it means. */
  thrownByTrace: Error | undefined;
  /** The StagedArrays that statements carry in fields for the arrays the fields held (field_arrays.ts). */
  readonly fieldLists = new Set<unknown>();
}

/** Checks a tensor condition and returns it as a bool tensor (recorded ops). */
export function conditionTensor(facts: TraceFacts, cond: tf.Tensor, opts: OperatorOptions | undefined): tf.Tensor {
  const only = facts.conditionOnly.get(cond);
  if (only !== undefined) return only.truth;
  const problem = conditionProblem(cond, at(opts));
  if (problem !== undefined) throw new StagingError(problem);
  // A test computed from a promoted number that float32 or int32 computes as another number than JS
  // (an RNG's `state * 16807 % m / m < 0.5`): the graph could take the other branch than eager code.
  if (isInexact(undefined, cond)) throw inexactCondition(cond, at(opts));
  if (cond.dtype === 'bool') return cond;
  // JS truthiness of a number: neither 0 (nor -0) nor NaN. NaN != 0 is true, so NaN is excluded
  // explicitly (x == x is false only for NaN); int32 has no NaN.
  return cond.dtype === 'int32' ? tf.notEqual(cond, 0) : tf.logicalAnd(tf.notEqual(cond, 0), tf.equal(cond, cond));
}

/** Whether a JS value is an integral number that an int32 holds exactly. */
export const isInt32 = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31;

/** The dtype JS values are promoted to together: bool for booleans, int32 if all are int32s, else float32. */
export function promotedDtypeOf(...values: unknown[]): 'bool' | 'int32' | 'float32' {
  return typeof values[0] === 'boolean' ? 'bool' : values.every(isInt32) ? 'int32' : 'float32';
}

export function zerosOf(spec: TensorSpec): number[] | boolean[] | string[] {
  const size = spec.shape.reduce((a, b) => a * b, 1);
  if (spec.dtype === 'string') return new Array<string>(size).fill('');
  if (spec.dtype === 'bool') return new Array<boolean>(size).fill(false);
  return new Array<number>(size).fill(0);
}

/** A zeros tensor like `like`: the placeholder for a value that is undefined on some path. */
export function placeholderLike(tracer: { makeConstant(values: tf.TensorLike, shape: number[], dtype: tf.DataType): tf.Tensor },
                                like: TensorSpec): tf.Tensor {
  return tracer.makeConstant(zerosOf(like), [...like.shape], like.dtype);
}

function inexactCondition(cond: tf.Tensor, where: string): StagingError {
  const name = promotionOf(cond)?.name;
  return new StagingError(`autograph-ts: a condition on a tensor${where}${name ? ` computed from '${name}'` : ''} is computed in ` +
    'float32 or int32 where eager JS computes in float64 (a fraction float32 cannot hold, a quotient, a product int32 may ' +
    'wrap...): the staged graph could decide otherwise than eager code. Make the value a tensor yourself (e.g. ' +
    'tf.scalar(...)) to compare in float32 on both, or compute it outside the staged function.');
}
