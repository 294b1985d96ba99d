/**
 * A conditional on a tensor, staged as an If node: both branches are traced as sub-graphs, their
 * values (state variables of an if statement, or the value of a conditional expression) are
 * merged into the If's outputs. A branch that throws becomes a Check that throws the same error
 * when that branch is taken at run time.
 */
import { displayName, isReturnValueName } from '../../runtime/names';
import * as tf from '@tensorflow/tfjs-core';
import type { OperatorOptions } from '../../runtime/options';
import { capturedTensors, GraphBuilder, specOf, unifyCaptures } from '../graph/builder';
import { at, markThrownInBranch, returnInOneBranch, StagingError, StructureChange } from '../common/errors';
import { mergeShapes, sameShape } from '../graph/graph';
import { flatten } from '../common/nest';
import { describeList, keepReturnedArray, notReturned, relaxedShape, TracedList } from './staged_lists';
import type { Tracer } from './tracer';
import { explainGuardError } from './guard_errors';
import { ListElementUnknown } from './list_elements';
import { isExactLeaf, markPromoted, noteAssigned, noteFloat32, promotionOf } from '../../runtime/promoted_values';
import { noteChoiceRecipe, noteRecipe } from '../../runtime/js_recipes';
import {
  conditionTensor, describeValue, isInt32, isReturnSentinel, promotedDtypeOf, isUndefinedValue, MaybeUndefined, placeholderLike, zerosOf,
} from './staged_values';

export interface ConditionalSpec {
  /** One name per value (state variable names, or a description of the expression). */
  names: string[];
  /** opts.flags: synthesized jump flags and return value. */
  flags: string[];
  opts: OperatorOptions | undefined;
  /**
   * Conditional expressions convert differing JS numbers/booleans to tensors; statements reject
   * them. For an expression, names[0] is its value and the other names are variables its branches
   * assign (opts.state), merged as a statement's.
   */
  isExpression: boolean;
  /** Values before the statement (for the guards `if (!do_return) ...`), statements only. */
  before?: unknown[];
}

interface BranchTrace {
  builder: GraphBuilder;
  values?: unknown[];
  error?: unknown;
}

function traceBranch(tracer: Tracer, run: () => unknown[], label: string): BranchTrace {
  const builder = new GraphBuilder(tracer.current, label);
  try {
    return { builder, values: tracer.inSubgraph(builder, run) };
  } catch (error) {
    if (error instanceof StagingError) throw raisedInBranch(error);
    return { builder, error };
  }
}

/** Errors a branch's own statements raised (they name their own statements, not this conditional). */
const fromBranches = new WeakSet<object>();
const raisedInBranch = <E extends object>(error: E): E => (fromBranches.add(error), error);

/**
 * A conditional on a tensor staged as an If node (see stageIf below); the errors about a guard that
 * a lowered jump made name the jump and the user's condition (guard_errors.ts).
 */
export function stageConditional(tracer: Tracer, cond: tf.Tensor, runThen: () => unknown[], runElse: () => unknown[],
                                 spec: ConditionalSpec): unknown[] {
  try {
    return stageIf(tracer, cond, runThen, runElse, spec);
  } catch (error) {
    // A branch read a list nothing was pushed to yet (`if (ls.length > 0) ls.shift()` before the pushes): this trace
    // goes on as if the statement changed nothing, to learn the list's elements from the pushes after it, and is
    // traced again (list_elements.ts; a staged loop does the same, as if it ran zero times).
    if (error instanceof ListElementUnknown && spec.before !== undefined) {
      tracer.lists.elements.skip(error);
      return spec.before;
    }
    if (spec.opts?.jump === undefined) throw error;
    throw typeof error === 'object' && error !== null && fromBranches.has(error) ? error : explainGuardError(error, spec.opts);
  }
}

type MergedLeaf = { static: unknown } | { pair: readonly [tf.Tensor, tf.Tensor]; truthOnly?: boolean; promoted?: boolean };
type Status = { defined: true } | { defined: false; mark: MaybeUndefined };

