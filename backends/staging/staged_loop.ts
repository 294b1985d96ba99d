/**
 * A loop on a tensor condition, staged as a While node: the test and the body are each traced
 * once, over parameters that stand for the loop variables (the state variables that are tensors,
 * plus the jump flags turned into bool tensors, plus a return value that becomes a tensor).
 */
import { displayName, isReturnValueName } from '../../runtime/names';
import * as tf from '@tensorflow/tfjs-core';
import type { OperatorOptions } from '../../runtime/options';
import type { GetState, SetState, Thunk } from '../../runtime/staging_hooks';
import { capturedTensors, GraphBuilder, specOf, unifyCaptures } from '../graph/builder';
import { at, StagingError, StructureChange } from '../common/errors';
import { ListElementUnknown } from './list_elements';
import { mergeShapes, sameShape, type TensorSpec, UNKNOWN_DIM } from '../graph/graph';
import { flatten } from '../common/nest';
import { describeList, keepReturnedArray, notReturned, relaxedShape, TracedList } from './staged_lists';
import type { Tracer } from './tracer';
import { markPromoted, noteAssigned, noteFloat32, noteStagedLoop, promotionOf } from '../../runtime/promoted_values';
import { rewriteStack } from '../../runtime/user_frames';
import { shapeTensor } from '../kernels/shape_kernel';
import { UndefinedReturnValue } from '../../runtime/undefined_values';
import {
  conditionTensor, describeValue, isInt32, isReturnSentinel, promotedDtypeOf, isUndefinedValue, MaybeUndefined, placeholderLike, zerosOf,
} from './staged_values';

export interface LoopSpec {
  test: Thunk;
  body: Thunk<void>;
  getState: GetState;
  setState: SetState;
  names: string[];
  flags: string[];
  opts: OperatorOptions | undefined;
}

interface Leaf {
  name: string;
  value: unknown;
  /** A loop variable: a tensor parameter of cond and body. */
  loop: boolean;
  /** Its dims, where the body changes some (UNKNOWN_DIM). */
  dims?: ChangingDims;
}

/** A loop variable whose dims the body changes: traced again with those dims unknown. */
interface ChangingDims {
  shape: number[];
  /** Its real shape after the first iteration (on the second iteration), as the first trace found it. */
  after: number[];
  /**
   * Where the body failed on stand-in sizes for these dims, it is traced on real ones instead:
   * 'second', as on the loop's second iteration (`after`); where that works, the second trace that
   * stage() compares with (Tracer.variant 1) takes the first iteration's dims ('initial'), so the two
   * traces still see other dims. 'first': it failed on the second iteration's dims too (`failure`,
   * eager's error there): the body is traced on the first iteration's dims and a Check at its start
   * raises `failure` when an iteration starts with other dims (see firstIterationOnly).
   */
  mode?: 'second' | 'initial' | 'first';
  failure?: Error;
}

class RetryWithUnknownDims {
  constructor(readonly dims: Map<number, ChangingDims>) {}
}

/** Traced again with these leaves as loop variables: values the loop creates, seen only as
 * placeholders before it (`specs`), tf.Variables the body rebinds to another tensor (`rebound`),
 * and the user's JS numbers and booleans that the body changes, promoted to tensors of a dtype
 * (`promoted`; an int32 counter that turns out non-integral is promoted again, as float32). */
class RetryWithPlaceholders {
  constructor(readonly specs: Map<number, Placeholder>, readonly rebound = new Set<number>(),
              readonly promoted = new Map<number, PromotedDtype>()) {}
}

/**
 * A value the loop body creates: a return value (defined when the return flag `flag` is true,
 * see MaybeUndefined), or a user's variable first assigned in the body (`created`: defined when
 * the loop ran at least once, which a Check after the loop makes sure of).
 */
interface Placeholder {
  spec: TensorSpec;
  flag?: string;
  /** A promoted value the body returns (a JS number eagerly): the placeholder is one too. */
  promotion?: { name: string; origin: string | undefined };
  created?: boolean;
}

type PromotedDtype = 'bool' | 'int32' | 'float32';

/** Tracing rounds: the first, then one per kind of discovery (placeholders or rebound variables,
 * a promotion, an int32 promotion widened to float32). */
