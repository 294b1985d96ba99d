/**
 * The operators that converted code calls (`import * as ag__ from 'autograph-ts/runtime'`).
 *
 * Each operator replaces one JS statement or expression. The eager path below IS that statement:
 * on plain JS values it evaluates the same things in the same order and number (ToBoolean of the
 * condition, the iterator protocol of for...of, the key enumeration of for...in), and on a tensor
 * condition it reads the scalar's value and takes that path. Bodies are closures that assign the
 * enclosing variables directly, so getState/setState are not used here: they exist for the staging
 * engine, which receives every call unchanged while `stage(fn)` traces (see staging_hooks.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { OperatorName } from './names';
import { describeOrigin, LoopOptions, OperatorOptions } from './options';
import { ownCode } from './library_code';
import * as promoted from './promoted_values';
import { mathCall as promotedMathCall } from './promoted_math';
import { tensorMethodCall as promotedMethodCall, tfjsCall as promotedTfjsCall } from './promoted_op_arguments';
import { arrayPredicate as nativeArrayPredicate } from './array_predicates';
import { forEachItem as listForEach, spreadItems as spreadWithLists } from './list_iteration';
import { TensorRange } from './range';
import { atIndex as dispatchAtIndex } from './index_dispatch';
import { activeStaging, GetState, SetState, Thunk } from './staging_hooks';
import { isTensor, logicalNot, readCondition } from './tensors';
import { UndefinedReturnValue } from './undefined_values';
import { userError } from './user_frames';

export { Undefined, UndefinedReturnValue } from './undefined_values';
export type { LoopOptions, OperatorOptions } from './options';

const noop = (): void => {};

/** ToBoolean of a condition; a tensor condition is read by value. */
function truthy(cond: unknown, opts: OperatorOptions | undefined): boolean {
  return isTensor(cond) ? readCondition(cond, opts) : Boolean(cond);
}

export function ifStmt(cond: unknown, body: Thunk<void>, orelse: Thunk<void> | undefined,
                       getState: GetState, setState: SetState, symbolNames: string[],
                       nouts: number, opts?: OperatorOptions): void {
  const staging = activeStaging();
  if (staging !== undefined) {
    return staging.ifStmt(cond, body, orelse ?? noop, getState, setState, symbolNames, nouts, opts);
  }
  if (truthy(cond, opts)) body();
  else if (orelse !== undefined) orelse();
}

export function whileStmt(test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState,
                          symbolNames: string[], opts?: LoopOptions): void {
  const staging = activeStaging();
  if (staging !== undefined) {
    return staging.whileStmt(test, body, getState, setState, symbolNames, opts);
  }
  while (truthy(test(), opts)) body();
}

export function doWhileStmt(test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState,
                            symbolNames: string[], opts?: LoopOptions): void {
  const staging = activeStaging();
  if (staging !== undefined) {
    return staging.doWhileStmt(test, body, getState, setState, symbolNames, opts);
  }
  do body();
  while (truthy(test(), opts));
}

/**
 * for...of. `extraTest` carries the lowered `break`/`return` flags; it is checked after each body,
 * inside the native loop, so that an early exit closes the iterator (`return()`) exactly as a
 * native `break` would, and a throwing body closes it too.
 */
export function forStmt(iterable: unknown, extraTest: Thunk | undefined, body: (item: any) => void,
                        getState: GetState, setState: SetState, symbolNames: string[],
                        opts?: LoopOptions): void {
  const staging = activeStaging();
  if (staging !== undefined) {
    return staging.forStmt(iterable, extraTest, body, getState, setState, symbolNames, opts);
  }
  const items = isTensor(iterable) ? tensorRows(iterable, opts) : (iterable as Iterable<unknown>);
  if (extraTest === undefined) {
    for (const item of items) body(item);
    return;
  }
  for (const item of items) {
    body(item);
    if (!truthy(extraTest(), opts)) break;
  }
}

/** for...in: the native enumeration, so deleted and added keys behave as in the original. */
export function forInStmt(object: unknown, extraTest: Thunk | undefined, body: (key: string) => void,
                          getState: GetState, setState: SetState, symbolNames: string[],
                          opts?: LoopOptions): void {
  const staging = activeStaging();
  if (staging !== undefined) {
    return staging.forInStmt(object, extraTest, body, getState, setState, symbolNames, opts);
  }
  for (const key in object as object) {
    body(key);
    if (extraTest !== undefined && !truthy(extraTest(), opts)) break;
  }
}

/** `cond ? whenTrue : whenFalse`, evaluating only the branch taken. */
export function ifExp<T, F>(cond: unknown, whenTrue: () => T, whenFalse: () => F,
                            opts?: OperatorOptions): T | F {
  const staging = activeStaging();
  if (staging !== undefined) return staging.ifExp(cond, whenTrue, whenFalse, opts) as T | F;
  return truthy(cond, opts) ? whenTrue() : whenFalse();
}

/** `left && right`: the value of left when it is falsy, else the value of right (lazy). */
export function and<L, R>(left: () => L, right: () => R, opts?: OperatorOptions): L | R {
  const staging = activeStaging();
  if (staging !== undefined) return staging.and(left, right, opts) as L | R;
  const value = left();
  return truthy(value, opts) ? right() : value;
}

/** `left || right`: the value of left when it is truthy, else the value of right (lazy). */
export function or<L, R>(left: () => L, right: () => R, opts?: OperatorOptions): L | R {
  const staging = activeStaging();
  if (staging !== undefined) return staging.or(left, right, opts) as L | R;
  const value = left();
  return truthy(value, opts) ? value : right();
}