// Long on purpose (~190 lines): the two branch traces, the merge of their outputs (tensors,
// promoted numbers, lists, undefined values) and the If node share the per-output state built
// here; each step is a named closure below, in the order a reader follows a staged if.
function stageIf(tracer: Tracer, cond: tf.Tensor, runThen: () => unknown[], runElse: () => unknown[],
                 spec: ConditionalSpec): unknown[] {
  const { names, flags, opts } = spec;
  const { maybeUndefined, knownTrue, negationOf, conditionOnly } = tracer.facts;
  const pred = conditionTensor(tracer.facts, cond, opts);
  const predRef = tracer.resolve(pred);
  const realCond = tracer.readScalar(pred) !== 0;

  const what = spec.isExpression ? names[0].replace(/^<(.*)>$/, '$1') : 'conditional';
  const thenTrace = traceBranch(tracer, runThen, `the if branch of the ${what}${at(opts)}`);
  const elseTrace = traceBranch(tracer, runElse, `the else branch of the ${what}${at(opts)}`);
  if (thenTrace.error !== undefined && elseTrace.error !== undefined) {
    throw realCond ? thenTrace.error : elseTrace.error;
  }
  // A throwing branch has no values: it takes the other's shape, filled with placeholders.
  const thenValues = thenTrace.values ?? elseTrace.values!;
  const elseValues = elseTrace.values ?? thenTrace.values!;

  // Which flag tensor is known true inside each branch (`if (flag)` / `if (!flag)` guards).
  const trueInThen = cond;
  const trueInElse = negationOf.get(cond);
  const statusOf = (value: unknown, knownTrue: tf.Tensor | undefined): Status => {
    if (isReturnSentinel(value)) return { defined: false, mark: { flag: undefined, origin: opts?.origin } };
    const mark = value instanceof tf.Tensor ? maybeUndefined.get(value) : undefined;
    if (mark === undefined) return { defined: true };
    if (mark.flag !== undefined && spec.before !== undefined && knownTrue !== undefined &&
        spec.before[names.indexOf(mark.flag)] === knownTrue) return { defined: true };
    return { defined: false, mark };
  };
  // Whether a flag value is true on every path through a branch: JS true, a tensor known to be
  // true (see knownTrue), or the guard's own flag inside the branch the guard proves it true in.
  const isTrueIn = (value: unknown, branchTrue: tf.Tensor | undefined): boolean =>
    value === true || (value instanceof tf.Tensor && (knownTrue.has(value) || value === branchTrue));
  // The flags a branch sets to true while the other does not: they guard a value defined there.
  const flagsSetIn = (values: unknown[], other: unknown[], valuesTrue: tf.Tensor | undefined,
                      otherTrue: tf.Tensor | undefined): string[] =>
    names.filter((n, i) => flags.includes(n) && !isReturnValueName(n) && isTrueIn(values[i], valuesTrue) && !isTrueIn(other[i], otherTrue));

  interface Output {
    name: string; then: tf.Tensor; else: tf.Tensor; mark?: MaybeUndefined; alwaysTrue?: boolean; truthOnly?: boolean;
    /** A promoted JS number or boolean (runtime/promoted_values.ts): the output is too. */
    promotion?: { name: string; origin: string | undefined };
  }
  const outputs: Output[] = [];
  const merged: unknown[] = [];
  const rebuilders: ((leaves: unknown[]) => unknown)[] = [];

  names.forEach((name, i) => {
    const isFlag = flags.includes(name);
    const isValue = spec.isExpression && i === 0;
    // The user's number or boolean, which the transformer made safe to carry as a tensor.
    const isPromoted = !isValue && (opts?.promote?.includes(name) ?? false);
    // A value returned (`return [a, n]`, `return { x, steps }`) on one path and not yet on the
    // other: the other path's value is "not returned" in every leaf of that structure.
    const t = flatten(isFlag ? unreturnedLike(thenValues[i], elseValues[i]) : thenValues[i], isFlag ? keepReturnedArray : undefined);
    const e = flatten(isFlag ? unreturnedLike(elseValues[i], thenValues[i]) : elseValues[i], isFlag ? keepReturnedArray : undefined);
    if (t.structure !== e.structure) {
      throw new StructureChange(name, `autograph-ts: ${displayName(name)} has a different structure in the two branches of a tensor ` +
        `conditional${at(opts)}: ${t.structure} vs ${e.structure}.${lengthHint(thenValues[i], elseValues[i], name)}`, [thenValues[i], elseValues[i]]);
    }
    const leaves = t.leaves.map((a, k): MergedLeaf => {
      const b = e.leaves[k];
      // The leaf as the code reads it (`best.index`); the return value keeps its one description.
      const leafName = isFlag || spec.isExpression ? name : `${name}${t.paths[k]}`;
      // A tf.Variable left in place by both branches stays that variable (its reads are nodes).
      if (a === b && a instanceof tf.Variable) return { static: a };
      if (a instanceof TracedList || b instanceof TracedList) {
        if (a === b) return { static: a };
        return { pair: sameListType(a, b, leafName, opts) };
      }
      if (!(a instanceof tf.Tensor) && !(b instanceof tf.Tensor)) return mergePlainValues(tracer, a, b, { name: leafName, isFlag, isValue, isPromoted, opts });
      // A `&&`/`||`/`?:` whose value is a JS value on one path and a tensor on the other (or a
      // promoted value and a tensor) is fine as a condition: its value is then a condition-only
      // token (a value use is the token's error).
      const jsOnOnePath = !(a instanceof tf.Tensor) || !(b instanceof tf.Tensor);
      const pair = [asTensor(tracer, a, b, leafName, 'else', isFlag, opts, isValue), asTensor(tracer, b, a, leafName, 'if', isFlag, opts, isValue)] as const;
      if (isValue && (jsOnOnePath || mixedPromotion(pair, tracer.facts.unset))) return { pair, truthOnly: true };
      if (mixedPromotion(pair, tracer.facts.unset)) refuseMixedPromotion(pair, leafName, isFlag, opts);
      return { pair, promoted: pair.some((t) => promotionOf(t) !== undefined) };
    });
    leaves.forEach((leaf) => {
      if (!('pair' in leaf) || leaf.pair[0] instanceof TracedList) return;
      // A promoted int32 counter that is non-integral on one path (`t += 0.5`): float32 on both.
      if (leaf.promoted && leaf.pair[0].dtype !== leaf.pair[1].dtype &&
          leaf.pair.every((t) => t.dtype === 'int32' || t.dtype === 'float32')) {
        const widen = (trace: BranchTrace, t: tf.Tensor): tf.Tensor => (t.dtype === 'float32' || trace.error !== undefined ? t
          : markPromoted(tracer.inSubgraph(trace.builder, () => tf.cast(t, 'float32')), name, opts?.origin));
        leaf.pair = [widen(thenTrace, leaf.pair[0]), widen(elseTrace, leaf.pair[1])] as const;
      }
      const [a, b] = leaf.pair;
      // Dims may differ (the output's spec has them unknown); dtype and rank may not.
      const differ = a.dtype !== b.dtype || a.rank !== b.rank;
      if (isValue && (differ || conditionOnly.has(a) || conditionOnly.has(b))) {
        // Its value would depend on the condition's value; its truthiness does not (see ConditionOnly).
        leaf.truthOnly = true;
        return;
      }
      if (differ) {
        throw new StagingError(`autograph-ts: '${name}' is ${describeValue(a)} in the if branch but ` +
          `${describeValue(b)} in the else branch${at(opts)}; both branches must give it the same dtype and rank.`);
      }
    });
    const thenStatus = t.leaves.map((v) => statusOf(v, trueInThen));
    const elseStatus = e.leaves.map((v) => statusOf(v, trueInElse));
    leaves.forEach((leaf, k) => {
      if (!('pair' in leaf)) return;
      const ts = thenStatus[k];
      const es = elseStatus[k];
      let mark: MaybeUndefined | undefined;
      if (!ts.defined || !es.defined) {
        const known = (!ts.defined && ts.mark.flag) || (!es.defined && es.mark.flag) || undefined;
        const paired = ts.defined ? flagsSetIn(thenValues, elseValues, trueInThen, trueInElse)
          : es.defined ? flagsSetIn(elseValues, thenValues, trueInElse, trueInThen) : [];
        mark = { flag: known ?? paired[0], origin: (!ts.defined && ts.mark.origin) || (!es.defined && es.mark.origin) || opts?.origin };
      }
      // A flag set on both paths (e.g. do_return after `if (t) return a; return b;` inside a branch)
      // is true whatever the condition: later guards may rely on it.
      const alwaysTrue = flags.includes(name) && !isReturnValueName(name) && isTrueIn(t.leaves[k], trueInThen) && isTrueIn(e.leaves[k], trueInElse);
      const promotion = leaf.promoted ? { name, origin: leaf.pair.map(promotionOf).find((p) => p)?.origin ?? opts?.origin } : undefined;
      outputs.push({ name: name.replace(/^<(.*)>$/, 'the $1'), then: leaf.pair[0], else: leaf.pair[1], mark, alwaysTrue, truthOnly: leaf.truthOnly, promotion });
    });
    merged.push(leaves);
    rebuilders.push((newLeaves) => t.rebuild(newLeaves));
  });

  // A condition-only output is the truthiness of each branch's value, computed in that branch.
  const truthIn = (trace: BranchTrace, t: tf.Tensor): tf.Tensor => (trace.error !== undefined
    ? tracer.makeConstant([false], [], 'bool') : tracer.inSubgraph(trace.builder, () => conditionTensor(tracer.facts, t, opts)));
  for (const o of outputs) {
    if (!o.truthOnly) continue;
    o.then = truthIn(thenTrace, o.then);
    o.else = truthIn(elseTrace, o.else);
  }

  // Sub-graph results.
  const finishBranch = (trace: BranchTrace, pick: (o: Output) => tf.Tensor): void => {
    tracer.inSubgraph(trace.builder, () => {
      if (trace.error !== undefined) {
        const never = tracer.makeConstant([false], [], 'bool');
        tracer.recordCheck(tracer.resolve(never), markThrownInBranch(asError(trace.error)), opts?.origin);
      }
      trace.builder.graph.results = outputs.map((o) => {
        const t = pick(o);
        if (trace.error === undefined) return tracer.resolve(t);
        if (t instanceof TracedList) return tracer.resolve(tracer.lists.emptyLike(t));
        return tracer.resolve(tracer.makeConstant(zerosOf(specOf(t)), [...t.shape], t.dtype));
      });
    });
  };
  finishBranch(thenTrace, (o) => o.then);
  finishBranch(elseTrace, (o) => o.else);
  const captures = unifyCaptures([thenTrace.builder, elseTrace.builder], 0);

  const takeThen = thenTrace.error !== undefined ? false : elseTrace.error !== undefined ? true : realCond;
  // Eagerly this call throws here: the trace goes on with the other branch's values, on which the ops
  // after it may fail (`if (i.greaterEqual(n)) throw ...; xs.gather(i)`): the trace then ends with this error.
  const thrownNow = realCond ? thenTrace.error : elseTrace.error;
  if (thrownNow !== undefined && tracer.facts.thrownByTrace === undefined) tracer.facts.thrownByTrace = asError(thrownNow);
  // Where the branches give other dims, the trace goes on with the taken branch's value, or in
  // the second trace of stage() (Tracer.variant 1) with the other one (see shape_relaxation.ts).
  // A list output is the taken branch's list (its dims are in its element spec).
  const dimsDiffer = (o: Output): boolean =>
    !(o.then instanceof TracedList) && !sameShape((o.then as tf.Tensor).shape, (o.else as tf.Tensor).shape);
  if (outputs.some(dimsDiffer)) tracer.changingDims = true;
  const realOutputs = outputs.map((o) => {
    const taken = takeThen ? o.then : o.else;
    if (taken instanceof TracedList) return taken.fresh() as unknown as tf.Tensor;
    const other = tracer.variant === 1 && dimsDiffer(o) && thenTrace.error === undefined && elseTrace.error === undefined;
    const t = tracer.freshCopy((takeThen !== other ? o.then : o.else) as tf.Tensor);
    if (dimsDiffer(o)) tracer.watchDims(t, mergeShapes((o.then as tf.Tensor).shape, (o.else as tf.Tensor).shape), o.name);
    return t;
  });
  tracer.defineControlFlow({
    kind: 'If',
    inputs: [predRef, ...captures],
    then: thenTrace.builder.graph,
    else: elseTrace.builder.graph,
    origin: opts?.origin,
    // A list output keeps its list spec (shared with its values); a tensor's differing dims are unknown.
    outputs: outputs.map((o) => (o.then instanceof TracedList ? specOf(o.then)
      : { shape: mergeShapes(o.then.shape, o.else.shape), dtype: o.then.dtype })),
  }, realOutputs, [pred, ...capturedTensors([thenTrace.builder, elseTrace.builder], captures)]);
  tracer.forgetVariableReads();
  outputs.forEach((o, k) => o.mark && maybeUndefined.set(realOutputs[k], o.mark));
  outputs.forEach((o, k) => o.alwaysTrue && knownTrue.add(realOutputs[k]));
  outputs.forEach((o, k) => o.promotion && markPromoted(realOutputs[k], o.promotion.name, o.promotion.origin));
  outputs.forEach((o) => o.promotion && [o.then, o.else].forEach((t) => noteAssigned(o.promotion!.name, t)));
  // (Read back, a merged value may be computed in JS from the condition and the values merged: js_recipes.ts.)
  outputs.forEach((o, k) => o.promotion && noteChoiceRecipe(realOutputs[k], pred, o.then, o.else, isExactLeaf, (t) => tracer.isVisible(t),
    (v) => v instanceof tf.Tensor && tracer.facts.unset.has(v)));
  const results = realOutputs.map((t, k) => {
    if (!outputs[k].truthOnly) return t;
    const token = tracer.freshCopy(t);
    conditionOnly.set(token, { truth: t, misuse: conditionOnlyMisuse(names[0], opts) });
    return token;
  });

  let next = 0;
  return merged.map((leaves, i) => rebuilders[i]((leaves as MergedLeaf[]).map(
    (leaf) => ('static' in leaf ? leaf.static : results[next++]))));
}

