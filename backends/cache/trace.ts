/**
 * One trace of a staged function: fn run on placeholders with the trace patches installed, its
 * kernels and control flow recorded into a program, its result flattened into the graph's results
 * and a way to rebuild fn's return value from them.
 */
import * as tf from '@tensorflow/tfjs-core';
import { returnInOneBranch, StagingError } from '../common/errors';
import { flatten } from '../common/nest';
import { defineControlFlow } from '../gradients/taped_control_flow';
import { StagedControlFlow } from '../staging/control_flow';
import { refuseTraceValuesLeftInFields } from '../staging/observed_fields';
import { rawTraceOf } from '../staging/shape_relaxation';
import { ListWidening, ReturnedList, stagedArrayState, withListsStacked } from '../staging/staged_lists';
import { ListElementsLearnt } from '../staging/list_elements';
import { type RecordShape, RecordsLearnt, withRecordsSpread } from '../staging/record_lists';
import type { TensorSpec } from '../graph/graph';
import { withoutTape } from '../staging/tape';
import { runTrace } from '../staging/trace_context';
import { markDisposedByTrace, traceScopeTensors } from '../staging/trace_patches';
import { Tracer } from '../staging/tracer';
import type { ObjectStateUse } from '../staging/object_state';
import { inexactResult, isInexact, promotionOf, resetInexactValues } from '../../runtime/promoted_values';
import { type Recipe, recipeOf } from '../../runtime/js_recipes';
import { type CacheEntry, disposeProgram, type Watch } from './entry';
import { signatureOf } from './signatures';
import { type HeldResults, holdResults, takeResults, traceValuesAreResults } from './trace_results';
import { callTraced, explainRecordedErrors, explainTraceError } from './trace_errors';
import { asLibrary, userCallback } from '../../runtime/library_code';

/** A JS value of fn's result as compared between traces: primitives by value, objects by identity. */
function jsValueKey(value: unknown): string {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return typeof value === 'string' ? JSON.stringify(value) : `${typeof value}:${Object.is(value, -0) ? '-0' : String(value)}`;
  }
  return `object ${signatureOf(undefined, [value]).signature}`;
}

/**
 * One trace of fn, not yet optimized; `variant` picks the stand-ins of changing dims (Tracer.variant).
 * With `values` (a trace of the call's own arguments), the entry holds the call's results where
 * the trace computed them (trace_results.ts).
 */
export function trace(fn: (...args: never[]) => unknown, thisArg: unknown, args: unknown[], tensors: tf.Tensor[],
               variant: 0 | 1, watch: Watch | undefined, audit: boolean, values = false): CacheEntry {
  // autograph-ts's own reads of the arguments' dims are not the user's (library_code.ts).
  return asLibrary(() => {
    const widened = widenedListsOf(fn);
    const elements = listElementsOf(fn, elementsKey(args, tensors));
    const records = recordShapesOf(fn);
    for (;;) {
      try {
        return traceAsLibrary(fn, thisArg, args, tensors, variant, watch, audit, values, widened, elements, records);
      } catch (error) {
        if (!learnsFrom(error, widened, elements) && !learnsRecords(error, records)) throw error;
      }
    }
  });
}

/**
 * Whether a trace failed for something the next trace knows (each list once): a list of JS numbers
 * got a fraction after integers (traced again with it float32), or lists read before their first
 * push got elements later (traced again with their element specs, list_elements.ts).
 */
function learnsFrom(error: unknown, widened: Set<string>, elements: Map<string, TensorSpec>): boolean {
  if (error instanceof ListWidening && !widened.has(error.origin)) {
    widened.add(error.origin);
    return true;
  }
  if (!(error instanceof ListElementsLearnt) || [...error.elements.keys()].every((origin) => elements.has(origin))) return false;
  error.elements.forEach((spec, origin) => elements.set(origin, spec));
  return true;
}

/** Whether a trace found an array of records it had made a list of tensors (record_lists.ts): traced again with its shape. */
function learnsRecords(error: unknown, records: Map<string, RecordShape>): boolean {
  if (!(error instanceof RecordsLearnt) || records.has(error.origin)) return false;
  records.set(error.origin, error.shape);
  return true;
}

