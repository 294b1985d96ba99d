/**
 * Kernel-level recording. Every tfjs op, tensor method, layer, gradient and optimizer ends in a
 * registered kernel, so recording there captures all of them. For the active backend we register
 * a second backend name whose kernels wrap the real ones and whose instance IS the real backend
 * instance (no data moves, tensors stay where they are). While a trace runs, the engine's backend
 * name points at the recording name: every kernel really executes (shapes, dtypes and values are
 * real) and is reported to the listener.
 */
import * as tf from '@tensorflow/tfjs-core';

export type NamedInputs = Record<string, tf.TensorInfo | null | undefined> | tf.TensorInfo[];

export interface KernelListener {
  onKernel(kernelName: string, inputs: NamedInputs, attrs: Record<string, unknown> | undefined,
           outputs: tf.TensorInfo | tf.TensorInfo[]): void;
}

/** The engine's fields we switch; they are public in JS, private in the typings. */
interface EngineInternals {
  backendName: string;
  backendInstance: tf.KernelBackend;
}

const PREFIX = 'autograph-recording:';
const wrappedKernels = new Map<string, Set<string>>();
let listener: KernelListener | undefined;

export function isRecordingBackendName(name: string | null | undefined): boolean {
  return name != null && name.startsWith(PREFIX);
}

/** Registers (once) and refreshes the recording twin of `realName`; returns its name. */
function ensureRecordingBackend(realName: string, realBackend: tf.KernelBackend): string {
  const name = PREFIX + realName;
  if (tf.findBackendFactory(name) == null) {
    // Lowest priority: never chosen by tf.ready() on its own.
    tf.registerBackend(name, () => realBackend, -1000);
  }
  let done = wrappedKernels.get(realName);
  if (done === undefined) wrappedKernels.set(realName, (done = new Set()));
  for (const config of tf.getKernelsForBackend(realName)) {
    if (done.has(config.kernelName)) continue;
    done.add(config.kernelName);
    const { kernelName, kernelFunc } = config;
    tf.registerKernel({
      kernelName,
      backendName: name,
      kernelFunc: (args) => {
        const out = kernelFunc(args);
        listener?.onKernel(kernelName, args.inputs as NamedInputs, args.attrs as Record<string, unknown>,
          out as tf.TensorInfo | tf.TensorInfo[]);
        return out;
      },
    });
  }
  return name;
}

/**
 * Runs fn with every kernel call on the active backend reported to `l`. Nested calls keep the
 * outer recording backend and swap the listener.
 */
export function withRecording<T>(l: KernelListener, fn: () => T): T {
  const engine = tf.engine() as unknown as EngineInternals;
  const backend = tf.engine().backend; // initializes the backend if needed
  const realName = engine.backendName;
  const previousListener = listener;
  if (isRecordingBackendName(realName)) {
    listener = l;
    try {
      return fn();
    } finally {
      listener = previousListener;
    }
  }
  const name = ensureRecordingBackend(realName, backend);
  engine.backendName = name;
  listener = l;
  try {
    return fn();
  } finally {
    listener = previousListener;
    engine.backendName = realName;
  }
}

/** The real backend's name, also while a recording is active. */
export function realBackendName(): string {
  const name = (tf.engine() as unknown as EngineInternals).backendName ?? tf.getBackend();
  return isRecordingBackendName(name) ? name.slice(PREFIX.length) : name;
}

/** Runs fn on the real backend with recording off (for the engine's own helper ops during a trace). */
export function withoutRecording<T>(fn: () => T): T {
  const engine = tf.engine() as unknown as EngineInternals;
  const name = engine.backendName;
  if (!isRecordingBackendName(name)) return fn();
  engine.backendName = name.slice(PREFIX.length);
  const previousListener = listener;
  listener = undefined;
  try {
    return fn();
  } finally {
    listener = previousListener;
    engine.backendName = name;
  }
}
