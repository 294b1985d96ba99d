/**
 * JS numbers and booleans promoted to tensors (issue 8, item 3).
 *
 * A loop staged on a tensor condition cannot carry a JS value that its body changes: tf.while_loop
 * makes such a counter or flag a tensor, and Python's operator overloading lets `t < n`, `t += 1`
 * work on it. JS has no operator overloading, so the transformer rewrites the uses of every
 * variable that may be promoted ("promotable": a local number or boolean that a converted loop
 * assigns, and what is computed from it; transformer/analysis/promotion.ts):
 *   - arithmetic and comparisons (`t < n`, `t + 1`, `t++`, `t += k`, `t === 5`) → binaryOp/unaryOp,
 *     which are the JS operator on plain values and the tfjs op on a tensor;
 *   - conditions (`if (found)`, `!found`, `found && x`) → the control-flow operators, as a tensor;
 *   - tfjs calls (`tf.gather(xs, t)`, `x.add(t)`) and `return t` take the tensor as it is;
 *   - every other read (`xs[t]`, `Array(t)`, `typeof t`, `${t}`, a call to a JS function) goes
 *     through plainValue, which refuses a tensor with an error naming the variable and the line.
 * So a promoted value never reaches a place where JS would silently misread it. As a second line
 * (code the transformer does not see: nested functions, callees), a promoted tensor carries a
 * Symbol.toPrimitive that throws the same error, so `t + 1`, `xs[t]`, `${t}`, `Math.max(t, 1)`
 * fail there instead of computing with "Tensor ..." strings or NaN.
 * On plain values (eagerly, and in static code while tracing) every operator here is exactly the
 * JS operator it replaced.
 */
import { displayName, isReturnValueName } from './names';
import * as tf from '@tensorflow/tfjs-core';
import { StagingError } from './staging_error';
import { noteRecipe } from './js_recipes';
import { isTensor } from './tensors';
import { currentUserLocation, userError } from './user_frames';
import { activeStaging, type StagingHooks } from './staging_hooks';

export interface Promotion {
  /** The user's variable (or `xs.length`). */
  name: string;
  /** Where the loop (or conditional) that promoted it is. */
  origin: string | undefined;
  /** For the length of a list that a staged loop grows (backends/staging/staged_lists.ts): the list's name. */
  list?: string;
  /** For an element read from a list of JS numbers or booleans (`number[]`) that a staged statement
   * grows: the list's name (`name` is then `xs[i]`). */
  element?: string;
}

const promotions = new WeakMap<object, Promotion>();
/** The promotion of each promoted int32 tensor's data (kernels see data, not tensor objects). */
const promotedInt32Data = new WeakMap<object, Promotion>();
/** >0 while binaryOp / unaryOp compute: their kernels keep JS semantics by construction. */
let operatorDepth = 0;

/**
 * The promotion an int32 kernel input holds, unless the kernel runs inside binaryOp / unaryOp.
 * The tracer asks it of every kernel a user's tfjs call runs: eagerly the value was a JS number,
 * which tfjs makes float32, so an int32 kernel result computed from it differs from eager
 * (`tf.div(t, tf.scalar(2, 'int32'))` floors where eager gives 2.5).
 */
export function promotedInt32Input(dataIds: readonly object[]): Promotion | undefined {
  if (operatorDepth > 0) return undefined;
  for (const d of dataIds) {
    const p = promotedInt32Data.get(d);
    if (p !== undefined) return p;
  }
  return undefined;
}

/** Records that an int32 kernel result was computed from the promoted value `promotion` (a
 * float32 number eagerly): the tracer follows it to where the difference would show. */
export function taintInt32Data(dataId: object, promotion: Promotion): void {
  promotedInt32Data.set(dataId, promotion);
}

/**
 * The promotion of a kernel input computed from an int32 product that may wrap (mayHaveWrapped), given to a tfjs op of
 * the user's (not binaryOp & co.'s own ops); else undefined.
 */
export function wrappedUserInput(input: object): Promotion | undefined {
  const promotion = promotionOf(input);
  return operatorDepth === 0 && mayHaveWrapped(promotion, input) ? promotion : undefined;
}

export function inOperator<T>(f: () => T): T {
  operatorDepth++;
  try {
    return f();
  } finally {
    operatorDepth--;
  }
}

/**
 * Marks `tensor` as the promoted value of the user's variable `name` (see the module comment), or
 * with `list`, as the length of the list `list` (`name` is then `list.length`): an int32 tensor
 * read where the user's code says `xs.length`, refused where JS needs a number in the same ways.
 */
