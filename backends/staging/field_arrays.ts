/**
 * Arrays held in fields of the objects a staged statement watches (observed_fields.ts) that it
 * changes: a callback's `this.epochs.push(epoch)` in a staged loop, `log.big.push(i)` under a
 * tensor if. Such an array is carried as an array the converted code made is (ag__.newList): the
 * field holds a StagedArray over it (staged_lists.ts), one of the statement's composites, which
 * becomes a list of the graph if the statement grows it. The outermost statement being traced
 * that watches the array carries it (an inner one that finds it grown hands it out with
 * FieldArrayGrown); statements inside it carry its StagedArray as one of their composites too.
 */
import type { OperatorOptions } from '../../runtime/options';
import { promotionOf } from '../../runtime/promoted_values';
import { StagingError, StructureChange } from '../common/errors';
import type { Field, FieldWatch } from './observed_fields';
import { stagedArray } from './staged_lists';
import type { TraceFacts } from './staged_values';
import type { Tracer } from './tracer';

/**
 * An array an enclosing statement watches was grown here: that statement carries it, and is traced
 * again. (A StagingError: a staged branch passes it on rather than staging it as the branch's throw.)
 */
export class FieldArrayGrown extends StagingError {
  constructor(readonly array: unknown[], readonly scalars: boolean) {
    super('autograph-ts internal: an array held in a field grew in a statement inside the one that carries it');
  }
}

interface CarriedArray {
  field: Field;
  array: unknown[];
  opts: OperatorOptions;
  /** Its StagedArray in the try under way. */
  current?: unknown[];
}

export class CarriedArrays {
  private readonly arrays: CarriedArray[] = [];
  /** Arrays a branch or an iteration grew (a StructureChange), with the values the statement gave them. */
  private readonly grownWith = new Map<unknown, readonly unknown[]>();
  /** StagedArrays an enclosing statement carries, held in fields this statement watches. */
  private readonly inherited: [string, unknown][];

  constructor(private readonly tracer: Tracer, private readonly facts: TraceFacts, private readonly watch: FieldWatch,
              private readonly opts: OperatorOptions | undefined) {
    this.inherited = watch.fieldValues().filter(([, v]) => facts.fieldLists.has(v));
  }

  /** The fields whose arrays this statement carries. */
  get fields(): Field[] {
    return this.arrays.map((a) => a.field);
  }

  /** Before a try: a new StagedArray over each carried array, in its field. */
  install(): void {
    for (const a of this.arrays) {
      if (a.current !== undefined) this.facts.fieldLists.delete(a.current);
      a.current = stagedArray(a.array, a.field.name, a.opts, this.tracer.lists);
      a.field.object[a.field.key] = a.current;
      this.facts.fieldLists.add(a.current);
    }
  }

  /** `opts` with the StagedArrays among the statement's composites. */
  options(opts: OperatorOptions | undefined): OperatorOptions | undefined {
    if (this.arrays.length === 0 && this.inherited.length === 0) return opts;
    const own = opts?.composites;
    return { ...opts, composites: () => ({ ...own?.(), ...Object.fromEntries(this.inherited),
      ...Object.fromEntries(this.arrays.map((a) => [a.field.name, a.current])) }) };
  }

  /**
   * After a try that ended with `failure` (if any): the arrays it changed that this statement is
   * to carry. One an enclosing statement watches goes out to it (FieldArrayGrown).
   */
  grown(failure: unknown): (Field & { array: unknown[]; scalars: boolean })[] {
    if (failure instanceof StructureChange) {
      const value = this.opts?.composites?.()[failure.variable];
      if (this.watch.holds(value)) this.grownWith.set(value, failure.values);
    }
    const handed = failure instanceof FieldArrayGrown && this.watch.holds(failure.array) ? failure : undefined;
    const changed = this.watch.changedArrays(this.fields, new Set([...this.facts.promotedPushes, ...this.grownWith.keys(),
      ...(handed ? [handed.array] : [])]));
    const grown = changed.map((g) => ({ ...g, scalars: (handed?.array === g.array && handed.scalars) ||
      this.facts.promotedPushes.has(g.array) || holdsScalars([g.seen, ...this.grownWith.get(g.array) ?? []]) }));
    const outer = grown.find((g) => this.facts.watches.slice(0, -1).some((w) => w.holds(g.array)));
    if (outer !== undefined) throw new FieldArrayGrown(outer.array, outer.scalars);
    return grown;
  }

  /** Carries `grown` from the next try on. */
  carry(grown: readonly (Field & { array: unknown[]; scalars: boolean })[]): void {
    for (const { array, scalars, name, object, key } of grown) {
      const opts = { name, ...(this.opts?.origin === undefined ? {} : { origin: `${this.opts.origin}:${name}` }), ...(scalars ? { scalars } : {}) };
      this.arrays.push({ field: { name, object, key }, array, opts });
    }
  }
}

/** Whether arrays among `values` hold JS numbers or booleans (or promoted ones) and nothing else. */
function holdsScalars(values: readonly unknown[]): boolean {
  const items = values.flatMap((v) => (Array.isArray(v) ? v : []));
  const scalar = (v: unknown): boolean => typeof v === 'number' || typeof v === 'boolean' || promotionOf(v) !== undefined;
  return items.length > 0 && items.every(scalar);
}
