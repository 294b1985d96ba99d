/**
 * Errors that fn's own JS raises while stage() traces it say so: a frame `<stage() tracing fn>`
 * sits between fn's frames and the call that traced it (those errors are not raised by a graph
 * run). A TypeError reading a property of undefined, in a function that uses `this` and was
 * called without one, is most often a method staged unbound (`stage(m.forward)`): the message
 * says how to bind it.
 */
import { isEngineFrame, StagingError } from '../common/errors';
import type { Program } from '../graph/graph';
import { TRACED_FRAME_NAME } from '../../runtime/user_frames';

/** Adds the tracing frame and, when it applies, the unbound-method hint to an error that left a trace. */
export function explainTraceError(error: unknown, fn: Function, thisArg: unknown): void {
  if (!(error instanceof Error)) return;
  addUnboundThisHint(error, fn, thisArg);
  markRaisedWhileTracing(error, fn);
}

/** The hint for the errors a trace recorded (thrown in a branch, raised again when the graph takes it). */
export function explainRecordedErrors(program: Program, fn: Function, thisArg: unknown): void {
  for (const error of program.errors) addUnboundThisHint(error, fn, thisArg);
}

const READ_OF_UNDEFINED = /Cannot read propert(?:y|ies) of undefined|Cannot set propert(?:y|ies) of undefined|undefined is not an object/;

function addUnboundThisHint(error: Error, fn: Function, thisArg: unknown): void {
  if (thisArg !== undefined || !(error instanceof TypeError) || !READ_OF_UNDEFINED.test(error.message) ||
      !usesOwnThis(fn) || error.message.includes('.bind(')) return;
  const name = fn.name || 'method';
  const hint = `\n\nstage() traced ${fn.name || 'the function'} with \`this\` undefined, and it uses \`this\`: a method passed ` +
    `unbound (stage(obj.${name})) loses its object. Stage it bound: stage(obj.${name}.bind(obj)), or ` +
    `stage((...args) => obj.${name}(...args)).`;
  const before = error.message;
  const stack = error.stack; // (read first: V8 formats it lazily, with the message of that moment)
  error.message += hint;
  if (typeof stack === 'string' && stack.includes(before)) {
    Object.defineProperty(error, 'stack', { value: stack.replace(before, error.message), writable: true, configurable: true });
  }
}

/** Whether fn's source mentions `this` and fn gets its own (not an arrow function). */
function usesOwnThis(fn: Function): boolean {
  let source: string;
  try {
    source = Function.prototype.toString.call(fn);
  } catch {
    return false;
  }
  if (/^(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>/.test(source)) return false;
  return /\bthis\b/.test(source);
}

/** The frame that calls fn in a trace, where fn's frames end (see TRACED_FRAME_NAME). */
const TRACE_FRAME = new RegExp(`\\bat ${TRACED_FRAME_NAME} `);

/** Calls fn as the traced function (trace.ts): its frame marks where fn's own frames end. */
export const callTraced = Object.defineProperty(
  (fn: Function, thisArg: unknown, args: unknown[]): unknown => fn.apply(thisArg, args), 'name', { value: TRACED_FRAME_NAME });

/**
 * Inserts `at <stage() tracing fn>` below the frames of the traced code (the frames above
 * callTraced's). Only for errors raised in user code (some frame above is not autograph-ts's or tfjs's):
 * autograph-ts's own staging errors say what they are in their message.
 */
function markRaisedWhileTracing(error: Error, fn: Function): void {
  if (error instanceof StagingError || typeof error.stack !== 'string') return;
  const lines = error.stack.split('\n');
  const boundary = lines.findIndex((l) => /^\s*at /.test(l) && TRACE_FRAME.test(l));
  const above = (boundary < 0 ? lines : lines.slice(0, boundary)).filter((l) => /^\s*at /.test(l));
  if (!above.some((l) => !isEngineFrame(l))) return;
  const marker = `    at <stage() tracing ${fn.name || 'the function'}> (raised while stage() traced it, not by a run of its graph)`;
  if (boundary < 0) lines.push(marker);
  else lines.splice(boundary, 0, marker);
  Object.defineProperty(error, 'stack', { value: lines.join('\n'), writable: true, configurable: true });
}
