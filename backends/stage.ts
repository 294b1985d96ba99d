/**
 * `stage(fn)`: the tf.function of autograph-ts.
 *
 * IMPORTANT — what staging means for your code:
 * - fn is traced once per input signature: the shapes and dtypes of its tensor arguments plus the
 *   values of all its other arguments (numbers, strings, booleans, and the identity of objects),
 *   and the active tfjs backend.
 *   Later calls with the same signature do not run fn's JS at all: they run the recorded graph.
 *   Calls that differ only in dims share one graph with those dims unknown, when it is the same
 *   graph for them (shape_relaxation.ts); a graph with unknown dims is traced twice to check that.
 * - Therefore JS side effects of fn (pushing to an array, counting calls, console.log of plain JS
 *   values, mutating objects) happen only while tracing. Tensor effects are kept on every call:
 *   console.log of tensors and t.print() print at run time, Variable.assign updates the variable,
 *   random ops draw fresh values, a throw or ag__.assert under a tensor condition throws when hit.
 * - JS values computed inside fn are constants of the graph; control flow on JS values is unrolled
 *   while tracing. Control flow on tensors (converted by the transformer) becomes If/While nodes.
 * - Reading a tensor's value while tracing (dataSync, arraySync, data, array, bufferSync) is an
 *   error: that value would be frozen into the graph.
 * - Tensors that fn stores outside itself while tracing are disposed when the trace ends.
 */
import * as tf from '@tensorflow/tfjs-core';
import { StagedControlFlow } from './control_flow';
import { returnInOneBranch, StagingError } from './errors';
import { graphToDot } from './dot';
import type { EngineChoice } from './onnx/engine';
import { chooseEngine, EngineOption, runOn } from './onnx/engine_choice';
import type { SessionOptions } from './onnx/runtime';
import { dumpGraph, type Graph, graphStats, GraphStats, mergeShapes, Program, UNKNOWN_DIM } from './graph';
import { flatten } from './nest';
import { checkNoListIn } from './staged_lists';
import { optimizeProgram, OptimizeOptions } from './optimize';
import { RetraceLog, throwIfNotConverted } from './retracing';
import { firstDifference, mergeDims, type Probe, probeFor, rawTraceOf, type RawTrace, readOfUnknownDim } from './shape_relaxation';
import type { DimRead } from './dim_reads';
import { type CallSignature, checkInputSignature, describePattern, fitsPattern, type InputSpec, matchInputSignature, signatureOf } from './signatures';
import { markDisposedByTrace, traceScopeTensors } from './trace_patches';
import { activeTracer, runTrace } from './trace_context';
import { rewriteStack } from '../runtime/user_frames';
import { verboseLog } from '../runtime/verbosity';
import { Tracer } from './tracer';

export interface StageOptions {
  /** Graph optimizations (all on by default); `false` turns them all off. */
  optimize?: boolean | Partial<OptimizeOptions>;
  /** Trace again on every call (debugging; JS side effects then happen on every call). */
  alwaysRetrace?: boolean;
  /**
   * Which engine runs the graph: ONNX Runtime where it is installed and the graph lowers, else the
   * tfjs kernel executor ('auto', the default), always the tfjs executor ('tfjs'), or always ONNX
   * Runtime ('onnx': an error when it cannot). See backends/onnx/engine_choice.ts.
   */
  engine?: EngineOption;
  /** ONNX Runtime session options (e.g. executionProviders: ['cuda', 'cpu']). */
  onnx?: SessionOptions;
  /**
   * One spec per argument, each a tensor: `{ shape: [null, 8], dtype: 'float32' }`. A null dim takes
   * any size: one graph serves every matching call (fn is traced twice, with two sizes for the null
   * dims, to check that the graph does not depend on them); a call that does not match is an error.
   */
  inputSignature?: InputSpec[];
}

