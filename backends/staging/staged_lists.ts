/**
 * Arrays of tensors that staged loops grow, as list values of the graph (TF's TensorLists).
 *
 * A converted function wraps each array that the checker types as possibly holding tensors and
 * that a converted statement changes in place (`const tokens = ag__.newList([tok])`). Outside a
 * trace that is the array itself; while stage() traces, it is a StagedArray: a proxy that is the
 * array (array mode) until a staged loop changes its length. From then on (list mode) its value is
 * a TracedList — a graph value, carried as loop state like a tensor — and the proxy answers push,
 * pop, length, [i] and at(i) with List nodes; tf.stack / tf.concat of it are TensorListStack /
 * TensorListConcat (list_joins.ts); `for...of` over it is a staged loop (control_flow.ts).
 * Anything else that would need its JS contents is a StagingError naming the array: the length of
 * a list is known only when the graph runs.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { OperatorOptions } from '../../runtime/options';
import { at, StagingError, StructureChange, userFrame } from '../common/errors';
import { OPAQUE_LEAF } from '../common/nest';
import { listMethod } from './list_methods';
import type { ListNode, ListOp, TensorSpec, ValueRef } from '../graph/graph';
import { describeValue, zerosOf } from './staged_values';
import { joinOperands } from './list_joins';
import { isTapeOn } from './tape';
import { ListElements, ListElementUnknown } from './list_elements';
import { readByUserCode } from './user_reads';
import { arrayItem, ITEM_AT, markPromoted, promotionOf, SET_AT, STAGED_LIST } from '../../runtime/promoted_values';
import { callAsLibrary, ownCode } from '../../runtime/library_code';
import { isRecord, type RecordShape, RecordLists, RecordsLearnt, recordShapeOf } from './record_lists';

/**
 * A list value while tracing. It is a TensorInfo so that the tracer's tables and captures treat it
 * like a tensor (its identity is its dataId); `listSpec` is its spec in the graph, shared by every
 * node that holds this value, so that an element spec learned later (a list that starts empty)
 * reaches them all.
 */
export class TracedList implements tf.TensorInfo {
  readonly dataId = {};
  readonly shape: number[] = [];
  readonly dtype = 'float32' as const;

  constructor(readonly listSpec: TensorSpec & { list: 1 }, public known: boolean) {}

  static empty(): TracedList {
    return new TracedList({ shape: [], dtype: 'float32', list: 1 }, false);
  }

  static of(element: { shape: readonly number[]; dtype: tf.DataType }): TracedList {
    return new TracedList({ shape: [...element.shape], dtype: element.dtype, list: 1 }, true);
  }

  /** Another value of the same type (a loop parameter, a loop's output). */
  fresh(): TracedList {
    return new TracedList(this.listSpec, this.known);
  }

  get element(): TensorSpec | undefined {
    return this.known ? { shape: this.listSpec.shape, dtype: this.listSpec.dtype } : undefined;
  }

  /** Learns the element spec of a list that started empty, or dims that differ between elements
   * (for the loop's second trace). */
  learn(element: TensorSpec): void {
    this.listSpec.shape = [...element.shape];
    this.listSpec.dtype = element.dtype;
    this.known = true;
  }
}

export function describeList(list: TracedList): string {
  const e = list.element;
  return e ? `a list of ${e.dtype} tensors of shape [${e.shape.map((d) => (d < 0 ? '?' : d)).join(', ')}]`
    : 'an empty list of tensors';
}


/** What the list recorder needs of the trace it records into: the Tracer's (kept apart so that tracer.ts can own a recorder). */
export interface ListTrace {
  resolve(info: tf.TensorInfo): ValueRef;
  makeConstant(values: tf.TensorLike, shape: number[], dtype: tf.DataType): tf.Tensor;
  onTensorMade(t: tf.Tensor, evenIfPaused?: boolean): void;
  defineAtSite(node: ListNode, outputs: readonly tf.TensorInfo[]): ValueRef[];
  /** Whether the trace is inside a staged statement (a branch or a loop body), not at the function's top level. */
  readonly nested: boolean;
}

/** The List nodes of one trace, recorded with the tracer (each at the user's line). */
export class ListRecorder {
  /**
   * Data of tensors whose dims depend on a list's length (a stack or concat of a list, and what
   * kernels compute from it), with what they come from: their shapes are guarded (guardShape).
   */
  private readonly unknownDims = new WeakMap<object, string>();
  /** Whether unknownDims has an entry (a WeakMap has no size). */
  private anyUnknownDims = false;
  /**
   * Lists of JS numbers (by their ag__.newList origin) that hold a fraction somewhere in the
   * function: an earlier trace pushed an integer first and a fraction later (ListWidening), so this
   * one makes every element float32 from the start, as JS keeps one kind of number.
   */
  widened: ReadonlySet<string> = new Set();
  /** The element specs of lists read before their first push (list_elements.ts). */
  readonly elements = new ListElements();
  /** The shapes of lists of records (by their ag__.newList origin) that earlier traces learnt (record_lists.ts). */
  records: ReadonlyMap<string, RecordShape> = new Map();

  constructor(private readonly tracer: ListTrace) {}

  /** Whether the trace is inside a staged statement (ListTrace.nested). */
  inStagedStatement(): boolean {
    return this.tracer.nested;
  }