function conditionOnlyMisuse(name: string, opts: OperatorOptions | undefined): string {
  return `autograph-ts: the value of ${name.replace(/^<(.*)>$/, 'the $1')}${at(opts)} is one of two tensors of ` +
    'different dtypes or shapes, depending on a tensor condition: a staged graph can use it as a condition ' +
    '(if, while, !, &&, ||) but not as a value. Give both operands the same dtype and shape (e.g. ' +
    "`a.greater(0).logicalAnd(b.notEqual(0))`, or cast one).";
}

/** `value` as a tensor like `other` (a tensor), or the staging error that explains why it cannot be. */
/** What the leaf pair of a variable is about. */
interface PairContext {
  name: string;
  /** A synthesized jump flag or the return value. */
  isFlag: boolean;
  /** The value of a `?:`, `&&`, `||`. */
  isValue: boolean;
  /** A user's number or boolean the transformer made safe to carry as a tensor. */
  isPromoted: boolean;
  opts: OperatorOptions | undefined;
}

/**
 * Two JS values (not tensors) a conditional leaves in one leaf: the value itself if both paths
 * agree; a promoted pair for numbers and booleans that may be carried (a user's promotable
 * variable, a `?:` value, the return value; int32 for integers, float32 for other numbers, bool
 * for flags); else the error that says why the value cannot depend on the condition.
 */
