/**
 * Lists of records: an array of plain objects (`out.push({ v: t, k: i })`) that a staged statement
 * grows is a record of lists in the graph — one list per leaf of the record: a tensor leaf a list
 * of tensors, a JS number or boolean leaf (or a promoted one) a list of scalars, and a JS string
 * (or null/undefined) leaf a constant, which must be the same for every element. Reads (`out[i].v`,
 * `out.length`, for...of, map, pop) answer with a record of the leaves' reads; returned, the lists
 * are read back into the JS array of objects eager code returns (ReturnedRecords).
 *
 * The record's shape is learnt from its first element: an array that had records before the
 * statement knows it then; one that starts empty learns it at its first push, which throws
 * RecordsLearnt (keyed by the array's ag__.newList origin): the function is traced again with the
 * shape known from the start (backends/cache/trace.ts), as ListWidening does for numbers.
 */
import * as tf from '@tensorflow/tfjs-core';
import { StagingError, userFrame } from '../common/errors';
import { type Flat, flatten } from '../common/nest';
import { promotionOf } from '../../runtime/promoted_values';
import { describeValue } from './staged_values';

/** How a leaf of a record is held: a list of tensors, a list of scalars, or one JS value for all. */
type LeafKind = 'tensor' | 'scalar' | 'constant';

/** The shape every element of a list of records has (its first element's). */
export interface RecordShape {
  /** The containers (common/nest.ts `structure`), compared with each element's. */
  structure: string;
  /** Each leaf's path in the record (`.v`, `.bbox[0]`) and kind. */
  paths: string[];
  kinds: LeafKind[];
  rebuild: Flat['rebuild'];
}

/** What a list of records needs of one leaf's list (a StagedArrayState: kept apart, no import cycle). */
export interface LeafList {
  /** The graph's list value now (a TracedList), carried as state. */
  list: tf.TensorInfo | undefined;
  push(item: unknown): void;
  item(index: number | tf.Tensor): tf.Tensor;
  pop(): tf.Tensor;
  shift(): tf.Tensor;
  setItem(index: number | tf.Tensor, item: unknown): void;
  length(): tf.Tensor;
  /** Whether nothing was pushed to it on any path the trace took (its element is not known). */
  readonly unknownElement: boolean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The shape of `record`, an element of the list `name`; a leaf no list can hold is refused by name. */
export function recordShapeOf(record: Record<string, unknown>, name: string): RecordShape {
  const flat = flatten(record);
  const kinds = flat.leaves.map((leaf, k) => {
    if (leaf instanceof tf.Tensor) return promotionOf(leaf) === undefined ? 'tensor' : 'scalar';
    if (typeof leaf === 'number' || typeof leaf === 'boolean') return 'scalar';
    if (typeof leaf === 'string' || leaf === undefined || leaf === null) return 'constant';
    throw new StagingError(`autograph-ts: '${name}[i]${flat.paths[k]}' is ${describeValue(leaf)}${where()}, in a record ` +
      `pushed to '${name}', an array that a staged statement grows (a list per field in the staged graph): a field ` +
      'can hold a tensor, a JS number or boolean, or a string that is the same in every element.');
  });
  if (!kinds.some((k) => k !== 'constant')) {
    throw new StagingError(`autograph-ts: the records pushed to '${name}'${where()} hold no tensor, number or boolean: ` +
      'an array that a staged statement grows is a list per field in the staged graph, and strings alone have no list.');
  }
  return { structure: flat.structure, paths: flat.paths, kinds, rebuild: flat.rebuild };
}

/** The first push of a record to an array a trace made a list before it knew its elements: traced again. */
export class RecordsLearnt extends StagingError {
  constructor(readonly origin: string, readonly shape: RecordShape, name: string) {
    super(`autograph-ts: '${name}' (${origin}) is an array of records: traced again with a list per field.`);
  }
}

/** A list of records while tracing: one LeafList per tensor or number leaf, a constant for the others. */
export class RecordLists {
  /** The constant leaves' values, from the first element this trace saw. */
  private readonly constants = new Map<number, unknown>();

  constructor(readonly shape: RecordShape, private readonly leaves: (LeafList | undefined)[], private readonly name: string) {}

  /** A list of records of `shape`: `makeLeaf` makes each tensor or scalar leaf's list, named `name[i].path`. */
  static make(shape: RecordShape, name: string, makeLeaf: (path: string, scalars: boolean) => LeafList): RecordLists {
    const leaves = shape.kinds.map((kind, k) => (kind === 'constant' ? undefined : makeLeaf(shape.paths[k], kind === 'scalar')));
    return new RecordLists(shape, leaves, name);
  }

  /** The graph's values of the leaves' lists, by path: carried as state (a plain object of lists). */
  get value(): Record<string, tf.TensorInfo> {
    return Object.fromEntries(this.leaves.flatMap((leaf, k) => (leaf === undefined ? [] : [[this.shape.paths[k], leaf.list!]])));
  }

  set value(lists: Record<string, tf.TensorInfo>) {
    this.leaves.forEach((leaf, k) => {
      if (leaf !== undefined) leaf.list = lists[this.shape.paths[k]];
    });
  }

  get unknownElement(): boolean {
    return this.leaves.some((leaf) => leaf?.unknownElement === true);
  }

  push(record: unknown): void {
    this.leavesOf(record).forEach((leaf, k) => this.pushLeaf(k, leaf, (list) => list.push(leaf)));
  }

