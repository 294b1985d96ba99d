/**
 * Errors about what a staged function cannot do. They name the variable and the user's source
 * location (the `origin` the transformer passes, or the first stack frame in user code).
 */
import type { OperatorOptions } from '../runtime/options';
import { currentUserLocation } from '../runtime/user_frames';

import { StagingError } from '../runtime/staging_error';

export { StagingError };

/** " (file.ts:12:5)" or "". */
export function at(opts: OperatorOptions | undefined): string {
  return opts?.origin ? ` (${opts.origin})` : '';
}

export { isInternalFrame as isEngineFrame } from '../runtime/user_frames';

/** The first stack frame outside tfjs and autograph-ts, mapped to .ts: the user's line, best effort. */
export const userFrame = currentUserLocation;

/** A value returned on one path of a tensor conditional only. */
export function returnInOneBranch(opts: OperatorOptions | undefined): StagingError {
  return new StagingError(`autograph-ts: a value is returned in one branch of a conditional on a tensor but not in ` +
    `the other${at(opts)}. A value must also be returned from the else branch: a staged function must return ` +
    'a value on every path.');
}
