/**
 * `for (let i = 0; i < heads.length; i++)` with a `break` or `return` under a tensor condition
 * (transformer/analysis/counted_loops.ts: the counters are the loop's own, only its update writes them,
 * its test and update only read). Once a jump flag is a tensor the loop is first staged as a while (the
 * smaller graph: the counters become tensors); when that trace fails (`heads[i]` on an array of
 * records, `this.blocks[i].forward(h)`, `stages[w].threshold`: a counter used as a JS number), the loop
 * runs on in JS as Python AutoGraph runs a loop over a Python range: each iteration under a staged
 * `if (running())` (no jump taken yet), the counters JS numbers throughout. Past a staged exit the
 * iterations change nothing (the if's else branch), and the counters are the loop's own, so nothing
 * sees that they went on counting.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { LoopOptions } from '../../runtime/options';
import type { GetState, SetState, Thunk } from '../../runtime/staging_hooks';
import { StagingError } from '../common/errors';
import { stagedArrayState, type StagedArrayState } from './staged_lists';
import { FieldWatch } from './observed_fields';
import { rewordError } from './guard_errors';

type Counted = NonNullable<LoopOptions['counted']>;


/** The two ways to stage the rest of the loop (control_flow.ts). */
export interface LoopStagings {
  /** The rest of the loop as a staged while. */
  loop(test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState, names: string[], opts: LoopOptions | undefined): void;
  ifStmt(cond: unknown, body: Thunk<void>, orelse: Thunk<void>, getState: GetState, setState: SetState,
         names: string[], nouts: number, opts?: LoopOptions): void;
}

const noop = (): void => {};

/**
 * ag__.whileStmt of a counted loop in a trace: JS iterations while the test is JS; the rest of the loop, from
 * the first tensor test on, a staged while, else guarded iterations.
 */
export function stageCountedLoop(stagings: LoopStagings, test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState,
                                 names: string[], opts: LoopOptions | undefined, counted: Counted): void {
  const iteration = counting(getState, setState, names, counted);
  for (;;) {
    const holds = test();
    if (isTensor(holds)) return stageRest(stagings, test, body, getState, setState, names, opts, counted);
    if (!holds) return;
    iteration(body);
  }
}

function stageRest(stagings: LoopStagings, test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState,
                   names: string[], opts: LoopOptions | undefined, counted: Counted): void {
  const snapshot = takeSnapshot(getState, names, opts);
  try {
    stagings.loop(test, body, getState, setState, names, opts);
    return;
  } catch (error) {
    if (!fallsBack(error)) throw error;
    snapshot.restore(setState);
    if (isTensor(counted.test())) throw error;
  }
  guardedIterations(stagings, test, body, getState, setState, names, opts, counted);
}

/**
 * The loop in JS while its own test is JS: an iteration whose jump flags are JS runs as JS; one whose
 * flags are tensors runs under a staged `if (running())`.
 */
function guardedIterations(stagings: LoopStagings, test: Thunk, body: Thunk<void>, getState: GetState, setState: SetState,
                           names: string[], opts: LoopOptions | undefined, counted: Counted): void {
  const iteration = counting(getState, setState, names, counted);
  for (;;) {
    const holds = counted.test();
    if (isTensor(holds)) return stagings.loop(test, body, getState, setState, names, opts);
    if (!holds) return;
    const guard = counted.running();
    if (!isTensor(guard) && !guard) return;
    iteration(isTensor(guard) ? () => guarded(() => stagings.ifStmt(guard, body, noop, getState, setState, names, names.length, opts), opts) : body);
  }
}

/** A guarded iteration's errors speak of the loop body, not of an if the user never wrote at the loop. */
function guarded(run: Thunk<void>, opts: LoopOptions | undefined): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof StagingError) || opts?.origin === undefined) throw error;
    const body = `the body of the loop (${opts.origin}), which runs in JS after a \`break\` or \`return\` staged on a tensor, ` +
      'under a staged test that none was taken';
    rewordError(error, (before) => before.replace(`the if branch of the conditional (${opts.origin})`, body)
      .replace(`the else branch of the conditional (${opts.origin})`, `the iterations of the loop (${opts.origin}) after a staged exit`));
    throw error;
  }
}

/**
 * Runs an iteration; when a jump flag is a tensor after it, the body's own guarded update made the counters
 * tensors (`if (!break_) i++`): they are put back to their JS values and advanced by the update, unguarded
 * (on the path where the jump was taken nothing reads them again).
 */
function counting(getState: GetState, setState: SetState, names: string[], counted: Counted): (run: Thunk<void>) => void {
  const at = counted.counters.map((name) => names.indexOf(name)).filter((k) => k >= 0);
  return (run) => {
    const before = getState();
    run();
    if (!isTensor(counted.running())) return;
    const after = getState();
    for (const k of at) after[k] = before[k];
    setState(after);
    counted.update();
  };
}

/**
 * A failed while trace falls back to guarded iterations when it failed for what it is (a user-facing
 * refusal, an error of the code on tensors it made): not on the signals that enclosing statements
 * retry on (StructureChange, ListElementsLearnt, ...: subclasses of StagingError).
 */
function fallsBack(error: unknown): boolean {
  return error instanceof Error && (!(error instanceof StagingError) || error.constructor === StagingError);
}

/**
 * The loop's state, the lists in it and in the composites it changes, and the fields of the objects it observes
 * (a carried field holds a tensor of the failed trace), to put back after a failed trace.
 */
function takeSnapshot(getState: GetState, names: string[], opts: LoopOptions | undefined): { restore(setState: SetState): void } {
  const state = getState();
  const fields = new FieldWatch(opts, names);
  const arrays = new Set<StagedArrayState>();
  // (With the arrays in fields that an enclosing statement carries as StagedArrays: `lg.seen` of a `lg.note(k)`.)
  const carried = fields.fieldValues().map(([, v]) => v);
  for (const value of [...state, ...Object.values(opts?.composites?.() ?? {}), ...carried]) {
    const array = stagedArrayState(value);
    if (array !== undefined) arrays.add(array);
  }
  const saved = [...arrays].map((array) => ({ array, list: array.listValue, items: [...array.target] }));
  return {
    restore(setState: SetState): void {
      for (const { array, list, items } of saved) {
        array.listValue = list;
        array.target.splice(0, array.target.length, ...items);
      }
      fields.restore();
      setState(state);
    },
  };
}

const isTensor = (value: unknown): value is tf.Tensor => value instanceof tf.Tensor;
