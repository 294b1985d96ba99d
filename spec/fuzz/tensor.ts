/**
 * Tensor mode: each program is run three ways — its tensor dialect compiled with the plugin, run
 * eagerly and through `stage()`, and its number dialect compiled with plain tsc (the reference) —
 * on a few argument pairs; values must agree within 1e-5 (relative). A StagingError is a clear
 * refusal ('refused staged'), any other staged exception a crash, a different value 'wrong'.
 * Tensors still allocated after a program's eager and staged runs are reported as a 'leak'.
 */
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { compile, load } from '../harness/compile';
import { StagingError } from '../../backends/common/errors';
import { stage } from '../../index';
import { printProgram, Program } from './program';
import { compileProblem, describeThrown, fileName, guarded, plainJs, Verdict } from './runner';

export const TENSOR_ARGUMENTS: [number, number][] = [[1, 4], [-2, 0], [0, 0], [3, -1]];

/**
 * A staged call's first run traces (again, for each discovery): seconds on a loaded machine. The
 * guard is for conversions that loop forever, and a guard that fires mid-trace ends the program
 * where no finally runs (V8 terminates it), leaving the trace's patches installed for every later
 * program: it must not fire on a slow trace.
 */
const TENSOR_TIME_LIMIT_MS = 15000;

export function printTensorProgram(program: Program): string {
  return `${printProgram(program, 'tensor')}\n// reference over numbers:\n${printProgram(program, 'number')}`;
}

/** The package's runtime by path: the in-memory programs cannot resolve 'autograph-ts' by name. */
const RUNTIME_INDEX = path.resolve(__dirname, '../../index');
function runnable(source: string): string {
  return source.replace("from 'autograph-ts'", `from ${JSON.stringify(RUNTIME_INDEX)}`);
}

type Values = number[] | string;

function close(a: Values, b: Values): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((x, k) => x === b[k] || Math.abs(x - b[k]) <= 1e-5 * Math.max(1, Math.abs(x), Math.abs(b[k])));
}

function show(v: Values): string {
  return typeof v === 'string' ? v : `[${v.join(', ')}]`;
}

/**
 * Runs fn on tf scalars; returns the values (the stacked tensor's, then the JS numbers), or a
 * description of what it threw or of a leaf of the wrong JS type (a Tensor where eager code
 * returns a number). Frees everything.
 */
function runOnTensors(fn: (x: tf.Tensor, y: tf.Tensor) => unknown[], [a, b]: [number, number]): Values {
  try {
    const [stacked, ...numbers] = guarded(() => tf.tidy(() => fn(tf.scalar(a), tf.scalar(b)) as tf.TensorContainer), TENSOR_TIME_LIMIT_MS) as unknown[];
    const values = Array.from((stacked as tf.Tensor).dataSync());
    (stacked as tf.Tensor).dispose();
    const types = numbers.map((n) => (n instanceof tf.Tensor ? `a ${n.dtype} Tensor` : Array.isArray(n) ? listType(n) : typeof n));
    const lists = numbers.filter((n): n is unknown[] => Array.isArray(n));
    const listValues = lists.flatMap((list) => [list.length, ...list.flatMap((t) => (t instanceof tf.Tensor ? Array.from(t.dataSync())
      : typeof t === 'number' ? [t] : []))]);
    tf.dispose(lists.flat().filter((t): t is tf.Tensor => t instanceof tf.Tensor));
    // Lists are returned last: `ls` (tf.Tensor[]), then in stress mode `ns` and `lg.seen` (number[]).
    const wanted = types.map((t, k) => (t === 'number' || t === 'empty' ? t
      : k >= types.length - 2 && lists.length === 3 ? 'number[]' : 'Tensor[]'));
    if (types.some((t, k) => t !== wanted[k] && t !== 'empty')) {
      numbers.forEach((n) => n instanceof tf.Tensor && n.dispose());
      return `JS types ${types.join(', ')} where eager code returns ${wanted.join(', ')}`;
    }
    return [...values, ...(numbers.filter((n) => !Array.isArray(n)) as number[]), ...listValues];
  } catch (error) {
    return (error instanceof StagingError ? 'StagingError ' : '') + describeThrown(error);
  }
}

/** 'Tensor[]' for a JS array of tensors, 'number[]' for one of JS numbers, 'empty', else what it holds. */
function listType(list: unknown[]): string {
  if (list.length === 0) return 'empty';
  if (list.every((t) => t instanceof tf.Tensor)) return 'Tensor[]';
  if (list.every((t) => typeof t === 'number')) return 'number[]';
  return `an array holding ${list.map((t) => (t instanceof tf.Tensor ? 'Tensor' : typeof t)).join(', ')}`;
}

/** The reference's values in runOnTensors' order: the stacked values, the numbers, each list's length and elements. */
function referenceValues([vs, ...rest]: [number[], ...(number | number[])[]]): number[] {
  const lists = rest.filter((n): n is number[] => Array.isArray(n));
  return [...vs, ...(rest.filter((n) => !Array.isArray(n)) as number[]), ...lists.flatMap((l) => [l.length, ...l])];
}

export function runTensorBatch(programs: readonly Program[]): Verdict[] {
  const tensorFiles: Record<string, string> = {};
  const numberFiles: Record<string, string> = {};
  programs.forEach((p, i) => {
    tensorFiles[fileName(i)] = runnable(printProgram(p, 'tensor'));
    numberFiles[fileName(i)] = runnable(printProgram(p, 'number'));
  });
  const converted = compile(tensorFiles);
  return programs.map((_, i) => {
    const file = fileName(i);
    const problem = compileProblem(converted, file);
    if (problem) return problem;
    let run: (x: tf.Tensor, y: tf.Tensor) => unknown[];
    try {
      run = load(converted.js[file]).run;
    } catch (error) {
      return { category: 'invalid', detail: `${describeThrown(error)}\n--- emitted ---\n${converted.js[file]}` };
    }
    const reference = load(plainJs(numberFiles[file])).run as (x: number, y: number) => [number[], ...(number | number[])[]];
    const expected = (x: number, y: number): number[] => referenceValues(reference(x, y));
    const before = tf.memory().numTensors;
    const staged = stage(run);
    let verdict: Verdict | undefined;
    for (const args of TENSOR_ARGUMENTS) {
      const want = expected(...args);
      const eager = runOnTensors(run, args);
      const graph = runOnTensors(staged, args);
      const at = `run(${args.join(', ')}): reference ${show(want)}, eager ${show(eager)}, staged ${show(graph)}`;
      if (!close(eager, want)) verdict = { category: 'wrong eager', detail: at };
      else if (typeof graph === 'string') {
        verdict = { category: graph.startsWith('StagingError') ? 'refused staged' : 'crashed staged', detail: at };
      } else if (!close(graph, want)) verdict = { category: 'wrong staged', detail: at };
      if (verdict) break;
    }
    staged.dispose();
    const leaked = tf.memory().numTensors - before;
    return verdict ?? (leaked > 0 ? { category: 'leak', detail: `${leaked} tensors left allocated` } : { category: 'ok' });
  });
}
