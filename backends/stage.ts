/**
 * `stage(fn)`: the tf.function of autograph-ts.
 *
 * IMPORTANT — what staging means for your code:
 * - fn is traced once per input signature: the shapes and dtypes of its tensor arguments plus the
 *   values of all its other arguments (numbers, strings, booleans, and the identity of objects),
 *   and the active tfjs backend.
 *   Later calls with the same signature do not run fn's JS at all: they run the recorded graph.
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
import { dumpGraph, graphStats, GraphStats, Program } from './graph';
import { flatten } from './nest';
import { checkNoListIn } from './staged_lists';
import { optimizeProgram, OptimizeOptions } from './optimize';
import { RetraceLog, throwIfNotConverted } from './retracing';
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
}

export function stage<F extends (...args: never[]) => unknown>(fn: F, options: StageOptions = {}): Staged<F> {
  if (typeof fn !== 'function') throw new TypeError(`autograph-ts: stage() needs a function, got ${typeof fn}`);
  throwIfNotConverted(fn);
  const cache = new Map<string, CacheEntry>();
  let traceCount = 0;
  const retraces = new RetraceLog(fn);

  const lookup = (thisArg: unknown, args: unknown[]): { entry: CacheEntry; tensors: tf.Tensor[]; signature: string } => {
    const { signature, tensors } = signatureOf(thisArg, args);
    let entry = options.alwaysRetrace ? undefined : cache.get(signature);
    if (entry === undefined) {
      traceCount++;
      retraces.onTrace(traceCount, args, options.alwaysRetrace === true);
      entry = trace(fn, thisArg, args, tensors, options);
      verboseLog(3, () => `graph of ${fn.name || 'a function'} (trace #${traceCount}):\n${dumpGraph(entry!.program)}`);
      const previous = cache.get(signature);
      if (previous) disposeEntry(previous);
      cache.set(signature, entry);
    } else {
      verboseLog(2, () => `cache hit for ${fn.name || 'a function'}: ${signature}`);
    }
    return { entry, tensors, signature };
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
          engine: (({ runner: _, ...choice }) => choice)(engineOf(entry)),
          rebuild: (results: unknown[]) => entry.rebuild(results as tf.Tensor[]),
        };
      },
    },
    retrace: {
      value: (): void => {
        for (const entry of cache.values()) disposeEntry(entry);
        cache.clear();
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

// ---- signatures ---------------------------------------------------------------------------------

const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;
const objectId = (o: object): number => {
  let id = objectIds.get(o);
  if (id === undefined) objectIds.set(o, (id = nextObjectId++));
  return id;
};

/** The cache key of a call, and its distinct tensor arguments (the graph's parameters). */
export function signatureOf(thisArg: unknown, args: unknown[]): { signature: string; tensors: tf.Tensor[] } {
  const flat = flatten(args);
  const tensors: tf.Tensor[] = [];
  const parts = flat.leaves.map((leaf) => {
    if (leaf instanceof tf.Variable) return `var:${leaf.name}`;
    if (leaf instanceof tf.Tensor) {
      // The same tensor passed twice is one parameter: the key says so.
      const same = tensors.findIndex((t) => t.dataId === leaf.dataId && t.dtype === leaf.dtype &&
        t.shape.length === leaf.shape.length && t.shape.every((d, i) => d === leaf.shape[i]));
      if (same >= 0) return `=${same}`;
      tensors.push(leaf);
      return `${leaf.dtype}[${leaf.shape.join(',')}]`;
    }
    switch (typeof leaf) {
      case 'number':
        return Object.is(leaf, -0) ? 'n:-0' : `n:${leaf}`;
      case 'string':
        return `s:${JSON.stringify(leaf)}`;
      case 'boolean':
      case 'undefined':
      case 'bigint':
        return `${typeof leaf}:${String(leaf)}`;
      case 'symbol':
        return `sym:${String(leaf)}`;
      default:
        return leaf === null ? 'null' : `obj:${objectId(leaf as object)}`;
    }
  });
  const self = thisArg === undefined || thisArg === null || typeof thisArg !== 'object' && typeof thisArg !== 'function'
    ? String(thisArg) : `obj:${objectId(thisArg as object)}`;
  // The backend is part of the key: captured constants live on the backend that traced them.
  return { signature: `${tf.getBackend()}|${self}|${flat.structure}|${parts.join(',')}`, tensors };
}

// ---- tracing ------------------------------------------------------------------------------------

interface TapeState {
  gradientDepth: number;
  activeTape: unknown;
}

function trace(fn: (...args: never[]) => unknown, thisArg: unknown, args: unknown[], tensors: tf.Tensor[],
               options: StageOptions): CacheEntry {
  const tracer = new Tracer();
  for (const t of tensors) tracer.root.values.set(t, tracer.root.addParam({ shape: [...t.shape], dtype: t.dtype }));

  // The trace's own kernels must not land on an outer gradient tape (tf.grad around a staged call).
  const state = tf.engine().state as unknown as TapeState;
  const tape = { gradientDepth: state.gradientDepth, activeTape: state.activeTape };
  state.gradientDepth = 0;
  tf.engine().startScope('autograph-ts trace');
  let rebuild: CacheEntry['rebuild'];
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
    rebuild = (outs) => {
      const values = [...leaves];
      positions.forEach((p, k) => (values[p] = outs[k]));
      return flat.rebuild(values);
    };
  } catch (error) {
    disposeProgram(tracer.program);
    throw error;
  } finally {
    tracer.restoreVariables();
    const made = traceScopeTensors();
    tf.engine().endScope();
    markDisposedByTrace(made, fn.name);
    state.gradientDepth = tape.gradientDepth;
    state.activeTape = tape.activeTape;
  }
  optimizeProgram(tracer.program, options.optimize);
  return { program: tracer.program, rebuild };
}
