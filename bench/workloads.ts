/**
 * The workloads of `npm run bench`: the samples' models, each in the variants a user could run:
 *   eager       the model as TensorFlow.js users write it today (bench/eager.ts: `dataSync()` for
 *               conditions, tf.tidy) — the baseline every ratio is taken against;
 *   autograph   the sample's converted function run eagerly (not staged);
 *   staged      stage(fn) on the tfjs executor;        onnx    stage(fn, { engine: 'onnx' });
 *   native      the same model built by hand as an ONNX graph (bench/native.ts), run by onnxruntime-node.
 * The converted functions are the samples' own sources, compiled by the transformer when the bench
 * starts. A variant that cannot run says why (`missing`), and the table prints that instead.
 */
import * as tf from '@tensorflow/tfjs';
import { stage, Staged } from '../backends/stage';
import { onnxRuntimeMissing } from '../backends/engines/onnx/runtime';
import { loadSample } from '../spec/onnx/support';
import * as eager from './eager';
import type { Call } from './measure';
import { chain } from './cases';
import { expertRnn, NativeModel, nativeChain, nativeCollatz, nativeDecode, nativeMlpStep, nativeRnn, StatefulNativeModel } from './native';
import { bpttFlops, mlpFlops, rnnFlops } from './roofline';

export type VariantKey = 'eager' | 'autograph' | 'staged' | 'onnx' | 'native' | 'expert' | 'staged-step' | 'onnx-step';

export interface Variant {
  key: VariantKey;
  label: string;
  call?: Call;
  /** Why there is no call. */
  missing?: string;
  /** Whether the first call traces (its time is the tracing time). */
  traces?: boolean;
}

export interface Prepared {
  /** variants[0] is the eager baseline. */
  variants: Variant[];
  /** Puts state the calls change (trained weights) back to where it started. */
  reset?: () => void;
  /** What to say after timing (the ONNX sessions' threads per operator). */
  notes?: () => string[];
  dispose: () => void;
}

export interface Workload {
  key: string;
  name: string;
  prepare: () => Prepared;
  /** Floating-point work of one call (bench/roofline.ts), where the table shows GFLOP/s. */
  flops?: number;
}