function mergePlainValues(tracer: Tracer, a: unknown, b: unknown, ctx: PairContext): MergedLeaf {
  const { name, isFlag, isValue, isPromoted, opts } = ctx;
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return { static: a };
  // (A jump flag; a boolean the function returns is the user's value, promoted below.)
  if (typeof a === 'boolean' && typeof b === 'boolean' && isFlag && !isReturnValueName(name)) {
    return { pair: [tracer.makeConstant([a], [], 'bool'), tracer.makeConstant([b], [], 'bool')] as const };
  }
  // A staged `c ? 3 : 4` gives the JS value a number or boolean: carried as a promoted tensor
  // (read back as that JS value if the function returns it), like a counter.
  // Also a JS number the function returns on both paths (read back as that number).
  const returnedNumber = isFlag && (typeof a === 'number' || isReturnValueName(name));
  if ((isPromoted || isValue || returnedNumber) && typeof a === typeof b && (typeof a === 'number' || typeof a === 'boolean')) {
    // int32 for integers (a counter), float32 for other numbers, bool for flags.
    const dtype = promotedDtypeOf(a, b);
    const constant = (v: unknown): tf.Tensor => {
      const t = markPromoted(tracer.makeConstant(
        [dtype === 'float32' ? noteFloat32(v as number, name) : v] as number[] | boolean[], [], dtype), name, opts?.origin);
      noteRecipe(t, [v], (value) => value, isExactLeaf);
      return t;
    };
    return { pair: [constant(a), constant(b)] as const, promoted: true };
  }
  // A JS number or boolean returned on one path only: promoted, the other path a placeholder
  // (its return flag says whether the value is defined), read back if it is the result.
  if (isFlag && isReturnSentinel(a) !== isReturnSentinel(b) && promotableJs(isReturnSentinel(a) ? b : a)) {
    const v = isReturnSentinel(a) ? b : a;
    const dtype = promotedDtypeOf(v);
    const value = markPromoted(tracer.makeConstant([v] as number[] | boolean[], [], dtype), 'the return value', opts?.origin);
    const placeholder = placeholderLike(tracer, specOf(value));
    tracer.facts.unset.add(placeholder);
    return { pair: (isReturnSentinel(a) ? [placeholder, value] : [value, placeholder]) as [tf.Tensor, tf.Tensor], promoted: true };
  }
  if (isReturnSentinel(a) !== isReturnSentinel(b)) {
    // One path returns a JS value (a string, a number...) under a tensor condition: that is
    // the problem, not a missing return (the other path usually returns later on).
    const returned = isReturnSentinel(a) ? b : a;
    if (returned !== undefined) {
      throw new StagingError(`autograph-ts: the function returns ${describeValue(returned)} under a condition on a ` +
        `tensor${at(opts)}. Which value is returned would depend on the tensor, and a staged function can only ` +
        'return tensors from such paths: return a tensor (e.g. tf.scalar(...)) on every path.');
    }
    throw returnInOneBranch(opts);
  }
  if (isFlag) {
    // The one synthesized name that holds a non-boolean is the return value: both paths return.
    throw new StagingError(`autograph-ts: the function returns ${describeValue(a)} in the if branch and ` +
      `${describeValue(b)} in the else branch of a condition on a tensor${at(opts)}. Which value is returned ` +
      'would depend on the tensor, and a staged function can only return tensors from such paths: return a ' +
      'tensor (e.g. tf.scalar(...)) on every path.');
  }
  throw new StagingError(`autograph-ts: '${name}' is ${describeValue(a)} in the if branch and ` +
    `${describeValue(b)} in the else branch of a conditional on a tensor${at(opts)}. A JS value cannot ` +
    `depend on a tensor condition: make '${name}' a tensor (e.g. tf.scalar(...)) before the if.`);
}