  /** `xs[index] = record`. */
  setItem(index: number | tf.Tensor, record: unknown): void {
    this.leavesOf(record).forEach((leaf, k) => this.pushLeaf(k, leaf, (list) => list.setItem(index, leaf)));
  }

  /** The leaves of `record` (its constants checked against the ones they must equal). */
  private leavesOf(record: unknown): unknown[] {
    const flat = isRecord(record) ? flatten(record) : undefined;
    if (flat === undefined || flat.structure !== this.shape.structure) {
      throw new StagingError(`autograph-ts: '${this.name}' is a list of records ${this.shape.structure} in the staged graph ` +
        `(a list per field), but ${flat === undefined ? describeValue(record) : `a record ${flat.structure}`} is pushed ` +
        `to it${where()}: every element must have the same fields.`);
    }
    flat.leaves.forEach((leaf, k) => {
      if (this.leaves[k] !== undefined) return;
      if (!this.constants.has(k)) this.constants.set(k, leaf);
      else if (this.constants.get(k) !== leaf) {
        throw new StagingError(`autograph-ts: '${this.name}[i]${this.shape.paths[k]}' is ${describeValue(leaf)} here${where()} ` +
          `and ${describeValue(this.constants.get(k))} in another element of '${this.name}', an array that a staged ` +
          'statement grows: a string field is one value for every element (the graph has no list of strings). ' +
          'Keep a number (an index into the strings) instead.');
      }
    });
    return flat.leaves;
  }

  /** Puts a leaf into its list (`put`), which must be of its kind; a constant leaf has none. */
  private pushLeaf(k: number, leaf: unknown, put: (list: LeafList) => void): void {
    const list = this.leaves[k];
    if (list === undefined) return;
    const tensorLeaf = this.shape.kinds[k] === 'tensor';
    if ((leaf instanceof tf.Tensor && promotionOf(leaf) === undefined) !== tensorLeaf) {
      throw new StagingError(`autograph-ts: '${this.name}[i]${this.shape.paths[k]}' is ${describeValue(leaf)}${where()}, ` +
        `but ${tensorLeaf ? 'a tensor' : 'a JS number or boolean'} in the first element of '${this.name}', an array that a ` +
        'staged statement grows (a list per field in the staged graph, of one kind).');
    }
    put(list);
  }

  item(index: number | tf.Tensor): unknown {
    return this.shape.rebuild(this.leaves.map((leaf, k) => (leaf === undefined ? this.constants.get(k) : leaf.item(index))));
  }

  pop(): unknown {
    return this.shape.rebuild(this.leaves.map((leaf, k) => (leaf === undefined ? this.constants.get(k) : leaf.pop())));
  }

  shift(): unknown {
    return this.shape.rebuild(this.leaves.map((leaf, k) => (leaf === undefined ? this.constants.get(k) : leaf.shift())));
  }

  length(): tf.Tensor {
    return this.leaves.find((leaf) => leaf !== undefined)!.length();
  }

  /** The value returned: each leaf's list stacked (by `stack`), the constants as they are. */
  returned(stack: (leaf: LeafList) => unknown): ReturnedRecords {
    return new ReturnedRecords(this.shape, this.leaves.map((leaf, k) => (leaf === undefined ? this.constants.get(k) : stack(leaf))));
  }
}

/** A list of records in a staged function's result: its leaves (returned lists and constants). */
export class ReturnedRecords {
  constructor(readonly shape: RecordShape, readonly leaves: unknown[]) {}
}

/**
 * A result's flat leaves with each ReturnedRecords spread into its own leaves (so that each list is
 * a graph result); `rebuild` takes the values read back (a JS array per list) and zips them into
 * the JS array of records eager code returns.
 */
export function withRecordsSpread(flat: Flat): Flat {
  if (!flat.leaves.some((leaf) => leaf instanceof ReturnedRecords)) return flat;
  const leaves = flat.leaves.flatMap((leaf) => (leaf instanceof ReturnedRecords ? leaf.leaves : [leaf]));
  const records = flat.leaves.map((leaf) => (leaf instanceof ReturnedRecords ? leaf : undefined));
  return {
    leaves,
    paths: flat.leaves.flatMap((leaf, i) => (leaf instanceof ReturnedRecords ? leaf.shape.paths.map((p) => `${flat.paths[i]}[i]${p}`) : [flat.paths[i]])),
    structure: `${flat.structure} with records ${records.map((r) => r?.shape.structure ?? '').join(',')}`,
    rebuild: (values) => {
      let next = 0;
      return flat.rebuild(records.map((record) => (record === undefined ? values[next++]
        : zipRecords(record.shape, record.leaves.map(() => values[next++])))));
    },
  };
}

/** The records whose leaves are `columns` (a JS array per list, the constant for the others). */
function zipRecords(shape: RecordShape, columns: unknown[]): unknown[] {
  const lists = shape.kinds.flatMap((kind, k) => (kind === 'constant' ? [] : [columns[k] as unknown[]]));
  return Array.from({ length: lists[0].length }, (_, i) =>
    shape.rebuild(columns.map((column, k) => (shape.kinds[k] === 'constant' ? column : (column as unknown[])[i]))));
}

function where(): string {
  const frame = userFrame();
  return frame ? ` (${frame})` : '';
}
