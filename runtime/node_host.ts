/**
 * Node's built-in modules and `require`, reached so that no bundler follows them: a browser build
 * of autograph-ts must not pull `fs`, `path`, `util`, `os` or onnxruntime-node's native addon into
 * the page (issue 18). Everything Node-only (source-map files, util.inspect, the ONNX Runtime
 * binding, file exports) asks here at the moment it is used, and does without (or says it is not
 * available) where the answer is undefined.
 *
 * `process.getBuiltinModule` (Node ≥ 20.16) returns a built-in without `require`, so the same code
 * works in the CommonJS and the ES-module builds; bundlers see no `require('fs')` to resolve.
 */
import type * as Fs from 'fs';
import type * as NodeModule from 'module';
import type * as Os from 'os';
import type * as Path from 'path';
import type * as Util from 'util';

interface Builtins { fs: typeof Fs; path: typeof Path; util: typeof Util; os: typeof Os; module: typeof NodeModule }

type HostProcess = { getBuiltinModule?(id: string): unknown; versions?: { node?: string } };

const hostProcess = (): HostProcess | undefined => (globalThis as { process?: HostProcess }).process;

/** A Node built-in module, or undefined outside Node (a browser, a worker). */
export function nodeBuiltin<K extends keyof Builtins>(name: K): Builtins[K] | undefined {
  const process = hostProcess();
  if (typeof process?.getBuiltinModule !== 'function') return undefined;
  return process.getBuiltinModule(`node:${name}`) as Builtins[K] | undefined;
}

/**
 * A `require` for packages that only exist in Node (onnxruntime-node), resolved from this file;
 * undefined outside Node. Not the module's own `require`: a bundler would follow that call.
 */
export function nodeRequire(): NodeJS.Require | undefined {
  const module = nodeBuiltin('module');
  if (module === undefined) return undefined;
  const from = typeof __filename === 'string' ? __filename : `${hostCwd()}/`;
  return module.createRequire(from);
}

const hostCwd = (): string => (globalThis as { process?: { cwd?(): string } }).process?.cwd?.() ?? '/';

/** The error to throw when a Node-only feature is used where there is no Node. */
export function notInNode(feature: string): Error {
  return new Error(`autograph-ts: ${feature} needs Node.js (its file system or native modules); it is not available here`);
}
