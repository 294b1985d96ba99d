/**
 * The native reference of `npm run bench`: each model written by hand as an ONNX graph, the way
 * someone using onnxruntime-node directly would (a Loop over the steps, scan outputs where that is
 * the natural way to collect tokens), fed tensors made once and run by onnxruntime-node. The staged
 * ONNX engine is measured against these: the cost of getting there from TypeScript.
 */
import * as tf from '@tensorflow/tfjs';
import { GraphScope, ModelContext, Value } from '../backends/onnx_model/model_builder';
import { encodeModel, OnnxType } from '../backends/onnx_model/onnx_proto';
import { ortTensor, OrtTensor, SessionOptions } from '../backends/engines/onnx/runtime';
import { TunedSession } from '../backends/engines/onnx/threads';
import { typedData } from '../backends/common/typed_data';

const F = OnnxType.FLOAT;
const I64 = OnnxType.INT64;
const BOOL = OnnxType.BOOL;

/** A hand-built model, ready to run on fixed inputs; `run` returns tfjs tensors like the other variants. */
export interface NativeModel {
  run: () => tf.Tensor[];
  dispose: () => void;
  /** Threads per operator of its session, and how they were chosen. */
  readonly threads?: string;
}

function encode(model: ModelContext, g: GraphScope, outputs: Value[], names: string[]): Uint8Array {
  return encodeModel({ graph: g.graph(g.outputs(outputs, names), model.initializers), producerName: 'bench', producerVersion: '0' });
}

function feedsOf(inputs: Record<string, tf.Tensor>): Record<string, OrtTensor> {
  return Object.fromEntries(Object.entries(inputs).map(([name, t]) => [name, ortTensor(t.dtype as 'float32' | 'int32', typedData(t), t.shape)]));
}

function session(bytes: Uint8Array, inputs: Record<string, tf.Tensor>, read: (out: Record<string, OrtTensor>) => tf.Tensor[],
                 outputNames: string[], heaviestOperator: number, options: SessionOptions = {}): NativeModel {
  // Threads per operator chosen as the engine chooses them (backends/engines/onnx/threads.ts): the
  // reference is ORT at its best on this machine, not at a fixed setting (unless `options` fix them).
  const s = new TunedSession(bytes, options, heaviestOperator);
  const feeds = feedsOf(inputs);
  // Its measurement of threads done before it is timed (a warm-up of calls over 50 ms ends sooner).
  while (s.settling) s.run(feeds, outputNames);
  return { run: () => read(s.run(feeds, outputNames)), dispose: () => s.dispose(), get threads() { return s.threads; } };
}

/** h_t = tanh(x_t Wx + h_{t-1} Wh + b) over xs [T, B, F] from h0: Loop(T) { Gather, 2 MatMul, 2 Add, Tanh }. */
export function nativeRnn(xs: tf.Tensor3D, h0: tf.Tensor2D, wx: tf.Tensor2D, wh: tf.Tensor2D, b: tf.Tensor1D,
                          options: SessionOptions = {}): NativeModel {
  const [T, B, Fe] = xs.shape;
  const H = wh.shape[0];
  const model = new ModelContext();
  const g = new GraphScope(model, 'rnn');
  const xsV = g.input(model.claim('xs'), F, [T, B, Fe]);
  const h0V = g.input(model.claim('h0'), F, [B, H]);
  const wxV = g.input(model.claim('wx'), F, [Fe, H]);
  const whV = g.input(model.claim('wh'), F, [H, H]);
  const bV = g.input(model.claim('b'), F, [H]);
  model.claim('h');
  const body = new GraphScope(model, 'step');
  const t = body.input(model.fresh('t'), I64, []);
  const keepGoing = body.input(model.fresh('keep_going'), BOOL, []);
  const hIn = body.input(model.fresh('h_in'), F, [B, H]);
  const x = body.op('Gather', [xsV, t], { axis: 0 }, F, [B, Fe]);
  const sum = body.op('Add', [body.op('MatMul', [x, wxV], {}, F, [B, H]), body.op('MatMul', [hIn, whV], {}, F, [B, H])], {}, F, [B, H]);
  const hOut = body.op('Tanh', [body.op('Add', [sum, bV], {}, F, [B, H])], {}, F, [B, H]);
  const [h] = g.opN('Loop', [g.int64s([T], []), g.scalar(true, BOOL), h0V],
    { body: { graph: body.graph(body.outputs([keepGoing, hOut])) } }, [{ type: F, shape: [B, H] }]);
  return session(encode(model, g, [h], ['h']), { xs, h0, wx, wh, b },
    (out) => [tf.tensor(out.h.data as Float32Array, [B, H])], ['h'], B * Fe * H, options);
}

