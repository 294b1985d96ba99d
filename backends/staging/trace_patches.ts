/**
 * What a trace changes in tfjs and the host while it runs, all undone when it ends:
 * - reading a tensor's value (dataSync, arraySync, data, array, bufferSync, toString) is an error:
 *   the value would be baked into the graph;
 * - t.print(), tf.print() and console.log of tensors become Print nodes (printed on every run);
 * - the random ops become Random nodes (re-drawn on every run); Math.random() in the user's code is an error;
 * - Variable.assign becomes an AssignVariable node; variables created while tracing are state;
 * - every tensor made is reported to the tracer, which knows the sub-graph it belongs to;
 * - tf.scalar, tf.tensor*, tf.fill of promoted JS values build their tensor with recorded ops
 *   (tensor_from_values.ts);
 * - tf.stack and tf.concat of an array that a staged loop grows (a list value of the graph,
 *   staged_lists.ts) become TensorListStack / TensorListConcat nodes (list_joins.ts, through the
 *   engine's runKernel);
 * - the engine's methods count as tfjs's code while they run (kernels/tfjs_code.ts).
 * installTracePatches is called by the one owner of a trace (backends/staging/trace_context.ts) only.
 *
 * Only prototypes (the engine's methods where its class defines them: holderOf), `console` and
 * tfjs-core's exports where they are plain writable properties (its CommonJS build) are patched:
 * an ES module namespace or a getter-only export (a bundle) is never assigned to. Where the
 * exports cannot be patched, what the patch of a random op would have recorded is refused instead
 * (a draw baked into the graph would be silently wrong), and tf.print reads the value (the
 * value-read error). Installing is all or nothing: a failure part way undoes what was set, and
 * undoing restores every property as it was.
 *
 * THE ONE PERMANENT PATCH (installed when this module loads, never undone): tfjs's
 * Tensor.prototype.throwIfDisposed says "this tensor was disposed by a trace" for a tensor the
 * trace made and the function kept outside itself, instead of tfjs's bare "Tensor is disposed".
 */
import * as tf from '@tensorflow/tfjs-core';
import type { RandomOp } from '../graph/graph';
import { coreModule, originalRandomOp, RANDOM_OPS } from '../kernels/random_ops';
import { asEngineCall, runningOpOf } from '../kernels/tfjs_code';
import { StagingError, userFrame } from '../common/errors';
import { joinOfStandIns } from './list_joins';
import { TENSOR_FROM_VALUES_OPS, tensorFromValues } from './tensor_from_values';
import type { Tracer } from './tracer';
import { asLibrary } from '../../runtime/library_code';
import { readByUserCode, userReadLocation } from './user_reads';

type Undo = () => void;

/** For specs: called before each property is patched (a spec throws here to fail an install part way). */
let beforePatch: ((target: object, key: string) => void) | undefined;

export function setBeforePatchHook(hook: ((target: object, key: string) => void) | undefined): void {
  beforePatch = hook;
}

/** The properties one trace set, undone in reverse order, each restored to its exact descriptor. */
class Patches {
  private readonly undos: Undo[] = [];

  set<T extends object>(target: T, key: string, value: unknown): void {
    beforePatch?.(target, key);
    const previous = Object.getOwnPropertyDescriptor(target, key);
    (target as Record<string, unknown>)[key] = value;
    this.undos.push(() => {
      if (previous === undefined) delete (target as Record<string, unknown>)[key];
      else Object.defineProperty(target, key, previous);
    });
  }

