/**
 * Kernel-level recording. Every tfjs op, tensor method, layer, gradient and optimizer ends in a
 * registered kernel, so recording there captures all of them. For the active backend we register
 * a second backend name whose kernels wrap the real ones and whose instance IS the real backend
 * instance (no data moves, tensors stay where they are). While a trace runs, the engine's backend
 * name points at the recording name: every kernel really executes (shapes, dtypes and values are
 * real) and is reported to the trace's listener. Which listener that is, is not kept here: the
 * trace context (backends/staging/trace_context.ts) owns it and passes its getter in.
 */
import * as tf from '@tensorflow/tfjs-core';
import { engineInternals } from '../kernels/engine_internals';
import { fixedKernelFunc } from '../kernels/kernel_fixes';
import { ensureShapeKernel } from '../kernels/shape_kernel';

export type NamedInputs = Record<string, tf.TensorInfo | null | undefined> | tf.TensorInfo[];

export interface KernelListener {
  onKernel(kernelName: string, inputs: NamedInputs, attrs: Record<string, unknown> | undefined,
           outputs: tf.TensorInfo | tf.TensorInfo[]): void;
}

/** The listener of the trace in progress, if any. */
export type ListenerSource = () => KernelListener | undefined;

const PREFIX = 'autograph-recording:';
const wrappedKernels = new Map<string, Set<string>>();

export function isRecordingBackendName(name: string | null | undefined): boolean {
  return name != null && name.startsWith(PREFIX);
}

/** Registers (once) and refreshes the recording twin of `realName`; returns its name. */
function ensureRecordingBackend(realName: string, realBackend: tf.KernelBackend, listener: ListenerSource): string {
  const name = PREFIX + realName;
  ensureShapeKernel(realName); // (recorded like any kernel: wrapped below)
  if (tf.findBackendFactory(name) == null) {
    // Lowest priority: never chosen by tf.ready() on its own.
    tf.registerBackend(name, () => realBackend, -1000);
  }
  let done = wrappedKernels.get(realName);
  if (done === undefined) wrappedKernels.set(realName, (done = new Set()));
  for (const config of tf.getKernelsForBackend(realName)) {
    if (done.has(config.kernelName)) continue;
    done.add(config.kernelName);
    const { kernelName } = config;
    const kernelFunc = fixedKernelFunc(kernelName, realName, config.kernelFunc);
    tf.registerKernel({
      kernelName,
      backendName: name,
      kernelFunc: (args) => {
        const out = kernelFunc(args);
        listener()?.onKernel(kernelName, args.inputs as NamedInputs, args.attrs as Record<string, unknown>,
          out as tf.TensorInfo | tf.TensorInfo[]);
        return out;
      },
    });
  }
  return name;
}

/**
 * Runs fn with every kernel call on the active backend reported to `listener()`. Nested calls
 * keep the outer recording backend (the listener source answers for the inner trace).
 */
export function withRecording<T>(listener: ListenerSource, fn: () => T): T {
  const engine = engineInternals();
  const backend = tf.engine().backend; // initializes the backend if needed
  const realName = engine.backendName;
  if (isRecordingBackendName(realName)) return fn();
  engine.backendName = ensureRecordingBackend(realName, backend, listener);
  try {
    return fn();
  } finally {
    engine.backendName = realName;
  }
}
