/**
 * onnxruntime-node, an optional dependency: loaded on first use, absent is not an error until an
 * ONNX session is asked for.
 *
 * Two ways to run a session:
 * - synchronously (`staged(...)`): onnxruntime-node's public `InferenceSession.run` is a Promise
 *   around a synchronous native call (it defers it with setImmediate). Where the package has that
 *   native session (`onnxruntime-node/dist/binding`, a package internal: tested against 1.30, the
 *   version range package.json allows), we call it directly, as the package's own backend does:
 *   load the model from bytes, run with feeds and fetches. Without it, synchronous calls run on
 *   the tfjs executor.
 * - asynchronously (`staged.run(...)`): the public API, `InferenceSession.create` + `session.run`.
 */

import { nodeRequire } from '../../common/node_host';

export interface OrtTensor {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: ArrayLike<number> | Uint8Array;
  dispose?(): void;
}

interface OrtTensorConstructor {
  new (type: string, data: ArrayBufferView, dims: readonly number[]): OrtTensor;
}

interface NativeSession {
  loadModel(buffer: ArrayBuffer, byteOffset: number, byteLength: number, options: object): void;
  run(feeds: Record<string, OrtTensor>, fetches: Record<string, null>, options: object): Record<string, OrtTensor>;
  dispose(): void;
}

/** The part of onnxruntime-common's public InferenceSession used here (node and web share it). */
export interface PublicSession {
  run(feeds: Record<string, OrtTensor>, fetches: string[]): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}
export interface PublicOrt {
  Tensor: OrtTensorConstructor;
  InferenceSession: { create(model: Uint8Array, options: object): Promise<PublicSession> };
}

interface OrtModules {
  Tensor: OrtTensorConstructor;
  version: string;
  ort: PublicOrt;
  /** The native session and its initialisation, where this onnxruntime-node has them (undefined: the error). */
  native: { NativeSession: new () => NativeSession; initOrt(): void } | Error;
}

let loaded: OrtModules | Error | undefined;

function load(): OrtModules | Error {
  if (loaded !== undefined) return loaded;
  try {
    // Through Node's require, so that no bundler follows it into the native addon (node_host.ts).
    const hostRequire = nodeRequire();
    if (hostRequire === undefined) throw new Error('onnxruntime-node runs in Node.js only, not in a browser');
    const ort = hostRequire('onnxruntime-node') as PublicOrt & { env: { versions?: { node?: string } } };
    loaded = { Tensor: ort.Tensor, version: ort.env.versions?.node ?? 'unknown', ort, native: loadNative(hostRequire) };
  } catch (error) {
    loaded = error instanceof Error ? error : new Error(String(error));
  }
  return loaded;
}

function loadNative(hostRequire: (id: string) => unknown): OrtModules['native'] {
  try {
    const binding = hostRequire('onnxruntime-node/dist/binding') as {
      binding: { InferenceSession: new () => NativeSession };
      initOrt(): void;
    };
    if (typeof binding.binding?.InferenceSession !== 'function' || typeof binding.initOrt !== 'function') {
      return new Error('onnxruntime-node/dist/binding has no InferenceSession');
    }
    return { NativeSession: binding.binding.InferenceSession, initOrt: binding.initOrt };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Why synchronous ORT sessions cannot be made here (onnxruntime-node missing, or a version
 * without the native session this package calls), or undefined.
 */
export function syncSessionsMissing(): string | undefined {
  const m = load();
  if (m instanceof Error) return onnxRuntimeMissing();
  return m.native instanceof Error ? `onnxruntime-node ${m.version} has no native session this package can call synchronously ` +
    `(${m.native.message.split('\n')[0]}): synchronous calls run on the tfjs executor, \`staged.run(...)\` on ONNX Runtime` : undefined;
}

/** onnxruntime-node's public API, for asynchronous sessions. */
export function publicOrt(): PublicOrt {
  return modules().ort;
}

/** Whether onnxruntime-node can be loaded here. */
export function onnxRuntimeAvailable(): boolean {
  return !(load() instanceof Error);
}

/** The reason onnxruntime-node cannot be used, or undefined. */
export function onnxRuntimeMissing(): string | undefined {
  const m = load();
  return m instanceof Error ? `onnxruntime-node is not installed or does not load (${m.message.split('\n')[0]}); ` +
    'install it without its download of CUDA libraries from outside the npm registry: ' +
    '`npm pkg set allowScripts.onnxruntime-node=false --json && npm install onnxruntime-node` ' +
    '(npm 11.19+; with an older npm `ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node`)' : undefined;
}

function modules(): OrtModules {
  const m = load();
  if (m instanceof Error) throw new Error(`autograph-ts: engine 'onnx' needs ${onnxRuntimeMissing()}`);
  return m;
}

export interface SessionOptions {
  /** ORT execution providers, e.g. ['cuda', 'cpu'] where onnxruntime-node has CUDA (default ['cpu']). */
  executionProviders?: string[];
  /**
   * Threads per operator. Unset (the default), the engine measures one thread against all cores on
   * the program's first calls and keeps the faster (threads.ts: which wins depends on what else the
   * machine is running). Set it to fix the count.
   */
  intraOpNumThreads?: number;
}

/** ORT's options for a session of this package. */
export function sessionOptions(options: SessionOptions, executionProviders = options.executionProviders ?? ['cpu']): object {
  return {
    executionProviders,
    graphOptimizationLevel: 'all',
    // Fatal only: ORT warns about renames it skips in sub-graphs (harmless), and a failing run
    // (e.g. an index out of range) throws its message anyway.
    logSeverityLevel: 4,
    intraOpNumThreads: options.intraOpNumThreads ?? 1,
  };
}

/** A synchronous ORT inference session over one model. */
export class OrtSession {
  private session: NativeSession | undefined;

  constructor(model: Uint8Array, options: SessionOptions = {}) {
    const { native } = modules();
    if (native instanceof Error) throw new Error(`autograph-ts: ${syncSessionsMissing()}`);
    native.initOrt();
    const session = new native.NativeSession();
    const bytes = model.byteOffset === 0 && model.byteLength === model.buffer.byteLength ? model : model.slice();
    session.loadModel(bytes.buffer as ArrayBuffer, 0, bytes.byteLength, sessionOptions(options));
    this.session = session;
  }

  run(feeds: Record<string, OrtTensor>, outputNames: string[]): Record<string, OrtTensor> {
    if (this.session === undefined) throw new Error('autograph-ts: this ONNX session was disposed');
    const fetches: Record<string, null> = {};
    for (const name of outputNames) fetches[name] = null;
    return this.session.run(feeds, fetches, {});
  }

  dispose(): void {
    this.session?.dispose();
    this.session = undefined;
  }
}

/** An ORT tensor over `data` (not copied). */
export function ortTensor(type: 'float32' | 'int32' | 'bool', data: ArrayBufferView, dims: readonly number[]): OrtTensor {
  return new (modules().Tensor)(type, data, dims);
}
