/**
 * Errors that reach the user point at the user's TypeScript. A stack's frames inside autograph-ts
 * (runtime/, backends/, transformer/), tfjs and Node's internals are dropped (kept below the user's
 * at AUTOGRAPH_VERBOSITY ≥ 1), and frames in the user's compiled .js are mapped to their .ts lines
 * through the source maps next to them — so this works with and without `node --enable-source-maps`
 * (with it, Node has mapped them already). The error keeps its identity, class and message: only
 * autograph-ts's own errors get a location added to their message (see backends/common/errors.ts).
 */
import { nodeBuiltin } from './node_host';
import { originalPosition } from './source_map_files';
import { VERBOSITY } from './verbosity';
import { StagingError } from './staging_error';

const path = nodeBuiltin('path');
/** The package's root: dist/runtime/.. /.. when built, and where its sources are (unknown in a bundle). */
const PACKAGE_ROOT = path !== undefined && typeof __dirname === 'string' ? path.resolve(__dirname, '..', '..') : undefined;
const OWN_PREFIXES = PACKAGE_ROOT === undefined || path === undefined ? []
  : ['dist/runtime', 'dist/backends', 'dist/transformer', 'runtime', 'backends', 'transformer']
    .map((dir) => path.join(PACKAGE_ROOT, dir) + path.sep);

const FRAME = /^(\s*at (?:(.*?) \()?)(?:file:\/\/)?(.+?):(\d+):(\d+)(\)?)\s*$/;

/**
 * The name of the frame through which stage() calls the function it traces (backends/cache/
 * trace_errors.ts): a name set on the function object, so it stays when the code is bundled or
 * minified. The frames from it outward are whatever called stage(), never the traced code.
 */
export const TRACED_FRAME_NAME = 'autograph_ts_stage_tracing';
const TRACE_ENTRY = new RegExp(`\\bat ${TRACED_FRAME_NAME} `);

/** Said in place of a location when a trace is running but none of its frames is in a file (code evaluated from a string). */
export const NO_TRACED_LINE = 'no source line: the traced code has no file';

/** The frames of stack lines that may be the user's line: above the trace's entry when the stack passes through one. */
function tracedFrames(lines: string[]): { frames: string[]; inTrace: boolean } {
  const entry = lines.findIndex((l) => TRACE_ENTRY.test(l));
  return entry < 0 ? { frames: lines, inTrace: false } : { frames: lines.slice(0, entry), inTrace: true };
}