  /** A kernel ran: outputs computed from a tensor of unknown dims have unknown dims too. */
  onKernel(op: string, inputs: readonly tf.TensorInfo[], outputs: readonly tf.TensorInfo[]): void {
    if (!this.anyUnknownDims) return; // (every kernel of every trace: most have no list)
    const from = inputs.map((t) => this.unknownDims.get(t.dataId)).find((w) => w !== undefined);
    if (from === undefined) return;
    // tfjs gives these as many outputs as the traced dims say (tf.unstack, tf.split into n pieces):
    // the count would be the placeholder's, not the list's length.
    if (op === 'Unpack' || op === 'SplitV') {
      throw new StagingError(`autograph-ts: ${op === 'Unpack' ? 'tf.unstack' : 'tf.split'} of a tensor computed from ` +
        `${from}${where()}: how many pieces it gives depends on the length of a list, known only when the graph runs. ` +
        'Iterate over the list itself (for...of), or index it.');
    }
    for (const o of outputs) this.unknownDims.set(o.dataId, from);
  }

  /** A tensor was made (by the engine, for a kernel's output): guard its shape if it depends on a list's length. */
  onTensorMade(t: tf.Tensor): void {
    if (!this.anyUnknownDims) return;
    const from = this.unknownDims.get(t.dataId);
    if (from !== undefined && !guarded.has(t)) guardShape(t, undefined, `a tensor computed from ${from}`);
  }

  /** A list holding `items` (tensors of one dtype and shape), made in the current graph. */
  fromItems(items: tf.Tensor[], name: string): TracedList {
    let list = TracedList.empty();
    this.record('EmptyTensorList', [], [list]);
    for (const item of items) list = this.push(list, item, name);
    return list;
  }

  /**
   * An element of a list of JS numbers or booleans (`number[]`): a JS value becomes a scalar of the
   * dtype a promoted counter would have (bool for a boolean, int32 for an integer, else float32); a
   * promoted value (already a tensor) must be a scalar of one of those dtypes.
   */
  scalar(item: unknown, name: string, list: TracedList | undefined, widened = false): tf.Tensor {
    let t: tf.Tensor;
    if (typeof item === 'boolean') t = this.tracer.makeConstant([item ? 1 : 0], [], 'bool');
    else if (typeof item === 'number') t = this.tracer.makeConstant([item], [], isInt32(item) ? 'int32' : 'float32');
    else if (item instanceof tf.Tensor && item.rank === 0 && ['int32', 'float32', 'bool'].includes(item.dtype)) t = item;
    else {
      throw new StagingError(`autograph-ts: '${name}' is an array of numbers or booleans that a staged statement grows (a ` +
        `list of scalars in the staged graph), but ${describeValue(item)} is put in it${where()}.`);
    }
    // An integer pushed to a list of fractional numbers is the same JS number as a float32.
    return (widened || list?.element?.dtype === 'float32') && t.dtype === 'int32' ? tf.cast(t, 'float32') : t;
  }

  /** A new empty list of `list`'s type (the value of a branch that throws). */
  emptyLike(list: TracedList): TracedList {
    const empty = list.fresh();
    this.record('EmptyTensorList', [], [empty]);
    return empty;
  }

  push(list: TracedList, item: unknown, name: string, scalars = false): TracedList {
    const next = this.accept(list, item, name, scalars);
    this.record('TensorListPushBack', [this.tracer.resolve(list), this.tracer.resolve(item as tf.Tensor)], [next]);
    return next;
  }

  /** `list[index] = item` (a JS integer >= 0 or an int32 scalar; past the end the list grows, with holes between, as
   * JS does). `list` itself is unchanged. */
  setItem(list: TracedList, index: number | tf.Tensor, item: unknown, name: string, scalars = false): TracedList {
    const i = this.index(list, index, name, true);
    const next = this.accept(list, item, name, scalars);
    this.record('TensorListSetItem', [this.tracer.resolve(list), this.tracer.resolve(i), this.tracer.resolve(item as tf.Tensor)], [next]);
    return next;
  }

  /** The first element, and the list without it (`shift()`). */
  shift(list: TracedList, name: string): [TracedList, tf.Tensor] {
    return this.takeOne(list, name, 'shift()', 'TensorListPopFront');
  }

