/**
 * Cache keys of stage(): what a call's arguments are, as far as a graph depends on them. The exact
 * signature holds the tensors' shapes and dtypes and the values of all other arguments; its
 * "family" is the same key with every tensor's dims left out (dtype and rank kept), so two calls
 * of one family differ only in dims and may share a graph (see shape_relaxation.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import { StagingError } from '../common/errors';
import { fitsShape, shapeText, type DataType, UNKNOWN_DIM } from '../graph/graph';
import { flatten } from '../common/nest';

/** One argument of `stage(fn, { inputSignature })`: `null` (or -1) for a dim any size may take. */
export interface InputSpec {
  shape: (number | null)[];
  dtype?: DataType;
  /** The argument's name in exported models (else the parameter's name in fn's source, which minifiers rename). */
  name?: string;
}

export interface CallSignature {
  signature: string;
  /** The signature without dims: calls of one family differ only in their tensors' dims. */
  family: string;
  /** The distinct tensor arguments (the graph's parameters), in order. */
  tensors: tf.Tensor[];
}

const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;
const objectId = (o: object): number => {
  let id = objectIds.get(o);
  if (id === undefined) objectIds.set(o, (id = nextObjectId++));
  return id;
};

/** The cache key of a call, its family, and its distinct tensor arguments. */
export function signatureOf(thisArg: unknown, args: unknown[]): CallSignature {
  const flat = flatten(args);
  const tensors: tf.Tensor[] = [];
  const parts = flat.leaves.map((leaf): string | tf.Tensor => {
    if (leaf instanceof tf.Variable) return `var:${leaf.name}`;
    if (leaf instanceof tf.Tensor) {
      // The same tensor passed twice is one parameter: the key says so.
      const same = tensors.findIndex((t) => t.dataId === leaf.dataId && t.dtype === leaf.dtype &&
        t.shape.length === leaf.shape.length && t.shape.every((d, i) => d === leaf.shape[i]));
      if (same >= 0) return `=${same}`;
      tensors.push(leaf);
      return leaf;
    }
    switch (typeof leaf) {
      case 'number':
        return Object.is(leaf, -0) ? 'n:-0' : `n:${leaf}`;
      case 'string':
        return `s:${JSON.stringify(leaf)}`;
      case 'boolean':
      case 'undefined':
      case 'bigint':
        return `${typeof leaf}:${String(leaf)}`;
      case 'symbol':
        return `sym:${String(leaf)}`;
      default:
        return leaf === null ? 'null' : `obj:${objectId(leaf as object)}`;
    }
  });
  const self = thisArg === undefined || thisArg === null || typeof thisArg !== 'object' && typeof thisArg !== 'function'
    ? String(thisArg) : `obj:${objectId(thisArg as object)}`;
  // The backend is part of the key: captured constants live on the backend that traced them.
  const head = `${tf.getBackend()}|${self}|${flat.structure}|`;
  const key = (dims: (t: tf.Tensor) => string): string =>
    head + parts.map((p) => (typeof p === 'string' ? p : `${p.dtype}${dims(p)}`)).join(',');
  return {
    signature: key((t) => `[${t.shape.join(',')}]`),
    family: key((t) => `<rank ${t.rank}>`),
    tensors,
  };
}

/**
 * Throws, naming the argument, when a tensor argument was disposed: checked once per call before
 * any engine (an engine would fail inside its kernels, or read freed memory and return a result).
 * The cache calls it only when a tensor of the call's signature is disposed.
 */
export function throwIfDisposed(fnName: string, args: unknown[], names: readonly string[]): void {
  args.forEach((arg, i) => {
    const leaves = arg instanceof tf.Tensor ? [arg] : flatten(arg).leaves;
    if (!leaves.some((leaf) => leaf instanceof tf.Tensor && leaf.isDisposed)) return;
    const what = leaves.length === 1 ? 'is a disposed tensor' : 'holds a disposed tensor';
    throw new StagingError(`autograph-ts: argument ${i}${names[i] ? ` (${names[i]})` : ''} of ${fnName} ${what}: ` +
      'it was disposed (t.dispose(), or a tf.tidy that ended) before this call. Pass a tensor that is still alive, ' +
      'or keep it (tf.keep, or return it from the tidy).');
  });
}

/** Whether every tensor fits the shape pattern of the same position (UNKNOWN_DIM: any size). */
export function fitsPattern(pattern: readonly number[][], tensors: readonly tf.Tensor[]): boolean {
  return pattern.length === tensors.length && tensors.every((t, i) => fitsShape(pattern[i], t.shape));
}

/** The checked input signature: one spec per argument, each a tensor of that dtype and rank. */
export function checkInputSignature(signature: readonly InputSpec[]): number[][] {
  if (!Array.isArray(signature)) throw new TypeError('autograph-ts: inputSignature must be an array of { shape, dtype }');
  return signature.map((spec, i) => {
    if (spec === null || typeof spec !== 'object' || !Array.isArray(spec.shape) ||
        !spec.shape.every((d: number | null) => d === null || d === UNKNOWN_DIM || (Number.isInteger(d) && d >= 0))) {
      throw new TypeError(`autograph-ts: inputSignature[${i}] must be { shape: (number | null)[], dtype? }, got ` +
        `${JSON.stringify(spec)}`);
    }
    return spec.shape.map((d: number | null) => (d === null ? UNKNOWN_DIM : d));
  });
}

/** Throws, naming the argument, when a call does not match the input signature. */
export function matchInputSignature(signature: readonly InputSpec[], pattern: readonly number[][], args: unknown[],
                                    names: readonly string[]): void {
  const name = (i: number): string => `argument ${i}${names[i] ? ` (${names[i]})` : ''}`;
  const expected = (i: number): string => `${signature[i].dtype ?? ''}${shapeText(pattern[i])}`;
  if (args.length !== signature.length) {
    throw new StagingError(`autograph-ts: the staged function takes ${signature.length} argument(s) by its ` +
      `inputSignature, got ${args.length}.`);
  }
  args.forEach((arg, i) => {
    if (!(arg instanceof tf.Tensor)) {
      throw new StagingError(`autograph-ts: ${name(i)} must be a tensor ${expected(i)} (inputSignature), got ` +
        `${arg === null ? 'null' : typeof arg}.`);
    }
    const dtype = signature[i].dtype;
    if ((dtype !== undefined && arg.dtype !== dtype) || !fitsShape(pattern[i], arg.shape)) {
      throw new StagingError(`autograph-ts: ${name(i)} is ${arg.dtype}${shapeText(arg.shape)}, which does not ` +
        `match the inputSignature ${expected(i)}.`);
    }
  });
}

/** Each argument that has unknown dims in `pattern`, with its dtypes and shapes (`float32[?,8]`). */
export function describePattern(args: unknown[], tensors: tf.Tensor[], pattern: number[][]): { index: number; text: string }[] {
  return args.flatMap((arg, i) => {
    const shapes = flatten(arg).leaves.flatMap((leaf) => {
      const k = leaf instanceof tf.Tensor ? tensors.indexOf(leaf) : -1;
      return k >= 0 && pattern[k].includes(UNKNOWN_DIM) ? [`${tensors[k].dtype}${shapeText(pattern[k])}`] : [];
    });
    return shapes.length > 0 ? [{ index: i, text: shapes.join(', ') }] : [];
  });
}
