/**
 * onnxruntime-web, an optional dependency: imported on first use (a dynamic import, so that a
 * bundle loads it only when a staged function runs there; absent is not an error until then).
 * Its sessions run only asynchronously (`staged.run(...)`).
 *
 * Execution providers: WebGPU where `navigator.gpu` gives a hardware adapter (then wasm for what WebGPU
 * lacks), else wasm. Threads: in Node (where onnxruntime-web serves tests and comparisons; the
 * engine there is onnxruntime-node) one wasm thread unless the user set `ort.env.wasm.numThreads`,
 * so no worker keeps the process alive; in a page, onnxruntime-web's own default.
 */
import type { AsyncOrtSession } from '../onnx/runner';
import type { PublicOrt, SessionOptions } from '../onnx/runtime';

type WebOrt = PublicOrt & { env: { wasm: { numThreads?: number; simd?: boolean } } };

let loading: Promise<WebOrt> | undefined;

function loadWeb(): Promise<WebOrt> {
  loading ??= import('onnxruntime-web').then((m) => {
    const ort = ((m as { default?: unknown }).default ?? m) as WebOrt;
    if (isNode() && ort.env.wasm.numThreads === undefined) ort.env.wasm.numThreads = 1;
    return ort;
  }).catch((error: unknown) => {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`autograph-ts: engine 'onnx-web' needs onnxruntime-web (npm install onnxruntime-web): ${why}`);
  });
  return loading;
}

const isNode = (): boolean => typeof process !== 'undefined' && typeof process.versions?.node === 'string';

interface GpuAdapter { isFallbackAdapter?: boolean; info?: { isFallbackAdapter?: boolean } }
interface GpuNavigator { gpu?: { requestAdapter(): Promise<GpuAdapter | null> } }

let webgpu: Promise<boolean> | undefined;

/**
 * Whether this page has a hardware WebGPU adapter (asked once). A fallback adapter (a software
 * one: SwiftShader in headless Chromium) is not used by default: the sample's RNN took 266 ms there
 * against 8 ms on the wasm provider.
 */
function hasWebGpuAdapter(): Promise<boolean> {
  const gpu = (globalThis as { navigator?: GpuNavigator }).navigator?.gpu;
  const hardware = (a: GpuAdapter | null) => a != null && a.isFallbackAdapter !== true && a.info?.isFallbackAdapter !== true;
  webgpu ??= gpu === undefined ? Promise.resolve(false) : gpu.requestAdapter().then(hardware, () => false);
  return webgpu;
}

/** The execution providers a session here uses: the user's, or WebGPU when there is a hardware adapter, and wasm. */
async function providers(options: SessionOptions): Promise<string[]> {
  if (options.executionProviders !== undefined) return options.executionProviders;
  return (await hasWebGpuAdapter()) ? ['webgpu', 'wasm'] : ['wasm'];
}

/** An onnxruntime-web session over `model`. */
export async function openWebSession(model: Uint8Array, options: SessionOptions): Promise<AsyncOrtSession> {
  const ort = await loadWeb();
  const executionProviders = await providers(options);
  const settings = { executionProviders, graphOptimizationLevel: 'all', logSeverityLevel: 4 };
  let session;
  try {
    session = await ort.InferenceSession.create(model, settings);
  } catch (error) {
    // A WebGPU provider that fails to start (a lost device, a kernel it lacks at load) leaves wasm.
    if (!executionProviders.includes('webgpu') || options.executionProviders !== undefined) throw error;
    session = await ort.InferenceSession.create(model, { ...settings, executionProviders: ['wasm'] });
    executionProviders.splice(0, executionProviders.length, 'wasm');
  }
  const opened = session;
  return {
    run: (feeds, outputNames) => opened.run(feeds, outputNames),
    tensor: (type, data, dims) => new ort.Tensor(type, data, dims),
    // numThreads is onnxruntime-web's once its wasm started: the user's, or its default (1 unless the page is cross-origin isolated).
    threads: `onnxruntime-web, execution providers ${executionProviders.join(', ')}, wasm threads ${ort.env.wasm.numThreads ?? '?'}`,
    dispose: () => void opened.release(),
  };
}
