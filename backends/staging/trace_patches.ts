/**
 * What a trace changes in tfjs and the host while it runs, all undone when it ends:
 * - reading a tensor's value (dataSync, arraySync, data, array, bufferSync, toString) is an error:
 *   the value would be baked into the graph;
 * - t.print(), tf.print() and console.log of tensors become Print nodes (printed on every run);
 * - the random ops become Random nodes (re-drawn on every run);
 * - Variable.assign becomes an AssignVariable node; variables created while tracing are state;
 * - every tensor made is reported to the tracer, which knows the sub-graph it belongs to;
 * - tf.scalar, tf.tensor*, tf.fill of promoted JS values build their tensor with recorded ops
 *   (tensor_from_values.ts);
 * - tf.stack and tf.concat of an array that a staged loop grows (a list value of the graph,
 *   staged_lists.ts) become TensorListStack / TensorListConcat nodes.
 * installTracePatches is called by the one owner of a trace (backends/staging/trace_context.ts) only.
 *
 * THE ONE PERMANENT PATCH (installed when this module loads, never undone): tfjs's
 * Tensor.prototype.throwIfDisposed says "this tensor was disposed by a trace" for a tensor the
 * trace made and the function kept outside itself, instead of tfjs's bare "Tensor is disposed".
 */
import * as tf from '@tensorflow/tfjs-core';
import type { RandomOp } from '../graph/graph';
import { coreModule, originalRandomOp, RANDOM_OPS } from '../kernels/random_ops';
import { StagingError, userFrame } from '../common/errors';
import { stagedArrayState } from './staged_lists';
import { TENSOR_FROM_VALUES_OPS, tensorFromValues } from './tensor_from_values';
import type { Tracer } from './tracer';

type Undo = () => void;

function patch<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): Undo {
  const had = Object.prototype.hasOwnProperty.call(target, key);
  const previous = target[key];
  target[key] = value;
  return () => {
    if (had) target[key] = previous;
    else delete target[key];
  };
}

export function valueReadError(): StagingError {
  const where = userFrame();
  return new StagingError(
    `autograph-ts: a tensor's value was read while stage() traces the function${where ? ` (at ${where})` : ''}. ` +
    'Reading values (dataSync, arraySync, data, array, bufferSync, toString) would bake this one value into ' +
    'the staged graph. Keep the computation in tensors; use a tensor condition for if/while (it is staged), ' +
    'and print tensors with console.log or t.print() (printed on every call).');
}

export function installTracePatches(tracer: Tracer): Undo {
  const undo: Undo[] = [];
  const engine = tf.engine() as unknown as Record<string, unknown>;
  const forbidden = (): never => {
    throw valueReadError();
  };
  for (const method of ['readSync', 'read', 'readToGPU']) undo.push(patch(engine, method, forbidden));

  const printTensor = (x: tf.Tensor, verbose = false): void => tracer.recordPrint([x], verbose);
  undo.push(patch(coreModule, 'print', printTensor));
  undo.push(patch(tf.Tensor.prototype as unknown as Record<string, unknown>, 'print',
    function print(this: tf.Tensor, verbose = false): void {
      printTensor(this, verbose);
    }));

  const log = console.log;
  undo.push(patch(console, 'log', (...args: unknown[]): void => {
    if (args.some((a) => a instanceof tf.Tensor)) tracer.recordPrint(args, false);
    else log.apply(console, args);
  }));

  for (const op of RANDOM_OPS) {
    const original = originalRandomOp(op);
    undo.push(patch(coreModule, op, (...args: unknown[]): tf.Tensor => {
      tracer.paused++;
      let out: tf.Tensor;
      try {
        out = original(...args);
      } finally {
        tracer.paused--;
      }
      tracer.recordRandom(op as RandomOp, args, out);
      return out;
    }));
  }

  for (const op of TENSOR_FROM_VALUES_OPS.keys()) {
    const original = coreModule[op] as (...args: unknown[]) => tf.Tensor;
    undo.push(patch(coreModule, op, (...args: unknown[]): tf.Tensor => tensorFromValues(op, original, args)));
  }

  for (const [op, listOp] of [['stack', 'TensorListStack'], ['concat', 'TensorListConcat']] as const) {
    const original = coreModule[op] as (tensors: unknown, axis?: number) => tf.Tensor;
    undo.push(patch(coreModule, op, (tensors: unknown, axis = 0): tf.Tensor => {
      const staged = stagedArrayState(tensors);
      if (staged?.list === undefined) return original(tensors, axis);
      return tracer.lists.join(staged.list, listOp, axis, staged.name);
    }));
  }

  const variableProto = tf.Variable.prototype as unknown as Record<string, unknown>;
  const assign = variableProto.assign as (this: tf.Variable, value: tf.Tensor) => void;
  undo.push(patch(variableProto, 'assign', function (this: tf.Variable, value: tf.Tensor): void {
    tracer.onAssign(this, value, () => assign.call(this, value));
  }));

  const trackTensor = engine.trackTensor as (t: tf.Tensor, backend: unknown) => void;
  undo.push(patch(engine, 'trackTensor', (t: tf.Tensor, backend: unknown): void => {
    trackTensor.call(engine, t, backend);
    tracer.onTensorMade(t);
  }));

  const makeVariable = engine.makeVariable as (...args: unknown[]) => tf.Variable;
  undo.push(patch(engine, 'makeVariable', (...args: unknown[]): tf.Variable => {
    const v = makeVariable.apply(engine, args);
    tracer.onVariableCreated(v);
    return v;
  }));

  return () => {
    for (const u of undo.reverse()) u();
  };
}

// ---- the one permanent patch: tensors disposed by a trace ----------------------------------------

/**
 * Tensors made while tracing are disposed when the trace ends; one the function stored outside
 * itself (`this.h = ...`) would later fail with tfjs's bare "Tensor is disposed". Those tensors
 * are marked, and tfjs's disposed check says what happened instead.
 */
const DISPOSED_BY_TRACE = Symbol('autograph-ts disposed by trace');

export function traceScopeTensors(): tf.Tensor[] {
  const scope = (tf.engine().state as unknown as { activeScope?: { track?: tf.Tensor[] } }).activeScope;
  return scope?.track ? [...scope.track] : [];
}

export function markDisposedByTrace(tensors: tf.Tensor[], fnName: string): void {
  for (const t of tensors) {
    if (t.isDisposed) (t as unknown as Record<symbol, string>)[DISPOSED_BY_TRACE] = fnName || 'a function';
  }
}

/** The one permanent patch (see the header). */
{
  const proto = tf.Tensor.prototype as unknown as { throwIfDisposed(this: tf.Tensor): void };
  const original = proto.throwIfDisposed;
  proto.throwIfDisposed = function throwIfDisposed(this: tf.Tensor): void {
    const tracedIn = this.isDisposed ? (this as unknown as Record<symbol, string | undefined>)[DISPOSED_BY_TRACE] : undefined;
    if (tracedIn !== undefined) {
      throw new StagingError(`autograph-ts: this tensor was made while stage() traced ${tracedIn} and kept outside it ` +
        '(e.g. stored on an object); it was disposed when the trace ended. JS side effects of a staged function happen ' +
        'only while tracing: return the tensor from the staged function, or keep state in a tf.Variable (assign).');
    }
    original.call(this);
  };
}