const MAX_ATTEMPTS = 4;

/**
 * The body returns a structure (`return [a, n]`) where the loop started with no return value, or
 * assigns one (`v = { a, b }`) to a variable that had none before the loop: the loop is staged
 * again from a value of that structure whose leaves are "not returned" or undefined — each leaf
 * then is a value the loop creates (see Placeholder).
 */
class ReturnStructure {
  constructor(readonly index: number, readonly template: unknown) {}
}

/** A loop variable's leaves; the return value (a flag) keeps the arrays the code made whole. */
function flattenState(spec: LoopSpec, i: number, value: unknown): ReturnType<typeof flatten> {
  return flatten(value, spec.flags.includes(spec.names[i]) ? keepReturnedArray : undefined);
}

export function stageLoop(tracer: Tracer, spec: LoopSpec): void {
  noteStagedLoop(spec.opts?.origin);
  const initial = spec.getState();
  for (;;) {
    try {
      return stageLoopOnce(tracer, spec);
    } catch (error) {
      // A read of a list nothing was pushed to yet: this trace goes on as if the loop ran zero times, to learn
      // the list's elements from the pushes after it, and is traced again (list_elements.ts).
      if (error instanceof ListElementUnknown) return skipLoop(tracer, spec, initial, error);
      if (!(error instanceof ReturnStructure) || !(isReturnSentinel(initial[error.index]) || isUndefinedValue(initial[error.index]))) throw error;
      initial[error.index] = error.template;
      spec.setState(initial);
    }
  }
}

function skipLoop(tracer: Tracer, spec: LoopSpec, initial: unknown[], error: ListElementUnknown): void {
  tracer.lists.elements.skip(error);
  spec.setState(initial);
}

