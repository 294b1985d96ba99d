/**
 * The StagingHooks installed while stage() traces: each operator call either runs the plain JS
 * statement (a JS condition or iterable: static control flow, unrolled into the trace, exactly as
 * AutoGraph does) or records graph control flow (a tensor condition or iterable).
 */
import * as tf from '@tensorflow/tfjs-core';
import { AssertionFailure } from '../../runtime/operators';
import type { LoopOptions, OperatorOptions } from '../../runtime/options';
import { TensorRange } from '../../runtime/range';
import type { GetState, SetState, StagingHooks, Thunk } from '../../runtime/staging_hooks';
import { logicalNot } from '../../runtime/tensors';
import { at, StagingError, StructureChange } from '../common/errors';
import { stageConditional } from './staged_if';
import { stageLoop } from './staged_loop';
import { type LoopStagings, stageCountedLoop } from './counted_loops';
import { stageArrayPredicate } from './array_predicates';
import type { ArrayPredicate } from '../../runtime/names';
import { StagedCalls } from './staged_calls';
import { stagedArray, stagedArrayState, TracedList } from './staged_lists';
import { flatten } from '../common/nest';
import { conditionTensor, type TraceFacts } from './staged_values';
import { type Field, FieldWatch } from './observed_fields';
import { CarriedArrays } from './field_arrays';
import { stageListForEach, stageSpread } from './list_iteration';
import { shapeTensor } from '../kernels/shape_kernel';
import type { Tracer } from './tracer';

const isTensor = (value: unknown): value is tf.Tensor => value instanceof tf.Tensor;
const noop = (): void => {};

export class StagedControlFlow implements StagingHooks {
  private readonly calls: StagedCalls;

  constructor(private readonly tracer: Tracer) {
    this.calls = new StagedCalls(tracer);
  }

  /** A staged while and a staged if, for a counted loop's rest (counted_loops.ts). */
  private readonly stagings: LoopStagings = {
    loop: (test, body, getState, setState, names, opts) => this.loop(test, body, getState, setState, names, opts),
    ifStmt: (cond, body, orelse, getState, setState, names, nouts, opts) => this.ifStmt(cond, body, orelse, getState, setState, names, nouts, opts),
  };

  recursiveCall(fn: (...args: never[]) => unknown, args: unknown[], opts: OperatorOptions | undefined, receiver: unknown): unknown {
    return this.calls.call(fn, args, opts, receiver);
  }

  observeFields(object: object, keys: string[], name: string): void {
    const facts = this.tracer.facts;
    if (!facts.observedObjects.has(object)) facts.observedObjects.set(object, name);
    facts.objects.observe(this.tracer, object, name, keys, true);
  }

  ifStmt(cond: unknown, body: Thunk<void>, orelse: Thunk<void>, getState: GetState, setState: SetState,
         symbolNames: string[], nouts: number, opts?: OperatorOptions): void {
    if (!isTensor(cond)) {
      if (cond) body();
      else orelse();
      return;
    }
    withObservedFields(this.tracer, this.tracer.facts, opts, getState, setState, symbolNames, (fields, fieldOpts) => retryWithLists(fieldOpts, () => {
      // The first nouts names are the outputs; the others are only restored before each branch is
      // traced (the branches run one after the other here) and after the If (they are dead there).
      const state = withComposites(getState, setState, symbolNames, nouts, fieldOpts, fields);
      const before = state.getState();
      const branch = (run: Thunk<void>) => (): unknown[] => {
        state.setState(before);
        run();
        return state.getState().slice(0, state.nouts);
      };
      return {
        run: () => {
          const merged = stageConditional(this.tracer, cond, branch(body), branch(orelse), {
            names: state.names.slice(0, state.nouts), flags: opts?.flags ?? [], opts: fieldOpts, isExpression: false,
            before: before.slice(0, state.nouts),
          });
          state.setState([...merged, ...before.slice(state.nouts)]);
        },
        restore: () => state.setState(before),
      };
    }));
  }