/**
 * The same RNN as an expert builds it by hand (what cuDNN does): the input projection of every step
 * in one GEMM before the loop, P = xs Wx + b (one Gemm of the [T*B, F] rows with the bias fused),
 * and a Loop(T) { Gather(P, t), MatMul(h, Wh), Add, Tanh } that only does the recurrent product.
 */
export function expertRnn(xs: tf.Tensor3D, h0: tf.Tensor2D, wx: tf.Tensor2D, wh: tf.Tensor2D, b: tf.Tensor1D,
                          options: SessionOptions = {}): NativeModel {
  const [T, B, Fe] = xs.shape;
  const H = wh.shape[0];
  const model = new ModelContext();
  const g = new GraphScope(model, 'rnn_hoisted');
  const xsV = g.input(model.claim('xs'), F, [T, B, Fe]);
  const h0V = g.input(model.claim('h0'), F, [B, H]);
  const wxV = g.input(model.claim('wx'), F, [Fe, H]);
  const whV = g.input(model.claim('wh'), F, [H, H]);
  const bV = g.input(model.claim('b'), F, [H]);
  model.claim('h');
  // One Gemm over the T*B rows with the bias fused in (ONNX Gemm is 2-D: reshaped around it).
  const rows = g.op('Reshape', [xsV, g.int64s([T * B, Fe])], {}, F, [T * B, Fe]);
  const projected = g.op('Reshape', [g.op('Gemm', [rows, wxV, bV], {}, F, [T * B, H]), g.int64s([T, B, H])], {}, F, [T, B, H]);
  const body = new GraphScope(model, 'step');
  const t = body.input(model.fresh('t'), I64, []);
  const keepGoing = body.input(model.fresh('keep_going'), BOOL, []);
  const hIn = body.input(model.fresh('h_in'), F, [B, H]);
  const row = body.op('Gather', [projected, t], { axis: 0 }, F, [B, H]);
  const hOut = body.op('Tanh', [body.op('Add', [row, body.op('MatMul', [hIn, whV], {}, F, [B, H])], {}, F, [B, H])], {}, F, [B, H]);
  const [h] = g.opN('Loop', [g.int64s([T], []), g.scalar(true, BOOL), h0V],
    { body: { graph: body.graph(body.outputs([keepGoing, hOut])) } }, [{ type: F, shape: [B, H] }]);
  return session(encode(model, g, [h], ['h']), { xs, h0, wx, wh, b },
    (out) => [tf.tensor(out.h.data as Float32Array, [B, H])], ['h'], T * B * Fe * H, options);
}

/**
 * Batched greedy decoding until every sequence has emitted `eos` (or maxLength steps): a Loop whose
 * condition is "not all finished", the tokens as a scan output [steps, B] (padded and transposed to
 * [B, maxLength] int32 after the run, the layout of the other variants).
 */
