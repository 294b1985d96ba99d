/**
 * The element spec of a list read before anything is pushed to it (`for (let j = kept.length - 1;
 * j >= 0; --j) ... kept[j]` in a staged loop that pushes to `kept` after): the read runs zero times
 * while the list is empty, but a trace must give it a dtype and shape. The first trace goes on as
 * if the staged loop around the read ran zero times, learns the element spec from the pushes that
 * come later, and is thrown away: the function is traced again with that spec known from the start,
 * keyed by the list's `ag__.newList` origin (as ListWidening retraces a list of numbers float32).
 * Where no push teaches it, the read is refused at its line.
 */
import type { TensorSpec } from '../graph/graph';
import { StagingError } from '../common/errors';

/** A read of an element of a list whose element spec is not known yet (nothing pushed). */
export class ListElementUnknown extends StagingError {
  constructor(readonly origin: string, message: string) {
    super(message);
  }
}

/** Raised at the end of a trace that skipped reads of lists it then learnt the elements of: traced again. */
export class ListElementsLearnt extends StagingError {
  constructor(readonly elements: ReadonlyMap<string, TensorSpec>) {
    super(`autograph-ts: lists read before their first push (${[...elements.keys()].join(', ')}): traced again with their element specs.`);
  }
}

/** What one trace knows and learns of the element specs of lists, by their newList origin. */
export class ListElements {
  /** Learnt by earlier traces of the function: given to a list read before its first push. */
  hints: ReadonlyMap<string, TensorSpec> = new Map();
  /** Reads this trace skipped (the staged loop around them as if it ran zero times), the first per list. */
  private readonly skipped = new Map<string, ListElementUnknown>();
  /** The first element spec each list got in this trace. */
  private readonly learnt = new Map<string, TensorSpec>();

  /** A staged loop may go on as if it ran zero times: the trace is then provisional (see finish). */
  skip(error: ListElementUnknown): void {
    if (!this.skipped.has(error.origin)) this.skipped.set(error.origin, error);
  }

  /** A list got an element (a push): the first spec per list is kept. */
  learn(origin: string, element: TensorSpec | undefined): void {
    if (element !== undefined && !this.learnt.has(origin)) this.learnt.set(origin, { shape: [...element.shape], dtype: element.dtype });
  }

  /** At the end of a trace (or when it failed after a skip): nothing, ListElementsLearnt to trace again, or the first read no push taught. */
  finish(): void {
    if (this.skipped.size === 0) return;
    const unknown = [...this.skipped].find(([origin]) => !this.learnt.has(origin));
    if (unknown !== undefined) throw unknown[1];
    throw new ListElementsLearnt(new Map([...this.skipped.keys()].map((origin) => [origin, this.learnt.get(origin)!])));
  }
}
