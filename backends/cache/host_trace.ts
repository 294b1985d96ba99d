/**
 * Traces for `staged.run(...)` on backends whose synchronous reads are unsafe (webgpu): the trace
 * runs on the 'cpu' backend, the graph then runs on the device.
 *
 * Tracing executes every kernel for real and reads values synchronously (an if's real condition,
 * the keys of scalar constants, copies of loop variables). tfjs-webgpu answers a synchronous read
 * by drawing through a canvas, and on some adapters (SwiftShader) loses its device after a few.
 * So the values the trace needs are read first, asynchronously (`engine.read`), and the trace runs
 * with 'cpu' the active backend, for its synchronous duration only: a kernel there that meets a
 * tensor on the device moves it to the cpu (tfjs's own data move) from the value read before.
 * A tensor the trace meets whose value was not read (a tensor or variable fn captures) stops the
 * trace: it is read asynchronously and fn traced again (its JS side effects then happen again).
 *
 * What the trace leaves on the cpu (the arguments it moved, the graph's constants) moves back to
 * the device the first time a kernel there uses it: tfjs moves data between backends on use, from
 * the cpu's memory, with no device read. The cache key is the call's backend (signatures.ts), read
 * before the switch: the graph traced on the cpu serves the device's calls.
 */
import * as tf from '@tensorflow/tfjs-core';
import { StagingError } from '../common/errors';
import { flatten } from '../common/nest';

/** Backends whose synchronous reads of device data are unsafe: staged.run traces for them on the cpu. */
const UNSAFE_SYNC_READS: ReadonlySet<string> = new Set(['webgpu']);

export function syncReadsUnsafe(backendName: string = tf.getBackend()): boolean {
  return UNSAFE_SYNC_READS.has(backendName);
}

/** Where a trace runs; `run` wraps each trace of one lookup, and the optimization of its graph (signature_cache.ts). */
export interface TraceSite {
  /** `trace()` run there; `discard` frees what it made when the site refuses the result. */
  run<T>(trace: () => T, discard?: (made: T) => void): T;
}

/** A trace met device data that was not read first: read them (HostTrace.read) and trace again. */
export class DeviceValuesNeeded extends Error {
  constructor(readonly dataIds: object[]) {
    super(`autograph-ts: the trace met ${dataIds.length} tensor(s) on the device whose values were not read before it`);
  }
}

/** tfjs engine internals used here (public in JS, private in tfjs's typings). */
interface EngineView {
  state: { tensorInfo: WeakMap<object, { backend: tf.KernelBackend; shape: number[]; dtype: tf.DataType }> };
  moveData(backend: tf.KernelBackend, dataId: object): void;
  read(dataId: object): Promise<tf.backend_util.BackendValues>;
  setBackend(name: string): Promise<boolean>;
}
type MovingBackend = tf.KernelBackend & {
  move(dataId: object, values: tf.backend_util.BackendValues, shape: number[], dtype: tf.DataType, refCount: number): void;
};

const TRACE_BACKEND = 'cpu';

/** Traces on the cpu from values read asynchronously from the device (see the file's comment). */
export class HostTrace implements TraceSite {
  /** Device data read so far, by dataId (a dataId's data never changes). */
  private readonly values = new Map<object, tf.backend_util.BackendValues>();
  /** Device data the current trace met unread. */
  private readonly missing = new Set<object>();

  constructor(private readonly deviceBackend: string) {}

  /** Reads the tensors among `args` (nested in arrays and plain objects too), asynchronously. */
  async readArguments(thisArg: unknown, args: unknown[]): Promise<void> {
    const tensors = flatten([thisArg, ...args]).leaves.filter((leaf): leaf is tf.Tensor => leaf instanceof tf.Tensor);
    await this.read(tensors.map((t) => t.dataId));
  }

  /** Reads these data asynchronously from where they live (the tfjs engine's read); whether any was unread. */
  async read(dataIds: readonly object[]): Promise<boolean> {
    const engine = tf.engine() as unknown as EngineView;
    const unread = dataIds.filter((id) => !this.values.has(id) && engine.state.tensorInfo.has(id));
    const values = await Promise.all(unread.map((id) => engine.read(id)));
    unread.forEach((id, i) => this.values.set(id, values[i]));
    return unread.length > 0;
  }

  run<T>(trace: () => T, discard?: (made: T) => void): T {
    const engine = tf.engine() as unknown as EngineView;
    const device = tf.getBackend();
    if (device !== this.deviceBackend) {
      throw new Error(`autograph-ts: the active backend changed from ${this.deviceBackend} to ${device} while staged.run read its tensors`);
    }
    const host = tf.findBackend(TRACE_BACKEND) as MovingBackend | null;
    if (host == null) {
      throw new StagingError(`autograph-ts: staged.run on ${device} traces the function on the '${TRACE_BACKEND}' backend ` +
        `(synchronous reads of ${device} data are unsafe), and it is not registered: import '@tensorflow/tfjs-backend-cpu' ` +
        `(@tensorflow/tfjs includes it).`);
    }
    this.missing.clear();
    const holder = Object.getPrototypeOf(engine) as EngineView;
    const moveData = holder.moveData;
    const deviceInstance = tf.engine().backend;
    const moveFromRead = this.moveFromRead.bind(this);
    holder.moveData = function (this: EngineView, to: tf.KernelBackend, dataId: object): void {
      moveFromRead(this, moveData, deviceInstance, to as MovingBackend, dataId);
    };
    void engine.setBackend(TRACE_BACKEND); // (initialized already: the switch is synchronous)
    try {
      if (tf.getBackend() !== TRACE_BACKEND) throw new Error(`autograph-ts: could not switch tfjs to '${TRACE_BACKEND}' for a trace`);
      return this.checked(trace(), discard);
    } catch (error) {
      throw this.missing.size > 0 ? new DeviceValuesNeeded([...this.missing]) : error;
    } finally {
      holder.moveData = moveData;
      void engine.setBackend(device);
    }
  }

  /** The trace's result, unless it met unread device data (user code may have caught that error): then that error. */
  private checked<T>(result: T, discard: ((made: T) => void) | undefined): T {
    if (this.missing.size === 0) return result;
    discard?.(result);
    throw new DeviceValuesNeeded([...this.missing]);
  }

  /**
   * tfjs's moveData (engine.ts) for data leaving the device: from the value read before, since the
   * engine's synchronous read is refused while tracing and unsafe on the device; unread data stops the trace.
   */
  private moveFromRead(engine: EngineView, moveData: EngineView['moveData'], device: tf.KernelBackend, to: MovingBackend,
                       dataId: object): void {
    const info = engine.state.tensorInfo.get(dataId);
    if (info === undefined || info.backend !== device) {
      moveData.call(engine, to, dataId);
      return;
    }
    const values = this.values.get(dataId);
    if (values === undefined) {
      this.missing.add(dataId);
      throw new DeviceValuesNeeded([dataId]);
    }
    const from = info.backend;
    const refCount = from.refCount(dataId);
    from.disposeData(dataId, true);
    info.backend = to;
    to.move(dataId, values, info.shape, info.dtype, refCount);
  }
}
