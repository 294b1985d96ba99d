/**
 * The objects a staged statement's trace may change fields of: the objects it reads (opts.observed:
 * `this`, arguments, captured objects), the elements of arrays of them (`callbacks[1]`), and every
 * object held in their fields, at any depth (`cb.model` of `cb.onBatchEnd(...)` assigning
 * `this.model.stop`; `list.callbacks[0].model`). A field of an object reached only through another
 * object's field changes just as much as a field of `this`: left unwatched, the value a trace left
 * in it (a tensor of a loop body) would outlive the trace.
 *
 * Not walked into: tensors, functions, frozen and module objects, typed arrays, lists of the graph,
 * the statement's composites (carried whole, control_flow.ts withComposites), and tfjs's own objects
 * held in fields (models, layers, optimizers: tf.serialization.Serializable), whose internal caches
 * are not the user's state (as the transformer observes only objects of the user's types).
 */
import * as tf from '@tensorflow/tfjs-core';
import { stagedArrayState } from './staged_lists';

/** An object to watch: `name` is how code reads it (`cb.model`), `via` the object whose field (or array) holds it. */
export interface Reached {
  name: string;
  object: Record<string, unknown>;
  via?: object;
}

/** Every object reachable from `roots` through fields and array elements, breadth first (nearest name wins), each once. */
export function reachableObjects(roots: Record<string, unknown>, skip: ReadonlySet<object>): Reached[] {
  const seen = new Set<object>(skip);
  const found: Reached[] = [];
  let frontier: { name: string; value: unknown; via?: object }[] = Object.entries(roots).map(([name, value]) => ({ name, value }));
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { name, value, via } of frontier) {
      if (Array.isArray(value) && stagedArrayState(value) === undefined && !seen.has(value)) {
        seen.add(value);
        value.forEach((item, i) => next.push({ name: `${name}[${i}]`, value: item, via: via ?? value }));
        continue;
      }
      if (!isObservable(value) || seen.has(value) || (via !== undefined && isTfjsObject(value))) continue;
      seen.add(value);
      found.push({ name, object: value, via });
      for (const [key, field] of dataFields(value)) next.push({ name: `${name}.${key}`, value: field, via: value });
    }
    frontier = next;
  }
  return found;
}

/**
 * A model, layer or optimizer of tfjs, held in a field: not walked into. (One the statement reads
 * itself, a custom layer of the user's whose `call` counts in a field, is watched as before.)
 */
function isTfjsObject(value: object): boolean {
  return value instanceof tf.serialization.Serializable;
}

/** Own enumerable fields holding data (getters are not run: reading one is the user's code). */
function dataFields(object: Record<string, unknown>): [string, unknown][] {
  return Object.entries(Object.getOwnPropertyDescriptors(object))
    .filter(([, d]) => d.enumerable && 'value' in d && d.value !== null && typeof d.value === 'object')
    .map(([key, d]) => [key, d.value as unknown]);
}

/** Objects whose fields are compared: not tensors, arrays, lists, functions, frozen or module objects. */
function isObservable(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || value instanceof tf.Tensor || Array.isArray(value)) return false;
  if (stagedArrayState(value) !== undefined || Object.isFrozen(value) || ArrayBuffer.isView(value)) return false;
  return Object.prototype.toString.call(value) !== '[object Module]';
}