  /** The list value after `item` goes into `list` (its spec, learnt or relaxed), or a StagingError naming why it cannot. */
  private accept(list: TracedList, item: unknown, name: string, scalars: boolean): TracedList {
    const promotion = scalars ? undefined : promotionOf(item);
    if (promotion !== undefined) {
      throw new StagingError(`autograph-ts: '${promotion.name}' is pushed to '${name}'${where()}, a list of tensors in the ` +
        `staged graph, but eagerly it is a JS ${item instanceof tf.Tensor && item.dtype === 'bool' ? 'boolean' : 'number'}: ` +
        `it changes in a loop staged on a tensor condition, which carries it as a tensor. Push a tensor ` +
        `(e.g. tf.scalar(${promotion.name})) to a tf.Tensor[], or push it to a number[] (a list of numbers).`);
    }
    if (!(item instanceof tf.Tensor)) {
      throw new StagingError(`autograph-ts: '${name}' is a list of tensors in the staged graph, but ${describeValue(item)} ` +
        `is pushed to it${where()}: only tensors (of one dtype and shape) can be pushed to an array that a staged loop grows.`);
    }
    const element = list.element;
    if (element !== undefined && element.dtype !== item.dtype && scalars) {
      throw new StagingError(`autograph-ts: '${name}' holds ${describeNumbers(element.dtype)} in the staged graph (a list of ` +
        `${element.dtype} scalars), and ${describeNumbers(item.dtype)} is pushed to it${where()}: a list in the graph holds ` +
        'one dtype, and the value would change. Start it with a value of the kind it will hold (e.g. a fractional ' +
        'number first: integers pushed after it are exact), or push float32 tensors to a tf.Tensor[].');
    }
    if (element !== undefined && element.dtype !== item.dtype) {
      throw new StagingError(`autograph-ts: the elements of '${name}' change dtype${where()}: ${describeValue(item)} is ` +
        `pushed to ${describeList(list)}. A list in a staged graph holds tensors of one dtype: cast it first ` +
        `(e.g. \`.cast('${element.dtype}')\`).`);
    }
    if (element !== undefined && element.shape.length !== item.rank) {
      throw new StagingError(`autograph-ts: the elements of '${name}' change rank${where()}: ${describeValue(item)} is ` +
        `pushed to ${describeList(list)}. A list in a staged graph holds tensors of one rank: reshape it first.`);
    }
    // The first element of a list made empty gives the empty list's spec its type too (the
    // EmptyTensorList node's: an ONNX SequenceEmpty is typed).
    if (element === undefined) list.learn({ shape: [...item.shape], dtype: item.dtype });
    // Dims that differ between elements are unknown (-1) in the list's spec.
    return TracedList.of(element === undefined ? item : { shape: relaxedShape(element.shape, item.shape), dtype: item.dtype });
  }

  /**
   * A list the staged function returns, stacked with one zeros element appended: when the graph
   * runs the list may be empty, which tf.stack refuses (as it does eagerly); the caller drops the
   * extra element (ReturnedList). Lists are values: `list` itself is unchanged.
   */
  stackReturned(list: TracedList, name: string): tf.Tensor {
    // (A list that held JS values is read back as JS values: the zeros padding is one more of them.)
    const element = this.elementOf(list, name, 'returning', true);
    const padding = this.tracer.makeConstant(zerosOf(element), [...element.shape], element.dtype);
    return this.join(this.push(list, padding, name), 'TensorListStack', 0, name);
  }

  /** The last element, and the list without it (`pop()`). */
  pop(list: TracedList, name: string): [TracedList, tf.Tensor] {
    return this.takeOne(list, name, 'pop()', 'TensorListPopBack');
  }

  /** An element taken off one end of `list` by `op`, and the rest (lists are values: `list` is unchanged). */
  private takeOne(list: TracedList, name: string, what: string, op: 'TensorListPopFront' | 'TensorListPopBack'): [TracedList, tf.Tensor] {
    const element = this.elementOf(list, name, what, true);
    const rest = list.fresh();
    const item = this.placeholder(element);
    this.record(op, [this.tracer.resolve(list)], [rest, item]);
    return [rest, item];
  }

  length(list: TracedList, name: string): tf.Tensor {
    const n = this.placeholder({ shape: [], dtype: 'int32' });
    this.record('TensorListLength', [this.tracer.resolve(list)], [n]);
    // Using it as a JS number (an index, Array(n), ===) would need its value now: the transformer
    // routes such reads of `xs.length` through ag__.plainValue, and the mark refuses the rest.
    return markPromoted(n, `${name}.length`, undefined, name);
  }

  /** list[index]: `index` a JS integer (from the front; negative counts from the end, as `at`) or a tensor. */
  getItem(list: TracedList, index: number | tf.Tensor, name: string): tf.Tensor {
    const element = this.elementOf(list, name, `${name}[i]`, true);
    const i = this.index(list, index, name, false);
    const item = this.placeholder(element);
    this.record('TensorListGetItem', [this.tracer.resolve(list), this.tracer.resolve(i)], [item]);
    return item;
  }

  /** An index into `list` as an int32 scalar: a JS integer (`written`: from 0 on; read: negative counts from the end, as `at`) or a tensor. */
  private index(list: TracedList, index: number | tf.Tensor, name: string, written: boolean): tf.Tensor {
    if (index instanceof tf.Tensor) {
      if (index.rank !== 0 || index.dtype === 'bool' || index.dtype === 'string') {
        throw new StagingError(`autograph-ts: the index into '${name}' is ${describeValue(index)}${where()}; a list ` +
          'in a staged graph is indexed by a number or a scalar tensor.');
      }
      return index.dtype === 'int32' ? index : tf.cast(index, 'int32');
    }
    if (written && !(Number.isInteger(index) && index >= 0 && index < 2 ** 31 - 1)) {
      throw new StagingError(`autograph-ts: '${name}[${index}]' is assigned${where()}: '${name}' is a list in the staged graph, ` +
        'whose elements are at the integers from 0 (eagerly this would set a property, not an element).');
    }
    if (index < 0) return tf.add(this.length(list, name), tf.scalar(index, 'int32'));
    return this.tracer.makeConstant([index], [], 'int32');
  }

