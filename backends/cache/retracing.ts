/**
 * What stage() tells a user about tracing: that a function was not converted at all (compiled
 * without the plugin), why a function traced again, and a warning when it keeps retracing — the
 * most common tf.function complaint, silent until now.
 */
import * as tf from '@tensorflow/tfjs-core';
import { verboseLog } from '../../runtime/verbosity';
import { DIRECTIVE } from '../../runtime/names';
import { StagingError } from '../common/errors';

/** Traces of one function after which a warning says it keeps retracing (tf.function's is 5). */
export const RETRACE_WARNING_THRESHOLD = 5;

/**
 * A function whose body still starts with the 'use autograph' directive was compiled by a tool that
 * did not run the transformer (plain tsc, a bundler, ts-node): its tensor conditions would be
 * tested as objects (always true), and `while (t.greater(0))` would never end. Say so at once.
 */
export function throwIfNotConverted(fn: Function): void {
  let source: string;
  try {
    source = Function.prototype.toString.call(fn);
  } catch {
    return;
  }
  const body = source.indexOf('{');
  const arrow = source.indexOf('=>');
  if (body < 0 || (arrow >= 0 && arrow < body && !/^\s*\{/.test(source.slice(arrow + 2)))) return;
  const prologue = /^\{\s*(?:(["'])(?:(?!\1)[^\\\n]|\\.)*\1\s*;?\s*)*/.exec(source.slice(body))?.[0] ?? '';
  if (!new RegExp(`(["'])${DIRECTIVE}\\1`).test(prologue)) return;
  throw new StagingError(`autograph-ts: ${fn.name || 'this function'} was not converted: its body still holds ` +
    `'${DIRECTIVE}', so it was compiled without the autograph-ts transformer and its tensor conditions would be ` +
    'tested as objects (always true). Compile with ts-patch\'s `tspc` (or `ts-patch install`) and add ' +
    '`"plugins": [{ "transform": "autograph-ts/transformer" }]` to the compilerOptions of tsconfig.json.');
}

/**
 * A generator or async function cannot be traced: its body runs after the call returns (a
 * generator object, a Promise), outside the trace. stage() refuses it at once, naming it (a
 * staged generator returned one shared generator object on every call).
 */
export function throwIfNotTraceable(fn: Function): void {
  const kind = Object.prototype.toString.call(fn).slice(8, -1);
  const what = { GeneratorFunction: 'a generator function', AsyncGeneratorFunction: 'an async generator function',
    AsyncFunction: 'an async function' }[kind];
  if (what === undefined) return;
  throw new StagingError(`autograph-ts: stage() cannot trace ${fn.name || 'this function'}: it is ${what}, whose body ` +
    'runs after the call returns, outside the trace. Stage a synchronous function that returns tensors, and ' +
    'call it from the generator or async function.');
}

/** Remembers the arguments of the last trace, to explain the next one. */
export class RetraceLog {
  private last: string[] | undefined;
  private warned = false;
  readonly names: string[];

  constructor(private readonly fn: Function) {
    this.names = parameterNames(fn);
  }

  /** Undoes what the traces since now told the log (a trace that will run again: host_trace.ts). */
  mark(): () => void {
    const last = this.last;
    return () => { this.last = last; };
  }

  /** `changedField`: a field of the user's objects the last graph was traced for changed (object_state.ts). */
  onTrace(count: number, args: unknown[], forced: boolean, changedField?: string): void {
    const keys = args.map(argumentKey);
    const previous = this.last;
    this.last = keys;
    const name = this.fn.name || 'a function';
    const reason = forced ? 'alwaysRetrace is set' : changedField !== undefined ? `'${changedField}' changed since the last trace`
      : previous === undefined ? 'first call' : this.explain(previous, keys);
    verboseLog(1, () => `tracing ${name} (trace #${count}) for (${keys.join(', ')}): ${reason}`);
    if (!forced && !this.warned && count >= RETRACE_WARNING_THRESHOLD) {
      this.warned = true;
      console.warn(`autograph-ts: ${name} has been traced ${count} times; the last retrace: ${reason}. ` + (changedField !== undefined
        ? `A staged call is traced for the JS values of the fields it reads: keep '${changedField}' in a tensor (a tensor field ` +
          'is a graph input, read anew on every call) to trace once. '
        : 'Each new input signature (tensor shapes and dtypes, values of non-tensor arguments) traces again, which ' +
          'is slow: pass changing numbers as tensors, and keep shapes fixed (or pad). ') +
        'Set AUTOGRAPH_VERBOSITY=1 to see every trace and its reason.');
    }
  }

  /** fn runs again, on probe arguments, to check a graph with unknown dims. */
  onProbe(count: number, why: string): void {
    verboseLog(1, () => `tracing ${this.fn.name || 'a function'} (trace #${count}) with other sizes for its unknown dims: ${why}`);
  }

  /** The last trace is the same graph as an earlier one of other dims: it serves them all. */
  onRelaxed(relaxed: { index: number; text: string }[]): void {
    verboseLog(1, () => `relaxed ${this.fn.name || 'a function'}: its graph does not depend on the dims that changed, ` +
      `one graph now serves ${relaxed.map(({ index, text }) =>
        `argument ${index}${this.names[index] ? ` (${this.names[index]})` : ''} as ${text}`).join(', ')}`);
  }

  /** The last trace differs from an earlier one of other dims beyond them: one trace per shape. */
  onNotRelaxed(difference: string): void {
    verboseLog(1, () => `not relaxing ${this.fn.name || 'a function'}: its graph depends on the dims that changed ` +
      `(${difference}); it is traced once per shape`);
  }

  private explain(previous: string[], keys: string[]): string {
    const changes: string[] = [];
    for (let i = 0; i < Math.max(previous.length, keys.length); i++) {
      if (previous[i] !== keys[i]) {
        changes.push(`argument ${i}${this.names[i] ? ` (${this.names[i]})` : ''} changed from ${previous[i] ?? 'absent'} to ${keys[i] ?? 'absent'}`);
      }
    }
    return changes.length > 0 ? changes.join('; ') : 'the same arguments with another `this`, backend or object identity';
  }
}

/** A short description of an argument as the cache key sees it. */
function argumentKey(arg: unknown): string {
  if (arg instanceof tf.Tensor) return `${arg.dtype}[${arg.shape.join(',')}]`;
  if (Array.isArray(arg)) return `[${arg.map(argumentKey).join(', ')}]`;
  if (typeof arg === 'string') return JSON.stringify(arg);
  if (arg !== null && typeof arg === 'object') {
    const proto = Object.getPrototypeOf(arg);
    if (proto === Object.prototype || proto === null) {
      return `{${Object.entries(arg).map(([k, v]) => `${k}: ${argumentKey(v)}`).join(', ')}}`;
    }
    return `a ${proto?.constructor?.name ?? 'object'}`;
  }
  return String(arg);
}

/** Parameter names from the function's source, for messages (best effort: simple parameters). */
function parameterNames(fn: Function): string[] {
  let source: string;
  try {
    source = Function.prototype.toString.call(fn);
  } catch {
    return [];
  }
  const match = /^[^(]*\(([^)]*)\)/.exec(source) ?? /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
  if (!match) return [];
  return match[1].split(',').map((p) => /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(p)?.[1] ?? '');
}
