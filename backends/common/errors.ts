/**
 * Errors about what a staged function cannot do. They name the variable and the user's source
 * location (the `origin` the transformer passes, or the first stack frame in user code).
 */
import type { OperatorOptions } from '../../runtime/options';
import { currentUserLocation } from '../../runtime/user_frames';

import { StagingError } from '../../runtime/staging_error';

export { StagingError };

/**
 * A state variable's structure differs after a staged loop body or between the branches of a
 * staged if: an array that a push or pop grows or shrinks. control_flow.ts makes such an array a
 * list value of the graph when it can (staged_lists.ts) and traces the statement again.
 */
export class StructureChange extends StagingError {
  /** `values`: the variable's values that differ (the two branches', or the value after an iteration). */
  constructor(readonly variable: string, message: string, readonly values: readonly unknown[] = []) {
    super(message);
  }
}

/** " (file.ts:12:5)" or "". */
export function at(opts: OperatorOptions | undefined): string {
  return opts?.origin ? ` (${opts.origin})` : '';
}

export { isInternalFrame as isEngineFrame, userError } from '../../runtime/user_frames';

/** The first stack frame outside tfjs and autograph-ts, mapped to .ts: the user's line, best effort. */
export const userFrame = currentUserLocation;

const thrownInBranch = new WeakSet<object>();

/**
 * Marks an error that the JS of a branch of a tensor condition threw while it was traced: the graph
 * records it (a Check) and raises it again when a run takes that branch. Its stack says so.
 */
export function markThrownInBranch<E extends Error>(error: E): E {
  thrownInBranch.add(error);
  return error;
}

export function wasThrownInBranch(error: Error): boolean {
  return thrownInBranch.has(error);
}

/** A staged loop went past `stage(fn, { maximumIterations })`. */
export function tooManyIterations(limit: number, origin: string | undefined): StagingError {
  return new StagingError(`autograph-ts: the loop staged on a tensor condition${origin ? ` at ${origin}` : ''} did not end ` +
    `within maximumIterations (${limit}): its condition still held after ${limit} iterations. A loop whose condition ` +
    'never becomes false runs forever; raise maximumIterations if this one needs more.');
}

/** An asynchronous staged run went past `stage(fn, { timeBudgetMs })` inside a loop. */
export function pastTimeBudget(budget: number, elapsed: number, iterations: number, origin: string | undefined): StagingError {
  return new StagingError(`autograph-ts: staged.run(...) did not finish within timeBudgetMs (${budget} ms): after ` +
    `${Math.round(elapsed)} ms the loop staged on a tensor condition${origin ? ` at ${origin}` : ''} was still running ` +
    `(${iterations} iteration${iterations === 1 ? '' : 's'} in this run of it). A loop whose condition never becomes false ` +
    'runs forever; raise timeBudgetMs if this call needs more time.');
}

/** A value returned on one path of a tensor conditional only. */
export function returnInOneBranch(opts: OperatorOptions | undefined): StagingError {
  return new StagingError(`autograph-ts: a value is returned in one branch of a conditional on a tensor but not in ` +
    `the other${at(opts)}. A value must also be returned from the else branch: a staged function must return ` +
    'a value on every path.');
}
