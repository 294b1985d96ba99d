/**
 * The traces of one staged function, by call signature (the tf.function cache).
 * - An exact signature (tensor shapes and dtypes, the values of the other arguments) has an entry.
 * - Calls that differ only in dims form a family (signatures.ts): a trace of other dims than an
 *   earlier one of its family is compared with it, and the same graph up to dims is relaxed
 *   (those dims unknown, one entry for all of them); a graph that depends on the dims keeps a
 *   trace per shape, and the retrace log says why.
 * - A graph with unknown dims (an inputSignature leaves some open, or a loop variable or an If
 *   output changes dims) is traced twice, with other sizes for them, to check that it does not
 *   depend on them (shape_relaxation.ts).
 */
import type * as tf from '@tensorflow/tfjs-core';
import { StagingError } from '../common/errors';
import { dumpGraph, mergeShapes, UNKNOWN_DIM } from '../graph/graph';
import { optimizeProgram, type OptimizeOptions } from '../optimize';
import { firstDifference, frozenRawTrace, mergeDims, type Probe, probeFor } from '../staging/shape_relaxation';
import { verboseLog } from '../../runtime/verbosity';
import { type CacheEntry, disposeEntry, relaxDims, unknownDimRead, type Watch } from './entry';
import { RetraceLog } from './retracing';
import { type CallSignature, checkInputSignature, describePattern, fitsPattern, type InputSpec, matchInputSignature,
  signatureOf, throwIfDisposed } from './signatures';
import { trace } from './trace';
import { DeviceValuesNeeded, type TraceSite } from './host_trace';
import { changedField, stateInputs } from '../staging/object_state';

export interface CacheOptions {
  /** Graph optimizations (all on by default); `false` turns them all off. */
  optimize?: boolean | Partial<OptimizeOptions>;
  /** Trace again on every call. */
  alwaysRetrace?: boolean;
  /** One spec per argument; null dims take any size. */
  inputSignature?: InputSpec[];
  /** Whether calls that differ only in dims may share a relaxed graph (not for engines of known dims only). */
  relaxDims: boolean;
  /** A staged loop that runs more iterations than this throws (Program.maximumIterations). */
  maximumIterations?: number;
  /** An asynchronous run still in a staged loop after this many ms throws (Program.timeBudgetMs). */
  timeBudgetMs?: number;
}

/** The calls of one signature family (they differ only in dims). */
interface Family {
  /** What a trace of other dims is compared with: the relaxed entry once there is one. */
  base: CacheEntry;
  /** The entry that serves every call of its pattern. */
  relaxed?: CacheEntry;
  /** Why the graph depends on the dims (each shape then has a trace of its own). */
  refused?: string;
}

export interface Lookup {
  entry: CacheEntry;
  tensors: tf.Tensor[];
  signature: string;
  /** The call's results, when the trace this call made computed them (trace_results.ts); else the entry runs. */
  values?: tf.Tensor[];
}

export class SignatureCache {
  /** Entries by exact signature. */
  private readonly entries = new Map<string, CacheEntry>();
  /** Calls that differ only in dims (see signatures.ts), with the graph they may share. */
  private readonly families = new Map<string, Family>();
  private readonly inputPattern: number[][] | undefined;
  private readonly retraces: RetraceLog;
  /** Where the traces of the lookup in progress run (host_trace.ts); undefined: on the active backend. */
  private site: TraceSite | undefined;
  traceCount = 0;

  constructor(private readonly fn: (...args: never[]) => unknown, private readonly options: CacheOptions) {
    this.inputPattern = options.inputSignature === undefined ? undefined : checkInputSignature(options.inputSignature);
    this.retraces = new RetraceLog(fn);
  }

  /**
   * The entry that serves this call, traced now if there is none. With `values`, a new trace's
   * own values are the call's results where they can be (trace_results.ts): the entry is then
   * optimized on its next use; otherwise it is optimized before it is returned. With `site`, its
   * traces (and the optimization of a new graph) run there (host_trace.ts).
   */
  lookup(thisArg: unknown, args: unknown[], values = false, site?: TraceSite): Lookup {
    this.site = site;
    const [traceCount, undoLog] = [this.traceCount, this.retraces.mark()];
    try {
      return this.lookupAt(thisArg, args, values && site === undefined);
    } catch (error) {
      // (Traced again once the device values are read: this one does not count.)
      if (error instanceof DeviceValuesNeeded) {
        this.traceCount = traceCount;
        undoLog();
      }
      throw error;
    } finally {
      this.site = undefined;
    }
  }

  /** Whether this call would trace (lookup traces it): no entry serves it, or its objects changed since. */
  needsTrace(thisArg: unknown, args: unknown[]): boolean {
    const entry = this.cached(signatureOf(thisArg, args));
    return entry === undefined || (entry.state !== undefined && changedField(entry.state) !== undefined);
  }

  /** The entry that serves this call's signature, if any. */
  private cached(call: CallSignature): CacheEntry | undefined {
    if (this.options.alwaysRetrace) return undefined;
    const entry = this.entries.get(call.signature);
    if (entry !== undefined) return entry;
    const family = this.families.get(call.family);
    return family?.relaxed !== undefined && fitsPattern(family.relaxed.pattern, call.tensors) ? family.relaxed : undefined;
  }

