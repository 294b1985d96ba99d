/**
 * What `staged.run(...)` reads back to JS after the graph ran, read asynchronously: the call's
 * promoted numbers and booleans (their JS values replace their tensors), its returned lists of
 * them and the promoted fields (and field arrays of them) it writes back to the user's objects (their data fetched with
 * `data()`, which webgl and webgpu keep on the host: rebuild()'s and writeBackState()'s reads of
 * them are then no device round trip).
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { ObjectStateUse } from '../staging/object_state';
import type { CacheEntry } from './entry';
import { promotedValue } from './trace';

/** The graph's results with what rebuild() reads read first: promoted scalars as their JS values, lists of them fetched. */
export function readResultsAsync(results: tf.Tensor[], entry: CacheEntry): Promise<tf.Tensor[]> {
  return Promise.all(results.map(async (t, i) => {
    if (entry.valueLists?.[i] === true) await t.data();
    if (entry.promoted?.[i] !== true) return t;
    const value = (await t.data())[0] as number;
    t.dispose();
    return promotedValue(t.dtype, value) as unknown as tf.Tensor;
  }));
}

/** Fetches the promoted fields among the results that writeBackState() writes back to the user's objects. */
export async function readStateAsync(use: ObjectStateUse | undefined, results: tf.Tensor[]): Promise<tf.Tensor[]> {
  if (use === undefined || use.outputs.length === 0) return results;
  const first = results.length - use.outputs.length;
  await Promise.all(use.outputs.map((field, i) => (field.promoted || field.list === 'scalars' ? results[first + i].data() : undefined)));
  return results;
}