  whileStmt(test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState, symbolNames: string[],
            opts?: LoopOptions): void {
    // A JS test runs the JS loop; from the first tensor test on, the rest of the loop is staged (a
    // counted `for` may go on in JS with guarded iterations: counted_loops.ts).
    if (opts?.counted !== undefined) return stageCountedLoop(this.stagings, test, body, getState, setState, symbolNames, opts, opts.counted);
    for (;;) {
      const t = test();
      if (isTensor(t)) return this.loop(test, body, getState, setState, symbolNames, opts);
      if (!t) return;
      body();
    }
  }

  doWhileStmt(test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState, symbolNames: string[],
              opts?: LoopOptions): void {
    for (;;) {
      body();
      const t = test();
      if (isTensor(t)) return this.loop(test, body, getState, setState, symbolNames, opts);
      if (!t) return;
    }
  }

  forStmt(iterable: unknown, extraTest: Thunk | undefined, body: (item: unknown) => void, getState: GetState,
          setState: SetState, symbolNames: string[], opts?: LoopOptions): void {
    if (isTensor(iterable)) return this.forOverTensor(iterable, extraTest, body, getState, setState, symbolNames, opts);
    if (iterable instanceof TensorRange) {
      return this.forOverRange(iterable, extraTest, body, getState, setState, symbolNames, opts);
    }
    const list = stagedArrayState(iterable);
    // A list whose element is not known yet has had nothing pushed on any path the trace took: the
    // empty list it started as (zero iterations, as eagerly), or a loop variable on its loop's first
    // trace, which is traced again once the body's push teaches the element (staged_loop.ts).
    if (list?.isList && list.unknownElement) return;
    if (list?.isList) {
      // A list whose length is known only when the graph runs: a While over an index, reading the
      // list (and its length) where the loop is, since the body may push to it as JS allows.
      const length = (): tf.Tensor => list.length();
      return this.countedLoop(tf.scalar(0, 'int32'), (i) => tf.less(i, length()), 1,
        (i) => list.item(i), extraTest, body, getState, setState, symbolNames, opts);
    }
    // A JS iterable is unrolled. Once a break/return flag is a tensor, the remaining iterations run
    // under a staged `if (extraTest())`, which is what the native loop's early exit means.
    let guard: unknown = true;
    for (const item of iterable as Iterable<unknown>) {
      if (isTensor(guard)) {
        this.ifStmt(guard, () => body(item), noop, getState, setState, symbolNames, symbolNames.length, opts);
      } else {
        body(item);
      }
      if (extraTest === undefined) continue;
      const next = extraTest();
      if (isTensor(next)) guard = next;
      else if (!next) break;
    }
  }

  forInStmt(object: unknown, extraTest: Thunk | undefined, body: (key: string) => void, getState: GetState,
            setState: SetState, symbolNames: string[], opts?: LoopOptions): void {
    if (isTensor(object)) {
      throw new StagingError(`autograph-ts: for...in over a tensor enumerates no keys${at(opts)}; use for...of.`);
    }
    const keys: string[] = [];
    for (const key in object as object) keys.push(key);
    this.forStmt(keys, extraTest, body as (item: unknown) => void, getState, setState, symbolNames, opts);
  }

  ifExp(cond: unknown, whenTrue: Thunk, whenFalse: Thunk, opts?: OperatorOptions): unknown {
    if (!isTensor(cond)) return cond ? whenTrue() : whenFalse();
    return this.expression(cond, whenTrue, whenFalse, '<conditional expression>', opts);
  }

  and(left: Thunk, right: Thunk, opts?: OperatorOptions): unknown {
    const value = left();
    if (!isTensor(value)) return value ? right() : value;
    return this.expression(value, right, () => value, '<&& expression>', opts);
  }