  private lookupAt(thisArg: unknown, args: unknown[], values: boolean): Lookup {
    const { options } = this;
    const call = signatureOf(thisArg, args);
    // (The signature reads only ids, dtypes and shapes; which argument holds a disposed tensor is
    // looked for only when one does.)
    if (call.tensors.some((t) => t.isDisposed)) throwIfDisposed(this.fn.name || 'the staged function', args, this.retraces.names);
    if (options.inputSignature !== undefined) matchInputSignature(options.inputSignature, this.inputPattern!, args, this.retraces.names);
    let entry = this.cached(call);
    // The user's objects changed since the trace (a field it read, or one a call wrote back): trace again.
    const changed = entry?.state === undefined ? undefined : changedField(entry.state);
    if (changed !== undefined) {
      this.forget(call, entry!);
      entry = undefined;
    }
    if (entry === undefined) {
      this.traceCount++;
      this.retraces.onTrace(this.traceCount, args, options.alwaysRetrace === true, changed);
      entry = this.traceEntry(thisArg, args, call, values);
      const traced = entry;
      verboseLog(3, () => `graph of ${this.name} (trace #${this.traceCount}):\n${dumpGraph(traced.program)}`);
    } else {
      verboseLog(2, () => `cache hit for ${this.name}: ${call.signature}`);
    }
    const traced = entry.traceValues;
    entry.traceValues = undefined;
    if (traced === undefined) this.onSite(() => this.optimize(entry!));
    const tensors = entry.state === undefined || entry.state.inputs.length === 0 ? call.tensors : [...call.tensors, ...stateInputs(entry.state)];
    return { entry, tensors, signature: call.signature, values: traced };
  }

  /** Drops (and frees) an entry whose objects changed, with its family when it serves it. */
  private forget(call: CallSignature, entry: CacheEntry): void {
    if (this.entries.get(call.signature) === entry) this.entries.delete(call.signature);
    const family = this.families.get(call.family);
    if (family !== undefined && (family.base === entry || family.relaxed === entry)) this.families.delete(call.family);
    disposeEntry(entry);
  }

  /** Drops (and frees) every entry: the next call traces again. */
  clear(): void {
    for (const entry of this.entries.values()) disposeEntry(entry);
    for (const family of this.families.values()) if (family.relaxed) disposeEntry(family.relaxed);
    this.entries.clear();
    this.families.clear();
  }

  private get name(): string {
    return this.fn.name || 'a function';
  }

  /** Traces fn for a call; run again on probe tensors when dims are unknown (see traceAndCheck). */
  private traceFor(thisArg: unknown, args: unknown[], tensors: tf.Tensor[], watch: Watch | undefined, audit: boolean,
                   probe?: Probe, values = false): CacheEntry {
    if (probe !== undefined) {
      this.traceCount++;
      this.retraces.onProbe(this.traceCount, probe.why);
    }
    return this.onSite(() => trace(this.fn, thisArg, probe?.args ?? args, probe?.tensors ?? tensors, probe?.variant ?? 0,
      watch, audit, probe === undefined && values), disposeEntry);
  }

  /** Runs `work` where this lookup's traces run; `discard` frees what it made when the site refuses it. */
  private onSite<T>(work: () => T, discard?: (made: T) => void): T {
    return this.site === undefined ? work() : this.site.run(work, discard);
  }

  /** The tensor arguments' unknown dims to watch (see dim_reads.ts), named as the user knows them. */
  private watchOf(args: unknown[], tensors: tf.Tensor[], pattern: number[][]): Watch {
    return {
      pattern,
      names: tensors.map((t) => {
        const index = args.indexOf(t);
        return index >= 0 ? this.retraces.names[index] || `argument ${index}` : 'an argument';
      }),
    };
  }

  /**
   * Optimizes an entry before it first runs (once: after any comparison, the raw trace copied
   * apart first). Not before: a call its trace served (trace_results.ts) needs no optimized graph.
   */
  private optimize(entry: CacheEntry): void {
    if (entry.optimized) return;
    entry.optimized = true;
    if (entry.raw !== undefined) entry.raw = frozenRawTrace(entry.raw);
    optimizeProgram(entry.program, this.options.optimize);
    if (this.options.maximumIterations !== undefined) {
      entry.program.maximumIterations = this.options.maximumIterations;
      // (The program that runs under a gradient tape, if the optimizer kept one, has the same limit.)
      if (entry.program.forGradients !== undefined) entry.program.forGradients.maximumIterations = this.options.maximumIterations;
    }
    if (this.options.timeBudgetMs !== undefined) entry.program.timeBudgetMs = this.options.timeBudgetMs;
  }

