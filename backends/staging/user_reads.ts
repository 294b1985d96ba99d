/**
 * Whether a read happening now (of a staged list's element dims, of a dim that shape relaxation
 * watches) is the user's code reading, decided by construction: neither tfjs's code
 * (kernels/tfjs_code.ts: an op, a kernel, an engine method) nor autograph-ts's own
 * (runtime/library_code.ts). Where it happened, for messages only, is the first user frame of the
 * stack (runtime/user_frames.ts), a display that may be imprecise in a bundle but decides nothing.
 */
import { insideTfjs } from '../kernels/tfjs_code';
import { inLibraryCode } from '../../runtime/library_code';
import { framesAbove, isInternalFrame, mapFrame } from '../../runtime/user_frames';

/** Whether the code running now is the user's. */
export function readByUserCode(): boolean {
  return !inLibraryCode() && !insideTfjs();
}

/**
 * For messages: `file.ts:line:col` of the user's read (the file's base name; code compiled from a
 * string is `<anonymous>:line:col`), or undefined. Found by frame, for display only.
 */
export function userReadLocation(): string | undefined {
  for (const line of framesAbove(userReadLocation, 40)) {
    if (/\((?:<anonymous>|native)\)\s*$/.test(line)) continue; // a builtin (Array.prototype.map, ...)
    if (isInternalFrame(line) && !/<anonymous>:\d+:\d+\)?\s*$/.test(line)) continue;
    const position = /([^\s(]+):(\d+):(\d+)\)?\s*$/.exec(mapFrame(line));
    return position ? `${position[1].replace(/^.*[\\/]/, '')}:${position[2]}:${position[3]}` : line.trim();
  }
  return undefined;
}
