/**
 * staged.run on a backend whose synchronous reads are unsafe (webgpu) traces on the cpu from values
 * read asynchronously and runs the graph on the device (backends/cache/host_trace.ts). Here the
 * device is a stand-in registered as 'webgpu': the cpu backend's kernels under that name, on an
 * instance that counts the synchronous reads made outside its kernels (what loses a real webgpu
 * device on SwiftShader). The browser spec runs the same programs on real tfjs-webgpu.
 */
import * as tf from '@tensorflow/tfjs';
import { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import { expect } from 'chai';
import { stage } from '../../backends/stage';
import * as ag__ from '../../runtime/operators';
import { compile, load } from '../harness/compile';
import { collatzSteps, signedSum } from './programs';

/** Programs whose staged results come back as JS values (promoted numbers, lists of numbers, a field). */
const READ_BACK_SOURCE = `
import * as tf from '@tensorflow/tfjs';
export function indicesAbove(xs: tf.Tensor1D, limit: number): number[] {
  'use autograph';
  const found: number[] = [];
  let i = 0;
  for (const x of xs) {
    if (x.greater(limit)) found.push(i);
    i++;
  }
  return found;
}
export function halvings(n: tf.Scalar): number {
  'use autograph';
  let count = 0;
  while (n.greater(1)) {
    n = n.div(2).floor();
    count++;
  }
  return count;
}
export class Patience {
  wait = 0;
  onLoss(loss: tf.Scalar, best: tf.Scalar): tf.Scalar {
    'use autograph';
    if (loss.less(best)) this.wait = 0;
    else this.wait++;
    return loss.minimum(best);
  }
}
`;

const DEVICE = 'webgpu';

/**
 * The stand-in device: cpu kernels; `read` is asynchronous and keeps what it fetched on the host
 * (as webgpu and webgl do); synchronous reads outside a kernel of data not fetched so are counted.
 */
class CountingDevice extends MathBackendCPU {
  syncReads = 0;
  inKernel = 0;
  private readonly fetched = new WeakSet<object>();
  constructor() {
    super();
    (this as unknown as { firstUse: boolean }).firstUse = false;   // (the cpu backend's "install tfjs-node" notice, once is enough)
  }
  override readSync(dataId: object): tf.backend_util.BackendValues {
    if (this.inKernel === 0 && !this.fetched.has(dataId)) this.syncReads++;
    return super.readSync(dataId);
  }
  override async read(dataId: object): Promise<tf.backend_util.BackendValues> {
    await Promise.resolve();
    this.fetched.add(dataId);
    return super.readSync(dataId);
  }
}

let device: CountingDevice | undefined;

function registerDevice(): void {
  if (tf.findBackendFactory(DEVICE) != null) throw new Error(`a '${DEVICE}' backend is registered already: this spec registers a stand-in`);
  tf.registerBackend(DEVICE, () => (device = new CountingDevice()), -1);
  for (const config of tf.getKernelsForBackend('cpu')) {
    const kernelFunc = config.kernelFunc;
    tf.registerKernel({ ...config, backendName: DEVICE, kernelFunc: (args) => {
      const backend = args.backend as CountingDevice;
      backend.inKernel++;
      try {
        return kernelFunc(args);
      } finally {
        backend.inKernel--;
      }
    } });
  }
}

const backendOf = (t: tf.Tensor): tf.KernelBackend =>
  (tf.engine() as unknown as { state: { tensorInfo: WeakMap<object, { backend: tf.KernelBackend }> } }).state.tensorInfo.get(t.dataId)!.backend;

/** `for (const x of xs) h = tanh(x·w + h·u)`, as the transformer emits it. */
function rnn(xs: tf.Tensor3D, h0: tf.Tensor2D, w: tf.Tensor2D, u: tf.Tensor2D): tf.Tensor {
  let h: tf.Tensor = h0;
  ag__.forStmt(xs, undefined, (x: tf.Tensor) => {
    h = tf.tanh(x.matMul(w).add(h.matMul(u)));
  }, () => [h], ([h1]) => {
    h = h1 as tf.Tensor;
  }, ['h'], { origin: 'host_trace.ts:1:1' });
  return h;
}

describe('staged.run on webgpu traces on the cpu and runs on the device (host_trace.ts)', () => {
  let previous: string;

  before(async () => {
    previous = tf.getBackend();
    registerDevice();
    expect(await tf.setBackend(DEVICE)).to.equal(true);
  });

  after(async () => {
    await tf.setBackend(previous);
    tf.removeBackend(DEVICE);
    for (const config of tf.getKernelsForBackend(DEVICE)) tf.unregisterKernel(config.kernelName, DEVICE);
  });

  /** `run()`'s result and the synchronous reads the device served during it. */
  async function counted<T>(run: () => Promise<T>): Promise<{ result: T; syncReads: number }> {
    const before = device!.syncReads;
    const result = await run();
    return { result, syncReads: device!.syncReads - before };
  }

  it('collatz: == eager, no synchronous device read in the call that traces nor the next, the result on the device', async () => {
    const staged = stage(collatzSteps);
    for (const n of [27, 97, 27]) {
      const eager = collatzSteps(tf.scalar(n));
      const { result, syncReads } = await counted(() => staged.run(tf.scalar(n)));
      expect(syncReads, `collatz(${n})`).to.equal(0);
      expect(backendOf(result)).to.equal(tf.backend());
      expect(await result.data()).to.deep.equal(await eager.data());
    }
    expect(staged.traceCount).to.equal(1);
    expect(tf.getBackend()).to.equal(DEVICE);
  });

  it('an RNN over for...of, at 3 sequence lengths (one relaxed graph): == eager, no synchronous device read', async () => {
    const w = tf.randomUniform([4, 8], -0.5, 0.5, 'float32', 1) as tf.Tensor2D;
    const u = tf.randomUniform([8, 8], -0.5, 0.5, 'float32', 2) as tf.Tensor2D;
    const h0 = tf.zeros([2, 8]) as tf.Tensor2D;
    const staged = stage(rnn);
    for (const steps of [3, 5, 8]) {
      const xs = tf.randomUniform([steps, 2, 4], -0.5, 0.5, 'float32', steps) as tf.Tensor3D;
      const eager = rnn(xs, h0, w, u);
      const { result, syncReads } = await counted(() => staged.run(xs, h0, w, u));
      expect(syncReads, `${steps} steps`).to.equal(0);
      expect(result.shape).to.deep.equal(eager.shape);
      Array.from(await result.data()).forEach((v, i) => expect(v).to.be.closeTo(eager.dataSync()[i], 1e-6));
      // (The arguments the trace moved to the cpu still hold their values.)
      expect(Array.from(await xs.data())).to.deep.equal(Array.from(xs.dataSync()));
    }
    expect(staged.traceCount).to.equal(2);   // 3 steps, then 5 (the same graph up to dims: relaxed), 8 served
  });

  it('a tensor and a variable fn captures (not arguments): read when the trace meets them, traced again; == eager; counted as one trace', async () => {
    const scale = tf.tensor1d([1.5, -2, 0.5]);
    const shift = tf.variable(tf.tensor1d([3, 1, -4]));
    const logged: number[] = [];
    const f = (x: tf.Tensor): tf.Tensor => {
      logged.push(1);
      return signedSum(x.mul(scale).add(shift));
    };
    const staged = stage(f);
    const x = tf.tensor1d([1, 2, 3]);
    const eager = f(x);
    const tensorsBefore = tf.memory().numTensors;
    const { result, syncReads } = await counted(() => staged.run(x));
    expect(syncReads).to.equal(0);
    expect(await result.data()).to.deep.equal(await eager.data());
    expect(staged.traceCount).to.equal(1);
    // Eager, then the trace: stopped where it met `scale` unread, then `shift`, then through.
    expect(logged.length).to.equal(4);
    const shifted = tf.tensor1d([-30, 0, 0]);
    shift.assign(shifted);
    shifted.dispose();
    const after = await counted(() => staged.run(x));
    expect(after.syncReads).to.equal(0);
    const expected = tf.tidy(() => f(x));
    expect(await after.result.data()).to.deep.equal(await expected.data());
    // (The stopped traces left nothing behind: with the results and the graph freed, the count is back.)
    tf.dispose([result, after.result, expected]);
    staged.dispose();
    expect(tf.memory().numTensors).to.equal(tensorsBefore);
  });

  it('a loop variable that changes dims (the graph traced again on probe tensors, on the cpu too): == eager, no synchronous device read', async () => {
    const grow = (x: tf.Tensor1D): tf.Tensor => {
      let y: tf.Tensor = x;
      let i: tf.Tensor = tf.scalar(0);
      ag__.whileStmt(() => i.less(3), () => {
        y = tf.concat([y, y.slice(0, 1).mul(2)]);
        i = i.add(1);
      }, () => [y, i], ([y1, i1]) => {
        y = y1 as tf.Tensor;
        i = i1 as tf.Tensor;
      }, ['y', 'i'], { origin: 'host_trace.ts:2:1' });
      return y;
    };
    const staged = stage(grow);
    const x = tf.tensor1d([3, 1]);
    const { result, syncReads } = await counted(() => staged.run(x));
    expect(syncReads).to.equal(0);
    expect(staged.traceCount).to.equal(2);   // the trace and its probe
    expect(result.shape).to.deep.equal([5]);
    expect(Array.from(await result.data())).to.deep.equal(Array.from(grow(x).dataSync()));
  });

  it('the cache key holds the call\'s backend, not the trace\'s: the same call on cpu traces for cpu; both == eager', async () => {
    const staged = stage(collatzSteps);
    expect(await (await staged.run(tf.scalar(7))).data()).to.deep.equal(new Float32Array([16]));
    expect(staged.inspect(tf.scalar(7)).signature).to.match(new RegExp(`^${DEVICE}\\|`));
    await tf.setBackend('cpu');
    try {
      expect(staged(tf.scalar(7)).dataSync()).to.deep.equal(new Float32Array([16]));
      expect(staged.traceCount).to.equal(2);
    } finally {
      await tf.setBackend(DEVICE);
    }
    expect(await (await staged.run(tf.scalar(7))).data()).to.deep.equal(new Float32Array([16]));
    expect(staged.traceCount).to.equal(2);
  });

  it('results that come back as JS values (a promoted number, a list of numbers, a promoted field written back): == eager, no synchronous device read', async () => {
    const m = load(compile({ 'main.ts': READ_BACK_SOURCE }).js['main.ts']);
    const xs = tf.tensor1d([0.5, 3, 1, 4]);
    const indices = await counted(() => stage(m.indicesAbove).run(xs, 2));
    expect(indices.result).to.deep.equal(m.indicesAbove(xs, 2));
    expect(indices.syncReads, 'indicesAbove').to.equal(0);
    const count = await counted(() => stage(m.halvings).run(tf.scalar(40)));
    expect(count.result).to.equal(m.halvings(tf.scalar(40)));
    expect(count.syncReads, 'halvings').to.equal(0);
    const [eager, staged] = [new m.Patience(), new m.Patience()];
    const onLoss = stage(staged.onLoss.bind(staged));
    for (const [loss, best] of [[3, 2], [4, 2], [1, 2]]) {
      eager.onLoss(tf.scalar(loss), tf.scalar(best));
      const call = await counted(() => onLoss.run(tf.scalar(loss), tf.scalar(best)));
      expect(call.syncReads, `onLoss(${loss}, ${best})`).to.equal(0);
      expect(staged.wait).to.equal(eager.wait);
    }
  });

  it('errors of the traced function reach the caller as they are, and leave the device the active backend', async () => {
    const staged = stage((x: tf.Tensor): tf.Tensor => {
      if (x.shape[0] > 1) throw new RangeError('too long');
      return x.add(1);
    });
    let thrown: unknown;
    await staged.run(tf.tensor1d([1, 2])).catch((error: unknown) => { thrown = error; });
    expect(thrown).to.be.instanceOf(RangeError);
    expect(tf.getBackend()).to.equal(DEVICE);
    expect(await (await staged.run(tf.tensor1d([4]))).data()).to.deep.equal(new Float32Array([5]));
  });
});
