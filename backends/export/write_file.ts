/**
 * Writing an exported model to a file, where there is a file system (Node). Node's `fs` is reached
 * at call time through common/node_host.ts, never imported: a bundle for the page does not follow
 * it, and there the exporters return bytes.
 */
import { nodeBuiltin } from '../common/node_host';

/** Writes `bytes` to `path`; an error naming the reason where there is no file system. */
export function writeFileBytes(path: string, bytes: Uint8Array): void {
  const fs = nodeBuiltin('fs');
  if (fs === undefined) {
    throw new Error(`autograph-ts: cannot write ${path}: there is no file system here; call the export without a path and use the bytes it returns`);
  }
  fs.writeFileSync(path, bytes);
}