function stageLoopOnce(tracer: Tracer, spec: LoopSpec): void {
  const { names, flags, opts } = spec;
  const { maybeUndefined } = tracer.facts;
  const initial = spec.getState();
  const flats = initial.map((v, i) => flattenState(spec, i, v));
  const leaves: Leaf[] = [];
  flats.forEach((f, i) => f.leaves.forEach((value) => {
    const name = names[i];
    // A tf.Variable is state of its own (reads and assigns are nodes): it stays itself, not a copy.
    if (value instanceof tf.Tensor && !(value instanceof tf.Variable)) return leaves.push({ name, value, loop: true });
    // A list value (an array of tensors the loop grows, staged_lists.ts) is a loop variable too.
    if (value instanceof TracedList) return leaves.push({ name, value, loop: true });
    // Jump flags the body sets (with a staged if, or at all) are carried as bool tensors from the
    // second trace on, like the user's flags (see promotedDtype); a flag the loop leaves alone
    // stays the JS value it is, so later guards on it stay static.
    return leaves.push({ name, value, loop: false });
  }));
  const stateOf = (values: unknown[]): unknown[] => {
    let next = 0;
    return flats.map((f) => f.rebuild(f.leaves.map(() => values[next++])));
  };

  const placeholders = new Map<number, Placeholder>();
  const rebound = new Set<number>();
  const promoted = new Map<number, PromotedDtype>();
  const changing = new Map<number, ChangingDims>();
  for (let attempt = 0, widened = 0; ; attempt++) {
    const current = leaves.map((leaf, k) => {
      // `let h = h0` with h0 a tf.Variable, then `h = ...` in the body: h is a loop variable whose
      // first value is a read of the variable.
      if (rebound.has(k)) return { ...leaf, loop: true };
      const dtype = promoted.get(k);
      if (dtype !== undefined) {
        const value = flags.includes(leaf.name) && !isReturnValueName(leaf.name) && typeof leaf.value === 'boolean'
          ? tracer.makeConstant([leaf.value], [], 'bool') : promote(tracer, leaf, dtype, opts);
        return { ...leaf, value, loop: true };
      }
      const p = placeholders.get(k);
      if (p === undefined) return leaf;
      const value = placeholderLike(tracer, p.spec);
      if (p.promotion) markPromoted(value, p.promotion.name, p.promotion.origin);
      if (!p.created) maybeUndefined.set(value, { flag: p.flag, origin: opts?.origin });
      return { ...leaf, value, loop: true };
    }).map((leaf, k) => withDims(k, changing, leaf));
    // On the retrace as a second iteration, stacks deep enough to reach past tfjs's frames to the user's line.
    const stackLimit = Error.stackTraceLimit;
    const phase = [...changing.values()].find((d) => d.mode !== undefined)?.mode;
    if (phase === 'second') Error.stackTraceLimit = Math.max(stackLimit, 100);
    try {
      // (The second trace only probes the second iteration's dims: it goes on with the first's, below.)
      const probeOnly = phase === 'second' && tracer.variant === 1;
      traceWhile(tracer, spec, current, stateOf, probeOnly);
      Error.stackTraceLimit = stackLimit;
      if (probeOnly) {
        changing.forEach((d, k) => changing.set(k, { ...d, mode: 'initial' }));
        spec.setState(initial);
        attempt--;
        continue;
      }
      const created = [...new Set([...placeholders].filter(([, p]) => p.created).map(([k]) => leaves[k].name))];
      if (created.length > 0) checkLoopRan(tracer, spec, stateOf(current.map((l) => l.value)), created);
      return;
    } catch (error) {
      Error.stackTraceLimit = stackLimit;
      if (isKernelError(error) && changing.size > 0 && (phase === undefined || phase === 'second')) {
        // The body failed on stand-ins for the dims it changes (sizes the user never had): trace it
        // once more as on its second iteration, with real dims, to find the error eager code meets.
        // Where it fails there too, that error is raised when a run reaches the second iteration.
        const failure = phase === 'second' ? secondIterationError(error, spec, current) : undefined;
        changing.forEach((d, k) => changing.set(k, { ...d, mode: phase === undefined ? 'second' : 'first', failure }));
        spec.setState(initial);
        attempt--;
        continue;
      }
      // Each retry for dims makes at least one more dim unknown: as many retries as dims at most.
      if (error instanceof RetryWithUnknownDims) {
        error.dims.forEach((d, k) => {
          const known = changing.get(k);
          changing.set(k, { ...d, after: known?.after ?? d.after, mode: known?.mode, failure: known?.failure });
        });
        spec.setState(initial);
        tracer.changingDims = true;
        attempt--;
        if (++widened > 64) throw error;
        continue;
      }
      if (!(error instanceof RetryWithPlaceholders) || attempt + 1 >= MAX_ATTEMPTS) throw error;
      spec.setState(initial);
      error.specs.forEach((s, k) => placeholders.set(k, s));
      error.rebound.forEach((k) => rebound.add(k));
      error.promoted.forEach((d, k) => promoted.set(k, d));
    }
  }
}

/**
 * The placeholder spec of a value the loop creates: its spec in the body, or, where loop variables
 * change dims (the body's dims then differ between trace variants, and the graph does not say which
 * dims derive from the changing ones), empty in every dim: the placeholder is never read, an empty
 * dim is the same in every variant, and the dims the body gives are then found changing (unknown).
 */
function createdSpec(tracer: Tracer, out: tf.Tensor): TensorSpec {
  return { shape: tracer.changingDims ? out.shape.map(() => 0) : [...out.shape], dtype: out.dtype };
}

/**
 * A body traced on the first iteration's dims (ChangingDims.mode 'first': it fails on other dims)
 * runs only on them: a Check at its start raises the error eager code meets on the second
 * iteration when an iteration starts with other dims. Runs of zero or one iteration give eager's result.
 */
function firstIterationOnly(tracer: Tracer, leaves: Leaf[], entered: unknown[], opts: OperatorOptions | undefined): void {
  let same: tf.Tensor | undefined;
  let failure: Error | undefined;
  leaves.forEach((leaf, k) => {
    if (leaf.dims?.mode !== 'first' || leaf.dims.failure === undefined) return;
    failure = leaf.dims.failure;
    const dims = (leaf.value as tf.Tensor).shape;
    const equal = tf.all(tf.equal(shapeTensor(entered[k] as tf.Tensor), tracer.makeConstant([...dims], [dims.length], 'int32')));
    same = same === undefined ? equal : tf.logicalAnd(same, equal);
  });
  if (same !== undefined) tracer.recordCheck(tracer.resolve(same), failure!, opts?.origin);
}

