/**
 * The user's objects as state of a staged function (issue 17, "state kept on objects"). A staged
 * call runs the function's JavaScript only while tracing, so a field it changes (`this.best = loss`,
 * `this.wait++`) would change once per trace, and later calls would compute from the field's value
 * at trace time: silently wrong. Instead, a trace records the fields of the objects it observes
 * (ag__.observeFields at the start of a function that writes them, and the objects staged
 * statements observe, observed_fields.ts) as they were when first seen, and at its end:
 *  - a field that then holds a tensor of the graph is a state output: the graph returns its value
 *    and every call writes it back (a promoted number or boolean as the JS value);
 *  - a field that held a tensor when first seen at the function's top level is a state input: a
 *    parameter of the graph, bound to the field's current tensor on every call;
 *  - every other field seen is guarded (an array, Map or Set field by its contents, which a push or set changes): a
 *    call whose fields differ from the trace's (a JS number
 *    the last call wrote back, a tensor of another shape) traces again, as a new signature would.
 */
import * as tf from '@tensorflow/tfjs-core';
import { inexactResult, isInexact, promotionOf } from '../../runtime/promoted_values';
import { type Recipe, recipeOf } from '../../runtime/js_recipes';
import { type GraphBuilder, specOf } from '../graph/builder';
import type { ValueRef } from '../graph/graph';
import { nextTensorId } from '../kernels/engine_internals';

/** What of the trace in progress the state needs (the Tracer). */
interface TraceGraphs {
  readonly root: GraphBuilder;
  readonly current: GraphBuilder;
  resolve(info: tf.TensorInfo): ValueRef;
}

/**
 * Objects that outlive the call: the staged call's receiver and argument objects, and those the
 * function observes before it does anything else (`this` of a bound method). An object first seen
 * later may be one the call creates (`const cb = new EarlyStopping()`), which is not state.
 */
function outlivesCall(tracer: TraceGraphs, object: object, given: WeakSet<object>): boolean {
  return given.has(object) || (tracer.current === tracer.root && tracer.root.graph.nodes.every((n) => n.kind === 'Input'));
}

export interface FieldRef {
  object: Record<string, unknown>;
  key: string;
  /** As code reads it: `this.best`. */
  name: string;
}

export interface StateOutput extends FieldRef {
  /** A promoted JS number or boolean: written back as that JS value. */
  promoted: boolean;
  /** An array the trace grew as a list (`this.seen.push(e)`): the list's elements, stacked with a
   * padding element, written into the array (tensors, or the JS numbers/booleans of `scalars`). */
  list?: 'tensors' | 'scalars';
  /** A value JS arithmetic computed from exact promoted values (runtime/js_recipes.ts): written back as `compute` of their
   * JS values, read back from `count` results, this one part `part` of them (one state output per result). */
  recipe?: { compute: Recipe['compute']; part: number; count: number };
}

/** A field's array that the trace carried as a list: its elements stacked with a padding element, or undefined. */
export type ListOfArray = (value: unknown, array: unknown) => { stacked: tf.Tensor; scalars: boolean } | undefined;

/** What a cache entry needs to run with the user's objects as state. */
export interface ObjectStateUse {
  inputs: FieldRef[];
  outputs: StateOutput[];
  /** Fields as they were when traced: primitives by value, objects by identity, state inputs by spec. */
  guard: { field: FieldRef; value: unknown }[];
}

interface Seen {
  field: FieldRef;
  start: unknown;
  input: boolean;
  /** A tensor the call's arguments hold (`state.best` of an argument `state`): read from them on every call. */
  argument?: boolean;
  /** An array's, Map's or Set's contents when first seen: a push or set by the trace changes them, not the field. */
  items?: readonly unknown[];
}

/** A tensor field guarded by its dtype and shape (a state input, or a tensor of the call's arguments). */
class TensorSpecKey {
  constructor(readonly key: string) {}
}

