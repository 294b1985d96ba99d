/**
 * List values at run time (the executor's side of the graph's List nodes).
 *
 * A list is a persistent stack: each PushBack makes one new cell that points at the list it
 * extends, so push and pop are O(1) and never change a list another value still holds (lists are
 * values, as TF's TensorLists are). Cells are reference counted like the backend's tensors: the
 * executor shares a list where it would take a reference to a tensor and releases it where it
 * would release one; the last release of a cell releases its element and the rest of the list.
 * PopFront and SetItem make new cells above the part of the list they keep (O(length)).
 * A cell may hold no element (a hole: `xs[5] = v` past the end of a JS array leaves undefined
 * before it); reading one is the executor's error, as eager code would read undefined.
 */
export class ListValue<T = unknown> {
  /** References held by frames, loop variables and longer lists. */
  refs = 1;

  private constructor(readonly item: T | undefined, readonly rest: ListValue<T> | undefined, readonly length: number) {}

  static empty<T>(): ListValue<T> {
    return new ListValue<T>(undefined, undefined, 0);
  }

  /** A new list: this one plus `item` (whose reference the new list takes over). */
  push(item: T): ListValue<T> {
    this.refs++;
    return new ListValue(item, this, this.length + 1);
  }

  /** The element at `index` (0 = the first pushed); the caller checked 0 <= index < length. */
  at(index: number): T {
    let cell: ListValue<T> = this;
    for (let k = this.length - 1; k > index; k--) cell = cell.rest!;
    return cell.item as T;
  }

  /** The list of the first `n` elements (a cell of this one; the caller shares it to keep it). */
  prefix(n: number): ListValue<T> {
    if (n === 0) return ListValue.empty<T>();
    let cell: ListValue<T> = this;
    while (cell.length > n) cell = cell.rest!;
    return cell;
  }

  /** A new list: `base` (whose reference the new list takes over) then `items` (undefined: a hole),
   * each item's reference taken over. */
  static over<T>(base: ListValue<T>, items: readonly (T | undefined)[]): ListValue<T> {
    let list = base;
    for (const item of items) list = new ListValue<T>(item, list, list.length + 1);
    return list;
  }

  /** Whether the element at `index` is a hole (0 <= index < length). */
  isHole(index: number): boolean {
    let cell: ListValue<T> = this;
    for (let k = this.length - 1; k > index; k--) cell = cell.rest!;
    return cell.item === undefined;
  }

  /** The elements, first pushed first. */
  items(): T[] {
    const out = new Array<T>(this.length);
    let cell: ListValue<T> = this;
    for (let k = this.length - 1; k >= 0; k--, cell = cell.rest!) out[k] = cell.item as T;
    return out;
  }

  /** The last element and the list without it; the caller gets no references (share what it keeps). */
  pop(): { rest: ListValue<T>; item: T } {
    if (this.length === 0 || this.rest === undefined) {
      throw new Error('autograph-ts internal: TensorListPopBack on an empty list');
    }
    return { rest: this.rest, item: this.item as T };
  }
}

/**
 * Drops one reference to `list`; cells no longer referenced release their element (iteratively:
 * lists can be long). Elements pushed with countListElement are counted out of listMemory.
 */
export function releaseList<T>(list: ListValue<T>, releaseItem: (item: T) => void): void {
  let cell: ListValue<T> | undefined = list;
  while (cell !== undefined && --cell.refs === 0) {
    if (cell.length > 0 && cell.item !== undefined) {
      countListElement(cell.item, -1);
      releaseItem(cell.item as T);
    }
    cell = cell.rest;
  }
}

/**
 * Elements held by all live list cells, and the peak since the last reset: what accumulating
 * intermediates for a backward pass costs (read by specs and the benchmark).
 */
export const listMemory = { elements: 0, bytes: 0, peakElements: 0, peakBytes: 0 };

export function resetListMemoryPeak(): void {
  listMemory.peakElements = listMemory.elements;
  listMemory.peakBytes = listMemory.bytes;
}

const BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1, complex64: 8 };

function bytesOf(item: unknown): number {
  if (item instanceof ListValue) return 0;
  const { shape, dtype } = item as { shape: readonly number[]; dtype: string };
  let size = BYTES[dtype] ?? 4;
  for (let i = 0; i < shape.length; i++) size *= shape[i];
  return size;
}

/** Counts an element into (1) or out of (-1) listMemory. */
export function countListElement(item: unknown, sign: 1 | -1): void {
  listMemory.elements += sign;
  listMemory.bytes += sign * bytesOf(item);
  if (listMemory.elements > listMemory.peakElements) listMemory.peakElements = listMemory.elements;
  if (listMemory.bytes > listMemory.peakBytes) listMemory.peakBytes = listMemory.bytes;
}