export function markPromoted(tensor: tf.Tensor, name: string, origin: string | undefined, list?: string,
                             element?: string): tf.Tensor {
  const promotion: Promotion = { name, origin };
  if (list !== undefined) promotion.list = list;
  if (element !== undefined) promotion.element = element;
  promotions.set(tensor, promotion);
  if (tensor.dtype === 'int32') promotedInt32Data.set(tensor.dataId, promotion);
  Object.defineProperty(tensor, Symbol.toPrimitive, {
    configurable: true,
    value: () => {
      throw userError(new StagingError(misuse(name, tensor, currentUserLocation(), promotion)));
    },
  });
  return tensor;
}

/** The same promotion on a tensor computed from a promoted one. */
export function propagate(result: tf.Tensor, promotion: Promotion | undefined): tf.Tensor {
  return promotion ? markPromoted(result, promotion.name, promotion.origin, promotion.list, promotion.element) : result;
}

/** The promotion a tensor stands for, if it is a promoted JS value (or computed from one). */
export function promotionOf(value: unknown): Promotion | undefined {
  return typeof value === 'object' && value !== null ? promotions.get(value) : undefined;
}

/** `what` (the variable, or an expression computed from it) is the promoted tensor `tensor`. */
/**
 * A promoted variable as messages name it: the user's name in quotes; the value a lowered `return`
 * keeps in the transformer's `retval_` (converters/return_statements.ts) as what it is to the user.
 */
function quoted(name: string): string {
  return displayName(name);
}

/** The origins of the loops staged (a promotion's other origins are conditionals): how messages name the statement. */
const stagedLoops = new Set<string>();

/** Notes that the statement at `origin` is a loop staged on a tensor condition (its promoted values' messages say so). */
export function noteStagedLoop(origin: string | undefined): void {
  if (origin !== undefined) stagedLoops.add(origin);
}

function misuse(what: string, tensor: tf.Tensor, where: string | undefined, promotion: Promotion | undefined): string {
  if (promotion?.list !== undefined) {
    const list = promotion.list;
    return `autograph-ts: '${what}' is used as a JS number${where ? ` (${where})` : ''}, but '${list}' is a list ` +
      'that a staged loop grows: its length is an int32 tensor, known only when the graph runs. Use it in tensor ops ' +
      `(e.g. \`tf.less(i, ${list}.length)\`, \`${list}.length === 3\` as a condition), or stack the list (tf.stack) and ` +
      `read the shape of the result; a function that reads '${list}' as a JS array (a tfjs op other than tf.stack and ` +
      'tf.concat) cannot take it.';
  }
  const kind = tensor.dtype === 'bool' ? 'boolean' : 'number';
  if (promotion?.element !== undefined) {
    const list = promotion.element;
    return `autograph-ts: '${what}' is used as a JS ${kind}${where ? ` (${where})` : ''}, but '${list}' is an array of ` +
      `${kind}s that a staged statement grows: in the staged graph it is a list of ${tensor.dtype} scalars, whose values ` +
      'are known only when the graph runs. Use its elements in tensor ops (or as conditions), or return the array ' +
      '(it comes back as JS values).';
  }
  const name = promotion?.name ?? what;
  const subject = name === what ? 'it' : quoted(name);
  const loop = promotion?.origin === undefined || stagedLoops.has(promotion.origin);
  return `autograph-ts: ${quoted(what)} is ${tensor.dtype === 'int32' ? 'an' : 'a'} ${tensor.dtype} tensor here` +
    `${where ? ` (${where})` : ''}, not a JS ${kind}: ${subject} changes in ${loop ? 'a loop' : 'a conditional'} staged on a tensor condition` +
    `${promotion?.origin ? ` (${promotion.origin})` : ''}, which carries it as a tensor (as ${loop ? 'tf.while_loop' : 'tf.cond'} does). JS cannot ` +
    `use a tensor where it needs a plain ${kind} (an array index, Array(n), ===, typeof, a template string, Math.*, a ` +
    `JS function's argument). Use tfjs ops on it${isReturnValueName(name) ? '' : ` (e.g. tf.gather(xs, ${name}) for xs[${name}])`}, or return it.`;
}

/**
 * A read of a promotable variable (or of an expression computed from one: `what` is its source
 * text) where JS needs its plain value: the value itself, or (a promoted tensor) the error naming
 * it and `origin`, the read's line. `pushedInto`: the array of `xs.push(value)`, which may carry it.
 */