  /** tf.stack(list, axis) / tf.concat(list, axis). */
  join(list: TracedList, op: 'TensorListStack' | 'TensorListConcat', axis: number, name: string): tf.Tensor {
    const what = op === 'TensorListStack' ? 'tf.stack' : 'tf.concat';
    const element = this.elementOf(list, name, what, false);
    const rank = element.shape.length + (op === 'TensorListStack' ? 1 : 0);
    const a = axis < 0 ? axis + rank : axis;
    if (!(a >= 0 && a < rank) || (op === 'TensorListStack' && a !== 0)) {
      throw new StagingError(`autograph-ts: ${what}(${name}, ${axis})${where()}: a list that a staged loop grows is ` +
        `${op === 'TensorListStack' ? 'stacked along axis 0 only (transpose the result)' : `concatenated along an axis of its elements (rank ${element.shape.length})`}.`);
    }
    // Elements whose dims differ can only be concatenated, along the one axis where they differ.
    const differing = element.shape.flatMap((d, k) => (d < 0 ? [k] : []));
    if (differing.length > 0 && (op === 'TensorListStack' || differing.some((k) => k !== a))) {
      throw new StagingError(`autograph-ts: ${what}(${name}${axis ? `, ${axis}` : ''})${where()}: the elements of ` +
        `'${name}' differ in dim ${differing.join(', ')} (${describeList(list)}), so they can only be concatenated along ` +
        `${differing.length === 1 ? `axis ${differing[0]}` : 'one axis'}.`);
    }
    // The joined axis has a length known only when the graph runs (-1 in the spec); the trace
    // goes on with a placeholder of length 1 there.
    const shape = op === 'TensorListStack' ? [-1, ...element.shape] : element.shape.map((d, k) => (k === a ? -1 : d));
    const traceShape = (op === 'TensorListStack' ? [1, ...element.shape] : element.shape).map((d) => (d < 0 ? 1 : d));
    const out = this.placeholder({ shape: traceShape, dtype: element.dtype });
    this.record(op, [this.tracer.resolve(list)], [out], { axis: a }, [{ shape, dtype: element.dtype }]);
    guardShape(out, a, `${what}(${name})`);
    this.unknownDims.set(out.dataId, `${what}(${name})`);
    this.anyUnknownDims = true;
    return out;
  }

  /** The element spec, known (something was pushed); `exact`: with no unknown dims (to read an element). */
  private elementOf(list: TracedList, name: string, what: string, exact: boolean): TensorSpec {
    // Lists are not on tfjs's gradient tape: a value read from one would silently carry no gradient.
    if (isTapeOn()) {
      throw new StagingError(`autograph-ts: ${what} of '${name}'${where()} while a gradient is recorded inside the staged ` +
        'function (tf.grad, tf.valueAndGrad, tf.variableGrads, optimizer.minimize): gradients through a list of tensors ' +
        'are not staged. Take the gradient of the staged function from outside it (`tf.grad((x) => staged(x))`), or ' +
        'compute the value without the list.');
    }
    const element = list.element;
    if (element === undefined) {
      throw new StagingError(`autograph-ts: ${what} of '${name}'${where()}, an empty list in the staged graph whose element ` +
        'dtype and shape are not known yet: push to it first.');
    }
    if (exact && element.shape.some((d) => d < 0)) {
      throw new StagingError(`autograph-ts: ${what} of '${name}'${where()}: its elements differ in shape ` +
        `(${describeList(list)}), so an element has no one shape to trace with. Concatenate them (tf.concat) instead.`);
    }
    return element;
  }

  private placeholder(spec: TensorSpec): tf.Tensor {
    const t = this.tracer.makeConstant(zerosOf(spec), [...spec.shape], spec.dtype);
    this.tracer.onTensorMade(t, true);
    return t;
  }

  private record(op: ListOp, inputs: ValueRef[], outputs: tf.TensorInfo[], attrs?: ListNode['attrs'],
                 specs?: TensorSpec[]): void {
    const node: ListNode = {
      kind: 'List', op, inputs, outputs: specs ?? outputs.map((o) => (o instanceof TracedList ? o.listSpec
        : { shape: [...o.shape], dtype: o.dtype })),
    };
    if (attrs !== undefined) node.attrs = attrs;
    this.tracer.defineAtSite(node, outputs);
    for (const o of outputs) this.tracer.onTensorMade(o as tf.Tensor, true);
  }
}

/**
 * The result of tf.stack / tf.concat of a list has a dim that only the graph knows; the trace holds
 * a placeholder of length 1 there, and tensors computed from it have dims that depend on it. tfjs
 * reads shapes all the time (that is fine: its kernels run on the placeholders), but the user's
 * code reading such a dim (`out.shape[0]`, `out.size`) would bake a trace-time number into the
 * graph: that read is a StagingError. `dim`: the one unknown dim; undefined: any of them (a
 * computed tensor, whose dims may mix the unknown one with others).
 */
const guarded = new WeakSet<tf.Tensor>();

