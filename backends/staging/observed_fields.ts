/**
 * Fields of the objects a staged statement reads (opts.observed: class instances and plain objects
 * of the user's types, `this` too) and of the objects held in their fields (`cb.model`:
 * reachable_objects.ts) that code it calls changes while a branch or a loop body is traced:
 * `c.bump()` assigning `this.n`, a sampler's `next()` advancing `this.pos`, a callback's
 * `onBatchEnd()` assigning `this.model.stop`. The transformer cannot see such a change; left alone, the field
 * would keep whatever the last trace left in it (the if branch's value, on a run that takes the
 * else branch). So the fields are compared before and after, and the statement is staged again
 * with each changed field carried as state, like a variable: a tensor as a tensor, a number or a
 * boolean promoted (read back where the function returns it).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { OperatorOptions } from '../../runtime/options';
import { StagingError } from '../common/errors';
import { type Reached, reachableObjects } from './reachable_objects';
import { stagedArrayState } from './staged_lists';

/** A field carried as state: `name` is how errors name it (`c.n`, `this.pos`). */
export interface Field {
  name: string;
  object: Record<string, unknown>;
  key: string;
}

interface Watched extends Field {
  present: boolean;
  value: unknown;
}

/** An array held in a field of a watched object (`this.epochs`), with its elements when the watch began. */
interface WatchedArray extends Field {
  array: unknown[];
  items: unknown[];
}

export class FieldWatch {
  private readonly objects: Reached[];
  private readonly watched: Watched[];
  private readonly arrays: WatchedArray[];
  private readonly typed: { name: string; array: ArrayLike<number>; items: number[] }[];

  /** `stateNames`: what the statement already carries (a field the transformer saw, a composite). */
  constructor(opts: OperatorOptions | undefined, private readonly stateNames: readonly string[]) {
    const composites = new Set(Object.values(opts?.composites?.() ?? {}).filter((v): v is object => v !== null && typeof v === 'object'));
    this.objects = reachableObjects(opts?.observed?.() ?? {}, composites);
    this.watched = this.objects.flatMap(({ name, object }) => Object.keys(object).map((key) => ({
      name: `${name}.${key}`, object, key, present: true, value: object[key],
    })));
    this.arrays = this.watched.flatMap(({ name, object, key, value }) => (Array.isArray(value) && stagedArrayState(value) === undefined
      ? [{ name, object, key, array: value as unknown[], items: [...value as unknown[]] }] : []));
    this.typed = this.watched.flatMap(({ name, value }) => (ArrayBuffer.isView(value) && !(value instanceof DataView)
      ? [{ name, array: value as unknown as ArrayLike<number>, items: Array.from(value as unknown as ArrayLike<number>) }] : []));
  }

  /**
   * A typed array held in a field whose elements the statement changed (`this.counts[k] += 1` in a
   * method a branch calls): it holds JS numbers written while the statement was traced, so a staged
   * call would keep the trace's values. The field as code names it, for the error.
   */
  changedTypedArray(): string | undefined {
    return this.typed.find(({ array, items }) => items.some((v, i) => !Object.is(v, array[i])))?.name;
  }

  /** The watched fields' values when the watch began, by the names code reads them by. */
  fieldValues(): [string, unknown][] {
    return this.watched.map((w) => [w.name, w.value]);
  }

  /** Whether `array` is held in a field of a watched object (a push into it is seen, and carried). */
  holds(array: unknown): boolean {
    return this.arrays.some((a) => a.array === array);
  }

  /**
   * Arrays held in fields (`this.epochs`) whose elements the statement changed (a callback's
   * `this.epochs.push(epoch)`), or that took a promoted value (`pushed`), not yet carried.
   */
  changedArrays(carried: readonly Field[], pushed: ReadonlySet<unknown>): (Field & { array: unknown[]; seen: unknown[] })[] {
    return this.arrays.filter((a) => !carried.some((c) => c.object === a.object && c.key === a.key) &&
      (pushed.has(a.array) || a.array.length !== a.items.length || a.items.some((v, i) => !Object.is(v, a.array[i]))))
      .map(({ name, object, key, array, items }) => ({ name, object, key, array, seen: [...items, ...array] }));
  }