export interface StagedGraphInfo {
  /** The cache key: tensor shapes and dtypes, values of the other arguments. */
  signature: string;
  stats: GraphStats;
  /** A readable listing of the graph. */
  dump(): string;
  /** The graph in Graphviz DOT (`dot -Tsvg`): If/While bodies as clusters, source lines on nodes. */
  dot(): string;
  /** The graph itself (plain data) with its constant, variable and error tables. */
  program: Program;
  /** The engine that runs this graph; when it is not ONNX Runtime, why (and the nodes that do not lower). */
  engine: Omit<EngineChoice, 'runner'>;
  /** fn's return value built from values for the graph's results (in order): where each result goes. */
  rebuild(results: unknown[]): unknown;
}

export type Staged<F extends (...args: never[]) => unknown> = F & {
  /** Traces for these arguments if needed (without running the graph) and describes the graph. */
  inspect(...args: Parameters<F>): StagedGraphInfo;
  /** Drops all cached graphs: the next call traces again. */
  retrace(): void;
  /** Frees the constants held by the cached graphs; the staged function can still be called. */
  dispose(): void;
  /** How many times fn has been traced. */
  readonly traceCount: number;
  /** The function that was staged. */
  readonly original: F;
};

interface CacheEntry {
  program: Program;
  rebuild: (tensors: tf.Tensor[]) => unknown;
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
}

