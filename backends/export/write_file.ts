/**
 * Writing an exported model to a file, where there is a file system (Node). Node's `fs` is
 * reached at call time through `process.getBuiltinModule` (Node 20.16+) or CommonJS `require`,
 * never imported: a bundle for the page does not follow it, and there the exporters return bytes.
 */
interface Fs { writeFileSync(path: string, data: Uint8Array): void }

function nodeFs(): Fs | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
  const builtin = proc?.getBuiltinModule?.('fs') as Fs | undefined;
  if (builtin !== undefined) return builtin;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return typeof require === 'function' ? (require('fs') as Fs) : undefined;
}

/** Writes `bytes` to `path`; an error naming the reason where there is no file system. */
export function writeFileBytes(path: string, bytes: Uint8Array): void {
  const fs = nodeFs();
  if (fs === undefined) {
    throw new Error(`autograph-ts: cannot write ${path}: there is no file system here; call the export without a path and use the bytes it returns`);
  }
  fs.writeFileSync(path, bytes);
}
