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
import { writeBackState } from './staging/object_state';
import type * as tf from '@tensorflow/tfjs-core';
import { throwIfNotConverted, throwIfNotTraceable } from './cache/retracing';
import { SignatureCache } from './cache/signature_cache';
import type { CacheEntry } from './cache/entry';
import { lookupTracingOnHost } from './cache/device_lookup';
import { syncReadsUnsafe } from './cache/host_trace';
import { readResultsAsync, readStateAsync } from './cache/async_reads';
import type { InputSpec } from './cache/signatures';
import type { EngineChoice } from './engines/engine';
import { chooseEngine, type EngineOption, runOn, runOnAsync, runsEveryCallItself } from './engines/choice';
import type { SessionOptions } from './engines/onnx/runtime';
import { graphToDot } from './graph/dot';
import { dumpGraph, graphStats, type GraphStats, type Program } from './graph/graph';
import type { OptimizeOptions } from './optimize';
import { isTapeOn } from './staging/tape';
import { activeTracer } from './staging/trace_context';
import { rewriteStack } from '../runtime/user_frames';

export interface StageOptions {
  /** Graph optimizations (all on by default); `false` turns them all off. */
  optimize?: boolean | Partial<OptimizeOptions>;
  /** Trace again on every call (debugging; JS side effects then happen on every call). */
  alwaysRetrace?: boolean;
  /**
   * Which engine runs the graph: ONNX Runtime where it is installed and the graph lowers, else the
   * tfjs kernel executor ('auto', the default), always the tfjs executor ('tfjs'), or always ONNX
   * Runtime ('onnx': an error when it cannot). See backends/engines/choice.ts.
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
  /**
   * tf.while_loop's maximum_iterations: a loop staged on a tensor condition that would run more
   * iterations than this (per run of the loop) throws a StagingError naming its line, instead of
   * blocking forever. Checked by the tfjs executor: with it, 'auto' runs graphs with loops there.
   */
  maximumIterations?: number;
  /**
   * A per-call time budget for asynchronous calls (`staged.run(...)`), in milliseconds: a run still
   * inside a loop staged on a tensor condition after this long rejects with a StagingError naming
   * the loop and how many iterations it ran, instead of running on forever. Checked by the tfjs
   * executor between iterations: with it, 'auto' runs graphs with loops there.
   */
  timeBudgetMs?: number;
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
  /** What the optimizer rewrote (beyond removing and merging nodes), one line each. */
  optimizations: string[];
  /**
   * The engine that runs this graph and why (the nodes that do not lower; under 'auto', the
   * timings of both engines that decided, in `measurement`); `lastCall`: the engine that ran the
   * last call, and why when it is not `engine`.
   */
  engine: Omit<EngineChoice, 'runner'>;
  /** fn's return value built from values for the graph's results (in order): where each result goes. */
  rebuild(results: unknown[]): unknown;
}

export type Staged<F extends (...args: never[]) => unknown> = F & {
  /**
   * `staged(...args)` as a Promise of the same result, on every engine: the way to reach engines
   * that only run asynchronously (onnxruntime-web), and tfjs webgl / webgpu without synchronous
   * readbacks (loop tests and branch conditions are awaited). Tracing, when needed, happens
   * before the Promise is returned, as in a synchronous call — except on webgpu, whose synchronous
   * reads are unsafe: there the call's tensors are read asynchronously first and fn is traced on
   * the 'cpu' backend, the graph then runs on webgpu (cache/host_trace.ts).
   */
  run(...args: Parameters<F>): Promise<Awaited<ReturnType<F>>>;
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
  /** `stage(fn, { inputSignature })`, if given (exporters name inputs after it). */
  readonly inputSignature?: readonly InputSpec[];
};