/** Arguments whose unknown dims a trace watches: a shape pattern and a name per tensor argument. */
interface Watch {
  pattern: number[][];
  names: string[];
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

/** Makes `entry` (traced for other dims than `base`, the same graph up to dims) serve both. */
function relaxDims(entry: CacheEntry, base: CacheEntry): void {
  mergeDims(entry.program.graph, base.raw!.graph);
  mergeDims(entry.raw!.graph, base.raw!.graph);
  entry.pattern = entry.pattern.map((shape, i) => mergeShapes(shape, base.pattern[i]));
}

/** A read of a dim by the user's code in an audited trace that is unknown by `other` (dim_reads.ts). */
function unknownDimRead(entry: CacheEntry, other: RawTrace): string | undefined {
  if (entry.audit === undefined) return undefined;
  const read = readOfUnknownDim(entry.program.graph, other.graph, entry.audit);
  return read === undefined ? undefined : `it reads ${read} as a JS number`;
}

/** Optimizes a traced entry (after any comparison: the raw trace is kept apart). */
function finish(entry: CacheEntry, options: StageOptions): void {
  optimizeProgram(entry.program, options.optimize);
}

export function stage<F extends (...args: never[]) => unknown>(fn: F, options: StageOptions = {}): Staged<F> {
  if (typeof fn !== 'function') throw new TypeError(`autograph-ts: stage() needs a function, got ${typeof fn}`);
  throwIfNotConverted(fn);
  const inputPattern = options.inputSignature === undefined ? undefined : checkInputSignature(options.inputSignature);
  /** Entries by exact signature. */
  const cache = new Map<string, CacheEntry>();
  /** Calls that differ only in dims (see signatures.ts), with the graph they may share. */
  const families = new Map<string, Family>();
  let traceCount = 0;
  const retraces = new RetraceLog(fn);

  /** Traces fn for a call; run again on probe tensors when dims are unknown (see traceAndCheck). */
  const traceFor = (thisArg: unknown, args: unknown[], tensors: tf.Tensor[], watch: Watch | undefined, audit: boolean,
                    probe?: Probe): CacheEntry => {
    if (probe !== undefined) {
      traceCount++;
      retraces.onProbe(traceCount, probe.why);
    }
    return trace(fn, thisArg, probe?.args ?? args, probe?.tensors ?? tensors, probe?.variant ?? 0, watch, audit);
  };

  /** The tensor arguments' unknown dims to watch (see dim_reads.ts), named as the user knows them. */
  const watchOf = (args: unknown[], tensors: tf.Tensor[], pattern: number[][]): Watch => ({
    pattern,
    names: tensors.map((t) => {
      const index = args.indexOf(t);
      return index >= 0 ? retraces.names[index] || `argument ${index}` : 'an argument';
    }),
  });

  /**
   * A new entry for this call. A trace of other dims than an earlier one of its family is compared
   * with it: the same graph up to dims is relaxed (those dims unknown, one entry for all of them);
   * a graph that depends on the dims keeps a trace per shape, and the log says why.
   */
  const traceEntry = (thisArg: unknown, args: unknown[], call: CallSignature): CacheEntry => {
    if (inputPattern !== undefined) {
      const entry = traceAndCheck(thisArg, args, call.tensors, inputPattern);
      finish(entry, options);
      families.set(call.family, { base: entry, relaxed: entry });
      return entry;
    }
    const family = families.get(call.family);
    // Against an earlier trace of other dims: the dims that differ are watched in this trace.
    const comparable = family !== undefined && family.refused === undefined && !options.alwaysRetrace && options.engine !== 'onnx';
    const relaxing = comparable ? call.tensors.map((t, i) => mergeShapes(t.shape, family!.base.pattern[i])) : undefined;
    const first = traceFor(thisArg, args, call.tensors, relaxing && watchOf(args, call.tensors, relaxing), comparable);
    first.pattern = call.tensors.map((t) => [...t.shape]);
    if (comparable) {
      const difference = first.dimReads.length > 0 ? `it reads ${first.dimReads[0]}`
        : firstDifference(family!.base.raw!, first.raw!) ?? unknownDimRead(first, family!.base.raw!);
      if (difference === undefined) {
        // The same graph as the base, which was checked for its own changing dims (if any).
        relaxDims(first, family!.base);
        if (family!.relaxed !== undefined) disposeEntry(family!.relaxed);
        family!.base = family!.relaxed = first;
        retraces.onRelaxed(describePattern(args, call.tensors, first.pattern));
        finish(first, options);
        return first;
      }
      family!.refused = difference;
      retraces.onNotRelaxed(difference);
    }
    const traced = checkUnknownDims(thisArg, args, call.tensors, undefined, undefined, first);
    // (ONNX Runtime runs graphs of known dims only: with engine 'onnx', each shape has its graph.)
    if (family === undefined && !options.alwaysRetrace && options.engine !== 'onnx') families.set(call.family, { base: traced });
    else traced.raw = undefined;
    finish(traced, options);
    const previous = cache.get(call.signature);
    if (previous) disposeEntry(previous);
    cache.set(call.signature, traced);
    return traced;
  };

  /**
   * Traces fn; where its graph has unknown dims — the input signature leaves some open
   * (`pattern`), or a loop variable or an If output changes dims — traces it again with other
   * sizes for them (the probe) and keeps the graph only if both traces agree up to dims.
   */
  const traceAndCheck = (thisArg: unknown, args: unknown[], tensors: tf.Tensor[], pattern: number[][] | undefined): CacheEntry => {
    const watch = pattern && watchOf(args, tensors, pattern);
    return checkUnknownDims(thisArg, args, tensors, pattern, watch, traceFor(thisArg, args, tensors, watch, pattern !== undefined));
  };

  const checkUnknownDims = (thisArg: unknown, args: unknown[], tensors: tf.Tensor[], pattern: number[][] | undefined,
                            watch: Watch | undefined, first: CacheEntry): CacheEntry => {
    first.pattern = pattern ?? tensors.map((t) => [...t.shape]);
    const open = pattern !== undefined && pattern.some((p) => p.includes(UNKNOWN_DIM));
    if (!open && !first.changingDims) return first;
    const probe = probeFor(args, tensors, pattern, first.changingDims
      ? 'a loop variable or conditional output changes dims: checking that the graph does not depend on them'
      : 'the inputSignature leaves dims unknown: checking that the graph does not depend on them');
    let second: CacheEntry;
    try {
      second = traceFor(thisArg, args, tensors, watch, true, probe);
    } catch (error) {
      disposeEntry(first);
      throw error instanceof StagingError ? error : new StagingError(`autograph-ts: ${fn.name || 'the function'} ` +
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
      throw new StagingError(`autograph-ts: ${fn.name || 'the function'} cannot be staged with unknown dims ` +
        `(${first.changingDims ? 'a value changes dims while it runs' : 'its inputSignature leaves dims open'}): ` +
        `its graph depends on them — ${difference}. ${first.changingDims
          ? 'Keep the dims of loop variables and of values assigned in both branches of a tensor condition fixed (pad, or preallocate), or compute what depends on them with tensor ops.'
          : 'Give those dims a size in the inputSignature, or compute what depends on them with tensor ops.'}`);
    }
    mergeDims(first.program.graph, second.raw!.graph);
    mergeDims(first.raw!.graph, second.raw!.graph);
    return first;
  };

  const lookup = (thisArg: unknown, args: unknown[]): { entry: CacheEntry; tensors: tf.Tensor[]; signature: string } => {
    const call = signatureOf(thisArg, args);
    if (options.inputSignature !== undefined) matchInputSignature(options.inputSignature, inputPattern!, args, retraces.names);
    const family = families.get(call.family);
    let entry = options.alwaysRetrace ? undefined : cache.get(call.signature);
    if (entry === undefined && !options.alwaysRetrace && family?.relaxed !== undefined &&
        fitsPattern(family.relaxed.pattern, call.tensors)) entry = family.relaxed;
    if (entry === undefined) {
      traceCount++;
      retraces.onTrace(traceCount, args, options.alwaysRetrace === true);
      entry = traceEntry(thisArg, args, call);
      verboseLog(3, () => `graph of ${fn.name || 'a function'} (trace #${traceCount}):\n${dumpGraph(entry!.program)}`);
    } else {
      verboseLog(2, () => `cache hit for ${fn.name || 'a function'}: ${call.signature}`);
    }
    return { entry, tensors: call.tensors, signature: call.signature };
  };

  const engineOf = (entry: CacheEntry): EngineChoice =>
    (entry.engine ??= chooseEngine(entry.program, options.engine ?? 'auto', { graph: fn.name }, options.onnx));

  const staged = function (this: unknown, ...args: unknown[]): unknown {
    // A staged function called while tracing is inlined into the trace in progress.
    if (activeTracer() !== undefined) return (fn as unknown as (...a: unknown[]) => unknown).apply(this, args);
    try {
      const { entry, tensors } = lookup(this, args);
      return entry.rebuild(runOn(engineOf(entry), entry.program, tensors));
    } catch (error) {
      rewriteStack(error); // the user's .ts frames first, engine frames dropped
      throw error;
    }
  } as unknown as Staged<F>;

  Object.defineProperties(staged, {
    inspect: {
      value: function (this: unknown, ...args: unknown[]): StagedGraphInfo {
        // `staged.inspect(...)` has the staged function as `this`: describe the plain call `staged(...)`.
        const { entry, signature } = lookup(this === staged ? undefined : this, args);
        return {
          signature,
          stats: graphStats(entry.program.graph),
          dump: () => dumpGraph(entry.program),
          dot: () => graphToDot(entry.program, fn.name || 'staged'),
          program: entry.program,
          engine: (({ runner, ...choice }) => (runner === undefined ? choice : { ...choice, threads: runner.threads }))(engineOf(entry)),
          rebuild: (results: unknown[]) => entry.rebuild(results as tf.Tensor[]),
        };
      },
    },
    retrace: {
      value: (): void => {
        for (const entry of cache.values()) disposeEntry(entry);
        for (const family of families.values()) if (family.relaxed) disposeEntry(family.relaxed);
        cache.clear();
        families.clear();
      },
    },
    dispose: { value: (): void => (staged as Staged<F>).retrace() },
    traceCount: { get: () => traceCount },
    original: { value: fn },
    name: { value: `staged ${fn.name}` },
  });
  return staged;
}

function disposeEntry(entry: CacheEntry): void {
  entry.engine?.runner?.dispose();
  disposeProgram(entry.program);
}

function disposeProgram(program: Program): void {
  for (const t of program.constants) t.dispose();
  program.constants.length = 0;
}

// ---- tracing ------------------------------------------------------------------------------------

/** A JS value of fn's result as compared between traces: primitives by value, objects by identity. */
function jsValueKey(value: unknown): string {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return typeof value === 'string' ? JSON.stringify(value) : `${typeof value}:${Object.is(value, -0) ? '-0' : String(value)}`;
  }
  return `object ${signatureOf(undefined, [value]).signature}`;
}

interface TapeState {
  gradientDepth: number;
  activeTape: unknown;
}

/** One trace of fn, not yet optimized; `variant` picks the stand-ins of changing dims (Tracer.variant). */
function trace(fn: (...args: never[]) => unknown, thisArg: unknown, args: unknown[], tensors: tf.Tensor[],
               variant: 0 | 1, watch: Watch | undefined, audit: boolean): CacheEntry {
  const tracer = new Tracer(variant, audit);
  if (watch !== undefined) tensors.forEach((t, i) => tracer.watchDims(t, watch.pattern[i], watch.names[i]));
  if (audit) tensors.forEach((t) => tracer.auditTensor(t));
  for (const t of tensors) tracer.root.values.set(t, tracer.root.addParam({ shape: [...t.shape], dtype: t.dtype }));

  // The trace's own kernels must not land on an outer gradient tape (tf.grad around a staged call).
  const state = tf.engine().state as unknown as TapeState;
  const tape = { gradientDepth: state.gradientDepth, activeTape: state.activeTape };
  state.gradientDepth = 0;
  tf.engine().startScope('autograph-ts trace');
  let rebuild: CacheEntry['rebuild'];
  let resultKey = '';
  try {
    const result = runTrace(tracer, () => (fn as unknown as (...a: unknown[]) => unknown).apply(thisArg, args),
      new StagedControlFlow(tracer));
    if (result instanceof Promise) {
      throw new StagingError('autograph-ts: stage() needs a synchronous function; this one returned a Promise.');
    }
    checkNoListIn(result);
    const flat = flatten(result);
    const positions: number[] = [];
    tracer.root.graph.results = flat.leaves.flatMap((leaf, i) => {
      if (!(leaf instanceof tf.Tensor)) return [];
      const mark = tracer.facts.maybeUndefined.get(leaf);
      if (mark !== undefined) throw returnInOneBranch(mark.origin ? { origin: mark.origin } : undefined);
      positions.push(i);
      return [tracer.resolve(leaf)];
    });
    const leaves = flat.leaves.map((l) => (l instanceof tf.Tensor ? undefined : l));
    resultKey = `${flat.structure}: ${flat.leaves.map((l) => (l instanceof tf.Tensor ? 'tensor' : jsValueKey(l))).join(', ')}`;
    rebuild = (outs) => {
      const values = [...leaves];
      positions.forEach((p, k) => (values[p] = outs[k]));
      return flat.rebuild(values);
    };
  } catch (error) {
    disposeProgram(tracer.program);
    throw error;
  } finally {
    tracer.unwatchDims();
    tracer.restoreVariables();
    const made = traceScopeTensors();
    tf.engine().endScope();
    markDisposedByTrace(made, fn.name);
    state.gradientDepth = tape.gradientDepth;
    state.activeTape = tape.activeTape;
  }
  return {
    program: tracer.program, rebuild, raw: rawTraceOf(tracer.program, resultKey), pattern: tensors.map((t) => [...t.shape]),
    changingDims: tracer.changingDims, dimReads: tracer.dimReads, audit: tracer.audit,
  };
}
