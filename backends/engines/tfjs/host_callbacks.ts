/**
 * Host callbacks of the graph (Print, Check): their payloads are plain data in the graph; these
 * helpers turn them back into console output and errors at run time.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { isEngineFrame, wasThrownInBranch } from '../../common/errors';
import type { PrintPart } from '../../graph/graph';

/** console.log arguments: text as recorded, tensors formatted like tfjs's t.print(). */
export function formatPrint(parts: PrintPart[], tensors: tf.Tensor[]): string[] {
  return parts.map((p) => ('text' in p ? p.text : tensors[p.input].toString(p.verbose)));
}

/** A fresh error of the recorded error's class, with its message (and own fields). */
export function rebuildError(template: Error): Error {
  let error: Error;
  try {
    const Ctor = template.constructor as new (message?: string) => Error;
    error = new Ctor(template.message);
  } catch {
    error = Object.create(Object.getPrototypeOf(template)) as Error;
  }
  for (const key of Object.keys(template)) {
    (error as unknown as Record<string, unknown>)[key] = (template as unknown as Record<string, unknown>)[key];
  }
  if (error.message !== template.message) error.message = template.message;
  if (error.name !== template.name) error.name = template.name;
  withUserFrames(error, template);
  return error;
}

/**
 * The rebuilt error is raised by the executor, so its own stack shows only engine frames. Put the
 * user's frames of the traced throw (where the `throw`/`assert` is in their code) on top, then
 * the frames of this call.
 */
function withUserFrames(error: Error, template: Error): void {
  const userFrames = (template.stack ?? '').split('\n').slice(1).filter((line) => /^\s+at /.test(line) && !isEngineFrame(line));
  if (userFrames.length === 0 || error.stack === undefined) return;
  const callFrames = error.stack.split('\n').filter((line) => /^\s+at /.test(line)); // (a message may span lines)
  const label = wasThrownInBranch(template)
    ? '    at <staged graph> (thrown while stage() traced this branch, at the frames above; raised again when the graph ran it)'
    : '    at <staged graph> (raised when the graph ran; frames above are where it was traced)';
  error.stack = [`${error.name}: ${error.message}`, ...userFrames, label,
    ...callFrames.filter((line) => !isEngineFrame(line))].join('\n');
}