function guardShape(t: tf.Tensor, dim: number | undefined, what: string): void {
  const refuse = (read: string): StagingError => new StagingError(`autograph-ts: ${read} of ${what} is read${where()}, ` +
    `but ${dim === undefined ? 'its shape depends on' : `dim ${dim} of ${what} is`} the length of a list, known only when ` +
    'the graph runs. Compute with tensors instead (ops on the stacked tensor, or the list\'s length, an int32 tensor).');
  const shape = new Proxy(t.shape, {
    get: (target, key, receiver) => {
      if (typeof key === 'string' && (dim === undefined ? /^\d+$/.test(key) : key === String(dim)) && readByUserCode()) {
        throw refuse(`'shape[${key}]'`);
      }
      return Reflect.get(target, key, receiver);
    },
  });
  const size = t.size;
  guarded.add(t);
  Object.defineProperty(t, 'shape', { value: shape, configurable: true, writable: true });
  Object.defineProperty(t, 'size', {
    configurable: true,
    get: () => {
      if (readByUserCode()) throw refuse("'size'");
      return size;
    },
  });
}

/** `a` with -1 where `b` differs. */
export function relaxedShape(a: readonly number[], b: readonly number[]): number[] {
  return a.map((d, k) => (d === b[k] ? d : -1));
}

const isInt32 = (n: number): boolean => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 && !Object.is(n, -0);

function describeNumbers(dtype: tf.DataType): string {
  return dtype === 'bool' ? 'booleans' : dtype === 'int32' ? 'integers' : 'a number that is not an integer';
}

function where(): string {
  const frame = userFrame();
  return frame ? ` (${frame})` : '';
}

/**
 * A list of JS numbers that held integers gets a fraction (`out.push(0)`, later `out.push(0.5)`):
 * the graph's list has one dtype, so the function is traced again with this list float32 from its
 * first element (exact for the integers JS pushed first, up to 2^24). Raised as a StagingError so
 * that a branch or loop trace passes it on; the trace (backends/cache/trace.ts) catches it.
 */
export class ListWidening extends StagingError {
  constructor(readonly origin: string, name: string) {
    super(`autograph-ts: '${name}' (${origin}) holds integers and then a number that is not an integer: ` +
      'traced again with the list float32 from its first element.');
  }
}

// ---- the proxy --------------------------------------------------------------------------------

/** What a StagedArray is now: the array itself, or a list value of the graph. */
export class StagedArrayState {
  list: TracedList | undefined;
  /** A list of records (record_lists.ts): a list per leaf, in use while `inRecords`. */
  records: RecordLists | undefined;
  private inRecords = false;
  /** The array the user's code holds (stagedArray's proxy). */
  proxy: unknown[] | undefined;

  constructor(readonly target: unknown[], readonly name: string, readonly opts: OperatorOptions | undefined,
              private readonly lists: ListRecorder) {}

  get isList(): boolean {
    return this.list !== undefined || this.inRecords;
  }

  /** A list of records (record_lists.ts), in list mode. */
  get isRecords(): boolean {
    return this.inRecords;
  }

  /** The list value carried as state (a TracedList; a plain object of them for records), undefined in array mode. */
  get listValue(): TracedList | Record<string, tf.TensorInfo> | undefined {
    return this.inRecords ? this.records!.value : this.list;
  }

  set listValue(value: TracedList | Record<string, tf.TensorInfo> | undefined) {
    this.inRecords = value !== undefined && !(value instanceof TracedList);
    if (this.inRecords) this.records!.value = value as Record<string, tf.TensorInfo>;
    else this.list = value as TracedList | undefined;
  }

  /** Whether nothing was pushed to the list on any path the trace took (its element is not known). */
  get unknownElement(): boolean {
    return this.inRecords ? this.records!.unknownElement : this.list!.element === undefined;
  }

  /** The list's length, an int32 tensor (promoted: a JS number where read as one is refused by name). */
  length(): tf.Tensor {
    return this.inRecords ? this.records!.length() : this.lists.length(this.list!, this.name);
  }

  /** The last element, removed. */
  pop(): tf.Tensor {
    if (this.inRecords) return this.records!.pop() as tf.Tensor;
    this.knowElement('pop()');
    const [rest, item] = this.lists.pop(this.list!, this.name);
    this.list = rest;
    return this.scalars ? markPromoted(item, `${this.name}.pop()`, undefined, undefined, this.name) : item;
  }

  /** The first element, removed (`shift()`). */
  shift(): tf.Tensor {
    if (this.inRecords) return this.records!.shift() as tf.Tensor;
    this.knowElement('shift()');
    const [rest, item] = this.lists.shift(this.list!, this.name);
    this.list = rest;
    return this.scalars ? markPromoted(item, `${this.name}.shift()`, undefined, undefined, this.name) : item;
  }

  /** `xs[index] = item` (a JS value becomes a scalar in a list of JS values). */
  setItem(index: number | tf.Tensor, item: unknown): void {
    if (this.inRecords) return this.records!.setItem(index, item);
    if (isRecord(item) && !this.scalars && this.list!.element === undefined) this.learnRecords(item);
    const element = this.scalars ? this.scalar(item, this.list) : item;
    this.list = this.lists.setItem(this.list!, index, element, this.name, this.scalars);
    if (this.opts?.origin !== undefined) this.lists.elements.learn(this.opts.origin, this.list.element);
  }