/** The elements of an array, a Map (keys and values) or a Set, in order. */
function contentsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return [...value];
  if (value instanceof Map) return [...value].flat();
  if (value instanceof Set) return [...value];
  return undefined;
}

/** An array's, Map's or Set's contents as a guard compares them (the same container, its elements by identity). */
class Contents {
  constructor(readonly container: unknown, readonly items: readonly unknown[]) {}

  holds(now: unknown): boolean {
    const items = contentsOf(now);
    return now === this.container && items !== undefined && items.length === this.items.length &&
      this.items.every((v, i) => Object.is(v, items[i]));
  }
}

export class ObjectState {
  private readonly seen: Seen[] = [];
  private readonly keys = new Map<object, Set<string>>();
  /** The staged call's receiver and argument objects (set when the trace starts). */
  readonly given = new WeakSet<object>();
  /** Tensors with this id or a larger one were made by the trace (made with the TraceFacts, when it starts). */
  private readonly firstTensorId = nextTensorId();

  /**
   * Records the fields `keys` of `object` (all own data fields when undefined) as first seen.
   * `via`: the object (or array) whose field holds it (`cb.model`): it outlives the call if that does.
   */
  observe(tracer: TraceGraphs, object: object, name: string, keys?: readonly string[], bindTensors = false, via?: object): void {
    const record = object as Record<string, unknown>;
    let known = this.keys.get(object);
    if (known === undefined) {
      if (via !== undefined && (this.given.has(via) || this.keys.has(via))) this.given.add(object);
      if (!outlivesCall(tracer, object, this.given)) return;
      this.keys.set(object, (known = new Set()));
    }
    for (const key of keys ?? Object.keys(object)) {
      if (known.has(key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(object, key);
      if (descriptor !== undefined && !('value' in descriptor)) continue; // accessors: not state we can carry
      known.add(key);
      const start = descriptor?.value;
      // (A tensor the trace made, `best.dist = tf.scalar(Infinity)` of an object the call creates, is not a value from before the call.)
      const input = bindTensors && tracer.current === tracer.root && isPlainTensor(start) && tracer.root.values.get(start) === undefined &&
        start.id < this.firstTensorId;
      if (input) tracer.root.values.set(start as tf.Tensor, tracer.root.addParam(specOf(start as tf.Tensor)));
      const argument = !input && isPlainTensor(start) && tracer.root.values.get(start)?.node !== undefined &&
        tracer.root.graph.nodes[tracer.root.values.get(start)!.node].kind === 'Input';
      this.seen.push({ field: { object: record, key, name: `${name}.${key}` }, start, input, argument,
        items: contentsOf(start) });
    }
  }

  /**
   * At the end of a trace (the root graph current): the state outputs appended to the graph's
   * results, fields put back as they were (the first run writes them), and the guard.
   */
  finish(tracer: TraceGraphs, listOf: ListOfArray): ObjectStateUse | undefined {
    if (this.seen.length === 0) return undefined;
    const outputs: StateOutput[] = [];
    for (const { field, start } of this.seen) {
      const now = field.object[field.key];
      const list = Object.is(now, start) ? undefined : listOf(now, start);
      if (list !== undefined) {
        tracer.root.graph.results.push(tracer.resolve(list.stacked));
        outputs.push({ ...field, promoted: false, list: list.scalars ? 'scalars' : 'tensors' });
      }
      if (!Object.is(now, start) && Array.isArray(now) && Array.isArray(start)) field.object[field.key] = start;
      if (Object.is(now, start) || !(now instanceof tf.Tensor) || now instanceof tf.Variable) continue;
      const promotion = promotionOf(now);
      const recipe = promotion !== undefined && isInexact(promotion, now) ? recipeOf(now) : undefined;
      if (promotion !== undefined && isInexact(promotion, now) && recipe === undefined) throw inexactResult(promotion, `is written back to '${field.name}'`);
      if (recipe !== undefined) {
        // (Computed in JS from the values it comes from, read back after the call: eager's number.)
        recipe.leaves.forEach((leaf, part) => {
          tracer.root.graph.results.push(tracer.resolve(leaf));
          outputs.push({ ...field, promoted: true, recipe: { compute: recipe.compute, part, count: recipe.leaves.length } });
        });
        field.object[field.key] = start;
        continue;
      }
      tracer.root.graph.results.push(tracer.resolve(now));
      outputs.push({ ...field, promoted: promotion !== undefined });
      field.object[field.key] = start;
    }
    const inputs = this.seen.filter((s) => s.input).map((s) => s.field);
    const guard = this.seen.map(({ field, start, input, argument, items }) => ({
      field, value: input || argument ? new TensorSpecKey(specKey(start as tf.Tensor))
        : items !== undefined ? new Contents(start, items) : start,
    }));
    return { inputs, outputs, guard };
  }
}

const isPlainTensor = (value: unknown): value is tf.Tensor => value instanceof tf.Tensor && !(value instanceof tf.Variable) && !value.isDisposed;
const specKey = (t: tf.Tensor): string => `${t.dtype}[${t.shape.join(',')}]`;

/** The first field that no longer looks as the entry's trace saw it (the call then traces again), as code names it. */
export function changedField(use: ObjectStateUse): string | undefined {
  return use.guard.find(({ field, value }) => {
    const now = Object.getOwnPropertyDescriptor(field.object, field.key)?.value;
    if (value instanceof TensorSpecKey) return !(isPlainTensor(now) && specKey(now) === value.key);
    return !(value instanceof Contents ? value.holds(now) : Object.is(now, value));
  })?.field.name;
}

/** The state inputs' current tensors, after the call's own tensors. */
export function stateInputs(use: ObjectStateUse): tf.Tensor[] {
  return use.inputs.map((f) => f.object[f.key] as tf.Tensor);
}

/**
 * Writes a run's state outputs (the last results) back to their fields; returns the other
 * results. A promoted value is read as its JS value, and its tensor freed.
 */
export function writeBackState(use: ObjectStateUse | undefined, results: tf.Tensor[]): tf.Tensor[] {
  if (use === undefined || use.outputs.length === 0) return results;
  const own = results.slice(0, results.length - use.outputs.length);
  use.outputs.forEach((field, i) => {
    const value = results[own.length + i];
    if (field.recipe !== undefined) {
      if (field.recipe.part === 0) {
        const parts = results.slice(own.length + i, own.length + i + field.recipe.count).map(jsValueOf);
        field.object[field.key] = field.recipe.compute(parts);
      }
      return;
    }
    if (field.list !== undefined && value instanceof tf.Tensor) return writeListBack(field.object[field.key] as unknown[], value, field.list);
    if (!field.promoted || !(value instanceof tf.Tensor)) {
      field.object[field.key] = value;
      return;
    }
    const n = value.dataSync()[0] as number;
    value.dispose();
    field.object[field.key] = value.dtype === 'bool' ? n !== 0 : n;
  });
  return own;
}

/** A promoted scalar result as its JS value (its tensor freed). */
function jsValueOf(value: unknown): number | boolean {
  if (!(value instanceof tf.Tensor)) return value as number | boolean;
  const n = value.dataSync()[0] as number;
  value.dispose();
  return value.dtype === 'bool' ? n !== 0 : n;
}

/** The elements of a list the graph grew (stacked, a padding element last) as the array's elements, in place. */
function writeListBack(array: unknown[], stacked: tf.Tensor, list: 'tensors' | 'scalars'): void {
  let items: unknown[];
  if (list === 'scalars') {
    items = Array.from(stacked.dataSync() as ArrayLike<number>, (v) => (stacked.dtype === 'bool' ? v !== 0 : v));
    items.pop();
  } else {
    items = tf.unstack(stacked);
    (items.pop() as tf.Tensor).dispose();
  }
  stacked.dispose();
  array.splice(0, array.length, ...items);
}