  or(left: Thunk, right: Thunk, opts?: OperatorOptions): unknown {
    const value = left();
    if (!isTensor(value)) return value ? value : right();
    return this.expression(value, () => value, right, '<|| expression>', opts);
  }

  not(value: unknown, opts?: OperatorOptions): unknown {
    if (!isTensor(value)) return !value;
    // A flag tensor known to be true on every run (set on both paths of a staged if: `return` in a
    // loop body that always returns) negates to a static false, so the guards and loop tests it
    // feeds stay static (the loop after a do-while body that always returns is not staged).
    if (this.tracer.facts.knownTrue.has(value)) return false;
    const result = logicalNot(conditionTensor(this.tracer.facts, value, opts));
    this.tracer.facts.negationOf.set(result, value);
    return result;
  }

  assert(cond: unknown, message: unknown, opts?: OperatorOptions): void {
    if (opts?.kind === 'console' && isTensor(cond)) {
      // console.assert reports and never throws: a Print node under an If on the negated condition
      // (the message parts are recorded as text, so they print on every failing run, not at trace).
      const parts = ['Assertion failed:', ...(message as unknown[])];
      const noop = (): void => {};
      this.ifStmt(this.not(cond, opts), () => this.tracer.recordPrint(parts, false), noop, () => [], noop, [], 0, opts);
      return;
    }
    const error = (): Error => {
      // The original assert (opts.check) makes the exact error it would throw, e.g. node's
      // AssertionError; console.assert throws nothing, and a failed staged check then throws ours.
      if (opts?.check) {
        try {
          opts.check(false);
        } catch (thrown) {
          return thrown as Error;
        }
      }
      return message instanceof Error ? message
        : new AssertionFailure(message === undefined ? `Assertion failed${opts?.origin ? ` (${opts.origin})` : ''}` : String(message));
    };
    if (!isTensor(cond)) {
      if (!cond) throw error();
      return;
    }
    const pred = conditionTensor(this.tracer.facts, cond, opts);
    this.tracer.recordCheck(this.tracer.resolve(pred), error(), opts?.origin);
  }

  /** A lazy conditional expression (`c ? a : b`, `a && b`, `a || b`) on a tensor condition. */
  private expression(cond: tf.Tensor, whenTrue: Thunk, whenFalse: Thunk, name: string,
                     opts: OperatorOptions | undefined): unknown {
    // Variables the operands assign (`c ? (x = a) : (y = x)`, `x &&= y`) are outputs too, and are
    // restored before each branch is traced, as an if statement's state; so are the fields of the
    // objects they read that code they call changes (`x.greater(0) || rng.next() > 0.5`: eagerly
    // `rng.next()` runs only when x <= 0), as an if statement's.
    const state = opts?.state ?? { names: [], get: () => [], set: noop };
    let value: unknown;
    withObservedFields(this.tracer, this.tracer.facts, opts, state.get, state.set, state.names, (fields, fieldOpts) => retryWithLists(fieldOpts, () => {
      const carried = withComposites(state.get, state.set, state.names, state.names.length, fieldOpts, fields);
      const before = carried.getState();
      const branch = (run: Thunk) => (): unknown[] => {
        carried.setState(before);
        return [run(), ...carried.getState()];
      };
      return {
        run: () => {
          const [result, ...after] = stageConditional(this.tracer, cond, branch(whenTrue), branch(whenFalse), {
            names: [name, ...carried.names], flags: [], opts: fieldOpts, isExpression: true,
          });
          carried.setState(after);
          value = result;
        },
        restore: () => carried.setState(before),
      };
    }));
    return value;
  }