  /** Whether a list made by a staged method (opts.learnsScalars) got a JS number or boolean (a promoted one too)
   * as its first element: it is a list of scalars. */
  private learntScalars = false;

  private learnScalars(item: unknown): void {
    if (this.opts?.learnsScalars !== true || this.learntScalars) return;
    this.learntScalars = typeof item === 'number' || typeof item === 'boolean' || promotionOf(item) !== undefined;
  }

  /** An array of JS numbers or booleans (`number[]`, ag__.newList's `scalars`, or learnt): as a list, its
   * elements are promoted scalars. */
  get scalars(): boolean {
    return this.opts?.scalars === true || this.learntScalars;
  }

  /** Element `index` of the list (a JS integer, negative from the end, or a scalar tensor); an element of a
   * list of JS values is a promoted value, refused where JS would need the number. */
  item(index: number | tf.Tensor): tf.Tensor {
    if (this.inRecords) return this.records!.item(index) as tf.Tensor;
    this.knowElement(`${this.name}[i]`);
    const item = this.lists.getItem(this.list!, index, this.name);
    return this.scalars ? markPromoted(item, `${this.name}[i]`, undefined, undefined, this.name) : item;
  }

  /** Appends `item` (a JS value becomes a scalar in a list of JS values). */
  push(item: unknown): void {
    if (this.inRecords) return this.records!.push(item);
    if (this.list!.element === undefined) this.learnScalars(item);
    if (isRecord(item) && !this.scalars && this.list!.element === undefined) this.learnRecords(item);
    const element = this.scalars ? this.scalar(item, this.list) : item;
    this.list = this.lists.push(this.list!, element, this.name, this.scalars);
    if (this.opts?.origin !== undefined) this.lists.elements.learn(this.opts.origin, this.list.element);
  }

  /**
   * Before a read of an element: a list nothing was pushed to yet gets the element spec an earlier
   * trace learnt from its pushes; without one the read is refused, and a staged loop around it goes
   * on as if it ran zero times to learn it (list_elements.ts).
   */
  private knowElement(what: string): void {
    const list = this.list!;
    if (list.element !== undefined) return;
    const origin = this.opts?.origin;
    const hint = origin === undefined ? undefined : this.lists.elements.hints.get(origin);
    if (hint !== undefined) return list.learn(hint);
    const message = `autograph-ts: ${what} of '${this.name}'${where()}, an empty list in the staged graph whose element ` +
      'dtype and shape are not known: it is read before anything is pushed to it, and no push after teaches them. Push ' +
      'to it first, or start it with an element.';
    if (origin === undefined) throw new StagingError(message);
    throw new ListElementUnknown(origin, message);
  }

  /** A JS number or boolean as an element of this list of them (a fraction after integers: ListWidening). */
  private scalar(item: unknown, list: TracedList | undefined): tf.Tensor {
    const origin = this.opts?.origin;
    const element = this.lists.scalar(item, this.name, list, origin !== undefined && this.lists.widened.has(origin));
    if (origin !== undefined && list?.element?.dtype === 'int32' && element.dtype === 'float32') {
      throw new ListWidening(origin, this.name);
    }
    return element;
  }

  /**
   * A record pushed to a list made before its elements were known: the list is one of records, and
   * the function is traced again with its shape known (record_lists.ts).
   */
  private learnRecords(record: Record<string, unknown>): never {
    const shape = recordShapeOf(record, this.name);
    const origin = this.opts?.origin;
    if (origin === undefined) {
      throw new StagingError(`autograph-ts: a record is pushed to '${this.name}'${where()}, a list of tensors that a staged ` +
        'loop grows; only an array declared in the converted function can hold records as it grows.');
    }
    throw new RecordsLearnt(origin, shape, this.name);
  }

  /** Makes the array a list of records of `shape`: a list per leaf (record_lists.ts), holding its current elements. */
  private toRecords(shape: RecordShape): void {
    this.records = RecordLists.make(shape, this.name, (path, scalars) => {
      const name = `${this.name}[i]${path}`;
      const origin = this.opts?.origin === undefined ? undefined : `${this.opts.origin}${path}`;
      const leaf = new StagedArrayState([], name, { ...(origin === undefined ? {} : { origin }), name, ...(scalars ? { scalars } : {}) }, this.lists);
      leaf.toList();
      return leaf;
    });
    this.inRecords = true;
    for (const record of this.target) this.records.push(record);
  }

  /**
   * Turns the array into a list value (a staged loop is about to change its length): its current
   * elements, which must be tensors of one dtype and shape, become the list's first elements (records
   * of them, a list of records: record_lists.ts).
   */
  toList(): void {
    if (this.isList) return;
    if (this.target.length > 0) this.learnScalars(this.target[0]);
    const hint = this.opts?.origin === undefined ? undefined : this.lists.records.get(this.opts.origin);
    if (hint !== undefined || (!this.scalars && isRecord(this.target[0]))) {
      return this.toRecords(hint ?? recordShapeOf(this.target[0] as Record<string, unknown>, this.name));
    }
    if (this.scalars) {
      let list = this.lists.fromItems([], this.name);
      for (const item of this.target) {
        const element = this.scalar(item, list);
        list = this.lists.push(list, element, this.name, true);
      }
      this.list = list;
      return;
    }
    this.target.forEach((item, k) => {
      if (!(item instanceof tf.Tensor)) {
        throw new StagingError(`autograph-ts: '${this.name}' holds ${describeValue(item)} at index ${k}, and a loop ` +
          `staged on a tensor condition changes its length${at(this.opts)}: only an array of tensors can grow in a ` +
          'staged loop (it becomes a list of tensors in the graph).');
      }
    });
    this.list = this.lists.fromItems(this.target as tf.Tensor[], this.name);
  }