export function plainValue<T>(value: T, name: string, origin?: string, pushedInto?: unknown): T {
  // A tensor that is not a promoted value (`(c > 1 ? a : b).sub(x)` with tensors a, b) is what
  // eager code holds here too: only a promoted one would be a JS number misread.
  const promotion = promotionOf(value);
  if (promotion === undefined) return Array.isArray(value) ? plainElements(value, name, origin) : value;
  // `this.epochs.push(epoch)`: an array a staged statement carries (a field it watches) holds promoted values as a list.
  if (Array.isArray(pushedInto) && activeStaging()?.takesPromoted?.(pushedInto) === true) return value;
  throw userError(new StagingError(misuse(name, value as tf.Tensor, origin, promotion)));
}

/**
 * Answered `true` by an array that a staged loop made a list of the graph (backends/staging/
 * staged_lists.ts): such a proxy refuses what it cannot do itself, naming the user's operation.
 */
export const STAGED_LIST = Symbol.for('autograph-ts.stagedList');

/** An array read whole where JS sees its elements (`counts.indexOf(2)`): none of them may be a promoted value. */
function plainElements<T>(array: T & unknown[], name: string, origin: string | undefined): T {
  if ((array as { [STAGED_LIST]?: boolean })[STAGED_LIST] === true) return array;
  const index = array.findIndex((item) => promotionOf(item) !== undefined);
  if (index < 0) return array;
  const item = array[index] as tf.Tensor;
  throw userError(new StagingError(`autograph-ts: '${name}' is read as a JS array${origin ? ` (${origin})` : ''}, but its ` +
    `element ${index} is ${item.dtype === 'int32' ? 'an' : 'a'} ${item.dtype} tensor here, not a JS ` +
    `${item.dtype === 'bool' ? 'boolean' : 'number'}: a staged statement changed it (${promotionOf(item)!.origin ?? 'a staged loop or conditional'}), ` +
    'which carries it as a tensor. Read its elements one by one (counts[i] goes through tensor ops), pass the array to a ' +
    'tfjs function (tf.tensor1d), or return it (it comes back as JS values).'));
}

/**
 * `xs[i]` where xs may be a list that a staged loop grows and i a promoted counter (or a list's
 * length): `xs[i]` on a plain index; a tensor index reads the list's element (`xs.at(i)`, which a
 * list in the graph answers with TensorListGetItem).
 */
export function listItem<T>(array: readonly T[], index: unknown, name?: string, origin?: string): T | undefined {
  if (!isTensor(index)) return array[index as number];
  if ((array as { [STAGED_LIST]?: boolean })[STAGED_LIST] === true) return array.at(index as unknown as number);
  // An array that may grow into a list but is not one yet answers itself (staged_lists.ts); any other is read as
  // arrayItem reads it.
  const itemAt = (array as { [ITEM_AT]?: (i: unknown, name: string, origin?: string) => T })[ITEM_AT];
  return typeof itemAt === 'function' ? itemAt(index, name ?? 'an array element', origin) : arrayItem(array, index, name ?? 'an array element', origin);
}

/**
 * Answered by an array that a staged loop may grow (backends/staging/staged_lists.ts) with a function that
 * writes an element at a tensor index: the array becomes a list of the graph if it is not one yet.
 */
export const SET_AT = Symbol.for('autograph-ts.setAt');
/** Likewise, a function that reads an element at a tensor index. */
export const ITEM_AT = Symbol.for('autograph-ts.itemAt');

/**
 * `xs[i] = v` where xs may be a list that a staged loop grows and i a promoted counter (or a list's
 * length): the JS assignment on a plain index; at a tensor index, the list's element write (an array
 * not a list yet becomes one). On a JS array a tensor index is refused by name, as a plain read.
 */
export function setListItem<T>(array: T[], index: unknown, value: T, name: string, origin?: string): T {
  if (!isTensor(index)) return (array[index as number] = value);
  const setAt = (array as { [SET_AT]?: (i: unknown, v: unknown) => void })[SET_AT];
  if (typeof setAt === 'function') {
    setAt(index, value);
    return value;
  }
  const staging = activeStaging();
  if (staging === undefined || !Array.isArray(array) || array.length === 0) return plainValue(index, name, origin) as never;
  writeEveryElement(array, index as tf.Tensor, value, name, origin, staging);
  return value;
}

/**
 * `xs[i] = v` on a JS array (not a list) at a tensor index, in a trace: every element becomes `i === k ? v : xs[k]`
 * (a staged conditional expression: a JS number element becomes a promoted one), and the index must be one of the
 * array's (past its end JS would grow the array, which the graph cannot: the check fails when the graph runs).
 */