/** An error of the user's code or of a tfjs kernel (not one of staging's own, nor a retry). */
function isKernelError(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof StagingError);
}

/** `'x' is [2,4] ([2,3] before the loop)`, for each loop variable whose dims change (as on the second iteration). */
function changingDimsText(leaves: Leaf[]): string {
  return leaves.filter((l) => l.dims !== undefined).map((l) => `'${l.name}' is [${l.dims!.after.join(',')}] ` +
    `([${(l.value as tf.Tensor).shape.join(',')}] before the loop)`).join(', ');
}

/**
 * The body of a loop whose dims change failed on its second iteration's real dims: the error eager
 * code meets when the loop runs twice, with its shapes, raised at the user's line, saying so.
 */
function secondIterationError(error: Error, spec: LoopSpec, leaves: Leaf[]): Error {
  const note = `\n\nin user code: the loop staged on a tensor condition${spec.opts?.origin ? ` at ${spec.opts.origin}` : ''} ` +
    `fails on its second iteration (as eager code does), where ${changingDimsText(leaves)}: stage() traced that ` +
    'iteration to find it, and the graph raises it when a run reaches it.';
  const stack = error.stack;
  const before = error.message;
  error.message += note;
  if (typeof stack === 'string') {
    Object.defineProperty(error, 'stack', { value: stack.replace(before, error.message), writable: true, configurable: true });
  }
  rewriteStack(error);
  return error;
}

/** A leaf with the dims the body changes (as the last retry found them). */
function withDims(k: number, changing: Map<number, ChangingDims>, leaf: Leaf): Leaf {
  const dims = changing.get(k);
  return dims === undefined ? leaf : { ...leaf, dims };
}

/**
 * What stands for a loop variable in the body and after the loop. With fixed dims, its initial
 * value. With changing dims, zeros whose unknown dims are sizes other than 0 and 1 (an empty or a
 * broadcasting value takes other paths in tfjs's kernels: a concat with an empty tensor returns the
 * other input itself) and other in each trace variant (Tracer.variant), so that the two traces
 * stage() compares see other dims: in the body d + 2 (variant 1: 2d + 5); after the loop a few
 * iterations' worth, d + 8 (variant 1: 2d + 11) — code after a growing loop often cannot take its
 * initial value (`acc.slice(0, 2)` of an accumulator that starts empty).
 */
function standIn(tracer: Tracer, leaf: Leaf, afterLoop = false, inBody = false): tf.Tensor {
  const init = leaf.value as tf.Tensor;
  if (leaf.dims === undefined) return tracer.freshCopy(init);
  const unknown = leaf.dims.shape;
  const size = (d: number): number => (afterLoop ? (tracer.variant === 1 ? 2 * d + 11 : d + 8) : (tracer.variant === 1 ? 2 * d + 5 : d + 2));
  const { mode } = leaf.dims;
  const dims = !afterLoop && mode === 'second' ? leaf.dims.after
    : !afterLoop && (mode === 'initial' || (mode === 'first' && inBody)) ? [...init.shape]
      : init.shape.map((d, i) => (unknown[i] === UNKNOWN_DIM ? size(d) : d));
  const t = tracer.freshCopy(tracer.makeConstant(zerosOf({ shape: dims, dtype: init.dtype }), dims, init.dtype));
  tracer.watchDims(t, unknown, leaf.name);
  return t;
}

/** A loop variable's spec: a list's own (shared) spec, else the tensor's with its changing dims unknown. */
const loopSpecOf = (leaf: Leaf): TensorSpec => {
  const t = leaf.value as tf.Tensor;
  if (t instanceof TracedList) return specOf(t);
  return { shape: [...(leaf.dims?.shape ?? t.shape)], dtype: t.dtype };
};

/**
 * The list a loop variable holds after an iteration: `init`'s type, or 'learned' when a list that
 * started empty got its first element (its element spec is now known: the loop is traced again).
 */