const promotableJs = (v: unknown): boolean => typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** `value`, or, where it is "not returned yet" and `other` is a returned structure, that structure with every leaf not returned. */
function unreturnedLike(value: unknown, other: unknown): unknown {
  if (!isReturnSentinel(value) || isReturnSentinel(other)) return value;
  const flat = flatten(other, keepReturnedArray);
  return flat.leaves.length === 1 && flat.structure === flatten(value).structure ? value : flat.rebuild(flat.leaves.map((leaf) => notReturned(leaf, value)));
}


/**
 * A promoted value (a JS number or boolean eagerly) on one path and a tensor that is not one on
 * the other: eagerly the value's JS type depends on the condition (`return steps` vs
 * `return x.sum()`), and a staged call gives one type. A placeholder for "not set on this path" is neither.
 */
function mixedPromotion(pair: readonly [tf.Tensor, tf.Tensor], unset: WeakSet<tf.Tensor>): boolean {
  const [a, b] = pair.map((t) => (unset.has(t) ? undefined : promotionOf(t) !== undefined));
  return a !== undefined && b !== undefined && a !== b;
}

function refuseMixedPromotion(pair: readonly [tf.Tensor, tf.Tensor], name: string, isFlag: boolean,
                              opts: OperatorOptions | undefined): never {
  const [promoted, other] = promotionOf(pair[0]) !== undefined ? ['if', 'else'] : ['else', 'if'];
  const subject = isFlag ? 'the function returns' : `'${name}' is`;
  throw new StagingError(`autograph-ts: ${subject} a JS number or boolean in the ${promoted} branch but a tensor in the ` +
    `${other} branch of a conditional on a tensor${at(opts)}: eagerly ${isFlag ? 'the result' : 'it'} is a JS value or ` +
    'a Tensor depending on the tensor\'s value, and a staged function gives one type. Make it a tensor on both paths ' +
    '(e.g. tf.scalar(...)), or a JS value on both.');
}