function writeEveryElement(array: unknown[], index: tf.Tensor, value: unknown, name: string, origin: string | undefined,
                           staging: StagingHooks): void {
  const i = inOperator(() => {
    const at = tf.cast(index, 'int32');
    staging.assert(tf.logicalAnd(tf.greaterEqual(at, 0), tf.less(at, array.length)), new RangeError(`autograph-ts: an element ` +
      `of a JS array of ${array.length} is written at '${name}'${origin ? ` (${origin})` : ''}, past its end (or below 0): ` +
      'eagerly the array would grow, which the staged graph cannot do to a JS array. Grow it with push in the function.'));
    return at;
  });
  const opts = origin === undefined ? undefined : { origin };
  for (let k = 0; k < array.length; k++) {
    const old = array[k];
    array[k] = staging.ifExp(inOperator(() => tf.equal(i, k)), () => promotedLeaves(value, name, origin),
      () => promotedLeaves(old, name, origin), opts);
  }
}

/**
 * `values[i]` on a JS array of numbers or booleans (not a list) where i may be a promoted index
 * (`for (...) if (step.lessEqual(i * 10)) return values[i];` in a staged loop): the element eagerly;
 * in a trace, a gather from the array's values as a constant, promoted like the counters (an index
 * outside the array, where JS gives undefined, raises when the graph runs). Other arrays: the
 * named error of a plain read.
 */
export function arrayItem<T>(array: readonly T[], index: unknown, name: string, origin?: string): T | undefined {
  if (!isTensor(index)) return array[index as number];
  if ((array as { [STAGED_LIST]?: boolean })[STAGED_LIST] === true) return array.at(index as unknown as number);
  const staging = activeStaging();
  if (staging !== undefined && sameTensors(array)) return tensorItem(array as unknown as tf.Tensor[], index as tf.Tensor, name, origin, staging) as T;
  if (staging !== undefined && array.length > 0 && array.every(isPlainObject)) return selectedItem(array, index as tf.Tensor, name, origin, staging);
  const kind = scalarsKind(array);
  if (kind === undefined || staging === undefined) return plainValue(index, name, origin) as never;
  const i = checkedIndex(array, index as tf.Tensor, name, origin, staging);
  const promotedElements = array.some(isTensor);
  const item = inOperator(() => tf.gather(promotedElements
    ? tf.stack(array.map((v) => (isTensor(v) ? tf.cast(v, kind) : tf.scalar(v as number | boolean, kind))))
    : tf.tensor1d(array as unknown as number[], kind), i));
  const result = propagate(item, promotionOf(index) ?? array.map(promotionOf).find((p) => p !== undefined));
  if ((kind === 'float32' && array.some((v) => typeof v === 'number' && !Object.is(Math.fround(v), v))) ||
      array.some((v) => isInexact(promotionOf(v), v))) inexactValues.add(result);
  if (array.some((v) => mayHaveWrapped(promotionOf(v), v))) wrappedValues.add(result);
  return result as unknown as T;
}

/**
 * The dtype of an array of JS numbers or booleans, some of which a staged statement may have made promoted scalars
 * (`matched[k] = true` under a tensor if): bool for booleans, int32 for integers, else float32; undefined otherwise.
 */
function scalarsKind(array: readonly unknown[]): 'bool' | 'int32' | 'float32' | undefined {
  if (array.length === 0) return undefined;
  const promotedScalar = (v: unknown): v is tf.Tensor => isTensor(v) && promotionOf(v) !== undefined && v.rank === 0;
  if (array.every((v) => typeof v === 'boolean' || (promotedScalar(v) && v.dtype === 'bool'))) return 'bool';
  if (!array.every((v) => typeof v === 'number' || (promotedScalar(v) && v.dtype !== 'bool' && v.dtype !== 'string'))) return undefined;
  return array.every((v) => (typeof v === 'number' ? isInt32(v) : (v as tf.Tensor).dtype === 'int32')) ? 'int32' : 'float32';
}

const isPlainObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/**
 * The index must be one of the array's (eagerly JS reads undefined past the end, which the graph cannot hold): a
 * check that raises when the graph runs. The index returned is clipped into the array: the check makes that a no-op
 * on every run that reads, and the trace may go on with a stand-in index past the end (a loop body traced on the
 * values that end the loop, `xs[i]` at i = xs.length), where the gather itself would throw.
 */
function checkedIndex(array: readonly unknown[], index: tf.Tensor, name: string, origin: string | undefined, staging: StagingHooks): tf.Tensor {
  return inOperator(() => {
    const i = tf.cast(index, 'int32');
    staging.assert(tf.logicalAnd(tf.greaterEqual(i, 0), tf.less(i, array.length)), new RangeError(`autograph-ts: '${name}' ` +
      `reads past the end of a JS array of ${array.length}${origin ? ` (${origin})` : ''}, where eager JS gives undefined: ` +
      'the staged graph cannot hold undefined.'));
    return tf.clipByValue(i, 0, array.length - 1);
  });
}