export interface Options {
  /** Training steps per call of the MNIST workload. */
  mnistSteps: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Module = Record<string, any>;
const samples = new Map<string, Module>();
/** A sample's source file, compiled by the transformer (once per run). */
function sample(file: string): Module {
  let m = samples.get(file);
  if (m === undefined) samples.set(file, (m = loadSample(file)));
  return m;
}

const ortMissing = (): string | undefined => onnxRuntimeMissing();

/** A list of result tensors from a function's result (a tensor, or an object of tensors in `keys` order). */
type Outputs = (result: unknown) => tf.Tensor[];
const single: Outputs = (r) => [r as tf.Tensor];
const fields = (...keys: string[]): Outputs => (r) => {
  const o = r as Record<string, tf.Tensor>;
  tf.dispose(Object.keys(o).filter((k) => !keys.includes(k)).map((k) => o[k]));
  return keys.map((k) => o[k]);
};

interface Standard {
  /** The baseline (bench/eager.ts); undefined: the converted function is already plain tfjs. */
  eager?: (...args: never[]) => unknown;
  converted: (...args: never[]) => unknown;
  /** Why the autograph variant is left out, if it is. */
  noAutograph?: string;
  args: unknown[];
  outputs: Outputs;
  native?: () => NativeModel;
  noNative?: string;
  /** A second hand-built graph, as an expert writes it (the RNN with its projection hoisted). */
  expert?: () => NativeModel;
  owned: tf.Tensor[];
  reset?: () => void;
  dispose?: () => void;
}

/** The five variants of a function (see the header); `eager` without a call falls back to `converted`. */
function standard(w: Standard): Prepared {
  const staged: Staged<(...args: unknown[]) => unknown>[] = [];
  const stagedCall = (engine: 'tfjs' | 'onnx'): Call => {
    const s = stage(w.converted as (...args: unknown[]) => unknown, { engine });
    staged.push(s);
    return () => w.outputs(s(...w.args));
  };
  const tidy = (fn: (...args: never[]) => unknown): Call => () => tf.tidy(() => w.outputs((fn as (...a: unknown[]) => unknown)(...w.args)));
  let native: NativeModel | undefined;
  const missingOrt = ortMissing();
  if (missingOrt === undefined && w.native !== undefined) native = w.native();
  const expert = missingOrt === undefined ? w.expert?.() : undefined;
  const variants: Variant[] = [
    { key: 'eager', label: 'tfjs eager (dataSync, tidy)', call: tidy(w.eager ?? w.converted) },
    w.noAutograph !== undefined ? { key: 'autograph', label: 'autograph-ts eager', missing: w.noAutograph }
      : { key: 'autograph', label: 'autograph-ts eager', call: tidy(w.converted) },
    { key: 'staged', label: 'staged, tfjs executor', call: stagedCall('tfjs'), traces: true },
    missingOrt !== undefined ? { key: 'onnx', label: 'staged, ONNX Runtime', missing: missingOrt }
      : { key: 'onnx', label: 'staged, ONNX Runtime', call: stagedCall('onnx'), traces: true },
    native !== undefined ? { key: 'native', label: 'hand-built ONNX graph', call: native.run }
      : { key: 'native', label: 'hand-built ONNX graph', missing: missingOrt ?? w.noNative ?? 'not built' },
    ...(expert === undefined ? [] : [{ key: 'expert' as const, label: 'hand-built, projection hoisted', call: expert.run }]),
  ];
  const nativeReset = native !== undefined && 'reset' in native ? (native as StatefulNativeModel).reset : undefined;
  return {
    variants,
    notes: () => [
      ...staged.flatMap((s) => s.inspect(...w.args).engine.threads?.map((t) => `ONNX engine: ${t}`) ?? []),
      ...(native?.threads === undefined ? [] : [`hand-built: ${native.threads}`]),
      ...(expert?.threads === undefined ? [] : [`hand-built, hoisted: ${expert.threads}`]),
    ],
    reset: w.reset === undefined && nativeReset === undefined ? undefined : () => {
      w.reset?.();
      nativeReset?.();
    },
    dispose: () => {
      staged.forEach((s) => s.dispose());
      native?.dispose();
      expert?.dispose();
      w.dispose?.();
      tf.dispose(w.owned);
    },
  };
}

const chainWorkload: Workload = {
  key: 'chain', name: '10,000 dependent scalar ops',
  prepare: () => {
    const x = tf.scalar(1);
    return standard({
      converted: chain, noAutograph: 'same code as eager (no control flow to convert)', args: [x], outputs: single,
      native: () => nativeChain(x, 5000), owned: [x],
    });
  },
};

const collatz: Workload = {
  key: 'collatz', name: 'collatz(27): while + if on a scalar',
  prepare: () => {
    const n = tf.scalar(27);
    return standard({
      eager: eager.collatzSteps, converted: sample('collatz/src/collatz.ts').collatzSteps, args: [n], outputs: single,
      native: () => nativeCollatz(n), owned: [n],
    });
  },
};

const rnnWeights = (features: number, hidden: number) => tf.tidy(() => ({
  wx: tf.randomNormal([features, hidden], 0, 1 / Math.sqrt(features), 'float32', 1) as tf.Tensor2D,
  wh: tf.randomNormal([hidden, hidden], 0, 1 / Math.sqrt(hidden), 'float32', 2) as tf.Tensor2D,
  b: tf.randomNormal([hidden], 0, 0.1, 'float32', 3) as tf.Tensor1D,
}));

/** The paper's RNN: hidden 256 (input features 256), batch and sequence length as given. */
export const rnnWorkload = (batch: number, steps: number, hidden = 256): Workload => ({
  key: `rnn-b${batch}-t${steps}`, name: `tanh RNN h${hidden} b${batch} x${steps}`, flops: rnnFlops(steps, batch, hidden, hidden),
  prepare: () => {
    const w = rnnWeights(hidden, hidden);
    const xs = tf.randomNormal([steps, batch, hidden], 0, 1, 'float32', 4) as tf.Tensor3D;
    const h0 = tf.zeros([batch, hidden]) as tf.Tensor2D;
    return standard({
      eager: eager.rnn, converted: sample('rnn/src/rnn.ts').rnn, args: [xs, h0, w], outputs: single,
      native: () => nativeRnn(xs, h0, w.wx, w.wh, w.b), expert: () => expertRnn(xs, h0, w.wx, w.wh, w.b),
      owned: [xs, h0, w.wx, w.wh, w.b],
    });
  },
});

/** The paper's decoder sizes: vocabulary 1,000, hidden 256, batch 16, at most 64 steps. */
const decode: Workload = {
  key: 'decode', name: 'greedy decode b16 v1000 h256 <=64 steps',
  prepare: () => {
    const [B, H, V, MAX] = [16, 256, 1000, 64];
    const w = tf.tidy(() => ({
      ...rnnWeights(H, H),
      wh: tf.randomNormal([H, H], 0, 0.3 / Math.sqrt(H), 'float32', 2) as tf.Tensor2D,
      embedding: tf.randomNormal([V, H], 0, 1, 'float32', 5) as tf.Tensor2D,
      wo: tf.randomNormal([H, V], 0, 1, 'float32', 6) as tf.Tensor2D,
    }));
    const start = tf.range(0, B, 1, 'int32') as tf.Tensor1D;
    const h0 = tf.zeros([B, H]) as tf.Tensor2D;
    // The end token: the one emitted most often once decoding has settled, so that sequences
    // stop at different steps and the loop stops early when the last one has (here after 45 of 64 steps).
    const eos = tf.tidy(() => {
      const { tokens } = eager.decodeBatch(start, h0, MAX, -1, w);
      const counts = new Map<number, number>();
      for (const row of tokens.slice([0, 10], [B, MAX - 10]).arraySync() as number[][]) {
        for (const t of row) counts.set(t, (counts.get(t) ?? 0) + 1);
      }
      return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
    });
    return standard({
      eager: eager.decodeBatch, converted: sample('rnn/src/rnn.ts').decodeBatch, args: [start, h0, MAX, eos, w],
      outputs: fields('tokens', 'lengths'), native: () => nativeDecode(start, h0, MAX, eos, w),
      owned: [start, h0, ...Object.values(w)],
    });
  },
};

/** samples/seq2seq: tokens collected with push in a loop that stops when every sentence has ended. */
const seq2seq = (mode: 'greedy' | 'beam'): Workload => ({
  key: `seq2seq-${mode}`,
  name: mode === 'greedy' ? 'seq2seq greedy, push, b16 v1000 h256 <=64' : 'seq2seq beam 4, push, b16 v1000 h256 <=64',
  prepare: () => {
    const model = sample('seq2seq/src/model.ts');
    const decode = sample('seq2seq/src/decode.ts');
    const helpers = model as unknown as eager.Seq2SeqHelpers;
    const m = model.randomModel(1000, 256, 4.5) as Record<string, tf.Tensor>;
    const source = model.randomSource(16, 12, 1000) as tf.Tensor2D;
    const owned = [source, ...Object.values(m)];
    const noNative = 'not built (lists of tokens: hand-built sequence ops)';
    return mode === 'greedy'
      ? standard({
        eager: (mm: unknown, s: tf.Tensor2D, n: number) => eager.seq2seqGreedy(helpers, mm, s, n),
        converted: decode.greedyDecode, args: [m, source, 64],
        outputs: single, noNative, owned,
      })
      : standard({
        eager: (mm: never, s: tf.Tensor2D, n: number, k: number) => eager.seq2seqBeam(helpers, mm, s, n, k),
        converted: decode.beamSearch, args: [m, source, 64, 4],
        outputs: fields('ids', 'parents', 'scores'), noNative, owned,
      });
  },
});

const newton: Workload = {
  key: 'newton', name: 'Newton-CG logistic regression 2000x50',
  prepare: () => {
    const m = sample('newton/src/newton.ts');
    const { x, y } = m.syntheticProblem(2000, 50) as { x: tf.Tensor2D; y: tf.Tensor1D };
    const helpers = m as unknown as eager.NewtonHelpers;
    return standard({
      eager: (...args: never[]) => eager.newtonCG(helpers, ...(args as unknown as [tf.Tensor2D, tf.Tensor1D, number, number, number])),
      converted: m.newtonCG, args: [x, y, 1e-3, 1e-5, 50], outputs: fields('w', 'loss', 'newtonSteps', 'cgSteps'),
      noNative: 'not built (three nested solver loops by hand)', owned: [x, y],
    });
  },
};

/** Trainable weights that `reset` puts back to their first values. */
function resettable<T extends Record<string, tf.Variable>>(weights: T): { weights: T; reset: () => void; dispose: () => void } {
  const initial = Object.fromEntries(Object.entries(weights).map(([k, v]) => [k, v.clone()]));
  return {
    weights,
    reset: () => Object.entries(weights).forEach(([k, v]) => v.assign(initial[k])),
    dispose: () => tf.dispose([...Object.values(weights), ...Object.values(initial)]),
  };
}

/**
 * One SGD step of an MLP (128 x 512 -> 256 relu -> 10, softmax cross-entropy) written as tfjs users
 * write it — tf.variableGrads, then an assign per variable — with a hand-built ONNX graph of the
 * same step (gradients by hand) as the native reference. No control flow: the autograph variant
 * is the same code.
 */
const mlpStep: Workload = {
  key: 'mlp', name: 'MLP SGD step b128 512-256-10', flops: mlpFlops(128, 512, 256, 10),
  prepare: () => {
    const [B, I, Hd, C, LR] = [128, 512, 256, 10, 0.01];
    const state = resettable(tf.tidy(() => ({
      w1: tf.variable(tf.randomNormal([I, Hd], 0, 0.05, 'float32', 21), true, 'mlp_w1'),
      b1: tf.variable(tf.zeros([Hd]), true, 'mlp_b1'),
      w2: tf.variable(tf.randomNormal([Hd, C], 0, 0.05, 'float32', 22), true, 'mlp_w2'),
      b2: tf.variable(tf.zeros([C]), true, 'mlp_b2'),
    })));
    const v = state.weights;
    const x = tf.randomNormal([B, I], 0, 1, 'float32', 23) as tf.Tensor2D;
    const labels = tf.tidy(() => tf.oneHot(tf.randomUniform([B], 0, C, 'int32', 24), C).toFloat()) as tf.Tensor2D;
    const step = (xb: tf.Tensor, yb: tf.Tensor): tf.Tensor => {
      const { value, grads } = tf.variableGrads(() =>
        tf.losses.softmaxCrossEntropy(yb, tf.relu(xb.matMul(v.w1).add(v.b1)).matMul(v.w2).add(v.b2)) as tf.Scalar);
      for (const w of Object.values(v)) w.assign(w.sub(grads[w.name].mul(LR)));
      tf.dispose(grads);
      return value;
    };
    return standard({
      converted: step, noAutograph: 'same code as eager (no control flow to convert)', args: [x, labels], outputs: single,
      native: () => nativeMlpStep(x, labels, v, LR), owned: [x, labels], reset: state.reset, dispose: state.dispose,
    });
  },
};

/** One SGD step of samples/bptt: the gradient flows back through the loop over 32 time steps. */
const bptt: Workload = {
  key: 'bptt', name: 'BPTT SGD step h64 b64 x32 (samples/bptt)', flops: bpttFlops(32, 64, 4, 64),
  prepare: () => {
    const m = sample('bptt/src/bptt.ts');
    const { xs, targets } = m.decayingSumTask(32, 64, 4) as { xs: tf.Tensor3D; targets: tf.Tensor2D };
    const state = resettable(m.initialWeights(4, 64) as Record<string, tf.Variable>);
    const optimizer = tf.train.sgd(0.1);
    const w = state.weights as unknown as eager.RnnWeights & { wo: tf.Tensor2D };
    return standard({
      eager: () => optimizer.minimize(() => eager.sequenceLoss(xs, targets, w), true),
      converted: m.trainStep, args: [xs, targets, w, optimizer], outputs: single,
      noNative: 'not built (the backward loop by hand)', owned: [xs, targets], reset: state.reset,
      dispose: () => { state.dispose(); optimizer.dispose(); },
    });
  },
};

/**
 * samples/mnist: SGD on the softmax classifier, batch 200, `steps` steps per call, three ways: the
 * eager JS loop, a staged step called from the JS loop (a graph per step), the whole loop staged.
 */
const mnist = (steps: number): Workload => ({
  key: 'mnist', name: `MNIST softmax SGD b200 x${steps} steps`,
  prepare: () => {
    const m = sample('mnist/src/training.ts');
    type Split = { images: tf.Tensor2D; labels: tf.Tensor2D };
    const { train, test } = sample('mnist/src/data.ts').loadMnist() as { train: Split; test: Split };
    tf.dispose([test.images, test.labels]);
    const model = m.createModel() as { weights: tf.Variable; bias: tf.Variable };
    const state = resettable(model);
    const optimizer = tf.train.sgd(0.5);
    const args = [model, optimizer, train.images, train.labels];
    const jsLoop = (step: (k: number) => tf.Tensor): Call => () => {
      let loss: tf.Tensor | undefined;
      for (let k = 0; k < steps; k++) {
        loss?.dispose();
        loss = step(k);
      }
      return [loss!];
    };
    const stepOn = (engine: 'tfjs' | 'onnx'): Call => {
      const s = stage(m.trainStep, { engine });
      staged.push(s);
      const counters = Array.from({ length: steps }, (_, k) => tf.scalar(k, 'int32'));
      owned.push(...counters);
      return jsLoop((k) => s(...args, counters[k]));
    };
    const loopOn = (engine: 'tfjs' | 'onnx'): Call => {
      const s = stage(m.trainLoop, { engine });
      staged.push(s);
      return () => [s(...args, count)];
    };
    const staged: Staged<(...a: unknown[]) => tf.Tensor>[] = [];
    const count = tf.scalar(steps, 'int32');
    const owned: tf.Tensor[] = [count, train.images, train.labels];
    const missingOrt = ortMissing();
    const onnx = (key: VariantKey, label: string, call: () => Call): Variant =>
      (missingOrt !== undefined ? { key, label, missing: missingOrt } : { key, label, call: call(), traces: true });
    const variants: Variant[] = [
      { key: 'eager', label: 'tfjs eager JS loop (tidy per step)', call: jsLoop((k) => tf.tidy(() => m.trainStep(...args, k))) },
      { key: 'autograph', label: 'autograph-ts eager (trainLoop)', call: () => [tf.tidy(() => m.trainLoop(...args, count))] },
      { key: 'staged-step', label: 'staged step, JS loop (tfjs executor)', call: stepOn('tfjs'), traces: true },
      { key: 'staged', label: 'staged whole loop (tfjs executor)', call: loopOn('tfjs'), traces: true },
      onnx('onnx-step', 'staged step, JS loop (ONNX Runtime)', () => stepOn('onnx')),
      onnx('onnx', 'staged whole loop (ONNX Runtime)', () => loopOn('onnx')),
      { key: 'native', label: 'hand-built ONNX graph', missing: missingOrt ?? 'not built (gradients and updates by hand)' },
    ];
    return {
      variants,
      reset: state.reset,
      dispose: () => {
        staged.forEach((s) => s.dispose());
        state.dispose();
        optimizer.dispose();
        tf.dispose(owned);
      },
    };
  },
});

export interface Selection { quick: boolean; full: boolean; backend: string }

/**
 * The workloads of one run on one backend: the RNN grid in full on wasm, two of its sizes on cpu
 * (a cpu RNN call takes seconds: the whole grid there is --full).
 */
export function workloads({ quick, full, backend }: Selection, options: Options): Workload[] {
  const rnnSizes: [number, number][] = quick ? [[32, 64]]
    : full || backend === 'wasm' ? [[32, 64], [32, 128], [64, 64], [64, 128], [128, 64], [128, 128]]
    : [[32, 64], [64, 128]];
  return [
    chainWorkload, collatz, ...rnnSizes.map(([b, t]) => rnnWorkload(b, t)), decode, seq2seq('greedy'),
    // A beam-search call on cpu takes ~6 s eagerly (tfjs's JS matMuls): in the default run on wasm only.
    ...(full || backend === 'wasm' ? [seq2seq('beam')] : []), newton, bptt, mlpStep, mnist(options.mnistSteps),
  ];
}