/** Whether a stack line is a frame of autograph-ts itself, of tfjs, or of Node's internals. */
export function isInternalFrame(line: string): boolean {
  if (/\bnode:|\(internal\/|[\\/]node_modules[\\/]@tensorflow[\\/]|[\\/]tfjs-[a-z-]+[\\/]src[\\/]|<anonymous>|\bnative\b/.test(line)) {
    return /\bat /.test(line);
  }
  const match = FRAME.exec(line);
  return match !== null && OWN_PREFIXES.some((prefix) => match[3].startsWith(prefix));
}

/** A frame of the user's code: a location that is not internal. */
export function isUserFrame(line: string): boolean {
  return FRAME.test(line) && !isInternalFrame(line);
}

const rewritten = new WeakSet<object>();

/**
 * Puts the user's frames first in `error.stack`, mapped to .ts, and drops (or, when verbose,
 * moves below) the internal ones. `site` (a `file.ts:line:col`, e.g. where a staged node was
 * created) becomes the first frame when given. Idempotent; never throws.
 */
export function rewriteStack(error: unknown, site?: { location: string; name?: string }): void {
  if (typeof error !== 'object' || error === null || rewritten.has(error)) return;
  try {
    const stack = (error as { stack?: unknown }).stack;
    if (typeof stack !== 'string') return;
    rewritten.add(error);
    const lines = stack.split('\n');
    const firstFrame = lines.findIndex((l) => /^\s*at /.test(l));
    if (firstFrame < 0 && site === undefined) return;
    const head = firstFrame < 0 ? lines : lines.slice(0, firstFrame);
    const frames = firstFrame < 0 ? [] : lines.slice(firstFrame);
    const user = frames.filter((l) => !isInternalFrame(l)).map(mapFrame);
    const internal = frames.filter(isInternalFrame);
    if (site !== undefined) {
      const frame = `    at ${site.name ? `${site.name} (${site.location})` : site.location}`;
      if (user[0] !== frame) user.unshift(frame);
    }
    if (user.length === 0) return; // nothing better to show than what there is
    const kept = VERBOSITY >= 1 ? [...user, ...internal] : user;
    Object.defineProperty(error, 'stack', { value: [...head, ...kept].join('\n'), writable: true, configurable: true });
  } catch {
    // A failure to beautify must never replace the user's error.
  }
}

/**
 * The first user frame of the current call stack, mapped to .ts (`file.ts:line:col`), for a
 * message: relative to the working directory where the file is inside it, in the style of the
 * transformer's origins (relative to the project), so that one message never mixes a project
 * path with an absolute one. (Stack frames keep Node's absolute paths.)
 */
export function currentUserLocation(): string | undefined {
  const site = captureSite();
  const location = siteLocation(site)?.location;
  if (location !== undefined) return messageLocation(location);
  return tracedFrames(((site as { stack?: string }).stack ?? '').split('\n')).inTrace ? NO_TRACED_LINE : undefined;
}

/** An absolute `path:line:col` relative to the working directory when the file is inside it. */
export function messageLocation(location: string): string {
  const cwd = (globalThis as { process?: { cwd?(): string } }).process?.cwd?.();
  if (path === undefined || cwd === undefined || !path.isAbsolute(location)) return location;
  const relative = path.relative(cwd, location);
  return relative.startsWith('..') || path.isAbsolute(relative) ? location : relative.replace(/\\/g, '/');
}

/** The current call stack, captured but not formatted (deep enough to reach past tfjs). */
export function captureSite(): object {
  const holder = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  try {
    Error.captureStackTrace(holder, captureSite);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return holder;
}

/**
 * The formatted frames (`    at ...` lines) below `above` on the current call stack, at most
 * `depth` of them: `[0]` is the frame that called `above`.
 */
export function framesAbove(above: (...args: never[]) => unknown, depth: number): string[] {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = depth;
  try {
    Error.captureStackTrace(holder, above);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return (holder.stack ?? '').split('\n').slice(1);
}

/**
 * The first user frame of a captured site, mapped to .ts: `{ location: 'file.ts:l:c', name }`. While
 * stage() traces a function, only the traced code's frames count: the caller of stage() is not
 * where the traced code did anything (undefined when none of the traced frames is in a file).
 */
export function siteLocation(site: object): { location: string; name?: string } | undefined {
  const stack = (site as { stack?: string }).stack;
  const frame = stack === undefined ? undefined : tracedFrames(stack.split('\n').slice(1)).frames.find(isUserFrame);
  const match = frame === undefined ? null : FRAME.exec(mapFrame(frame));
  return match ? { location: `${match[3]}:${match[4]}:${match[5]}`, name: match[2] || undefined } : undefined;
}

/**
 * `origin` (a project-relative `file.ts:line:col` the transformer wrote) as a site on `error`'s
 * stack: the path of the user frame in that file (absolute, as Node prints it) at origin's line and
 * column, with that frame's function name; else origin itself.
 */
export function userSiteAt(error: unknown, origin: string): { location: string; name?: string } {
  const match = /^(.*):(\d+):(\d+)$/.exec(origin);
  const stack = (error as { stack?: unknown } | null)?.stack;
  if (match === null || typeof stack !== 'string') return { location: origin };
  const file = match[1].replace(/\\/g, '/');
  for (const line of stack.split('\n')) {
    if (!isUserFrame(line)) continue;
    const frame = FRAME.exec(mapFrame(line));
    const framePath = frame?.[3].replace(/\\/g, '/');
    if (framePath !== undefined && (framePath === file || framePath.endsWith(`/${file}`))) {
      return { location: `${frame![3]}:${match[2]}:${match[3]}`, name: frame![2] || undefined };
    }
  }
  return { location: origin };
}

const located = new WeakSet<object>();

/**
 * An error raised while a staged graph ran a node: its message gains the user's line where that
 * node was made ("in user code: ..."), and that line becomes the first stack frame. Done once, at
 * the innermost node (the one that failed).
 */
export function locateError(error: unknown, site: { location: string; name?: string } | undefined, what: string): void {
  if (typeof error !== 'object' || error === null || located.has(error) || site === undefined) return;
  located.add(error);
  try {
    const e = error as { message?: unknown };
    const shown = messageLocation(site.location);
    if (typeof e.message === 'string' && !e.message.includes(site.location) && !e.message.includes(shown)) {
      e.message = `${e.message}\n\nin user code: ${what} at ${shown}`;
      const stack = (error as { stack?: unknown }).stack;
      if (typeof stack === 'string') {
        const firstFrame = stack.search(/\n\s*at /);
        Object.defineProperty(error, 'stack', { value: `${(error as Error).name ?? 'Error'}: ${e.message}${firstFrame >= 0 ? stack.slice(firstFrame) : ''}`,
          writable: true, configurable: true });
      }
    }
  } catch {
    // never replace the user's error
  }
  rewriteStack(error, site);
}

const iterationNoted = new WeakSet<object>();

/**
 * An error located at a node (locateError) inside a staged loop: its message says on which
 * iteration of the (innermost) loop it was raised — `, on iteration 2 of the staged loop at file.ts:l:c`.
 */
export function noteIteration(error: unknown, iteration: number, origin: string | undefined): void {
  if (typeof error !== 'object' || error === null || !located.has(error) || iterationNoted.has(error) ||
      error instanceof StagingError) return; // (autograph-ts's own errors about a loop name it already)
  iterationNoted.add(error);
  try {
    const e = error as { message?: unknown; stack?: unknown };
    if (typeof e.message !== 'string') return;
    const before = e.message;
    const message = `${before}, on iteration ${iteration + 1} of the staged loop${origin ? ` at ${origin}` : ''}`;
    e.message = message;
    if (typeof e.stack === 'string' && e.stack.includes(before)) {
      Object.defineProperty(error, 'stack', { value: e.stack.replace(before, message), writable: true, configurable: true });
    }
  } catch {
    // never replace the user's error
  }
}

// ---- source maps ------------------------------------------------------------------------------

/** `at f (/x/dist/model.js:10:3)` → `at f (/x/src/model.ts:12:5)` when a source map says so. */
export function mapFrame(line: string): string {
  const match = FRAME.exec(line);
  if (match === null) return line;
  const [, prefix, , file, lineText, columnText, close] = match;
  if (!/\.[cm]?js$/.test(file)) return line;
  const original = originalPosition(file, Number(lineText), Number(columnText));
  return original === undefined ? line : `${prefix}${original.source}:${original.line}:${original.column}${close}`;
}

/** An error of autograph-ts's own (about the user's code), with the user's frames first. */
export function userError<E extends Error>(error: E): E {
  rewriteStack(error);
  return error;
}