/**
 * `xs[i]` on a JS array of records (`{ value, index }`) at a promoted index, in a trace: `i === 0 ? xs[0] : i === 1 ?
 * xs[1] : ...` as staged conditional expressions (a record of the element's tensors, its JS numbers promoted).
 */
function selectedItem<T>(array: readonly T[], index: tf.Tensor, name: string, origin: string | undefined, staging: StagingHooks): T {
  const i = checkedIndex(array, index, name, origin, staging);
  const opts = origin === undefined ? undefined : { origin };
  let item: unknown = promotedLeaves(array[array.length - 1], name, origin);
  for (let k = array.length - 2; k >= 0; k--) {
    const rest = item;
    item = staging.ifExp(inOperator(() => tf.equal(i, k)), () => promotedLeaves(array[k], name, origin), () => rest, opts);
  }
  return item as T;
}

/**
 * `value` (a record, or a JS number or boolean) with its JS numbers and booleans as promoted scalars: the operands
 * of a staged conditional that picks an element, on whose every path eager code holds a JS number there.
 */
function promotedLeaves(value: unknown, name: string, origin: string | undefined, path = ''): unknown {
  if (typeof value === 'number') return markPromoted(inOperator(() => tf.scalar(value, isInt32(value) ? 'int32' : 'float32')), `${name}${path}`, origin);
  if (typeof value === 'boolean') return markPromoted(inOperator(() => tf.scalar(value, 'bool')), `${name}${path}`, origin);
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, promotedLeaves(v, name, origin, `${path}.${k}`)]));
  }
  return value;
}

/** Whether `array` holds tensors (not promoted values) of one dtype and shape, at least one. */
function sameTensors(array: readonly unknown[]): boolean {
  const first = array[0];
  if (!(first instanceof tf.Tensor)) return false;
  return array.every((t) => t instanceof tf.Tensor && promotionOf(t) === undefined &&
    t.dtype === first.dtype && t.rank === first.rank && t.shape.every((d: number, k: number) => d === first.shape[k]));
}

/** `xs[i]` on a JS array of tensors at a promoted index, in a trace: a gather from the tensors stacked (an index
 * outside the array, where JS gives undefined, raises when the graph runs). A tensor, as eagerly. */
function tensorItem(array: tf.Tensor[], index: tf.Tensor, name: string, origin: string | undefined, staging: StagingHooks): tf.Tensor {
  const i = checkedIndex(array, index, name, origin, staging);
  return inOperator(() => tf.gather(tf.stack(array), i));
}

/**
 * An array of JS numbers or booleans given to a tfjs function where it takes values: itself, or,
 * where a staged loop made it a list of the graph, the list stacked (the tensor tfjs would make of
 * the JS array; analysis/list_arguments.ts).
 */
export function listValue<T>(array: T): T | tf.Tensor {
  return (array as { [STAGED_LIST]?: boolean })[STAGED_LIST] === true ? tf.stack(array as unknown as tf.Tensor[]) : array;
}

export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '**' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '===' | '!==' |
  '&' | '|' | '^' | '<<' | '>>' | '>>>';

/** `left op right`: the JS operator on plain values; on a (promoted) tensor, the tfjs op. */
export function binaryOp(op: BinaryOperator, left: any, right: any): any {
  if (!isTensor(left) && !isTensor(right)) {
    switch (op) {
      case '+': return left + right;
      case '-': return left - right;
      case '*': return left * right;
      case '/': return left / right;
      case '%': return left % right;
      case '**': return left ** right;
      case '<': return left < right;
      case '<=': return left <= right;
      case '>': return left > right;
      case '>=': return left >= right;
      case '==': return left == right; // eslint-disable-line eqeqeq
      case '!=': return left != right; // eslint-disable-line eqeqeq
      case '===': return left === right;
      case '!==': return left !== right;
      case '&': return left & right;
      case '|': return left | right;
      case '^': return left ^ right;
      case '<<': return left << right;
      case '>>': return left >> right;
      case '>>>': return left >>> right;
    }
  }
  const inherited = isInexact(undefined, left) || isInexact(undefined, right);
  const wrappedBefore = mayHaveWrapped(promotionOf(left), left) || mayHaveWrapped(promotionOf(right), right);
  inexactOperation = false;
  wrapOperation = false;
  const result = propagate(inOperator(() => tensorBinary(op, left, right)), promotionOf(left) ?? promotionOf(right));
  if (inherited || inexactOperation) inexactValues.add(result);
  if (wrappedBefore || wrapOperation) wrappedValues.add(result);
  inexactOperation = false;
  wrapOperation = false;
  // (Read back, it may be computed in JS from exact operands, as eagerly: js_recipes.ts.)
  noteRecipe(result, [left, right], (a, b) => binaryOp(op, a, b), isExactLeaf);
  return result;
}

