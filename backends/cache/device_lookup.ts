/**
 * The cache lookup of `staged.run(...)` on a backend whose synchronous reads are unsafe (webgpu):
 * a call that traces reads its tensors asynchronously first and traces on the cpu (host_trace.ts);
 * a call that the cache serves looks up as any other.
 */
import * as tf from '@tensorflow/tfjs-core';
import { DeviceValuesNeeded, HostTrace } from './host_trace';
import type { Lookup, SignatureCache } from './signature_cache';

export async function lookupTracingOnHost(cache: SignatureCache, thisArg: unknown, args: unknown[]): Promise<Lookup> {
  if (!cache.needsTrace(thisArg, args)) return cache.lookup(thisArg, args);
  const site = new HostTrace(tf.getBackend());
  await site.readArguments(thisArg, args);
  for (;;) {
    try {
      return cache.lookup(thisArg, args, false, site);
    } catch (error) {
      if (!(error instanceof DeviceValuesNeeded)) throw error;
      // (A tensor fn captures: read it, trace again. Each read is new, so this ends.)
      if (!(await site.read(error.dataIds))) throw new Error(`autograph-ts: staged.run could not read a tensor its trace needs from ${tf.getBackend()}`);
    }
  }
}