  /** A new entry for this call, relaxed with its family's when the graph is the same up to dims. */
  private traceEntry(thisArg: unknown, args: unknown[], call: CallSignature, values: boolean): CacheEntry {
    if (this.inputPattern !== undefined) {
      const entry = this.traceAndCheck(thisArg, args, call.tensors, this.inputPattern, values);
      this.families.set(call.family, { base: entry, relaxed: entry });
      return entry;
    }
    const family = this.families.get(call.family);
    const sharing = !this.options.alwaysRetrace && this.options.relaxDims;
    // Against an earlier trace of other dims: the dims that differ are watched in this trace.
    const comparable = family !== undefined && family.refused === undefined && sharing;
    const relaxing = comparable ? call.tensors.map((t, i) => mergeShapes(t.shape, family!.base.pattern[i])) : undefined;
    const first = this.traceFor(thisArg, args, call.tensors, relaxing && this.watchOf(args, call.tensors, relaxing), comparable,
      undefined, values);
    first.pattern = call.tensors.map((t) => [...t.shape]);
    if (comparable && this.relaxedWith(family!, first, args, call)) return first;
    const traced = this.checkUnknownDims(thisArg, args, call.tensors, undefined, undefined, first);
    // (Engines of known dims only — ONNX with engine 'onnx' — get a graph per shape.)
    if (family === undefined && sharing) this.families.set(call.family, { base: traced });
    else traced.raw = undefined;
    const previous = this.entries.get(call.signature);
    if (previous) disposeEntry(previous);
    this.entries.set(call.signature, traced);
    return traced;
  }

  /** Relaxes `first` with its family's base when they are the same graph up to dims; else records why not. */
  private relaxedWith(family: Family, first: CacheEntry, args: unknown[], call: CallSignature): boolean {
    const difference = first.dimReads.length > 0 ? `it reads ${first.dimReads[0]}`
      : firstDifference(family.base.raw!, first.raw!) ?? unknownDimRead(first, family.base.raw!);
    if (difference !== undefined) {
      family.refused = difference;
      this.retraces.onNotRelaxed(difference);
      return false;
    }
    // The same graph as the base, which was checked for its own changing dims (if any).
    relaxDims(first, family.base);
    if (family.relaxed !== undefined) disposeEntry(family.relaxed);
    family.base = family.relaxed = first;
    this.retraces.onRelaxed(describePattern(args, call.tensors, first.pattern));
    return true;
  }

  /**
   * Traces fn; where its graph has unknown dims — the input signature leaves some open
   * (`pattern`), or a loop variable or an If output changes dims — traces it again with other
   * sizes for them (the probe) and keeps the graph only if both traces agree up to dims.
   */
  private traceAndCheck(thisArg: unknown, args: unknown[], tensors: tf.Tensor[], pattern: number[][] | undefined,
                        values: boolean): CacheEntry {
    const watch = pattern && this.watchOf(args, tensors, pattern);
    const first = this.traceFor(thisArg, args, tensors, watch, pattern !== undefined, undefined, values);
    return this.checkUnknownDims(thisArg, args, tensors, pattern, watch, first);
  }

  private checkUnknownDims(thisArg: unknown, args: unknown[], tensors: tf.Tensor[], pattern: number[][] | undefined,
                           watch: Watch | undefined, first: CacheEntry): CacheEntry {
    first.pattern = pattern ?? tensors.map((t) => [...t.shape]);
    const open = pattern !== undefined && pattern.some((p) => p.includes(UNKNOWN_DIM));
    if (!open && !first.changingDims) return first;
    const probe = this.onSite(() => probeFor(args, tensors, pattern, first.changingDims
      ? 'a loop variable or conditional output changes dims: checking that the graph does not depend on them'
      : 'the inputSignature leaves dims unknown: checking that the graph does not depend on them'));
    let second: CacheEntry;
    try {
      second = this.traceFor(thisArg, args, tensors, watch, true, probe);
    } catch (error) {
      disposeEntry(first);
      if (error instanceof DeviceValuesNeeded) throw error;
      throw error instanceof StagingError ? error : new StagingError(`autograph-ts: ${this.fn.name || 'the function'} ` +
        `cannot be staged with unknown dims: traced again with other sizes for them, it fails: ${(error as Error)?.message ?? error}`);
    } finally {
      probe.dispose();
    }
    const reads = [...first.dimReads, ...second.dimReads];
    const difference = reads.length > 0 ? `it reads ${reads[0]} as a JS number` : firstDifference(first.raw!, second.raw!) ??
      unknownDimRead(second, first.raw!) ?? unknownDimRead(first, second.raw!);
    disposeEntry(second);
    if (difference !== undefined) {
      disposeEntry(first);
      throw new StagingError(`autograph-ts: ${this.fn.name || 'the function'} cannot be staged with unknown dims ` +
        `(${first.changingDims ? 'a value changes dims while it runs' : 'its inputSignature leaves dims open'}): ` +
        `its graph depends on them — ${difference}. ${first.changingDims
          ? 'Keep the dims of loop variables and of values assigned in both branches of a tensor condition fixed (pad, or preallocate), or compute what depends on them with tensor ops.'
          : 'Give those dims a size in the inputSignature, or compute what depends on them with tensor ops.'}`);
    }
    mergeDims(first.program.graph, second.raw!.graph);
    mergeDims(first.raw!.graph, second.raw!.graph);
    return first;
  }
}