/** `value` as a tensor like `other`; `mixedOk`: a JS value beside a tensor is allowed (an expression's value, truth-only). */
function asTensor(tracer: Tracer, value: unknown, other: unknown, name: string, otherBranch: string, isFlag: boolean,
                  opts: OperatorOptions | undefined, mixedOk = false): tf.Tensor {
  if (value instanceof tf.Tensor) return value;
  const like = other as tf.Tensor;
  if (isReturnSentinel(value)) {
    if (isFlag) {
      const placeholder = placeholderLike(tracer, specOf(like));
      tracer.facts.unset.add(placeholder);
      return placeholder;
    }
    throw returnInOneBranch(opts);
  }
  const branch = otherBranch === 'else' ? 'if' : 'else';
  if (isUndefinedValue(value)) {
    throw new StagingError(`autograph-ts: '${name}' must also be defined in the ${branch} branch${at(opts)}: it is ` +
      `${describeValue(like)} in the ${otherBranch} branch of a conditional on a tensor, and a staged conditional ` +
      'needs a value for it on both paths.');
  }
  const promotion = promotionOf(like);
  if ((typeof value === 'number' || typeof value === 'boolean') && promotion === undefined && !mixedOk &&
      !(isFlag && typeof value === 'boolean' && like.dtype === 'bool')) {
    // Eagerly the value after the conditional is a JS number on one path and a Tensor on the
    // other: which one depends on the tensor. A staged call can give only one: refused, in both
    // orders (a promoted number, whose value the staged call reads back, is the exception).
    const subject = isFlag ? 'the function returns' : `'${name}' is`;
    throw new StagingError(`autograph-ts: ${subject} ${describeValue(value)} in the ${branch} branch but ` +
      `${describeValue(like)} in the ${otherBranch} branch of a conditional on a tensor${at(opts)}: eagerly ` +
      `${isFlag ? 'the result' : 'it'} is a JS ${typeof value} or a Tensor depending on the tensor's value, and a staged ` +
      `function gives one type. Make it a tensor on both paths (e.g. tf.scalar(${String(value)}))` +
      `${isFlag ? '' : `, or a JS ${typeof value} on both`}.`);
  }
  if ((typeof value === 'number' || typeof value === 'boolean') && like.size === 1) {
    const v = like.dtype === 'bool' ? Boolean(value) : Number(value);
    // 1.5 where the other branch has an int32: a float32 (the dtypes then differ), never a truncation.
    const dtype = like.dtype === 'int32' && !isInt32(v) ? 'float32' : like.dtype;
    const exact = promotion !== undefined && dtype === 'float32' ? noteFloat32(v as number, promotion.name) : v;
    const constant = tracer.makeConstant([exact] as number[] | boolean[], [...like.shape], dtype);
    return promotion ? markPromoted(constant, promotion.name, promotion.origin) : constant;
  }
  throw new StagingError(`autograph-ts: '${name}' is ${describeValue(value)} in the ${branch} branch but ` +
    `${describeValue(like)} in the ${otherBranch} branch of a conditional on a tensor${at(opts)}; make both tensors.`);
}