  /** The objects watched, with the names code reads them by (`this`, `c`, `cb.model`). */
  get observed(): readonly Reached[] {
    return this.objects;
  }

  get empty(): boolean {
    return this.objects.length === 0;
  }

  /** Fields whose value differs from when the watch began (added ones too), not yet carried. */
  changed(carried: readonly Field[]): Field[] {
    const known = (f: Field): boolean => this.stateNames.includes(f.name) ||
      carried.some((c) => c.object === f.object && c.key === f.key);
    const changed = this.watched.filter((w) => !Object.is(w.object[w.key], w.value) && typeof w.object[w.key] !== 'function');
    const added = this.objects.flatMap(({ name, object }) => Object.keys(object)
      .filter((key) => !this.watched.some((w) => w.object === object && w.key === key) && typeof object[key] !== 'function')
      .map((key): Field => ({ name: `${name}.${key}`, object, key })));
    return [...changed, ...added].filter((f) => !known(f)).map(({ name, object, key }) => ({ name, object, key }));
  }

  /** The fields as they were when the watch began (added ones removed), arrays with their elements then. */
  restore(): void {
    for (const { array, items } of this.arrays) {
      if (array.length !== items.length || items.some((v, i) => !Object.is(v, array[i]))) array.splice(0, array.length, ...items);
    }
    for (const w of this.watched) if (!Object.is(w.object[w.key], w.value)) w.object[w.key] = w.value;
    for (const { object } of this.objects) {
      for (const key of Object.keys(object)) {
        if (!this.watched.some((w) => w.object === object && w.key === key)) delete object[key];
      }
    }
  }

  /** Whether a field was a JS number or boolean when the watch began: carried promoted. */
  startedAsPlainValue(field: Field): boolean {
    const w = this.watched.find((x) => x.object === field.object && x.key === field.key);
    return w !== undefined && (typeof w.value === 'number' || typeof w.value === 'boolean');
  }
}

/**
 * After a trace: a carried field still holding a value of the trace (a tensor it made, or a
 * promoted JS number) would hand later JS code a disposed tensor, or a Tensor where eager code
 * left a number (`km.iterations === 2` false, silently). A staged call does not change the user's
 * objects (their fields are read when it is traced, and change only then, as in tf.function), so
 * reading such a field is an error that says so; assigning it makes it a plain field again.
 */
export function refuseTraceValuesLeftInFields(objects: ReadonlyMap<object, string>, made: ReadonlySet<tf.Tensor>, fnName: string): void {
  for (const [object, owner] of objects) {
    for (const key of Object.keys(object)) refuseTraceValueIn(object as Record<string, unknown>, key, `${owner}.${key}`, made, fnName);
  }
}

function refuseTraceValueIn(object: Record<string, unknown>, key: string, name: string, made: ReadonlySet<tf.Tensor>, fnName: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  if (descriptor === undefined || !descriptor.configurable || !('value' in descriptor)) return;
  const value = descriptor.value as unknown;
  if (!(value instanceof tf.Tensor) || !made.has(value)) return;
  const { enumerable } = descriptor;
  Object.defineProperty(object, key, {
    configurable: true,
    enumerable,
    get: () => {
      throw new StagingError(`autograph-ts: '${name}' was changed by the staged function${fnName ? ` ${fnName}` : ''} while ` +
        'stage() traced it: a staged call does not change JS objects (their fields are read when the function is traced and ' +
        'change only then, as with tf.function). Keep state that outlives a call in a tf.Variable (assign it), or return it.');
    },
    set: (next: unknown) => {
      Object.defineProperty(object, key, { configurable: true, enumerable, writable: true, value: next });
    },
  });
}