  /** for (const row of t): a While over the rows of t (its first dimension). */
  private forOverTensor(t: tf.Tensor, extraTest: Thunk | undefined, body: (item: unknown) => void,
                        getState: GetState, setState: SetState, names: string[], opts: LoopOptions | undefined): void {
    if (t.rank === 0) throw new StagingError(`autograph-ts: cannot iterate over a scalar tensor${at(opts)}`);
    // No rows (the shape is part of the signature): zero iterations, as eagerly. Tracing the body
    // would run it for real on row 0, which does not exist.
    if (t.shape[0] === 0) return;
    // An int32 bound (comparing the int32 counter with a JS number would cast it to float32 per
    // step), read from t's dims when the graph runs: the same graph then serves any number of rows
    // (it folds to a constant where t's dims are known).
    const rows = tf.reshape(tf.slice(shapeTensor(t), [0], [1]), []);
    this.countedLoop(tf.scalar(0, 'int32'), (i) => tf.less(i, rows), 1, (i) => tf.gather(t, i), extraTest, body,
      getState, setState, names, opts);
  }

  /** for (const i of range(a, b, step)) with tensor bounds: a While over a counter. */
  private forOverRange(r: TensorRange, extraTest: Thunk | undefined, body: (item: unknown) => void,
                       getState: GetState, setState: SetState, names: string[], opts: LoopOptions | undefined): void {
    const start = isTensor(r.start) ? tf.cast(r.start, r.dtype) : tf.scalar(r.start, r.dtype);
    const inRange = (i: tf.Tensor): tf.Tensor => {
      if (!isTensor(r.delta)) return r.delta > 0 ? tf.less(i, r.limit) : tf.greater(i, r.limit);
      const up = tf.logicalAnd(tf.greater(r.delta, 0), tf.less(i, r.limit));
      const down = tf.logicalAnd(tf.less(r.delta, 0), tf.greater(i, r.limit));
      return tf.logicalOr(up, down);
    };
    const delta = isTensor(r.delta) ? tf.cast(r.delta, r.dtype) : r.delta;
    this.countedLoop(tf.reshape(start, []), inRange, delta, (i) => i, extraTest, body, getState, setState, names, opts);
  }

  private countedLoop(start: tf.Tensor, inRange: (i: tf.Tensor) => tf.Tensor, delta: tf.Tensor | number,
                      itemAt: (i: tf.Tensor) => unknown, extraTest: Thunk | undefined, body: (item: unknown) => void,
                      getState: GetState, setState: SetState, names: string[], opts: LoopOptions | undefined): void {
    let counter = start;
    const test = (): unknown => {
      const more = inRange(counter);
      if (extraTest === undefined) return more;
      const extra = extraTest();
      if (!isTensor(extra)) return extra ? more : false;
      return tf.logicalAnd(more, conditionTensor(this.tracer.facts, extra, opts));
    };
    this.loop(test, () => {
      body(itemAt(counter));
      counter = tf.add(counter, isTensor(delta) ? delta : tf.scalar(delta, counter.dtype));
    }, () => [...getState(), counter], (values) => {
      setState(values.slice(0, -1));
      counter = values[values.length - 1] as tf.Tensor;
    }, [...names, '<loop counter>'], opts);
  }

  /**
   * A While node for the loop, with the composites it changes (opts.composites) as state. An array
   * of tensors from ag__.newList whose length the body changes becomes a list value, and the loop
   * is traced again.
   */
  private loop(test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState, names: string[],
               opts: LoopOptions | undefined): void {
    withObservedFields(this.tracer, this.tracer.facts, opts, getState, setState, names, (fields, fieldOpts) => retryWithLists(fieldOpts, () => {
      const state = withComposites(getState, setState, names, names.length, fieldOpts, fields);
      const before = state.getState();
      return {
        run: () => stageLoop(this.tracer, {
          test, body, getState: state.getState, setState: state.setState, names: state.names, flags: opts?.flags ?? [],
          opts: fieldOpts,
        }),
        restore: () => state.setState(before),
      };
    }));
  }

  arrayPredicate(receiver: unknown[], method: ArrayPredicate, callback: (...args: unknown[]) => unknown, args: unknown[],
                 opts?: OperatorOptions): unknown {
    return stageArrayPredicate(this, this.tracer.facts, receiver, method, callback, args, opts);
  }