/** The shapes of fn's lists of records (by newList origin), learnt by its traces. */
const recordShapes = new WeakMap<object, Map<string, RecordShape>>();
function recordShapesOf(fn: object): Map<string, RecordShape> {
  let shapes = recordShapes.get(fn);
  if (shapes === undefined) recordShapes.set(fn, shapes = new Map());
  return shapes;
}

/**
 * The element specs of lists fn reads before their first push (by newList origin), learnt by its traces, per
 * signature of the call (`key`, elementsKey): the elements' shapes follow the arguments' (L-BFGS's history of
 * vectors of the problem's size).
 */
const listElements = new WeakMap<object, Map<string, Map<string, TensorSpec>>>();
function listElementsOf(fn: object, key: string): Map<string, TensorSpec> {
  let bySignature = listElements.get(fn);
  if (bySignature === undefined) listElements.set(fn, bySignature = new Map());
  let elements = bySignature.get(key);
  if (elements === undefined) bySignature.set(key, elements = new Map());
  return elements;
}

/** The tensor arguments' shapes and dtypes and the other arguments' JS values (objects by their signature). */
function elementsKey(args: readonly unknown[], tensors: readonly tf.Tensor[]): string {
  return [...tensors.map((t) => `${t.dtype}[${t.shape.join(',')}]`), ...args.filter((a) => !(a instanceof tf.Tensor)).map(jsValueKey)].join('|');
}

/** The lists of JS numbers that hold fractions in fn (ListWidening), learnt by its traces. */
const widenedLists = new WeakMap<object, Set<string>>();
function widenedListsOf(fn: object): Set<string> {
  let widened = widenedLists.get(fn);
  if (widened === undefined) widenedLists.set(fn, widened = new Set());
  return widened;
}

function traceAsLibrary(fn: (...args: never[]) => unknown, thisArg: unknown, args: unknown[], tensors: tf.Tensor[],
                        variant: 0 | 1, watch: Watch | undefined, audit: boolean, values: boolean,
                        widened: ReadonlySet<string>, elements: ReadonlyMap<string, TensorSpec>,
                        records: ReadonlyMap<string, RecordShape>): CacheEntry {
  const tracer = new Tracer(variant, audit, defineControlFlow);
  tracer.lists.widened = widened;
  tracer.lists.records = records;
  tracer.lists.elements.hints = elements;
  if (watch !== undefined) tensors.forEach((t, i) => tracer.watchDims(t, watch.pattern[i], watch.names[i]));
  if (audit) tensors.forEach((t) => tracer.auditTensor(t));
  for (const t of tensors) tracer.root.values.set(t, tracer.root.addParam({ shape: [...t.shape], dtype: t.dtype }));
  for (const value of [thisArg, ...args]) {
    if (value !== null && typeof value === 'object' && !(value instanceof tf.Tensor)) tracer.facts.objects.given.add(value);
  }

  // The trace's own kernels must not land on an outer gradient tape (tf.grad around a staged call).
  return withoutTape(() => traceOutsideTape(fn, thisArg, args, tensors, tracer, values));
}

/** The error a trace ends with where it skipped reads of lists (list_elements.ts): the retrace or the read's refusal first. */
function afterSkippedReads(tracer: Tracer, error: unknown): unknown {
  if (error instanceof ListElementsLearnt) return error;
  // A kernel failing on values that an earlier staged throw rejected: the user's error, as eagerly.
  if (!(error instanceof StagingError) && tracer.facts.thrownByTrace !== undefined) return tracer.facts.thrownByTrace;
  try {
    tracer.lists.elements.finish();
  } catch (outcome) {
    return outcome;
  }
  return error;
}

