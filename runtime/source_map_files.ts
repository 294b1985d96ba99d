/**
 * The .ts position of a frame in a compiled .js file, read from the source map beside it (or
 * inlined in it): Node only, through the file system. Where there is none (a browser, whose frames
 * are URLs of a bundle the bundler mapped already), positions stay as they are.
 */
import type { SourceMapConsumer } from 'source-map-js';
import { nodeBuiltin, nodeRequire } from './node_host';
import { asLibrary } from './library_code';

/** source-map-js, loaded with the files it reads (in Node only: a bundle for the page leaves it out). */
const consumerClass = (): typeof SourceMapConsumer => (nodeRequire()!('source-map-js') as typeof import('source-map-js')).SourceMapConsumer;

const consumers = new Map<string, SourceMapConsumer | null>();

/** `file`'s `line`:`column` (1-based) in its original source, or undefined. */
export function originalPosition(file: string, line: number, column: number): { source: string; line: number; column: number } | undefined {
  const path = nodeBuiltin('path');
  const consumer = path === undefined ? null : consumerFor(file);
  if (!consumer || path === undefined) return undefined;
  // (As autograph-ts's own code: source-map-js sorts its mappings with Math.random pivots, which a trace
  // refuses from the user's code.)
  const original = asLibrary(() => consumer.originalPositionFor({ line, column: column - 1 }));
  if (original.source == null || original.line == null) return undefined;
  return { source: path.resolve(path.dirname(file), original.source.replace(/^file:\/\//, '')), line: original.line,
    column: (original.column ?? 0) + 1 };
}

/**
 * The source map of code that runs from no file on disk (evaluated from a string under the name
 * `file`, e.g. with vm.compileFunction's `filename`): its frames map to .ts like those of a file.
 */
export function registerSourceMap(file: string, mapText: string): void {
  const path = nodeBuiltin('path');
  if (path === undefined) return;
  const map = JSON.parse(mapText) as { sourceRoot?: string };
  map.sourceRoot = path.resolve(path.dirname(file), map.sourceRoot ?? '');
  consumers.set(file, new (consumerClass())(map as never));
}

function consumerFor(file: string): SourceMapConsumer | null {
  let consumer = consumers.get(file);
  if (consumer !== undefined) return consumer;
  consumer = null;
  const fs = nodeBuiltin('fs');
  const path = nodeBuiltin('path');
  try {
    if (fs === undefined || path === undefined) return null;
    const text = fs.readFileSync(file, 'utf8');
    const url = /\/\/[#@] sourceMappingURL=(\S+)\s*$/.exec(text.slice(-4096))?.[1];
    if (url !== undefined) {
      const inline = /^data:application\/json;(?:charset=[^;,]+;)?base64,(.*)$/.exec(url);
      const raw = inline ? utf8FromBase64(inline[1])
        : fs.readFileSync(path.resolve(path.dirname(file), decodeURIComponent(url)), 'utf8');
      const map = JSON.parse(raw) as { sourceRoot?: string };
      // Sources are resolved against the .js file's folder (plus the map's sourceRoot).
      const mapDir = inline ? path.dirname(file) : path.dirname(path.resolve(path.dirname(file), decodeURIComponent(url)));
      map.sourceRoot = path.resolve(mapDir, map.sourceRoot ?? '');
      consumer = new (consumerClass())(map as never);
    }
  } catch {
    consumer = null;
  } finally {
    consumers.set(file, consumer);
  }
  return consumer;
}

const utf8FromBase64 = (base64: string): string => new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