  forEachItem(list: unknown[], callback: (this: unknown, item: unknown, index: unknown, array: unknown) => unknown, thisArg: unknown,
              opts?: OperatorOptions): void {
    stageListForEach(this, list, callback, thisArg, opts);
  }

  spreadItems(parts: unknown[], spreads: readonly number[], opts?: OperatorOptions): unknown[] {
    return stageSpread(this, parts, spreads, opts);
  }

  takesPromoted(array: unknown[]): boolean {
    if (stagedArrayState(array) !== undefined) return true;
    const facts = this.tracer.facts;
    if (!facts.watches.some((w) => w.holds(array))) return false;
    facts.promotedPushes.add(array);
    return true;
  }

  newList(items: unknown[], opts?: OperatorOptions): unknown[] {
    // Already one (the transformer wraps array literals only, but a value may come back around).
    if (stagedArrayState(items) !== undefined) return items;
    return stagedArray(items, opts?.name ?? 'the array', opts, this.tracer.lists);
  }

}

/**
 * Stages a statement (`attempt` prepares one try: how to run it, how to undo what it changed);
 * when an array from ag__.newList that it changes in place changes length (a push or pop in a
 * loop body or in one branch), the array becomes a list value of the graph (staged_lists.ts) and
 * the statement is staged again.
 */
function retryWithLists(opts: OperatorOptions | undefined, attempt: () => { run: () => void; restore: () => void }): void {
  const arrays = Object.values(opts?.composites?.() ?? {}).flatMap((v) => stagedArrayState(v) ?? []);
  for (;;) {
    const lists = arrays.map((a) => a.listValue);
    const { run, restore } = attempt();
    try {
      run();
      return;
    } catch (error) {
      const grown = error instanceof StructureChange ? stagedArrayState(opts?.composites?.()[error.variable]) : undefined;
      const index = grown === undefined ? -1 : arrays.indexOf(grown);
      if (index < 0 || lists[index] !== undefined) throw error;
      // Back to how the arrays were (a statement nested in this one may have made lists of them).
      arrays.forEach((a, i) => (a.listValue = lists[i]));
      restore();
      grown!.toList();
    }
  }
}

/**
 * Stages a statement (`stage`, given the fields carried so far and the options that promote the
 * number and boolean ones); when tracing it changed a field of an object it reads (opts.observed,
 * observed_fields.ts) that its state does not carry, everything is put back as it was and the
 * statement is staged again with that field as state; an array held in such a field that it
 * changed, with the array carried (field_arrays.ts).
 */
function withObservedFields(tracer: Tracer, facts: TraceFacts, opts: OperatorOptions | undefined, getState: GetState, setState: SetState,
                            names: string[], stage: (fields: Field[], opts: OperatorOptions | undefined) => void): void {
  // Numbers and booleans inside the composites a statement changes (`x.b = 1`, `y[0] += 1`) are
  // promoted like variables: returned, they are read back; read by JS code, a named error.
  const composites = Object.keys(opts?.composites?.() ?? {});
  if (composites.length > 0) opts = { ...opts, promote: [...(opts?.promote ?? []), ...composites] };
  const watch = new FieldWatch(opts, names);
  for (const { name, object } of watch.observed) if (!facts.observedObjects.has(object)) facts.observedObjects.set(object, name);
  for (const { name, object, via } of watch.observed) {
    if (opts?.outlives?.includes(name)) facts.objects.given.add(object);
    facts.objects.observe(tracer, object, name, undefined, false, via);
  }
  if (watch.empty) return stage([], opts);
  const fields: Field[] = [];
  const arrays = new CarriedArrays(tracer, facts, watch, opts);
  // (With the lists that enclosing statements carry in fields it watches: a try changes their list values too.)
  const plain = withComposites(getState, setState, names, names.length, arrays.options(opts), []);
  const initial = plain.getState();
  facts.watches.push(watch);
  try {
    for (;;) {
      const promote = fields.filter((f) => watch.startedAsPlainValue(f)).map((f) => f.name);
      let failure: unknown;
      try {
        arrays.install();
        stage(fields, arrays.options(promote.length === 0 ? opts : { ...opts, promote: [...(opts?.promote ?? []), ...promote] }));
      } catch (error) {
        failure = error;
      }
      const typed = watch.changedTypedArray();
      if (typed !== undefined) throw typedArrayChanged(typed, opts);
      const found = watch.changed([...fields, ...arrays.fields]);
      const grown = arrays.grown(failure);
      if (found.length === 0 && grown.length === 0) {
        if (failure !== undefined) throw failure;
        return;
      }
      watch.restore();
      plain.setState(initial);
      fields.push(...found);
      arrays.carry(grown);
    }
  } finally {
    facts.watches.pop();
  }
}