function traceOutsideTape(fn: (...args: never[]) => unknown, thisArg: unknown, args: unknown[], tensors: tf.Tensor[],
                          tracer: Tracer, values: boolean): CacheEntry {
  tf.engine().startScope('autograph-ts trace');
  resetInexactValues();
  let rebuild: CacheEntry['rebuild'] = () => undefined;
  let promoted: boolean[] = [];
  let valueLists: boolean[] = [];
  let resultKey = '';
  let state: ObjectStateUse | undefined;
  let held: HeldResults | undefined;
  let traceValues: tf.Tensor[] | undefined;
  try {
    const result = runTrace(tracer, userCallback(() => callTraced(fn, thisArg, args)), new StagedControlFlow(tracer));
    if (result instanceof Promise) {
      throw new StagingError('autograph-ts: stage() needs a synchronous function; this one returned a Promise.');
    }
    tracer.lists.elements.finish();
    let resultTensors: (tf.Tensor | undefined)[];
    ({ rebuild, resultKey, promoted, valueLists, resultTensors } = bindResults(tracer, result));
    state = tracer.facts.objects.finish(tracer, (value, array) => listOfArray(tracer, value, array));
    if (state !== undefined && (state.inputs.length > 0 || state.outputs.length > 0)) {
      tracer.program.objectState = { inputs: state.inputs.map((f) => f.name), outputs: state.outputs.map((f) => f.name) };
    }
    explainRecordedErrors(tracer.program, fn, thisArg);
    // (Not where the call's objects are state: the first run writes the fields back.)
    const stateless = state === undefined || (state.inputs.length === 0 && state.outputs.length === 0);
    if (values && stateless && !tracer.changingDims && traceValuesAreResults(tracer.program.graph, resultTensors)) {
      held = holdResults(resultTensors as tf.Tensor[]);
    }
  } catch (thrown) {
    disposeProgram(tracer.program);
    const error = afterSkippedReads(tracer, thrown);
    explainTraceError(error, fn, thisArg);
    throw error;
  } finally {
    tracer.unwatchDims();
    // (Where the trace's values are the call's, so are its variable updates.)
    if (held !== undefined) tracer.keepAssignedVariables();
    else tracer.restoreVariables();
    const made = traceScopeTensors();
    tf.engine().endScope();
    // (Tracked by the caller's scope from here: a tf.tidy around the call frees them.)
    traceValues = held && takeResults(held);
    markDisposedByTrace(made, fn.name);
    if (tracer.facts.observedObjects.size > 0) refuseTraceValuesLeftInFields(tracer.facts.observedObjects, new Set(made), fn.name);
  }
  return {
    program: tracer.program, rebuild, promoted, valueLists, raw: rawTraceOf(tracer.program, resultKey), pattern: tensors.map((t) => [...t.shape]),
    changingDims: tracer.changingDims, dimReads: tracer.dimReads, audit: tracer.audit, state, traceValues,
  };
}

/**
 * Makes the tensors of fn's result the graph's results; returns how to rebuild the result from
 * them and the key that compares it between traces. A promoted JS number or boolean in the result
 * (a counter a staged loop carried as a tensor, runtime/promoted_values.ts) comes back as the JS
 * value eager code returns: its scalar is read once at the end of the call (given read already,
 * as a JS value in place of the tensor, by staged.run).
 */
