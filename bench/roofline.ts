/**
 * How close the bench's models come to the machine: this machine's fp32 GEMM peak, measured in the
 * same run as one large MatMul on ONNX Runtime with every core, and each workload's achieved
 * GFLOP/s as a fraction of it. A workload states its floating-point work (`flops` below: the
 * matrix products, 2 m k n each; the elementwise ops are left out, a few percent at most).
 */
import * as os from 'os';
import { GraphScope, ModelContext } from '../backends/onnx_model/model_builder';
import { encodeModel, OnnxType } from '../backends/onnx_model/onnx_proto';
import { onnxRuntimeMissing, ortTensor, OrtSession } from '../backends/engines/onnx/runtime';

export interface Peak {
  gflops: number;
  /** How it was measured, for the report. */
  how: string;
}

function gemmModel(n: number): Uint8Array {
  const model = new ModelContext();
  const g = new GraphScope(model, 'gemm');
  const a = g.input(model.claim('a'), OnnxType.FLOAT, [n, n]);
  const b = g.input(model.claim('b'), OnnxType.FLOAT, [n, n]);
  model.claim('c');
  const c = g.op('MatMul', [a, b], {}, OnnxType.FLOAT, [n, n]);
  return encodeModel({ graph: g.graph(g.outputs([c], ['c']), model.initializers), producerName: 'bench', producerVersion: '0' });
}

/** The fastest of `runs` calls of an n x n x n MatMul on `threads` threads, in GFLOP/s. */
function gemmGflops(n: number, threads: number, runs: number): number {
  const session = new OrtSession(gemmModel(n), { intraOpNumThreads: threads });
  try {
    const data = Float32Array.from({ length: n * n }, (_, i) => ((i * 7919) % 1000) / 1000 - 0.5);
    const feeds = { a: ortTensor('float32', data, [n, n]), b: ortTensor('float32', data, [n, n]) };
    for (let i = 0; i < 3; i++) session.run(feeds, ['c']);
    let best = Infinity;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      session.run(feeds, ['c']);
      best = Math.min(best, performance.now() - start);
    }
    return (2 * n ** 3) / (best * 1e6);
  } finally {
    session.dispose();
  }
}

/**
 * The machine's fp32 GEMM peak as ORT reaches it, or undefined without ORT: the best of one thread
 * and every core, two sizes (on a machine other jobs share, all cores can lose to one thread).
 */
export function measureGemmPeak(): Peak | undefined {
  if (onnxRuntimeMissing() !== undefined) return undefined;
  const cores = os.cpus().length;
  const tries: [number, number, number][] = [[1024, 1, 10], [1024, cores, 20], [2048, cores, 5]];
  const each = tries.map(([n, threads, runs]) => ({ n, threads, gflops: gemmGflops(n, threads, runs) }));
  const best = each.reduce((a, b) => (b.gflops > a.gflops ? b : a));
  return {
    gflops: best.gflops,
    how: `fp32 GEMM peak ${best.gflops.toFixed(0)} GFLOP/s: the fastest call of an ORT MatMul ` +
      `(${each.map((e) => `${e.n}^3 on ${e.threads} thread${e.threads === 1 ? '' : 's'} ${e.gflops.toFixed(0)}`).join(', ')})`,
  };
}

/** Achieved GFLOP/s of `flops` in `ms`, and its fraction of the peak, as table text. */
export function rooflineText(flops: number, ms: number, peak: Peak | undefined): string {
  const gflops = flops / (ms * 1e6);
  return `${gflops.toFixed(1)} GFLOP/s${peak === undefined ? '' : ` ${((gflops / peak.gflops) * 100).toFixed(1)}%`}`;
}

/** The matrix-product work of the tanh RNN: T steps of x_t Wx ([B, F] x [F, H]) and h Wh ([B, H] x [H, H]). */
export const rnnFlops = (T: number, B: number, F: number, H: number): number => 2 * T * B * H * (F + H);

/**
 * One SGD step of the RNN with the loss read from the last state through Wo ([H, 1]): the forward
 * products, then per step back dh Whᵀ, dWh += hᵀ dz, dWx += xᵀ dz; plus the output layer's three.
 */
export const bpttFlops = (T: number, B: number, F: number, H: number): number =>
  rnnFlops(T, B, F, H) + 2 * T * B * H * (2 * H + F) + 3 * 2 * B * H;

/** One SGD step of the MLP x [B, I] -> relu [Hd] -> [C]: two products forward, dW2, dh, dW1 back (no dx). */
export const mlpFlops = (B: number, I: number, Hd: number, C: number): number => 2 * B * (2 * I * Hd + 3 * Hd * C);