/**
 * Two lists a branch pair leaves in one variable, as the If's two output values: the same element
 * type (a list still empty on one side takes the other's; it has no elements of another type).
 */
function sameListType(a: unknown, b: unknown, name: string, opts: OperatorOptions | undefined): readonly [tf.Tensor, tf.Tensor] {
  if (!(a instanceof TracedList) || !(b instanceof TracedList)) {
    const list = (a instanceof TracedList ? a : b) as TracedList;
    const other = a instanceof TracedList ? b : a;
    throw new StagingError(`autograph-ts: '${name}' is ${describeList(list)} in one branch and ${describeValue(other)} in ` +
      `the other branch of a conditional on a tensor${at(opts)}.`);
  }
  const ea = a.element;
  const eb = b.element;
  if (ea === undefined && eb !== undefined) a.learn(eb);
  if (eb === undefined && ea !== undefined) b.learn(ea);
  if (ea !== undefined && eb !== undefined && (ea.dtype !== eb.dtype || ea.shape.length !== eb.shape.length)) {
    throw new StagingError(`autograph-ts: the elements of '${name}' differ between the branches of a conditional on a ` +
      `tensor${at(opts)}: ${describeList(a)} in the if branch, ${describeList(b)} in the else branch. A list in a staged ` +
      'graph holds tensors of one dtype and rank.');
  }
  if (ea !== undefined && eb !== undefined && !sameShape(ea.shape, eb.shape)) {
    // Dims that differ between the branches are unknown in both lists' specs.
    const relaxed = { shape: relaxedShape(ea.shape, eb.shape), dtype: ea.dtype };
    a.learn(relaxed);
    b.learn(relaxed);
  }
  return [a as unknown as tf.Tensor, b as unknown as tf.Tensor] as const;
}


function asError(error: unknown): Error {
  return error instanceof Error ? error : Object.assign(new Error(String(error)), { thrown: error });
}

/** For an array whose length differs between the branches (a push under the condition): what stages. */
function lengthHint(a: unknown, b: unknown, name: string): string {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length === b.length) return '';
  const numbers = [...a, ...b].every((v) => typeof v === 'number' || typeof v === 'boolean');
  return ` Its length depends on the condition (a push under it). An array of tensors declared in the function ` +
    `(\`const ${name}: tf.Tensor[] = []\`) is a list of the graph and may grow under a tensor condition` +
    `${numbers ? `; for JS numbers, push tensors (\`${name}.push(tf.scalar(t))\`) and read them after the call` : ''}.`;
}