  /** Undoes everything, even when one undo fails (the first failure is thrown after all ran). */
  undoAll(): void {
    let failure: { error: unknown } | undefined;
    for (const undo of this.undos.splice(0).reverse()) {
      try {
        undo();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }
}

/** Whether tfjs-core's export `key` is a plain writable property (CommonJS), not a namespace or getter binding. */
function isPatchableExport(key: string): boolean {
  const d = Object.getOwnPropertyDescriptor(coreModule, key);
  return d !== undefined && 'value' in d && d.writable === true && d.configurable === true;
}

export function valueReadError(): StagingError {
  const where = userFrame();
  return new StagingError(
    `autograph-ts: a tensor's value was read while stage() traces the function${where ? ` (${where})` : ''}. ` +
    'Reading values (dataSync, arraySync, data, array, bufferSync, toString, tf.print) would bake this one value into ' +
    'the staged graph. Keep the computation in tensors; use a tensor condition for if/while (it is staged), ' +
    'and print tensors with console.log or t.print() (printed on every call).');
}

const RANDOM_OP_SET: ReadonlySet<string> = new Set(RANDOM_OPS);

/** A random op reached without its patch (tfjs's exports could not be wrapped): its draw would be a constant. */
function refuseUnrecordedRandom(tracer: Tracer): void {
  if (tracer.paused > 0) return;
  const op = runningOpOf(RANDOM_OP_SET);
  if (op === undefined) return;
  const where = userFrame();
  throw new StagingError(`autograph-ts: tf.${op} was called while stage() traces the function${where ? ` (${where})` : ''}, ` +
    'but tfjs is loaded as an ES module (or bundled) here, and its random ops cannot be wrapped to draw anew on every ' +
    'call: the graph would repeat this one draw. Load tfjs through its CommonJS build (require), or draw outside the ' +
    'staged function and pass the tensor in.');
}

/**
 * tf.tensor1d([i, 2]) & co. reached without their patch (tfjs's exports could not be wrapped) where
 * `i` is a JS number a staged loop carries (a scalar tensor while tracing): tfjs's flatten skips the
 * tensor object, so fewer values than the shape holds reach the engine (eager [3, 2], staged [2]).
 * A size that does not match the shape never comes from tfjs's own callers (complex64 aside).
 */
function refuseDroppedValues(tracer: Tracer, values: unknown, shape: number[], dtype: tf.DataType): void {
  if (tracer.paused > 0 || dtype === 'string' || dtype === 'complex64' || !Array.isArray(shape)) return;
  const length = (values as { length?: unknown } | null)?.length;
  const size = shape.reduce((a, b) => a * b, 1);
  if (typeof length !== 'number' || length === size) return;
  const where = userFrame();
  throw new StagingError(`autograph-ts: a tensor of shape [${shape}] was made from ${length} value(s) while stage() traces ` +
    `the function${where ? ` (${where})` : ''}: a value given to tf.tensor*/tf.scalar/tf.fill is a JS number or boolean that a ` +
    'staged loop or conditional carries (a scalar tensor in the graph), and tfjs is loaded as an ES module (or bundled) ' +
    'here, so its tensor-creation functions cannot be wrapped to build the tensor from it (tfjs drops it). Keep that ' +
    'value a tensor (let i = tf.scalar(0); i = i.add(1)), or load tfjs through its CommonJS build (require).');
}

export function installTracePatches(tracer: Tracer): Undo {
  const patches = new Patches();
  try {
    patchEngine(patches, tracer);
    patchPrinting(patches, tracer);
    patchExports(patches, tracer);
    patchHostRandom(patches);
    const variableProto = tf.Variable.prototype as unknown as Record<string, unknown>;
    const assign = variableProto.assign as (this: tf.Variable, value: tf.Tensor) => void;
    patches.set(variableProto, 'assign', function (this: tf.Variable, value: tf.Tensor): void {
      asLibrary(() => tracer.onAssign(this, value, () => assign.call(this, value)));
    });
  } catch (error) {
    patches.undoAll();
    throw error;
  }
  return () => patches.undoAll();
}

/**
 * The object on `engine`'s prototype chain that holds `method` (tfjs's Engine.prototype). The
 * trace patches it there, never as a new own property of the instance: that changes the engine's
 * hidden class, and tfjs's code, optimized for the old one, ran about twice as slow for the whole
 * trace (the 10,000-op chain's first call: 1.7 eager calls patched on the prototype, 3.0 on the instance).
 */
function holderOf(engine: object, method: string): object {
  for (let o: object | null = engine; o !== null; o = Object.getPrototypeOf(o) as object | null) {
    if (Object.prototype.hasOwnProperty.call(o, method)) return o;
  }
  return engine;
}

/** The engine's methods: value reads refused, tensors and variables reported, joins of lists, its methods as tfjs's code. */
function patchEngine(patches: Patches, tracer: Tracer): void {
  const engine = tf.engine() as unknown as Record<string, (...args: unknown[]) => unknown>;
  const forbidden = (): never => {
    throw valueReadError();
  };
  for (const method of ['readSync', 'read', 'readToGPU']) patches.set(holderOf(engine, method), method, forbidden);

  type Method = (...args: any[]) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  const own = (method: string, wrap: (original: Method) => Method): void => {
    patches.set(holderOf(engine, method), method, asEngineCall(wrap(engine[method])));
  };
  own('trackTensor', (trackTensor) => (t: tf.Tensor, backend: unknown): void => {
    trackTensor.call(engine, t, backend);
    tracer.onTensorMade(t);
  });
  own('makeVariable', (makeVariable) => (...args: unknown[]): tf.Variable => {
    const v = makeVariable.apply(engine, args) as tf.Variable;
    tracer.onVariableCreated(v);
    return v;
  });
  own('runKernel', (runKernel) => (kernel: string, inputs: unknown, attrs: unknown): unknown => {
    refuseUnrecordedRandom(tracer);
    return joinOfStandIns(kernel, inputs, attrs) ?? runKernel.call(engine, kernel, inputs, attrs);
  });
  own('makeTensor', (makeTensor) => (values: unknown, shape: number[], dtype: tf.DataType, backend: unknown): unknown => {
    refuseUnrecordedRandom(tracer);
    refuseDroppedValues(tracer, values, shape, dtype);
    const t = makeTensor.call(engine, values, shape, dtype, backend) as tf.Tensor;
    tracer.onScalarMade(t, values);
    return t;
  });
  // (Counted as tfjs's code, nothing more: the methods themselves, not wrappers around them.)
  for (const method of ['disposeTensor', 'makeTensorFromDataId', 'makeTensorFromTensorInfo', 'incRef', 'keep', 'endScope']) {
    own(method, (original) => original);
  }
}

/** t.print(), tf.print (where it can be patched) and console.log of tensors: Print nodes. */
function patchPrinting(patches: Patches, tracer: Tracer): void {
  const printTensor = (x: tf.Tensor, verbose = false): void => asLibrary(() => tracer.recordPrint([x], verbose));
  if (isPatchableExport('print')) patches.set(coreModule, 'print', printTensor);
  patches.set(tf.Tensor.prototype, 'print', function print(this: tf.Tensor, verbose = false): void {
    printTensor(this, verbose);
  });
  const log = console.log;
  patches.set(console, 'log', (...args: unknown[]): void => {
    if (args.some((a) => a instanceof tf.Tensor)) asLibrary(() => tracer.recordPrint(args, false));
    else log.apply(console, args);
  });
}

/**
 * Math.random() in the user's code: its draw would be a constant of the graph, repeated on every
 * call where eager code draws anew — an error naming the line. (tfjs's own calls, e.g. seeding a
 * random op, and autograph-ts's are not the user's: user_reads.ts.)
 */
function patchHostRandom(patches: Patches): void {
  const random = Math.random;
  patches.set(Math, 'random', function random_(): number {
    if (readByUserCode()) {
      const where = userReadLocation();
      throw new StagingError(`autograph-ts: Math.random() was called while stage() traces the function${where ? ` (${where})` : ''}: ` +
        'the staged graph would repeat this one draw on every call. Draw with tfjs (tf.randomUniform([]), drawn anew on ' +
        'every call), or draw outside the staged function and pass the value in.');
    }
    return random();
  });
}

/** The random ops and the tensor-from-values ops, where tfjs-core's exports are plain properties. */
function patchExports(patches: Patches, tracer: Tracer): void {
  for (const op of RANDOM_OPS) {
    if (!isPatchableExport(op)) continue;
    const original = originalRandomOp(op);
    patches.set(coreModule, op, (...args: unknown[]): tf.Tensor => {
      tracer.paused++;
      let out: tf.Tensor;
      try {
        out = original(...args);
      } finally {
        tracer.paused--;
      }
      asLibrary(() => tracer.recordRandom(op as RandomOp, args, out));
      return out;
    });
  }
  for (const op of TENSOR_FROM_VALUES_OPS.keys()) {
    if (!isPatchableExport(op)) continue;
    const original = coreModule[op] as (...args: unknown[]) => tf.Tensor;
    patches.set(coreModule, op, (...args: unknown[]): tf.Tensor => tensorFromValues(op, original, args));
  }
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
