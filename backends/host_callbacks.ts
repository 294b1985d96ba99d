/**
 * Host callbacks of the graph (Print, Check): their payloads are plain data in the graph; these
 * helpers turn them back into console output and errors at run time.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { PrintPart } from './graph';

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
  return error;
}