/** A promoted scalar whose value read back is eager's JS value (js_recipes.ts). */
export function isExactLeaf(t: tf.Tensor): boolean {
  const promotion = promotionOf(t);
  return promotion !== undefined && t.rank === 0 && !isInexact(promotion, t);
}

/**
 * `-value`, `+value`, and the new value of `++value` / `--value` (ToNumeric, then ±1: a string
 * counter becomes a number, as with the native operator): the JS operator on plain values; on a
 * tensor, the tfjs op.
 */
export function unaryOp(op: '-' | '+' | '++' | '--', value: any): any {
  if (!isTensor(value)) {
    let v = value;
    switch (op) {
      case '-': return -v;
      case '+': return +v;
      case '++': return ++v;
      case '--': return --v;
    }
  }
  const result = inOperator(() => {
    const numeric = value.dtype === 'bool' ? tf.cast(value, 'int32') : value;
    const one = (): tf.Tensor => tf.scalar(1, numeric.dtype);
    return op === '-' ? tf.neg(numeric) : op === '++' ? tf.add(numeric, one()) : op === '--' ? tf.sub(numeric, one())
      : numeric === value ? tf.clone(value) : numeric;
  });
  return propagate(result, promotionOf(value));
}

/**
 * `value++` / `value--` whose value is used (`const a = t++`, `tf.gather(xs, t++)`): stores the new
 * value through `assign` and gives the old one, ToNumeric'd (as the native operator: `"5"++` is 5);
 * on a promoted tensor both are tensors.
 */
export function postfixOp(op: '++' | '--', value: any, assign: (next: any) => void): any {
  const old = unaryOp('+', value);
  assign(unaryOp(op, value));
  return old;
}

type Operand = { tensor: tf.Tensor } | { number: number } | { boolean: boolean };

function operand(value: unknown, op: string): Operand {
  if (isTensor(value)) return { tensor: value };
  if (typeof value === 'number') return { number: value };
  if (typeof value === 'boolean') return { boolean: value };
  const promotion = promotionOf(value);
  throw userError(new StagingError(`autograph-ts: \`${op}\` between a tensor and ${value === null ? 'null' : typeof value} ` +
    `cannot be staged${promotion ? ` ('${promotion.name}' is a tensor here)` : ''}${where()}: only numbers and booleans ` +
    'combine with a promoted counter or flag.'));
}

function where(): string {
  const location = currentUserLocation();
  return location ? ` (${location})` : '';
}

const isInt32 = (n: number): boolean => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31;

/**
 * Both operands as tensors of one dtype, as JS would combine them: booleans count as 0/1 in
 * arithmetic, an int32 stays int32 with an integral JS number, anything else is float32 (tfjs
 * would make `int32 + 1` float32, and `int32 + 1.5` must not truncate).
 */
/**
 * Promoted values computed in float32 where eager JS computes in float64 (a JS number float32
 * cannot hold, like 0.1; a quotient; a power): by variable name, for the trace in progress. Such a
 * value may still feed tfjs ops (which compute in float32 eagerly too), but it cannot come back to
 * JS as the number eager code has: the trace refuses that (noteFloat32's users: trace.ts, object_state.ts).
 */
const inexact = new Set<string>();
/** Promoted values (tensors) computed so: a variable is noted when a staged statement assigns one to it. */
const inexactValues = new WeakSet<object>();
/** Set while tensorBinary computes a result in float32 that JS computes otherwise. */
let inexactOperation = false;

/** Forgets the last trace's inexact values (a trace starts). */
export function resetInexactValues(): void {
  inexact.clear();
  wrappedNames.clear();
}

/** `value`, carried as float32 by the promoted variable `name`: noted when float32 does not hold it exactly. */
export function noteFloat32(value: number, name: string): number {
  if (!Object.is(Math.fround(value), value)) noteInexact(name);
  return value;
}

/** The promoted variable `name` was computed in float32 where eager JS computes another number. */
function noteInexact(name: string): void {
  inexact.add(name);
}

/** This promoted value was computed in float32 where eager JS computes another number (`wrapped`: from one that may have wrapped). */
export function noteInexactValue(value: object, wrapped = false): void {
  inexactValues.add(value);
  if (wrapped) wrappedValues.add(value);
}

