/**
 * The one owner of "a trace is running". Everything a trace changes in the process while it runs
 * is set here and undone here, in one place:
 * - the active tracer (a staged function called while tracing is inlined into it; the recording
 *   backend reports every kernel to it);
 * - the trace patches of tfjs and the host (backends/staging/trace_patches.ts);
 * - the recording backend (backends/staging/recording_backend.ts);
 * - the operators' staging hooks (runtime/staging_hooks.ts, the seam between runtime/ and
 *   backends/), when the trace runs user code.
 * Facts about the trace's values (placeholders, negations, condition-only tokens) live on the
 * Tracer itself (`tracer.facts`, backends/staging/staged_values.ts).
 *
 * One patch outlives every trace: Engine.gradients is wrapped when this module loads, so that a
 * staged If or While recorded under a tape knows what the gradient is taken of (tape.ts).
 */
import { asLibrary } from '../../runtime/library_code';
import { type StagingHooks, withStaging } from '../../runtime/staging_hooks';
import { withRecording } from './recording_backend';
import { installTracePatches } from './trace_patches';
import type { Tracer } from './tracer';
import { watchGradientSources } from './tape';

watchGradientSources();

let active: Tracer | undefined;

/** The trace in progress, if any. */
export function activeTracer(): Tracer | undefined {
  return active;
}

/**
 * Runs fn as the trace of `tracer`: patches installed, kernels recorded into it, and with
 * `staging` given, the operators' control flow delegated to those hooks. Everything is restored
 * when fn returns or throws (nested traces restore the outer one). fn runs as autograph-ts's own
 * code: a caller that runs the user's function hands it in as a userCallback (library_code.ts).
 */
export function runTrace<T>(tracer: Tracer, fn: () => T, staging?: StagingHooks): T {
  return asLibrary(() => {
    const undo = installTracePatches(tracer);
    const previous = active;
    active = tracer;
    try {
      return withRecording(activeTracer, () => (staging === undefined ? fn() : withStaging(staging, fn)));
    } finally {
      active = previous;
      undo();
    }
  });
}