function bindResults(tracer: Tracer, result: unknown): {
  rebuild: CacheEntry['rebuild']; resultKey: string; promoted: boolean[];
  /** Per graph result, whether it is a returned list of JS numbers or booleans (rebuild reads it). */
  valueLists: boolean[];
  /** Per graph result, the tensor the trace computed for it (none for a list). */
  resultTensors: (tf.Tensor | undefined)[];
} {
  const flat = withRecordsSpread(flatten(withListsStacked(result, tracer.lists)));
  const positions: number[] = [];
  tracer.root.graph.results = flat.leaves.flatMap((leaf, i) => {
    if (leaf instanceof ReturnedList) {
      positions.push(i);
      return [tracer.resolve(leaf.stacked)];
    }
    if (!(leaf instanceof tf.Tensor)) return [];
    const mark = tracer.facts.maybeUndefined.get(leaf);
    if (mark !== undefined) throw returnInOneBranch(mark.origin ? { origin: mark.origin } : undefined);
    positions.push(i);
    return [tracer.resolve(leaf)];
  });
  const promoted = positions.map((p) => !(flat.leaves[p] instanceof ReturnedList) && promotionOf(flat.leaves[p]) !== undefined);
  // An inexact promoted result that JS arithmetic computed from exact promoted values (`correct / n`) comes back
  // computed in JS from those, read back after the call (js_recipes.ts): extra results, after the function's own.
  const recipes = new Map<number, { recipe: Recipe; first: number }>();
  positions.forEach((p, k) => {
    const promotion = promotionOf(flat.leaves[p]);
    if (promotion === undefined || !isInexact(promotion, flat.leaves[p])) return;
    const recipe = recipeOf(flat.leaves[p]);
    if (recipe === undefined) throw inexactResult(promotion, 'is returned');
    recipes.set(k, { recipe, first: tracer.root.graph.results.length });
    tracer.root.graph.results.push(...recipe.leaves.map((leaf) => tracer.resolve(leaf)));
  });
  const extra = tracer.root.graph.results.length - positions.length;
  const extraTensors = [...recipes.values()].flatMap(({ recipe }) => recipe.leaves);
  const lists = positions.map((p) => flat.leaves[p] instanceof ReturnedList);
  const scalarLists = positions.map((p) => flat.leaves[p] instanceof ReturnedList && (flat.leaves[p] as ReturnedList).scalars);
  const leaves = flat.leaves.map((l) => (l instanceof tf.Tensor || l instanceof ReturnedList ? undefined : l));
  const resultKey = `${flat.structure}: ${flat.leaves.map((l, i) => (l instanceof ReturnedList ? 'list'
    : l instanceof tf.Tensor ? (promoted[positions.indexOf(i)] ? 'promoted tensor' : 'tensor') : jsValueKey(l))).join(', ')}`;
  const rebuild = (outs: unknown[]): unknown => {
    const values = [...leaves];
    const read = (out: unknown): unknown => (out instanceof tf.Tensor ? readPromoted(out) : out);
    positions.forEach((p, k) => {
      const out = outs[k];
      const replay = recipes.get(k);
      if (replay !== undefined) {
        if (out instanceof tf.Tensor) out.dispose();
        const from = outs.slice(replay.first, replay.first + replay.recipe.leaves.length).map(read) as (number | boolean)[];
        values[p] = replay.recipe.compute(from);
        return;
      }
      values[p] = !(out instanceof tf.Tensor) ? out : promoted[k] ? readPromoted(out)
        : scalarLists[k] ? readList(out) : lists[k] ? unstackList(out) : out;
    });
    return flat.rebuild(values);
  };
  const resultTensors = [...positions.map((p) => (flat.leaves[p] instanceof tf.Tensor ? flat.leaves[p] as tf.Tensor : undefined)),
    ...extraTensors];
  return { rebuild, resultKey, promoted: [...promoted, ...Array<boolean>(extra).fill(true)],
    valueLists: [...scalarLists, ...Array<boolean>(extra).fill(false)], resultTensors };
}

/** A field's array that the trace made a list of (a StagedArray over it in list mode): the list stacked, as a state output. */
function listOfArray(tracer: Tracer, value: unknown, array: unknown): { stacked: tf.Tensor; scalars: boolean } | undefined {
  const state = stagedArrayState(value);
  if (state === undefined || state.target !== array || !state.isList) return undefined;
  if (state.isRecords) {
    throw new StagingError(`autograph-ts: '${state.name}' is a JS array of records that the staged function grows: it keeps ` +
      'only tensors and JS numbers or booleans as state that outlives a call. Return the records instead.');
  }
  return { stacked: tracer.lists.stackReturned(state.list!, state.name), scalars: state.scalars };
}

/** A returned list's elements, as the JS array eager code returns (the padding element dropped); frees the rest. */
function unstackList(stacked: tf.Tensor): tf.Tensor[] {
  const elements = tf.unstack(stacked);
  stacked.dispose();
  elements.pop()!.dispose();
  return elements;
}

/** A returned list of JS numbers or booleans, as the JS array eager code returns (the padding dropped); frees the tensor. */
function readList(stacked: tf.Tensor): (number | boolean)[] {
  const values = Array.from(stacked.dataSync() as ArrayLike<number>, (v) => promotedValue(stacked.dtype, v));
  stacked.dispose();
  values.pop();
  return values;
}

/** The JS value a promoted scalar stands for (a bool tensor was a boolean); frees the tensor. */
function readPromoted(t: tf.Tensor): number | boolean {
  const value = t.dataSync()[0] as number;
  t.dispose();
  return promotedValue(t.dtype, value);
}

/** The JS value of a promoted scalar of `dtype` whose element is `value`. */
export const promotedValue = (dtype: tf.DataType, value: number): number | boolean => (dtype === 'bool' ? value !== 0 : value);