/**
 * Adds the objects and arrays a statement changes in place (opts.composites: `xs` of `xs[i] = v`,
 * `xs.push(v)`) to its state, after its outputs: read as copies of their containers (the leaves are
 * the state; a push changes the structure), written back in place, so every reference to the
 * array sees the staged values. Then the observed fields it carries (`fields`), read and assigned.
 */
function withComposites(getState: GetState, setState: SetState, names: string[], nouts: number, opts: OperatorOptions | undefined,
                        fields: readonly Field[]): { getState: GetState; setState: SetState; names: string[]; nouts: number } {
  const composites = Object.entries(opts?.composites?.() ?? {});
  refuseTypedArrays(composites, opts);
  const targets = composites.filter(([, v]) => Array.isArray(v) || isPlainObject(v));
  if (targets.length === 0 && fields.length === 0) return { getState, setState, names, nouts };
  const k = targets.length + fields.length;
  const refuseMoves = objectMoves(targets, opts);
  return {
    getState: () => {
      refuseMoves();
      const state = getState();
      return [...state.slice(0, nouts), ...targets.map(([, v]) => stagedArrayState(v)?.listValue ?? copyOf(v)),
        ...fields.map((f) => f.object[f.key]), ...state.slice(nouts)];
    },
    setState: (values) => {
      setState([...values.slice(0, nouts), ...values.slice(nouts + k)]);
      targets.forEach(([, target], i) => {
        // A list value (a StagedArray in list mode) is one leaf: the list the graph holds now. A
        // state from before a nested statement made it a list (a loop traced again) is an array.
        const staged = stagedArrayState(target);
        const value = values[nouts + i];
        if (staged !== undefined && (value instanceof TracedList || isPlainObject(value))) staged.listValue = value as TracedList | Record<string, tf.TensorInfo>;
        else {
          if (staged !== undefined) staged.listValue = undefined;
          writeInPlace(target, value);
        }
      });
      fields.forEach((f, i) => (f.object[f.key] = values[nouts + targets.length + i]));
    },
    names: [...names.slice(0, nouts), ...targets.map(([name]) => name), ...fields.map((f) => f.name), ...names.slice(nouts)],
    nouts: nouts + k,
  };
}

/**
 * The state of an array is its elements' leaves, written back in place: an object moved to another
 * slot by a branch or a loop body (`const s = a[i]; a[i] = a[j]; a[j] = s;` on records) would keep
 * its identity at its old slot with the values merged into it, and a variable holding it (`const t =
 * a[0]`) would see the other element's values. Which object an element is cannot depend on a tensor:
 * such a move is refused, naming the element. (Tensors are values: moving them is fine.)
 */