/**
 * Of the inexact values, those computed from an int32 product by a large constant, which may wrap (an RNG's
 * `state * 16807`): not a float32 rounding of eager's float64 number (which a tfjs op given it would round to float32
 * eagerly too, within its last bit), but another number altogether. A tfjs op of the user's given one is refused
 * (tracer.ts).
 */
const wrappedValues = new WeakSet<object>();
const wrappedNames = new Set<string>();
/** Set while tensorBinary computes an int32 product that may wrap. */
let wrapOperation = false;

/** Whether a promoted value (the variable, or this tensor) was computed from an int32 product that may wrap. */
export function mayHaveWrapped(promotion: Promotion | undefined, value?: unknown): boolean {
  return (promotion !== undefined && wrappedNames.has(promotion.name)) ||
    (typeof value === 'object' && value !== null && wrappedValues.has(value));
}

/** Whether a promoted value (the variable, or this tensor) was computed in float32 where eager JS computes another number. */
export function isInexact(promotion: Promotion | undefined, value?: unknown): boolean {
  return (promotion !== undefined && inexact.has(promotion.name)) || (typeof value === 'object' && value !== null && inexactValues.has(value));
}

/** A staged statement gives the promoted variable `name` this value (noted if computed in float32 unlike JS). */
export function noteAssigned(name: string, value: unknown): void {
  if (typeof value === 'object' && value !== null && inexactValues.has(value)) inexact.add(name);
  if (typeof value === 'object' && value !== null && wrappedValues.has(value)) wrappedNames.add(name);
}


/** The error for a promoted float32 value that would come back to JS as another number than eager's. */
export function inexactResult(promotion: Promotion, where: string): StagingError {
  return new StagingError(`autograph-ts: ${quoted(promotion.name)} ${where} as a JS number, but the staged loop or conditional` +
    `${promotion.origin ? ` (${promotion.origin})` : ''} that carries it computes it in float32 or int32 (a fraction float32 ` +
    'cannot hold exactly, a quotient, a square root, a product int32 may wrap...) where eager JS computes in float64: it ' +
    'would come back another number. ' +
    `Make it a tensor yourself (e.g. tf.scalar(...)) to get the float32 value on both, or compute it outside the staged statement.`);
}

function numericPair(a: Operand, b: Operand, forceFloat: boolean): [tf.Tensor, tf.Tensor] {
  const dtypeOf = (o: Operand): 'int32' | 'float32' | undefined => {
    if ('tensor' in o) return o.tensor.dtype === 'float32' ? 'float32' : o.tensor.dtype === 'bool' || o.tensor.dtype === 'int32' ? 'int32' : undefined;
    if ('boolean' in o) return 'int32';
    return isInt32(o.number) ? 'int32' : 'float32';
  };
  const da = dtypeOf(a);
  const db = dtypeOf(b);
  if (da === undefined || db === undefined) {
    throw userError(new StagingError(`autograph-ts: a string tensor cannot be combined with a number${where()}.`));
  }
  const dtype = forceFloat || da === 'float32' || db === 'float32' ? 'float32' : 'int32';
  // (A JS number computed with a promoted value: float64 in eager JS, so it must be exact in float32.)
  const promoted = ('tensor' in a ? promotionOf(a.tensor) : undefined) ?? ('tensor' in b ? promotionOf(b.tensor) : undefined);
  const exact = (n: number): number => {
    if (dtype === 'float32' && promoted !== undefined && !Object.is(Math.fround(n), n)) inexactOperation = true;
    return n;
  };
  const asTensor = (o: Operand): tf.Tensor => ('tensor' in o ? (o.tensor.dtype === dtype ? o.tensor : tf.cast(o.tensor, dtype))
    : tf.scalar('boolean' in o ? Number(o.boolean) : exact(o.number), dtype));
  return [asTensor(a), asTensor(b)];
}

/** Whether a product by `factor` (undefined: by another promoted value) is JS's: by at most 256 in int32, by ±2^k in float32. */
function exactFactor(factor: number | undefined, dtype: tf.DataType): boolean {
  if (factor === undefined) return false;
  return dtype === 'int32' ? Math.abs(factor) <= 256 : factor !== 0 && Number.isInteger(Math.log2(Math.abs(factor)));
}