export function nativeDecode(start: tf.Tensor1D, h0: tf.Tensor2D, maxLength: number, eos: number,
                             w: { wx: tf.Tensor2D; wh: tf.Tensor2D; b: tf.Tensor1D; embedding: tf.Tensor2D; wo: tf.Tensor2D }): NativeModel {
  const B = start.shape[0];
  const H = w.wh.shape[0];
  const [V, Fe] = w.embedding.shape;
  const model = new ModelContext();
  const g = new GraphScope(model, 'decode');
  const startV = g.cast(g.input(model.claim('start'), OnnxType.INT32, [B]), I64);
  const h0V = g.input(model.claim('h0'), F, [B, H]);
  const [wxV, whV, bV, embV, woV] = (['wx', 'wh', 'b', 'embedding', 'wo'] as const).map((n) => g.input(model.claim(n), F, w[n].shape));
  model.claim('tokens');
  model.claim('lengths');
  const body = new GraphScope(model, 'step');
  body.input(model.fresh('t'), I64, []);
  body.input(model.fresh('keep_going'), BOOL, []);
  const token = body.input(model.fresh('token'), I64, [B]);
  const hIn = body.input(model.fresh('h_in'), F, [B, H]);
  const finished = body.input(model.fresh('finished'), BOOL, [B]);
  const lengths = body.input(model.fresh('lengths_in'), I64, [B]);
  const x = body.op('Gather', [embV, token], { axis: 0 }, F, [B, Fe]);
  const sum = body.op('Add', [body.op('MatMul', [x, wxV], {}, F, [B, H]), body.op('MatMul', [hIn, whV], {}, F, [B, H])], {}, F, [B, H]);
  const h = body.op('Tanh', [body.op('Add', [sum, bV], {}, F, [B, H])], {}, F, [B, H]);
  const next = body.op('ArgMax', [body.op('MatMul', [h, woV], {}, F, [B, V])], { axis: 1, keepdims: 0 }, I64, [B]);
  const live = body.cast(body.op('Not', [finished], {}, BOOL, [B]), I64);
  const emitted = body.op('Mul', [next, live], {}, I64, [B]);
  const lengthsOut = body.op('Add', [lengths, live], {}, I64, [B]);
  const finishedOut = body.op('Or', [finished, body.op('Equal', [next, body.scalar(eos, I64)], {}, BOOL, [B])], {}, BOOL, [B]);
  const allDone = body.op('ReduceMin', [body.cast(finishedOut, OnnxType.INT32)], { keepdims: 0 }, OnnxType.INT32, []);
  const keepGoing = body.op('Not', [body.cast(allDone, BOOL)], {}, BOOL, []);
  const loopBody = body.graph(body.outputs([keepGoing, next, h, finishedOut, lengthsOut, emitted]));
  const [, , , lengthsV, tokensV] = g.opN('Loop', [g.int64s([maxLength], []), g.scalar(true, BOOL), startV, h0V,
    g.filled([B], false, BOOL), g.filled([B], 0, I64)], { body: { graph: loopBody } },
  [{ type: I64, shape: [B] }, { type: F, shape: [B, H] }, { type: BOOL, shape: [B] }, { type: I64, shape: [B] },
    { type: I64, shape: [-1, B] }]);
  const outputs = [g.cast(lengthsV, OnnxType.INT32), g.cast(tokensV, OnnxType.INT32)];
  return session(encode(model, g, outputs, ['lengths', 'tokens']), { start, h0, ...w }, (out) => {
    const steps = out.tokens.dims[0];
    return tf.tidy(() => [
      tf.tensor(out.tokens.data as Int32Array, [steps, B], 'int32').transpose().pad([[0, 0], [0, maxLength - steps]]),
      tf.tensor(out.lengths.data as Int32Array, [B], 'int32'),
    ]);
  }, ['tokens', 'lengths'], B * H * V);
}

/** Collatz steps of n: Loop while n > 1 { n = n even ? n / 2 : 3 n + 1; steps += 1 } with Where. */
export function nativeCollatz(n: tf.Scalar): NativeModel {
  const model = new ModelContext();
  const g = new GraphScope(model, 'collatz');
  const nV = g.input(model.claim('n'), F, []);
  model.claim('steps');
  const body = new GraphScope(model, 'step');
  body.input(model.fresh('i'), I64, []);
  body.input(model.fresh('keep_going'), BOOL, []);
  const nIn = body.input(model.fresh('n_in'), F, []);
  const stepsIn = body.input(model.fresh('steps_in'), F, []);
  const even = body.op('Equal', [body.op('Mod', [nIn, body.scalar(2, F)], { fmod: 1 }, F, []), body.scalar(0, F)], {}, BOOL, []);
  const half = body.op('Floor', [body.op('Div', [nIn, body.scalar(2, F)], {}, F, [])], {}, F, []);
  const triple = body.op('Add', [body.op('Mul', [nIn, body.scalar(3, F)], {}, F, []), body.scalar(1, F)], {}, F, []);
  const nOut = body.op('Where', [even, half, triple], {}, F, []);
  const stepsOut = body.op('Add', [stepsIn, body.scalar(1, F)], {}, F, []);
  const keepGoing = body.op('Greater', [nOut, body.scalar(1, F)], {}, BOOL, []);
  const loopBody = body.graph(body.outputs([keepGoing, nOut, stepsOut]));
  const first = g.op('Greater', [nV, g.scalar(1, F)], {}, BOOL, []);
  const [, steps] = g.opN('Loop', ['', first, nV, g.scalar(0, F)], { body: { graph: loopBody } },
    [{ type: F, shape: [] }, { type: F, shape: [] }]);
  return session(encode(model, g, [steps], ['steps']), { n }, (out) => [tf.scalar((out.steps.data as Float32Array)[0])], ['steps'], 1);
}

/** y = y * 0.999 + 0.001, 5,000 times: 10,000 dependent nodes in one graph. */
export function nativeChain(x: tf.Scalar, length: number): NativeModel {
  const model = new ModelContext();
  const g = new GraphScope(model, 'chain');
  let y = g.input(model.claim('x'), F, []);
  model.claim('y');
  const a = g.scalar(0.999, F);
  const c = g.scalar(0.001, F);
  for (let i = 0; i < length; i++) y = g.op('Add', [g.op('Mul', [y, a], {}, F, []), c], {}, F, []);
  return session(encode(model, g, [y], ['y']), { x }, (out) => [tf.scalar((out.y.data as Float32Array)[0])], ['y'], 1);
}