function listAfterIteration(init: TracedList, out: unknown, name: string, opts: OperatorOptions | undefined): TracedList | 'learned' {
  if (!(out instanceof TracedList)) {
    throw new StagingError(`autograph-ts: '${name}' is ${describeList(init)} in a loop staged on a tensor ` +
      `condition${at(opts)}, but ${describeValue(out)} after an iteration.`);
  }
  const before = init.element;
  const after = out.element;
  if (after === undefined) return out;
  if (before === undefined) {
    init.learn(after);
    return 'learned';
  }
  if (before.dtype !== after.dtype || before.shape.length !== after.shape.length) {
    throw new StagingError(`autograph-ts: the elements of '${name}' change ${before.dtype !== after.dtype ? 'dtype' : 'rank'} ` +
      `in a loop staged on a tensor condition${at(opts)}: ${describeList(init)} before, ${describeList(out)} after an ` +
      'iteration. A list in a staged graph holds tensors of one dtype and rank.');
  }
  if (!sameShape(before.shape, after.shape)) {
    // Elements pushed in the loop differ in some dims from those before it: those dims are unknown.
    init.learn({ shape: relaxedShape(before.shape, after.shape), dtype: before.dtype });
    return 'learned';
  }
  return out;
}

/**
 * A variable first assigned in the loop body and read after the loop (it is loop state) has a
 * value only if the loop ran: a Check that the test held on the values before the loop, with the
 * error JS would have met reading it (AutoGraph accepts such variables the same way).
 */
function checkLoopRan(tracer: Tracer, spec: LoopSpec, before: unknown[], names: string[]): void {
  const after = spec.getState();
  spec.setState(before);
  const test = spec.test();
  spec.setState(after);
  const ran = test instanceof tf.Tensor ? conditionTensor(tracer.facts, test, spec.opts) : tracer.makeConstant([Boolean(test)], [], 'bool');
  const what = names.length === 1 ? `'${names[0]}' is` : `${names.map((n) => `'${n}'`).join(', ')} are`;
  tracer.recordCheck(tracer.resolve(ran), new StagingError(`autograph-ts: ${what} assigned only inside a loop staged on ` +
    `a tensor condition${at(spec.opts)} and read after it, but the loop ran zero times: there is no value to read. ` +
    `Give ${names.length === 1 ? 'it' : 'them'} a value before the loop.`), spec.opts?.origin);
}

/** The first value of a promoted loop variable: its JS value (or an earlier promotion) as a tensor. */
function promote(tracer: Tracer, leaf: Leaf, dtype: PromotedDtype, opts: OperatorOptions | undefined): tf.Tensor {
  const origin = promotionOf(leaf.value)?.origin ?? opts?.origin;
  const number = (v: unknown): number => (dtype === 'float32' ? noteFloat32(Number(v), leaf.name) : Number(v));
  const value = leaf.value instanceof tf.Tensor ? tf.cast(leaf.value, dtype)
    : tracer.makeConstant([dtype === 'bool' ? Boolean(leaf.value) : number(leaf.value)] as number[] | boolean[], [], dtype);
  return markPromoted(value, leaf.name, origin);
}


/**
 * The dtype a changing JS value is promoted to, from its value before the loop and after one
 * iteration: bool for a boolean; int32 for a counter that starts and stays integral (the body's
 * value: an int32 tensor, or an integral JS number); float32 for any other number. undefined
 * when it cannot be promoted (not a number or boolean before and after).
 */
function promotedDtype(before: unknown, after: unknown): PromotedDtype | undefined {
  if (typeof before === 'boolean') {
    return typeof after === 'boolean' || (after instanceof tf.Tensor && after.dtype === 'bool') ? 'bool' : undefined;
  }
  if (typeof before !== 'number') return undefined;
  if (after instanceof tf.Tensor) {
    if (after.dtype !== 'int32' && after.dtype !== 'float32') return undefined;
    return isInt32(before) && after.dtype === 'int32' ? 'int32' : 'float32';
  }
  if (typeof after !== 'number') return undefined;
  return isInt32(before) && isInt32(after) ? 'int32' : 'float32';
}