function tensorBinary(op: BinaryOperator, left: unknown, right: unknown): tf.Tensor {
  const a = operand(left, op);
  const b = operand(right, op);
  const isBool = (o: Operand): boolean => ('tensor' in o ? o.tensor.dtype === 'bool' : 'boolean' in o);
  switch (op) {
    case '===': case '!==': {
      // A boolean is never === a number.
      if (isBool(a) !== isBool(b)) return tf.scalar(op === '!==', 'bool');
      const [x, y] = isBool(a) ? [asBool(a), asBool(b)] : numericPair(a, b, false);
      return op === '===' ? tf.equal(x, y) : tf.notEqual(x, y);
    }
    case '==': case '!=': {
      const [x, y] = isBool(a) && isBool(b) ? [asBool(a), asBool(b)] : numericPair(a, b, false);
      return op === '==' ? tf.equal(x, y) : tf.notEqual(x, y);
    }
    case '<': case '<=': case '>': case '>=': {
      const [x, y] = numericPair(a, b, false);
      return op === '<' ? tf.less(x, y) : op === '<=' ? tf.lessEqual(x, y) : op === '>' ? tf.greater(x, y) : tf.greaterEqual(x, y);
    }
    case '+': case '-': case '*': {
      const [x, y] = numericPair(a, b, false);
      // A product int32 may wrap and float32 may round where JS's float64 is exact (an RNG's
      // `state * 16807`): another number than eager's, unless it is by a small integer (int32) or a
      // power of two (float32). A term beyond 2^24 likewise.
      const constant = 'number' in a ? a.number : 'number' in b ? b.number : undefined;
      if (op === '*' && !exactFactor(constant, x.dtype)) inexactOperation = true;
      // (By a constant beyond 256, an LCG's multiplier: a product of two promoted counters, `i * j`, is left to the
      // inexact checks of returns and conditions.)
      if (op === '*' && x.dtype === 'int32' && constant !== undefined && !exactFactor(constant, 'int32')) wrapOperation = true;
      if (op !== '*' && constant !== undefined && Math.abs(constant) > 2 ** 24) inexactOperation = true;
      return op === '+' ? tf.add(x, y) : op === '-' ? tf.sub(x, y) : tf.mul(x, y);
    }
    case '/': case '**': {
      const [x, y] = numericPair(a, b, true);
      // A quotient or power in float32 is another number than JS's float64 one (but x / 2^k).
      const promoted = ('tensor' in a ? promotionOf(a.tensor) : undefined) ?? ('tensor' in b ? promotionOf(b.tensor) : undefined);
      const byPowerOfTwo = op === '/' && 'number' in b && Number.isInteger(Math.log2(Math.abs(b.number)));
      if (promoted !== undefined && !byPowerOfTwo) inexactOperation = true;
      return op === '/' ? tf.div(x, y) : tf.pow(x, y);
    }
    case '%': {
      if (isIntegerRemainder(a, b)) return intRemainder(...numericPair(a, b, false));
      // JS's remainder takes the sign of the dividend: x - y * trunc(x / y); x % ±Infinity is x.
      const [x, y] = numericPair(a, b, true);
      const q = tf.div(x, y);
      const trunc = tf.mul(tf.sign(q), tf.floor(tf.abs(q)));
      const r = tf.sub(x, tf.mul(y, trunc));
      return tf.where(tf.logicalAnd(tf.isInf(y), tf.isFinite(x)), x, r);
    }
    default:
      throw userError(new StagingError(`autograph-ts: the bitwise operator \`${op}\` on a tensor cannot be staged${where()}; ` +
        'use tfjs ops.'));
  }
}

/**
 * An integer counter modulo a nonzero JS integer (`this.pos % n`): an integer, as JS gives it (an
 * index eagerly), so int32 — the float formula would make it float32, which tfjs refuses as an index.
 * (A zero or tensor divisor may give NaN: float32.)
 */
function isIntegerRemainder(a: Operand, b: Operand): boolean {
  const intTensor = (o: Operand): boolean => 'tensor' in o && (o.tensor.dtype === 'int32' || o.tensor.dtype === 'bool');
  return intTensor(a) && 'number' in b && isInt32(b.number) && b.number !== 0;
}

/** JS's remainder of int32 tensors: tf.mod's (the divisor's sign) moved to the dividend's sign. */
function intRemainder(x: tf.Tensor, y: tf.Tensor): tf.Tensor {
  const r = tf.mod(x, y);
  const otherSign = tf.logicalAnd(tf.notEqual(r, tf.scalar(0, 'int32')), tf.notEqual(tf.less(r, tf.scalar(0, 'int32')), tf.less(x, tf.scalar(0, 'int32'))));
  return tf.where(otherSign, tf.sub(r, y), r);
}

function asBool(o: Operand): tf.Tensor {
  return 'tensor' in o ? o.tensor : tf.scalar('boolean' in o ? o.boolean : o.number !== 0, 'bool');
}
