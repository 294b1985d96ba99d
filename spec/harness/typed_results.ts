/**
 * Results compared with their JS types kept (a Tensor is never a number), and a function run
 * eagerly and staged on the tfjs executor and on the default engine ('auto'): the real-code,
 * recursion and list specs' comparison.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';

/** Plain data that keeps each leaf's JS type: a tensor with its dtype is not a number. */
export function typed(x: unknown): unknown {
  if (x instanceof tf.Tensor) return { tensor: x.arraySync(), dtype: x.dtype };
  if (Array.isArray(x)) return x.map(typed);
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, typed(v)]));
  return x;
}

/** Each argument list (made fresh per run) eagerly, then staged on each engine; returns the eager values (typed). */
export function agreeOnEngines(fn: (...args: any[]) => unknown, name: string, argLists: (() => unknown[])[]): unknown[] {
  const staged = (['tfjs', 'auto'] as const).map((engine) => stage(fn, { engine }));
  return argLists.map((args) => {
    const eager = typed(fn(...args()));
    staged.forEach((s, k) => expect(typed(s(...args())), `${name} on ${k === 0 ? 'tfjs' : 'auto'}`).to.deep.equal(eager));
    return eager;
  });
}