export function stage<F extends (...args: never[]) => unknown>(fn: F, options: StageOptions = {}): Staged<F> {
  if (typeof fn !== 'function') throw new TypeError(`autograph-ts: stage() needs a function, got ${typeof fn}`);
  throwIfNotTraceable(fn);
  throwIfNotConverted(fn);
  const limit = options.maximumIterations;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
    throw new TypeError(`autograph-ts: maximumIterations must be a non-negative integer, got ${String(limit)}`);
  }
  const budget = options.timeBudgetMs;
  if (budget !== undefined && !(typeof budget === 'number' && budget > 0)) {
    throw new TypeError(`autograph-ts: timeBudgetMs must be a positive number of milliseconds, got ${String(budget)}`);
  }
  const cache = new SignatureCache(fn, { ...options, relaxDims: options.engine !== 'onnx' });
  const engineOf = (entry: CacheEntry): EngineChoice =>
    (entry.engine ??= chooseEngine(entry.program, options.engine ?? 'auto', { graph: fn.name }, options.onnx));
  // A call that traces may take the trace's own values as its results (cache/trace_results.ts):
  // not under a gradient tape (the call must run there to be differentiated), nor when an engine
  // other than the fallback was asked for (it runs every call, or says why it cannot).
  const takesTraceValues = (): boolean => !isTapeOn() && !runsEveryCallItself(options.engine ?? 'auto');

  const staged = function (this: unknown, ...args: unknown[]): unknown {
    // A staged function called while tracing is inlined into the trace in progress.
    if (activeTracer() !== undefined) return (fn as unknown as (...a: unknown[]) => unknown).apply(this, args);
    try {
      const { entry, tensors, values } = cache.lookup(this, args, takesTraceValues());
      if (values !== undefined) servedByTrace(entry, false);
      return entry.rebuild(values ?? writeBackState(entry.state, runOn(engineOf(entry), entry.program, tensors)));
    } catch (error) {
      rewriteStack(error); // the user's .ts frames first, engine frames dropped
      throw error;
    }
  } as unknown as Staged<F>;

  const runAsync = async function (this: unknown, ...args: unknown[]): Promise<unknown> {
    if (activeTracer() !== undefined) {
      throw new Error(`autograph-ts: ${fn.name || 'a staged function'}.run() was called while tracing: call it as a plain function inside a staged function (it is inlined)`);
    }
    try {
      // `staged.run(...)` has the staged function as `this`: the plain call `staged(...)`.
      const self = this === staged ? undefined : this;
      // (Where synchronous reads are unsafe, a trace runs on the cpu from values read asynchronously: host_trace.ts.)
      const { entry, tensors, values } = syncReadsUnsafe() ? await lookupTracingOnHost(cache, self, args)
        : cache.lookup(self, args, takesTraceValues());
      if (values !== undefined) servedByTrace(entry, true);
      let results = values;
      if (results === undefined) {
        const outputs = await runOnAsync(engineOf(entry), entry.program, tensors);
        results = writeBackState(entry.state, await readStateAsync(entry.state, outputs));
      }
      return entry.rebuild(await readResultsAsync(results, entry));
    } catch (error) {
      rewriteStack(error);
      throw error;
    }
  };

  Object.defineProperties(staged, {
    run: { value: runAsync },
    inspect: {
      value: function (this: unknown, ...args: unknown[]): StagedGraphInfo {
        // `staged.inspect(...)` has the staged function as `this`: describe the plain call `staged(...)`.
        const { entry, signature } = cache.lookup(this === staged ? undefined : this, args);
        return describeEntry(entry, signature, fn.name || 'staged', engineOf(entry));
      },
    },
    retrace: { value: (): void => cache.clear() },
    dispose: { value: (): void => cache.clear() },
    traceCount: { get: () => cache.traceCount },
    original: { value: fn },
    inputSignature: { value: options.inputSignature },
    name: { value: `staged ${fn.name}` },
  });
  return staged;
}

/** The calls whose values their trace computed, until the entry's engine runs one (inspect().engine.lastCall). */
const tracedCalls = new WeakMap<CacheEntry, { async: boolean }>();

function servedByTrace(entry: CacheEntry, async: boolean): void {
  tracedCalls.set(entry, { async });
}

const lastCallOfTrace = (async: boolean): NonNullable<EngineChoice['lastCall']> =>
  ({ engine: 'trace', async, reason: 'the call that traced the graph: its results are the values the trace computed' });

function describeEntry(entry: CacheEntry, signature: string, name: string, choice: EngineChoice): StagedGraphInfo {
  const { runner, ...described } = choice;
  const traced = tracedCalls.get(entry);
  const engine = described.lastCall === undefined && traced !== undefined ? { ...described, lastCall: lastCallOfTrace(traced.async) } : described;
  return {
    signature,
    stats: graphStats(entry.program.graph, entry.program.functions),
    dump: () => dumpGraph(entry.program),
    dot: () => graphToDot(entry.program, name),
    program: entry.program,
    optimizations: entry.program.optimizations ?? [],
    engine: runner?.threads === undefined ? engine : { ...engine, threads: runner.threads },
    rebuild: (results: unknown[]) => entry.rebuild(results as tf.Tensor[]),
  };
}
