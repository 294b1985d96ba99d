/**
 * A cache entry of a staged function: one traced program and what is known about the calls it
 * serves (their shape pattern, the dims its trace read). Entries are made by trace.ts and kept by
 * signature_cache.ts.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { EngineChoice } from '../engines/engine';
import { type Graph, mergeShapes, type Program } from '../graph/graph';
import type { DimRead } from '../staging/dim_reads';
import type { ObjectStateUse } from '../staging/object_state';
import { mergeDims, type RawTrace, readOfUnknownDim } from '../staging/shape_relaxation';

export interface CacheEntry {
  program: Program;
  rebuild: (tensors: tf.Tensor[]) => unknown;
  /** Per result: a promoted JS number or boolean, which rebuild() reads back (staged.run reads it first, asynchronously). */
  promoted?: boolean[];
  /** Per result: a returned list of JS numbers or booleans, which rebuild() reads back (staged.run reads it asynchronously first). */
  valueLists?: boolean[];
  /** Chosen on the first run (or inspect) of the entry. */
  engine?: EngineChoice;
  /** The graph as traced, kept while a trace of other dims may be compared with it. */
  raw?: RawTrace;
  /** The shapes of the tensor parameters this entry serves (UNKNOWN_DIM: any size). */
  pattern: number[][];
  /** A loop variable or an If output changed dims while tracing (its graph has unknown dims). */
  changingDims: boolean;
  /** Reads of unknown dims by the user's code while tracing (see dim_reads.ts). */
  dimReads: string[];
  /** Reads of any dims by the user's code, per graph (audited traces only). */
  audit?: Map<Graph, DimRead[]>;
  /** The user's objects' fields the graph carries and the state it was traced for (object_state.ts). */
  state?: ObjectStateUse;
  /** The program has been optimized (signature_cache.ts does it before its first run). */
  optimized?: boolean;
  /** The results of the call that traced it, computed by the trace (trace_results.ts), until that call takes them. */
  traceValues?: tf.Tensor[];
}

/** Arguments whose unknown dims a trace watches: a shape pattern and a name per tensor argument. */
export interface Watch {
  pattern: number[][];
  names: string[];
}

/** Makes `entry` (traced for other dims than `base`, the same graph up to dims) serve both. */
export function relaxDims(entry: CacheEntry, base: CacheEntry): void {
  mergeDims(entry.program.graph, base.raw!.graph);
  mergeDims(entry.raw!.graph, base.raw!.graph);
  entry.pattern = entry.pattern.map((shape, i) => mergeShapes(shape, base.pattern[i]));
}

/** A read of a dim by the user's code in an audited trace that is unknown by `other` (dim_reads.ts). */
export function unknownDimRead(entry: CacheEntry, other: RawTrace): string | undefined {
  if (entry.audit === undefined) return undefined;
  const read = readOfUnknownDim(entry.program.graph, other.graph, entry.audit);
  return read === undefined ? undefined : `it reads ${read} as a JS number`;
}

export function disposeEntry(entry: CacheEntry): void {
  entry.engine?.runner?.dispose();
  for (const t of entry.traceValues ?? []) t.dispose();
  entry.traceValues = undefined;
  disposeProgram(entry.program);
}

export function disposeProgram(program: Program): void {
  for (const t of program.constants) t.dispose();
  program.constants.length = 0;
}