  misuse(what: string): StagingError {
    if (this.inRecords) {
      return new StagingError(`autograph-ts: ${what} of '${this.name}'${where()}: '${this.name}' is a list of records in the ` +
        'staged graph (a list per field; a staged loop changes its length, which is known only when the graph runs). It ' +
        'supports push, pop, shift, length (an int32 tensor), [i], at(i) and [i] = v, map, reduce, filter and for...of.');
    }
    return new StagingError(`autograph-ts: ${what} of '${this.name}'${where()}: '${this.name}' is a list of tensors in ` +
      'the staged graph (a staged loop changes its length, which is known only when the graph runs). A list supports ' +
      'push, pop, shift, length (an int32 tensor), [i], at(i) and [i] = v, map, reduce, filter, slice, ' +
      'concat, tf.stack, tf.concat and for...of.');
  }

  /** The proxy's `get` in list mode. */
  get(key: string | symbol): unknown {
    if (this.inRecords) return this.recordsGet(key);
    const list = this.list!;
    // tfjs's tf.stack / tf.concat reading the list (list_joins.ts).
    const operands = joinOperands(list.element, (op, axis) => this.lists.join(this.list!, op, axis, this.name));
    if (operands !== undefined) {
      const value = Reflect.get(operands, key) as unknown;
      return typeof value === 'function' ? value.bind(operands) : value;
    }
    if (key === 'length') return this.length();
    if (typeof key === 'string' && /^(0|[1-9]\d*)$/.test(key)) return this.item(Number(key));
    switch (key) {
      case 'push':
        return (...items: unknown[]): tf.Tensor => {
          for (const item of items) this.push(item);
          return this.lists.length(this.list!, this.name);
        };
      case 'pop':
        return (): tf.Tensor => this.pop();
      case 'shift':
        return (): tf.Tensor => this.shift();
      case 'at':
        return (index: number | tf.Tensor): tf.Tensor => this.item(index);
      case OPAQUE_LEAF:
        return true; // one leaf of a structure (common/nest.ts): `return [n, tokens]` keeps the list whole
      case Symbol.iterator:
        throw this.misuse('iterating (a for...of that is not converted, a spread, Array.from: for a copy, use slice())');
      case 'map': case 'reduce': case 'slice': case 'concat':
        return listMethod(this.proxy!, this.name, key, this.scalars);
      default:
        // What an array has (its methods) needs its contents; other keys are absent, as on an
        // array (`instanceof tf.Tensor` asks for 'data', 'dataSync', ...).
        if (key in Array.prototype) throw this.misuse(typeof key === 'symbol' ? `using ${String(key)}` : `'${key}'`);
        return undefined;
    }
  }

  /** The proxy's `get` for a list of records: what a list answers, but slice and concat (a list made without an origin cannot learn a shape). */
  private recordsGet(key: string | symbol): unknown {
    if (key === 'length') return this.length();
    if (typeof key === 'string' && /^(0|[1-9]\d*)$/.test(key)) return this.item(Number(key));
    switch (key) {
      case 'push':
        return (...items: unknown[]): tf.Tensor => {
          for (const item of items) this.push(item);
          return this.length();
        };
      case 'pop': return (): unknown => this.pop();
      case 'shift': return (): unknown => this.shift();
      case 'at': return (index: number | tf.Tensor): unknown => this.item(index);
      case OPAQUE_LEAF: return true;
      case Symbol.iterator: throw this.misuse('iterating (a for...of that is not converted, a spread, Array.from)');
      case 'map': case 'reduce': return listMethod(this.proxy!, this.name, key, false);
      default:
        if (key in Array.prototype) throw this.misuse(typeof key === 'symbol' ? `using ${String(key)}` : `'${key}'`);
        return undefined;
    }
  }

  /** The proxy's `set` in list mode: `xs[i] = v` at a JS index is an element write. */
  set(key: string | symbol, value: unknown): boolean {
    if (typeof key === 'string' && /^(0|[1-9]\d*)$/.test(key)) {
      this.setItem(Number(key), value);
      return true;
    }
    throw this.misuse(key === 'length' ? 'setting the length' : `assigning '${String(key)}'`);
  }

  /** `xs[index] = item` at a tensor index (ag__.setListItem): in array mode the array becomes a list first (its
   * elements then at indices only the graph knows; a staged statement around it is staged again with it a list). */
  setAt(index: tf.Tensor, item: unknown): void {
    // Inside a staged statement the list must be made before it (from the values the statement starts with), not in a
    // branch or body, whose values do not reach past it: the statement that carries the array makes it a list and is
    // staged again (retryWithLists, as for a push).
    if (!this.isList && this.lists.inStagedStatement()) {
      throw new StructureChange(this.name, `autograph-ts: '${this.name}' is written at an index only the staged graph knows` +
        `${where()} in a statement staged on a tensor condition that does not carry it as state: declare it before that statement.`);
    }
    this.toList();
    this.setItem(index, item);
  }