// Long on purpose (~195 lines): the condition trace, the body trace and the While node share the
// loop's leaves, their stand-ins and marks; `enter` is the one place that binds a trace's loop
// variables, and the body's checks (dtype, structure, lists) read what it bound.
/** `probeOnly`: trace the condition and the body, and stop there (nothing is added to the graph). */
function traceWhile(tracer: Tracer, spec: LoopSpec, leaves: Leaf[], stateOf: (values: unknown[]) => unknown[], probeOnly = false): void {
  const { opts } = spec;
  const { maybeUndefined } = tracer.facts;
  const loopIndices = leaves.flatMap((l, k) => (l.loop ? [k] : []));
  const n = loopIndices.length;
  const initRefs = loopIndices.map((k) => tracer.resolve(leaves[k].value as tf.Tensor));

  /** Binds fresh parameters for the loop variables in `builder` and sets the state to them. */
  const enter = (builder: GraphBuilder, inBody = false): unknown[] => {
    const params = loopIndices.map((k) => {
      const init = leaves[k].value as tf.Tensor;
      const p = init instanceof TracedList ? init.fresh() as unknown as tf.Tensor : standIn(tracer, leaves[k], false, inBody);
      const ref = builder.addParam(loopSpecOf(leaves[k]));
      builder.values.set(p, ref);
      const mark = maybeUndefined.get(init);
      if (mark) maybeUndefined.set(p, mark);
      const promotion = promotionOf(init);
      if (promotion) markPromoted(p, promotion.name, promotion.origin);
      return p;
    });
    const values = leaves.map((l) => l.value);
    loopIndices.forEach((k, i) => (values[k] = params[i]));
    spec.setState(stateOf(values));
    return values;
  };

  const condBuilder = new GraphBuilder(tracer.current, `the condition of the loop${at(opts)}`);
  tracer.inSubgraph(condBuilder, () => {
    const entered = enter(condBuilder);
    const t = spec.test();
    // The While's condition yields only a bool: an assignment in the test would be lost for the
    // body and after the loop (and the loop would run forever on `(x = x.add(1)).less(n)`).
    const tested = spec.getState().flatMap((v, i) => flattenState(spec, i, v).leaves);
    const changed = leaves.findIndex((leaf, k) => !Object.is(tested[k], entered[k]));
    if (changed >= 0) {
      throw new StagingError(`autograph-ts: the condition of a loop staged on a tensor condition${at(opts)} assigns ` +
        `'${leaves[changed].name}'; a staged loop's condition can only compute a value. Assign it in the loop body ` +
        `(and once before the loop) instead.`);
    }
    const c = t instanceof tf.Tensor ? conditionTensor(tracer.facts, t, opts) : tracer.makeConstant([Boolean(t)], [], 'bool');
    condBuilder.graph.results = [tracer.resolve(c)];
  });

  const bodyBuilder = new GraphBuilder(tracer.current, `the body of the loop${at(opts)}`);
  const marks: (MaybeUndefined | undefined)[] = [];
  tracer.inSubgraph(bodyBuilder, () => {
    const entered = enter(bodyBuilder, true);
    firstIterationOnly(tracer, leaves, entered, opts);
    spec.body();
    const after = spec.getState().map((v, i) => flattenState(spec, i, v));
    const outLeaves: unknown[] = [];
    const entering = stateOf(leaves.map((l) => l.value));
    const beforeStructures = entering.map((v, i) => flattenState(spec, i, v).structure);
    after.forEach((f, i) => {
      const before = { structure: beforeStructures[i] };
      if (f.structure !== before.structure && spec.flags.includes(spec.names[i]) && isReturnSentinel(entering[i])) {
        throw new ReturnStructure(i, f.rebuild(f.leaves.map((leaf) => notReturned(leaf, UndefinedReturnValue.instance))));
      }
      // A structure first assigned in the body (`let v; while (...) v = { a, b }`): its leaves are created by the loop.
      if (f.structure !== before.structure && !spec.flags.includes(spec.names[i]) && isUndefinedValue(entering[i]) &&
          f.leaves.length > 0) {
        throw new ReturnStructure(i, f.rebuild(f.leaves.map(() => undefined)));
      }
      if (f.structure !== before.structure) {
        throw new StructureChange(spec.names[i], `autograph-ts: ${displayName(spec.names[i])} changes structure in a loop staged on a tensor ` +
          `condition${at(opts)}: ${before.structure} before, ${f.structure} after an iteration.`, [f.rebuild(f.leaves)]);
      }
      outLeaves.push(...f.leaves);
    });
    const retry = new Map<number, Placeholder>();
    const rebound = new Set<number>();
    const widenDims = new Map<number, ChangingDims>();
    let learned = false;
    const widen = new Map<number, PromotedDtype>();
    const results = loopIndices.map((k) => {
      const leaf = leaves[k];
      const init = leaf.value as tf.Tensor;
      const promotion = promotionOf(init);
      let out = outLeaves[k];
      if (promotion !== undefined) noteAssigned(leaf.name, out);
      if (init instanceof TracedList) {
        const list = listAfterIteration(init, out, leaf.name, opts);
        if (list === 'learned') learned = true;
        else {
          marks.push(undefined);
          return tracer.resolve(list);
        }
        return tracer.resolve(init);
      }
      // A promoted int32 counter that becomes non-integral (`t += 0.5`, `t / 2`): float32 from the start.
      if (promotion && init.dtype === 'int32' && promotedDtype(0, out) === 'float32') {
        widen.set(k, 'float32');
        return undefined;
      }
      if (!(out instanceof tf.Tensor)) {
        if ((typeof out === 'number' || typeof out === 'boolean') && init.size === 1 &&
            !(init.dtype === 'int32' && !isInt32(out))) {
          out = tracer.makeConstant([init.dtype === 'bool' ? Boolean(out) : Number(out)] as number[] | boolean[],
            [...init.shape], init.dtype);
        } else {
          throw new StagingError(`autograph-ts: loop variable '${leaf.name}' is ${describeValue(init)} before the loop ` +
            `but ${describeValue(out)} after an iteration${at(opts)}; a staged loop needs it to stay a tensor` +
            (typeof out === 'number' ? ' of one dtype.' : '.'));
        }
      }
      const t = out as tf.Tensor;
      const shape = loopSpecOf(leaf).shape;
      if (t.dtype === init.dtype && t.rank === init.rank) {
        // Dims that change (a growing concat, a shrinking slice), seen in the value or in its spec
        // (an If whose branches differ): unknown, like tf.while_loop's shape invariants; the body
        // is traced again (see RetryWithUnknownDims and Tracer.variant).
        const ref = tracer.resolve(t);
        const widened = mergeShapes(mergeShapes(shape, t.shape), bodyBuilder.graph.nodes[ref.node].outputs[ref.output].shape);
        if (!sameShape(widened, shape)) widenDims.set(k, { shape: widened, after: [...t.shape] });
      } else {
        const what = t.dtype !== init.dtype ? 'dtype' : 'rank';
        throw new StagingError(`autograph-ts: loop variable '${leaf.name}' changes ${what} in a loop staged on a ` +
          `tensor condition${at(opts)}: ${describeValue(init)} before, ${describeValue(t)} after an iteration. ` +
          `Keep one dtype and rank (cast or reshape inside the loop; its dims may change).` +
          (init.dtype === 'int32' && t.dtype === 'float32'
            ? ` (tfjs makes int32 combined with a JS number float32: start it as tf.scalar(0), or add tf.scalar(1, 'int32').)`
            : ''));
      }
      marks.push(maybeUndefined.get(t));
      return tracer.resolve(t);
    });
    leaves.forEach((leaf, k) => {
      if (leaf.loop) return;
      const out = outLeaves[k];
      if (out === leaf.value || (Number.isNaN(out) && Number.isNaN(leaf.value))) return;
      // A JS number or boolean returned right in the body: carried promoted (read back if it is the result).
      const returnedJs = isReturnSentinel(leaf.value) && spec.flags.includes(leaf.name) &&
        (typeof out === 'boolean' || (typeof out === 'number' && Number.isFinite(out)));
      if ((out instanceof tf.Tensor || returnedJs) && isReturnSentinel(leaf.value) && spec.flags.includes(leaf.name)) {
        // The value is defined once its return flag is true: the flag a nested statement paired it
        // with, or, for `return x` right in the body, the flag the body sets to true.
        const flag = (out instanceof tf.Tensor ? maybeUndefined.get(out)?.flag : undefined) ?? leaves.find((l, j) => j !== k &&
          spec.flags.includes(l.name) && !isReturnValueName(l.name) && (outLeaves[j] === true ||
            (outLeaves[j] instanceof tf.Tensor && tracer.facts.knownTrue.has(outLeaves[j] as tf.Tensor))))?.name;
        retry.set(k, out instanceof tf.Tensor ? { spec: specOf(out), flag, promotion: promotionOf(out) } : {
          spec: { shape: [], dtype: promotedDtypeOf(out) }, flag,
          promotion: { name: 'the return value', origin: opts?.origin },
        });
        return;
      }
      if (out instanceof tf.Tensor && isUndefinedValue(leaf.value) && !spec.flags.includes(leaf.name)) {
        retry.set(k, { spec: createdSpec(tracer, out), created: true });
        return;
      }
      if (out instanceof tf.Tensor && leaf.value instanceof tf.Variable) {
        rebound.add(k);
        return;
      }
      // The user's counter or flag, which the transformer made safe to carry as a tensor, or a jump flag.
      const isFlag = spec.flags.includes(leaf.name) && typeof leaf.value === 'boolean';
      // (A user's value must stay a promoted one: a tensor the body computes otherwise, e.g. tf.add(y.a, i)
      // cast to number, is a Tensor eagerly, and the loop is refused below.)
      const dtype = isFlag || (opts?.promote?.includes(leaf.name) && !(out instanceof tf.Tensor && promotionOf(out) === undefined))
        ? promotedDtype(leaf.value, out) : undefined;
      if (dtype !== undefined) {
        widen.set(k, dtype);
        return;
      }
      if (isUndefinedValue(leaf.value)) {
        throw new StagingError(`autograph-ts: '${leaf.name}' must be defined before a loop staged on a tensor ` +
          `condition${at(opts)}: the loop assigns it ${describeValue(out)}, and a staged loop needs every loop ` +
          `variable to have a value (of the same dtype and shape) before it starts.`);
      }
      throw new StagingError(`autograph-ts: '${leaf.name}' is ${describeValue(leaf.value)} that the loop changes ` +
        `to ${describeValue(out)}, but the loop is staged on a tensor condition${at(opts)}: a JS value cannot be ` +
        `carried through a staged loop. Make '${leaf.name}' a tensor before the loop (e.g. ` +
        `\`let ${leaf.name} = tf.scalar(${typeof leaf.value === 'number' ? leaf.value : 0})\`).`);
    });
    if (widenDims.size > 0) throw new RetryWithUnknownDims(widenDims);
    if (retry.size > 0 || rebound.size > 0 || widen.size > 0 || learned) throw new RetryWithPlaceholders(retry, rebound, widen);
    bodyBuilder.graph.results = results.map((r) => r!);
  });

  if (probeOnly) return;
  const captures = unifyCaptures([condBuilder, bodyBuilder], n);
  const realOutputs = loopIndices.map((k) => {
    const init = leaves[k].value as tf.Tensor;
    return init instanceof TracedList ? init.fresh() as unknown as tf.Tensor : standIn(tracer, leaves[k], true);
  });
  tracer.defineControlFlow({
    kind: 'While',
    inputs: [...initRefs, ...captures],
    loopVars: n,
    cond: condBuilder.graph,
    body: bodyBuilder.graph,
    origin: opts?.origin,
    outputs: loopIndices.map((k) => loopSpecOf(leaves[k])),
  }, realOutputs, [...loopIndices.map((k) => leaves[k].value as tf.Tensor), ...capturedTensors([condBuilder, bodyBuilder], captures)]);
  tracer.forgetVariableReads();
  realOutputs.forEach((t, i) => {
    const mark = marks[i] ?? maybeUndefined.get(leaves[loopIndices[i]].value as tf.Tensor);
    if (mark) maybeUndefined.set(t, mark);
    const promotion = promotionOf(leaves[loopIndices[i]].value);
    if (promotion) markPromoted(t, promotion.name, promotion.origin);
  });
  const values = leaves.map((l) => l.value);
  loopIndices.forEach((k, i) => (values[k] = realOutputs[i]));
  spec.setState(stateOf(values));
}
