/**
 * Which unknown dims the user's code reads as JS numbers while a trace runs. A graph compared with
 * a trace of other dims (backends/staging/shape_relaxation.ts) shows the dims it depends on only where the
 * two traces differ; a JS number from a dim that takes the same path for both sizes (`if (T > 3)`,
 * `Math.min(T, 4)`, `T >> 1` for 8 and 9) would go unseen. So the tensors whose dims are unknown —
 * arguments relaxed or left open by an inputSignature, loop variables and If outputs whose dims
 * change — report every read of their `shape` (of an unknown dim) or `size` by code outside tfjs
 * and autograph-ts (user_reads.ts): such a read makes the graph depend on the dims, whatever the
 * comparison says.
 */
import * as tf from '@tensorflow/tfjs-core';
import { UNKNOWN_DIM } from '../graph/graph';
import { readByUserCode, userReadLocation } from './user_reads';
import { asLibrary } from '../../runtime/library_code';

export type DimReadListener = (read: string) => void;

/**
 * Makes `t` report reads of its unknown dims (UNKNOWN_DIM in `pattern`) by user code to `onRead`,
 * described with `name`. Returns what undoes it (the tensor keeps its plain shape and size).
 */
export function watchDims(t: tf.Tensor, pattern: readonly number[], name: string, onRead: DimReadListener): () => void {
  if (!pattern.includes(UNKNOWN_DIM)) return () => {};
  return auditDims(t, (dim, location) => {
    if (dim === 'size') onRead(`${name}.size${where(location)}`);
    else if (pattern[dim] === UNKNOWN_DIM) onRead(`${name}.shape[${dim}]${where(location)}`);
  });
}

const where = (location: string | undefined): string => (location ? ` at ${location}` : '');

/** A read of a dim (or of the size) of a value of the graph by the user's code. */
export interface DimRead {
  ref: { node: number; output: number };
  dim: number | 'size';
  location: string;
}

/**
 * Makes `t` report every read of its dims or size by user code (`onRead(dim, location)`), for an
 * audited trace: whether the dim read is unknown is known only once the trace is compared.
 */
export function auditDims(t: tf.Tensor, listener: (dim: number | 'size', location: string) => void): () => void {
  // The listener is autograph-ts's code: its own reads of t's dims are not the user's.
  const onRead = (dim: number | 'size', location: string): void => asLibrary(() => listener(dim, location));
  if (Object.getOwnPropertyDescriptor(t, 'shape')?.get !== undefined) return () => {};
  const shape = t.shape;
  const size = t.size;
  let reader = '';
  const audited = new Proxy(shape, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) onRead(Number(key), reader);
      return Reflect.get(target, key, receiver);
    },
  });
  Object.defineProperty(t, 'shape', {
    configurable: true,
    enumerable: true,
    get() {
      const caller = userCaller();
      if (caller === undefined) return shape;
      reader = caller;
      return audited;
    },
    set(value) {
      Object.defineProperty(t, 'shape', { value, writable: true, configurable: true, enumerable: true });
    },
  });
  Object.defineProperty(t, 'size', {
    configurable: true,
    enumerable: true,
    get() {
      const caller = userCaller();
      if (caller !== undefined) onRead('size', caller);
      return size;
    },
  });
  return () => {
    Object.defineProperty(t, 'shape', { value: shape, writable: true, configurable: true, enumerable: true });
    Object.defineProperty(t, 'size', { value: size, writable: true, configurable: true, enumerable: true });
  };
}

/** The user's code reading now (its location, for messages), or undefined when tfjs or autograph-ts reads. */
function userCaller(): string | undefined {
  return readByUserCode() ? userReadLocation() ?? 'user code' : undefined;
}