/** A hand-built model with state (weights it updates): `reset` puts the first values back. */
export interface StatefulNativeModel extends NativeModel {
  reset: () => void;
}

/**
 * One SGD step of a 2-layer MLP with softmax cross-entropy (tf.losses.softmaxCrossEntropy: the mean
 * over the batch), the gradients written out by hand as someone using onnxruntime-node would:
 *   z = x w1 + b1; h = relu(z); logits = h w2 + b2; loss = mean(-sum(labels * logSoftmax(logits)))
 *   dlogits = (softmax(logits) - labels) / B; dw2 = hᵀ dlogits; db2 = Σ dlogits;
 *   dz = (dlogits w2ᵀ) * (z > 0); dw1 = xᵀ dz; db1 = Σ dz; w -= lr dw.
 * The new weights come back as outputs and are fed to the next call as they are (no copies).
 */
export function nativeMlpStep(x: tf.Tensor2D, labels: tf.Tensor2D, weights: Record<'w1' | 'b1' | 'w2' | 'b2', tf.Tensor>,
                              learningRate: number): StatefulNativeModel {
  const [B, I] = x.shape;
  const Hd: number = weights.w1.shape[1]!;
  const C: number = weights.w2.shape[1]!;
  const model = new ModelContext();
  const g = new GraphScope(model, 'mlp_step');
  const xV = g.input(model.claim('x'), F, [B, I]);
  const yV = g.input(model.claim('labels'), F, [B, C]);
  const [w1, b1, w2, b2] = (['w1', 'b1', 'w2', 'b2'] as const).map((n) => g.input(model.claim(n), F, weights[n].shape));
  const z = g.op('Gemm', [xV, w1, b1], {}, F, [B, Hd]);
  const h = g.op('Relu', [z], {}, F, [B, Hd]);
  const logits = g.op('Gemm', [h, w2, b2], {}, F, [B, C]);
  const logp = g.op('LogSoftmax', [logits], { axis: 1 }, F, [B, C]);
  const perExample = g.op('ReduceSum', [g.op('Mul', [yV, logp], {}, F, [B, C]), g.int64s([1])], { keepdims: 0 }, F, [B]);
  const loss = g.op('Neg', [g.op('ReduceMean', [perExample, g.int64s([0])], { keepdims: 0 }, F, [])], {}, F, []);
  const dLogits = g.op('Mul', [g.op('Sub', [g.op('Exp', [logp], {}, F, [B, C]), yV], {}, F, [B, C]), g.scalar(1 / B, F)], {}, F, [B, C]);
  const dw2 = g.op('Gemm', [h, dLogits], { transA: 1 }, F, [Hd, C]);
  const db2 = g.op('ReduceSum', [dLogits, g.int64s([0])], { keepdims: 0 }, F, [C]);
  const dh = g.op('Gemm', [dLogits, w2], { transB: 1 }, F, [B, Hd]);
  const dz = g.op('Where', [g.op('Greater', [z, g.scalar(0, F)], {}, BOOL, [B, Hd]), dh, g.scalar(0, F)], {}, F, [B, Hd]);
  const dw1 = g.op('Gemm', [xV, dz], { transA: 1 }, F, [I, Hd]);
  const db1 = g.op('ReduceSum', [dz, g.int64s([0])], { keepdims: 0 }, F, [Hd]);
  const lr = g.scalar(learningRate, F);
  const update = (w: Value, dw: Value): Value => g.op('Sub', [w, g.op('Mul', [dw, lr], {}, F, dw.shape)], {}, F, w.shape);
  const names = ['loss', 'w1_next', 'b1_next', 'w2_next', 'b2_next'];
  const bytes = encode(model, g, [loss, update(w1, dw1), update(b1, db1), update(w2, dw2), update(b2, db2)], names);
  const s = new TunedSession(bytes, {}, B * I * Hd);
  const first = feedsOf({ w1: weights.w1, b1: weights.b1, w2: weights.w2, b2: weights.b2 });
  const data = feedsOf({ x, labels });
  let current = first;
  return {
    run: () => {
      const out = s.run({ ...data, ...current }, names);
      current = { w1: out.w1_next, b1: out.b1_next, w2: out.w2_next, b2: out.b2_next };
      return [tf.scalar((out.loss.data as Float32Array)[0])];
    },
    reset: () => (current = first),
    dispose: () => s.dispose(),
    get threads() {
      return s.threads;
    },
  };
}