function objectMoves(targets: [string, unknown][], opts: OperatorOptions | undefined): () => void {
  const slots = targets.map(([, v]) => (Array.isArray(v) && stagedArrayState(v)?.isList !== true ? [...v] : undefined));
  return () => targets.forEach(([name, v], i) => {
    const before = slots[i];
    if (before === undefined || !Array.isArray(v) || stagedArrayState(v)?.isList === true) return;
    v.forEach((item, at_) => {
      if (item === before[at_] || item === null || typeof item !== 'object' || item instanceof tf.Tensor) return;
      const from = before.indexOf(item);
      if (from < 0) return;
      throw new StagingError(`autograph-ts: '${name}[${at_}]' holds the object that was '${name}[${from}]' after a statement ` +
        `staged on a tensor condition${at(opts)}: which object an element of '${name}' is would depend on a tensor, and a ` +
        'staged statement carries the values in the objects, not the objects. Swap the values (the fields, or tensors ' +
        'chosen with tf.where) rather than the objects.');
    });
  });
}

/**
 * A typed array a staged statement changes in place (`a[0] = 1` in a branch): it holds JS numbers only,
 * written while the statement is traced (both branches, once), so a staged call would keep the
 * trace's values. Refused, naming it.
 */
function refuseTypedArrays(composites: [string, unknown][], opts: OperatorOptions | undefined): void {
  const typed = composites.find(([, v]) => ArrayBuffer.isView(v));
  if (typed !== undefined) throw typedArrayChanged(typed[0], opts);
}

function typedArrayChanged(name: string, opts: OperatorOptions | undefined): StagingError {
  return new StagingError(`autograph-ts: '${name}' is a typed array that a statement staged on a tensor condition changes in ` +
    `place${at(opts)}: a typed array holds JS numbers, written while the statement is traced, so a staged call would keep ` +
    'the values of the trace. Use a JS array (number[]) or a tensor for values that depend on a tensor.');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A copy of the containers of `value`, its leaves shared; an array nested in it that the trace may make a list (a
 * StagedArray: `byClass[c]`) is what its state is, as at the top: its list value in list mode, a copy of its elements
 * in array mode (writeInPlace puts either back). */
function copyOf(value: unknown): unknown {
  const nested = (v: unknown): unknown => {
    const staged = stagedArrayState(v);
    return staged === undefined ? copyOf(v) : staged.listValue ?? copyOf(staged.target);
  };
  if (!holdsStagedArray(value)) {
    const flat = flatten(value);
    return flat.rebuild(flat.leaves);
  }
  return Array.isArray(value) ? value.map(nested) : Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, nested(v)]));
}

function holdsStagedArray(value: unknown): boolean {
  if (!Array.isArray(value) && !isPlainObject(value)) return false;
  return Object.values(value).some((v) => stagedArrayState(v) !== undefined || holdsStagedArray(v));
}

/** Makes the container `target` hold `value` (a container of the same kind), keeping its identity. */
function writeInPlace(target: unknown, value: unknown): void {
  const inner = (t: unknown, v: unknown): unknown => {
    const staged = stagedArrayState(t);
    if (staged !== undefined && !Array.isArray(v)) {
      staged.listValue = v as TracedList | Record<string, tf.TensorInfo>;
      return t;
    }
    if (staged !== undefined) staged.listValue = undefined;
    if ((Array.isArray(t) && Array.isArray(v)) || (isPlainObject(t) && isPlainObject(v) && !Array.isArray(v))) {
      writeInPlace(t, v);
      return t;
    }
    return v;
  };
  if (Array.isArray(target) && Array.isArray(value)) {
    if (target.length !== value.length) target.length = value.length;
    value.forEach((v, i) => {
      const next = inner(target[i], v);
      if (target[i] !== next) target[i] = next;
    });
  } else if (isPlainObject(target) && isPlainObject(value)) {
    for (const key of Object.keys(target)) if (!(key in value)) delete target[key];
    for (const [key, v] of Object.entries(value)) {
      const next = inner(target[key], v);
      if (target[key] !== next) target[key] = next;
    }
  }
}
