/**
 * Errors about a guard that a lowered jump put around the rest of a block (`if (x.less(0))
 * continue;` → `if (!continue_) { ...the rest... }`): the transformer names the jump and the
 * user's condition it is under (opts.jump). Such an error speaks of the two paths the user wrote —
 * past the jump, and where the jump is taken — at the user's condition, not of an if statement
 * the user never wrote at the statement after the jump.
 */
import type { OperatorOptions } from '../../runtime/options';
import { rewriteStack, userSiteAt } from '../../runtime/user_frames';
import { StagingError } from '../common/errors';

/** The guard's own error, in the user's words, its first frame the user's condition. */
export function explainGuardError(error: unknown, opts: OperatorOptions | undefined): unknown {
  const jump = opts?.jump;
  if (jump === undefined || opts?.origin === undefined || !(error instanceof StagingError)) return error;
  const own = ` (${opts.origin})`;
  if (!error.message.includes(own)) return error;
  const past = `past the \`${jump.kind}\``;
  const taken = `where the \`${jump.kind}\` is taken`;
  rewordError(error, (before) => before
    .replace(` (${opts.origin})`, ` (the \`${jump.kind}\` under the tensor condition at ${jump.origin})`)
    .replace(/ (?:of a|in a) condition(?:al)? on a tensor/g, '')
    .replace(/in the if branch/g, past).replace(/in the else branch/g, taken)
    .replace(/the if branch/g, `the path ${past}`).replace(/the else branch/g, `the path ${taken}`)
    .replace(/both branches/g, 'both paths'));
  rewriteStack(error, userSiteAt(error, jump.origin));
  return error;
}

/** Gives `error` the message `reword` makes of its own, in its stack too. */
export function rewordError(error: Error, reword: (message: string) => string): void {
  const stack = error.stack; // (read first: V8 formats it lazily, with the message of that moment)
  const before = error.message;
  error.message = reword(before);
  if (typeof stack === 'string') {
    Object.defineProperty(error, 'stack', { value: stack.replace(before, error.message), writable: true, configurable: true });
  }
}