/** `!value`; on a tensor, its logical negation as a bool tensor (as AutoGraph's not_). */
export function not(value: unknown, opts?: OperatorOptions): unknown {
  const staging = activeStaging();
  if (staging !== undefined) return staging.not(value, opts);
  return isTensor(value) ? logicalNot(value) : !value;
}

/**
 * The discriminant of a `switch` whose type may be a Tensor: cases compare with `===`, which on a
 * tensor object would never match. Eagerly a scalar tensor is read (its number or boolean); a
 * switch cannot be staged (rewrite it as if / else if); any other value is returned as it is.
 */
export function switchValue(value: unknown, opts?: OperatorOptions): unknown {
  if (!isTensor(value)) return value;
  if (activeStaging() !== undefined) {
    throw userError(new TypeError(`autograph-ts: a switch on a tensor cannot be staged${describeOrigin(opts)}: ` +
      'rewrite it as if / else if with tensor comparisons (e.g. x.equal(1)).'));
  }
  readCondition(value, opts); // the same checks as a condition: a scalar, not a string
  const read = value.dataSync()[0];
  return value.dtype === 'bool' ? Boolean(read) : read;
}

/**
 * `assert(cond, message)` / `console.assert(cond, ...data)` with a condition that may be a tensor.
 * `check` is the original function: it is called with the condition's value (read from a tensor),
 * so node's AssertionError or console's output are exactly the original's.
 */
export function assert(cond: unknown, args: unknown[], check: (ok: unknown, ...args: unknown[]) => void,
                       opts?: OperatorOptions): void {
  const staging = activeStaging();
  if (staging !== undefined && isTensor(cond)) {
    // console.assert reports (a print in the graph); node's assert throws what check throws.
    if (opts?.kind === 'console') return staging.assert(cond, args, opts);
    return staging.assert(cond, args[0], { ...opts, check: (ok: boolean) => check(ok, ...args) });
  }
  check(isTensor(cond) ? readCondition(cond, opts) : cond, ...args);
}

/** The error of a failed staged check that has no original function to call. */
export class AssertionFailure extends Error {
  override name = 'AssertionError';
}

/** The function's result at its single exit: `undefined` when no return statement ran. */
export function retval<T>(value: T | UndefinedReturnValue): T | undefined {
  return value === UndefinedReturnValue.instance ? undefined : (value as T);
}

/**
 * `const xs = ag__.newList([...])`: an array that the checker types as possibly holding tensors
 * and that a converted statement changes in place (a push in a loop). Eagerly it is the array
 * itself, untouched; while stage() traces, the staging engine may make it a list value of the
 * graph when a staged loop changes its length.
 */
export function newList<T>(items: T[], opts?: OperatorOptions): T[] {
  const staging = activeStaging();
  return staging === undefined ? items : staging.newList(items, opts) as T[];
}

/**
 * A call that may recurse (the transformer marks calls that can lead back to their function).
 * Outside a trace it is the call; a trace may stage it as a call of the function's graph.
 */
export function recursiveCall<R>(fn: (...args: never[]) => R, args: unknown[], opts?: OperatorOptions, receiver?: unknown): R {
  const staging = activeStaging();
  if (staging === undefined) return Reflect.apply(fn, receiver, args) as R;
  return staging.recursiveCall(fn, args, opts, receiver) as R;
}

/**
 * At the start of a function that writes fields of `object` (`this.best = ...`): outside a trace,
 * nothing; a trace carries those fields as the graph's state (written back after every call).
 */
export function observeFields(object: unknown, keys: string[], name: string, opts?: OperatorOptions): void {
  const staging = activeStaging();
  if (staging !== undefined && object !== null && typeof object === 'object') staging.observeFields(object, keys, name, opts);
}

function tensorRows(tensor: tf.Tensor, opts: OperatorOptions | undefined): Iterable<unknown> {
  if (tensor.rank === 0) {
    throw userError(new TypeError(`autograph-ts: cannot iterate over a scalar tensor${describeOrigin(opts)}`));
  }
  return tf.unstack(tensor);
}

export { TensorRange };
// The operators on promoted values run as autograph-ts's code: their reads of a tensor's dims are
// not the user's (library_code.ts).
export const binaryOp = ownCode(promoted.binaryOp);
export const listItem = ownCode(promoted.listItem);
export const setListItem = ownCode(promoted.setListItem);
export const arrayItem = ownCode(promoted.arrayItem);
export const listValue = ownCode(promoted.listValue);
export const plainValue = ownCode(promoted.plainValue);
export const postfixOp = ownCode(promoted.postfixOp);
export const unaryOp = ownCode(promoted.unaryOp);
export const mathCall = ownCode(promotedMathCall);

// (It calls the user's callback natively, as the method would: user code again.)
export const arrayPredicate = nativeArrayPredicate;
export const forEachItem = listForEach;
export const spreadItems = spreadWithLists;
// (The call as written on plain values is the user's; what they stage runs as autograph-ts's own.)
export const tfjsCall = promotedTfjsCall;
export const tensorMethodCall = promotedMethodCall;
export const atIndex = ownCode(dispatchAtIndex);

// Compile-time check that every name the transformer emits exists here with that name.
type Exported = typeof import('./operators');
const _vocabularyCheck: { [K in OperatorName]: Exported[K] } | undefined = undefined;
void _vocabularyCheck;
