/**
 * The error autograph-ts raises about what a staged function cannot do. It lives in runtime/ so that
 * the operators emitted code calls (runtime/promoted_values.ts) can raise it too; backends/common/errors.ts
 * re-exports it for the staging engine.
 */
export class StagingError extends Error {
  override name = 'StagingError';

  constructor(message: string) {
    super(message);
    // Traces run deep inside the engine: keep enough frames to reach the user's code.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Math.max(limit, 64);
    Error.captureStackTrace(this, new.target);
    Error.stackTraceLimit = limit;
  }
}