  /**
   * `xs[index]` at a tensor index (ag__.listItem, `text` the user's expression): a list's element; in array mode a
   * gather from its elements (arrayItem). An empty array has none: a staged statement around the read that changes it
   * (a loop that pushes to it later) makes it a list and is staged again (StructureChange); without one, the error.
   */
  itemAt(index: tf.Tensor, text: string, origin?: string): unknown {
    if (this.isList) return this.inRecords ? this.records!.item(index) : this.item(index);
    if (this.target.length > 0) return arrayItem(this.proxy!, index, text, origin);
    throw new StructureChange(this.name, `autograph-ts: '${text}' is read at an index only the staged graph knows` +
      `${origin ? ` (${origin})` : ''}, but '${this.name}' is an empty JS array here, where eager JS reads undefined.`);
  }
}

const states = new WeakMap<object, StagedArrayState>();

/** The state of a StagedArray proxy (undefined for any other value). */
export function stagedArrayState(value: unknown): StagedArrayState | undefined {
  return typeof value === 'object' && value !== null ? states.get(value) : undefined;
}

/** A StagedArray over `items` (see the header). */
export function stagedArray(items: unknown[], name: string, opts: OperatorOptions | undefined, lists: ListRecorder): unknown[] {
  const state = new StagedArrayState(items, name, opts, lists);
  const refuse = (what: string) => (): never => {
    throw state.misuse(what);
  };
  const proxy = new Proxy(items, {
    // In list mode what the proxy answers (push, pop, at, length) is autograph-ts's code (library_code.ts).
    get: (target, key, receiver) => (key === STAGED_LIST ? state.isList
      : key === SET_AT ? ownCode((index: tf.Tensor, item: unknown) => state.setAt(index, item))
      : key === ITEM_AT ? ownCode((index: tf.Tensor, text: string, origin?: string) => state.itemAt(index, text, origin))
      : state.isList ? ownCode(callAsLibrary(state.get, state, [key])) : Reflect.get(target, key, receiver)),
    set: (target, key, value, receiver) => (state.isList ? callAsLibrary(state.set, state, [key, value])
      : Reflect.set(target, key, value, receiver)),
    has: (target, key) => (state.isList ? refuse(`'in' of ${String(key)}`)() : Reflect.has(target, key)),
    ownKeys: (target) => (state.isList ? refuse('listing the keys')() : Reflect.ownKeys(target)),
    deleteProperty: (target, key) => (state.isList ? refuse(`deleting '${String(key)}'`)() : Reflect.deleteProperty(target, key)),
    defineProperty: (target, key, desc) => (state.isList ? refuse(`defining '${String(key)}'`)()
      : Reflect.defineProperty(target, key, desc)),
  });
  states.set(proxy, state);
  state.proxy = proxy;
  return proxy;
}

/**
 * A list in a staged function's result: its elements stacked in the graph with one padding
 * element (ListRecorder.stackReturned), unstacked into a JS array after the call, padding dropped.
 */
export class ReturnedList {
  /** `scalars`: a list of JS numbers or booleans, read back as those. */
  constructor(readonly stacked: tf.Tensor, readonly scalars: boolean) {}
}

/**
 * fn's result with each list that a staged loop grew (`return tokens`) replaced by a ReturnedList
 * (arrays and plain objects copied on the way): eagerly the function returns a JS array of
 * tensors, so the staged call does too.
 */
export function withListsStacked(result: unknown, lists: ListRecorder): unknown {
  const seen = new Set<unknown>();
  const visit = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return value;
    const state = stagedArrayState(value);
    if (state?.isRecords) {
      return state.records!.returned((leaf) => new ReturnedList(lists.stackReturned(leaf.list as TracedList, (leaf as StagedArrayState).name),
        (leaf as StagedArrayState).scalars));
    }
    if (state?.isList) return new ReturnedList(lists.stackReturned(state.list!, state.name), state.scalars);
    seen.add(value);
    const proto = Object.getPrototypeOf(value);
    if (Array.isArray(value)) return value.map(visit);
    if (proto === Object.prototype || proto === null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v)]));
    }
    return value;
  };
  return visit(result);
}

/**
 * Whether a return value keeps `array` whole (`flatten(retval, keepReturnedArray)`): an array the
 * converted code made (ag__.newList), in array or list mode, is returned as itself, as eagerly —
 * `return [n, tokens]` on one path and `return [m, tokens]` on another give the same array.
 */
export function keepReturnedArray(array: unknown[]): boolean {
  return stagedArrayState(array) !== undefined;
}

/**
 * A leaf of a structure returned on another path, on a path that has not returned: "not returned"
 * (`sentinel`), but an array the code made (see keepReturnedArray) stays itself. Its contents are
 * state of the statements that change it, and once a path returns the statements after it are
 * guarded by the return flag: at the end it holds what it held when it was returned, on every path.
 */
export function notReturned(leaf: unknown, sentinel: unknown): unknown {
  return stagedArrayState(leaf) !== undefined ? leaf : sentinel;
}
