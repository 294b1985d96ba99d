/**
 * The names every exporter gives a traced graph (export/onnx, export/graphmodel): the graph after
 * the function, inputs after its parameters (`xs`, `w_wx` for the tensor at `w.wx` of an object
 * argument), outputs after the returned structure, variables after the parameters that hold them.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Staged, StagedGraphInfo } from '../stage';

/** Any staged function, as the exporters take it. */
export type AnyStaged = Staged<(...args: never[]) => unknown>;

export interface ExportNames {
  /** The function's name. */
  name: string;
  info: StagedGraphInfo;
  /** One per root parameter of the traced program. */
  inputs: string[];
  /** One per result of the traced program. */
  outputs: string[];
  /** tf.Variables passed in the arguments (index in Program.variables), named like parameters. */
  variables: Map<number, string>;
}

/**
 * The traced graph of `staged` for `args`, with the names an exported model gives it: the
 * function's, its parameters' and its returned structure's (built around markers: the function
 * does not run). Shared by every exporter.
 */
export function exportNames(staged: AnyStaged, args: unknown[], inputNames?: string[]): ExportNames {
  const info = staged.inspect(...(args as never[]));
  const fn = staged.original as (...a: unknown[]) => unknown;
  const name = fn.name || 'staged';
  const state = info.program.objectState;
  if (state !== undefined) {
    throw new Error(`autograph-ts: ${name} keeps state in ${[...state.inputs, ...state.outputs].map((n) => `'${n}'`).join(', ')} ` +
      '(read or written back on every call); an exported model has no JS objects. Pass that state in as arguments and ' +
      'return it, then export.');
  }
  const numParams = info.program.graph.numParams;
  const given = inputNames ?? signatureNames(staged.inputSignature);
  if (given !== undefined && given.length !== numParams) {
    throw new Error(`autograph-ts: ${given.length} input names given for ${name}, its graph has ${numParams} tensor inputs`);
  }
  const inputs = given !== undefined ? unique(given) : argumentNames(fn, args);
  if (inputs.length !== numParams) {
    throw new Error(`autograph-ts internal: ${inputs.length} tensor arguments named, the graph has ${numParams}`);
  }
  const markers = info.program.graph.results.map(() => new ResultMarker());
  const outputs = leafPaths(info.rebuild(markers), 'output', (v) => v instanceof ResultMarker);
  // A tf.Variable in the arguments (`w.wx = tf.variable(...)`) is read by the model as an input
  // (its value at the call): named after where it was passed, not its tfjs name ('1', '2', ...).
  const params = parameterNames(fn);
  const variables = new Map<number, string>();
  args.forEach((arg, i) => {
    for (const { leaf, name: path } of leafPaths(arg, params[i] ?? `arg${i}`, (v) => v instanceof tf.Variable)) {
      const index = info.program.variables.indexOf(leaf as tf.Variable);
      if (index >= 0 && !variables.has(index)) variables.set(index, path);
    }
  });
  // One namespace for inputs, outputs and variables (ONNX requires it; the GraphModel's node names
  // too): `{ x, steps }` returned by a function of `x` has outputs x_1 and steps.
  const used = new Set(inputs);
  const outputNames = unique(outputs.map((o) => o.name), used);
  const variableNames = unique([...variables.values()], used);
  return { name, info, inputs, outputs: outputNames, variables: new Map([...variables.keys()].map((k, i) => [k, variableNames[i]])) };
}

/** The input signature's names, when it names every argument (one tensor per argument). */
function signatureNames(signature: readonly { name?: string }[] | undefined): string[] | undefined {
  if (signature === undefined || signature.length === 0 || signature.some((s) => s.name === undefined)) return undefined;
  return signature.map((s) => s.name!);
}

/** Names of the distinct tensor arguments, in the order stage() binds them as graph parameters. */
export function argumentNames(fn: (...a: unknown[]) => unknown, args: unknown[]): string[] {
  const params = parameterNames(fn);
  const seen: tf.Tensor[] = [];
  const names: string[] = [];
  args.forEach((arg, i) => {
    for (const { leaf, name } of leafPaths(arg, params[i] ?? `arg${i}`, (v) => v instanceof tf.Tensor)) {
      const tensor = leaf as tf.Tensor;
      if (tensor instanceof tf.Variable) continue;
      // The same tensor passed twice is one parameter (as in stage's signature).
      if (seen.some((t) => t.dataId === tensor.dataId && t.dtype === tensor.dtype &&
          t.shape.length === tensor.shape.length && t.shape.every((d, k) => d === tensor.shape[k]))) continue;
      seen.push(tensor);
      names.push(name);
    }
  });
  return unique(names);
}

class ResultMarker {}

/** Leaves (as `isLeaf` says) of arrays and plain objects, named by their path from `base`. */
function leafPaths(value: unknown, base: string, isLeaf: (v: unknown) => boolean): { leaf: unknown; name: string }[] {
  if (isLeaf(value)) return [{ leaf: value, name: base }];
  if (Array.isArray(value)) return value.flatMap((v, i) => leafPaths(v, `${base}_${i}`, isLeaf));
  if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.flatMap(([k, v]) => leafPaths(v, base === 'output' ? k : `${base}_${k}`, isLeaf));
  }
  return [];
}

/** The function's parameter names from its source (destructured parameters become argN). */
export function parameterNames(fn: (...a: unknown[]) => unknown): string[] {
  const source = Function.prototype.toString.call(fn);
  const arrow = /^(?:async\s*)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
  if (arrow) return [arrow[1]];
  const open = source.indexOf('(');
  if (open < 0) return [];
  let depth = 0;
  let current = '';
  const parts: string[] = [];
  for (let i = open + 1; i < source.length; i++) {
    const c = source[i];
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) {
      if (depth === 0) break;
      depth--;
    }
    if (c === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim()) parts.push(current);
  return parts.map((p, i) => {
    const m = /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(p.replace(/\/\*[\s\S]*?\*\//g, ''));
    return m ? m[1] : `arg${i}`;
  });
}

/**
 * The names made unique, in order: a name already used (in `used`, or earlier in `names`) gets the
 * first free `_1`, `_2`, ... suffix; characters other than letters, digits and _ become _.
 */
export function unique(names: readonly string[], used = new Set<string>()): string[] {
  return names.map((n) => {
    const clean = n.replace(/[^A-Za-z0-9_]/g, '_');
    let name = clean;
    for (let k = 1; used.has(name); k++) name = `${clean}_${k}`;
    used.add(name);
    return name;
  });
}
