/**
 * The op check cases shared by the engines and exporters: each kernel with inputs covering its
 * dtypes and edge values (NaN, ±Infinity, ±0, negative operands of mod and floor division, zero
 * divisors), to compare against tfjs eager.
 */
import * as tf from '@tensorflow/tfjs';

export type Fn = (...args: tf.Tensor[]) => tf.Tensor | tf.Tensor[];

export interface OpCase {
  kernel: string;
  /** What the case covers, beyond the kernel name. */
  note?: string;
  fn: Fn;
  args: () => tf.Tensor[];
  /** Relative tolerance for float results (0: exact, signed zeros included). */
  tol?: number;
  /** Run on this tfjs backend (edge values where backends differ, kernels wasm lacks). */
  backend?: string;
  /**
   * The ONNX lowering must refuse the kernel, with a reason matching this (values ONNX cannot
   * give): the function then runs on the tfjs executor.
   */
  refused?: RegExp;
  /** Eager tfjs throws this (and so must the staged function, traced on `traceArgs`). */
  throws?: RegExp;
  traceArgs?: () => tf.Tensor[];
}

const EDGE = [-3.5, -2, -1, -0.5, -0, 0, 0.5, 1, 2, 7.25, NaN, Infinity, -Infinity];
const POSITIVE = [0.1, 0.5, 1, 2, 3.7, 100];
const UNIT = [-0.9, -0.5, 0, 0.25, 0.9];
const f = (values: number[], shape?: number[]): tf.Tensor => tf.tensor(values, shape, 'float32');
const i32 = (values: number[], shape?: number[]): tf.Tensor => tf.tensor(values, shape, 'int32');
const b = (values: boolean[]): tf.Tensor => tf.tensor(values, undefined, 'bool');

// Binary operands covering sign combinations, zeros and non-finite values.
const A = [7, -7, 7, -7, 5.5, -5.5, 0, -0, 3, NaN, Infinity, 1, -4, 4];
const B = [3, 3, -3, -3, 2, 2, 3, 3, 0, 2, 3, Infinity, 2, -2];
const AI = [7, -7, 7, -7, 6, -6, 0, 0, 3, -1, 1, 9, -4, 4];
const BI = [3, 3, -3, -3, 4, 4, 3, -3, 0, 0, 2, 7, 2, -2];
const BI_NONZERO = BI.map((x) => x || 5);
// int32 operands past float32's exact integers (2^24) and at the int32 limits: results that
// overflow, and quotients that differ when a backend divides in float32 (wasm) or exactly (cpu).
const AI_LARGE = [16777217, 2147483647, -2147483648, 100000007, -100000007, 2147483647, 46341, -2147483647, 2147483646];
const BI_LARGE = [1, 1, -1, 3, 3, -1, 46341, 2, 16777217];

const unary = (kernel: string, op: (x: tf.Tensor) => tf.Tensor, values = EDGE, tol = 1e-6): OpCase =>
  ({ kernel, fn: op, args: () => [f(values)], tol });
const binaryF = (kernel: string, op: (a: tf.Tensor, b: tf.Tensor) => tf.Tensor, tol = 0): OpCase =>
  ({ kernel, note: 'float32', fn: op, args: () => [f(A), f(B)], tol });
const binaryI = (kernel: string, op: (a: tf.Tensor, b: tf.Tensor) => tf.Tensor): OpCase =>
  ({ kernel, note: 'int32', fn: op, args: () => [i32(AI), i32(BI)] });

export const cases: OpCase[] = [
  // unary, float32
  unary('Abs', tf.abs), unary('Neg', tf.neg), unary('Sign', tf.sign), unary('Floor', tf.floor), unary('Ceil', tf.ceil),
  unary('Round', tf.round, [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7, NaN]),
  unary('Exp', tf.exp), unary('Log', tf.log, [...POSITIVE, 0, -1, NaN]), unary('Sqrt', tf.sqrt, [...POSITIVE, 0, -1]),
  unary('Rsqrt', tf.rsqrt, POSITIVE), unary('Reciprocal', tf.reciprocal, [...POSITIVE, -2]),
  unary('Square', tf.square), unary('Tanh', tf.tanh), unary('Sigmoid', tf.sigmoid),
  unary('Sin', tf.sin, UNIT), unary('Cos', tf.cos, UNIT), unary('Tan', tf.tan, UNIT), unary('Asin', tf.asin, UNIT),
  unary('Acos', tf.acos, UNIT), unary('Atan', tf.atan), unary('Sinh', tf.sinh, UNIT), unary('Cosh', tf.cosh, UNIT),
  unary('Asinh', tf.asinh, UNIT), unary('Atanh', tf.atanh, UNIT), unary('Acosh', tf.acosh, [1, 1.5, 3]),
  unary('Erf', tf.erf, UNIT, 1e-5), unary('Expm1', tf.expm1, [-1, -0.5, 0.5, 1, 2], 1e-5),
  unary('Log1p', tf.log1p, [-0.5, 0.5, 1, 2, 10], 1e-5),
  unary('Relu', tf.relu), unary('Relu6', tf.relu6, [-1, 0, 3, 6, 7, NaN]), unary('Elu', tf.elu, [-2, -0.5, 0, 1.5]),
  unary('Selu', tf.selu, [-2, -0.5, 0, 1.5]), unary('Softplus', tf.softplus, [-3, 0, 2, 30]),
  unary('LeakyRelu', (x) => tf.leakyRelu(x, 0.3), [-2, -0.5, 0, 1.5]),
  unary('Step', (x) => tf.step(x, 0.25), [-2, 0, 1.5, NaN]),
  unary('IsNan', tf.isNaN), unary('IsInf', tf.isInf), unary('IsFinite', tf.isFinite),
  unary('ClipByValue', (x) => tf.clipByValue(x, -1, 2)),
  // unary, int32
  { kernel: 'Abs', note: 'int32', fn: tf.abs, args: () => [i32(AI)] },
  { kernel: 'Neg', note: 'int32', fn: tf.neg, args: () => [i32(AI)] },
  { kernel: 'Square', note: 'int32', fn: tf.square, args: () => [i32(AI)] },
  { kernel: 'Relu', note: 'int32', fn: tf.relu, args: () => [i32(AI)] },
  { kernel: 'LogicalNot', fn: tf.logicalNot, args: () => [b([true, false])] },
  { kernel: 'Identity', note: 'returned as is, and used twice', fn: (x) => [tf.clone(x), tf.clone(x).mul(2)], args: () => [f([1, -0, NaN])] },
  { kernel: 'Cast', note: 'to its own dtype', fn: (x) => x.cast('int32'), args: () => [i32([1, -2])] },
  // casts: float -> int32 truncates toward zero (NaN -> 0), -> bool is x != 0
  { kernel: 'Cast', note: 'float32 -> int32', fn: (x) => x.toInt(), args: () => [f([-2.7, -0.5, 0.5, 2.7, 1e6, NaN])] },
  // (tfjs-wasm casts other floats to bool bytewise: -2 -> 254, 0.5 -> 0; cpu and ONNX give x != 0.)
  { kernel: 'Cast', note: 'float32 -> bool', fn: (x) => x.toBool(), args: () => [f([0, -0, 1])], refused: /low byte/, backend: 'wasm' },
  { kernel: 'Cast', note: 'float32 -> bool, cpu', fn: (x) => x.toBool(), args: () => [f([-2, 0, -0, 0.5, NaN])], backend: 'cpu' },
  { kernel: 'Cast', note: 'int32 -> float32', fn: (x) => x.toFloat(), args: () => [i32([-3, 0, 16777217])] },
  { kernel: 'Cast', note: 'bool -> int32', fn: (x) => x.toInt(), args: () => [b([true, false])] },
  // binary
  binaryF('Add', tf.add), binaryI('Add', tf.add), binaryF('Sub', tf.sub), binaryI('Sub', tf.sub),
  binaryF('Multiply', tf.mul), binaryI('Multiply', tf.mul), binaryF('RealDiv', tf.div),
  binaryF('FloorDiv', tf.floorDiv), binaryI('FloorDiv', tf.floorDiv), binaryI('FloorDiv', tf.div),
  binaryF('Mod', tf.mod),
  // (tfjs-wasm throws on an int32 modulo by zero; cpu gives 0.)
  { kernel: 'Mod', note: 'int32', fn: tf.mod, args: () => [i32(AI), i32(BI_NONZERO)] },
  { kernel: 'Mod', note: 'int32, cpu', fn: tf.mod, args: () => [i32(AI), i32(BI)], backend: 'cpu' },
  { kernel: 'FloorDiv', note: 'int32, cpu', fn: tf.floorDiv, args: () => [i32(AI), i32(BI)], backend: 'cpu' },
  ...(['wasm', 'cpu'] as const).flatMap((backend): OpCase[] => (['Maximum', 'Minimum'] as const).map((kernel) => ({
    kernel, note: `signed zeros, ${backend}`, fn: kernel === 'Maximum' ? tf.maximum : tf.minimum, backend,
    args: () => [f([0, -0, -0, 0, 1, -0]), f([-0, 0, -0, 0, -0, NaN])] }))),
  // (tf.norm's exponent: a float32 constant that tfjs-cpu holds in an Int32Array, from a no-op cast.)
  { kernel: 'Pow', note: 'tf.norm, cpu', fn: (x) => x.norm(), args: () => [f([0.1, -0.2, 0.3, 0.05])], backend: 'cpu', tol: 1e-6 },
  ...(['wasm', 'cpu'] as const).flatMap((backend): OpCase[] => [
    ...([
      ['Add', tf.add], ['Sub', tf.sub], ['Multiply', tf.mul], ['FloorDiv', tf.floorDiv], ['Mod', tf.mod],
      ['Maximum', tf.maximum], ['Minimum', tf.minimum],
    ] as const).map(([kernel, fn]): OpCase =>
      ({ kernel, note: `int32 past 2^24, ${backend}`, fn, args: () => [i32(AI_LARGE), i32(BI_LARGE)], backend })),
    { kernel: 'Square', note: `int32 past 2^24, ${backend}`, fn: tf.square, args: () => [i32(AI_LARGE)], backend },
    { kernel: 'Pow', note: `int32 past 2^24, ${backend}`, fn: tf.pow,
      args: () => [i32([46341, -3, 2, 65536, 7]), i32([2, 21, 31, 2, 11])], backend },
  ]),
  { kernel: 'ClipByValue', note: 'cpu keeps NaN', fn: (x) => tf.clipByValue(x, -1, 2), args: () => [f(EDGE)], backend: 'cpu' },
  binaryF('Maximum', tf.maximum), binaryI('Maximum', tf.maximum), binaryF('Minimum', tf.minimum), binaryI('Minimum', tf.minimum),
  { kernel: 'Pow', note: 'float32', fn: tf.pow, args: () => [f([2, -2, 0.5, 0, 3, NaN]), f([3, 2, 2, 0, -1, 0])], tol: 1e-6 },
  { kernel: 'Pow', note: 'int32', fn: tf.pow, args: () => [i32([2, -2, 5, 0, 3]), i32([3, 3, 2, 0, 1])] },
  binaryF('SquaredDifference', tf.squaredDifference),
  binaryF('Equal', tf.equal), binaryI('Equal', tf.equal), binaryF('NotEqual', tf.notEqual), binaryI('NotEqual', tf.notEqual),
  binaryF('Greater', tf.greater), binaryI('Greater', tf.greater), binaryF('GreaterEqual', tf.greaterEqual),
  binaryF('Less', tf.less), binaryI('Less', tf.less), binaryF('LessEqual', tf.lessEqual), binaryI('LessEqual', tf.lessEqual),
  { kernel: 'Equal', note: 'bool', fn: tf.equal, args: () => [b([true, true, false]), b([true, false, false])] },
  { kernel: 'LogicalAnd', fn: tf.logicalAnd, args: () => [b([true, true, false, false]), b([true, false, true, false])] },
  { kernel: 'LogicalOr', fn: tf.logicalOr, args: () => [b([true, true, false, false]), b([true, false, true, false])] },
  { kernel: 'Add', note: 'broadcast [2,3] + [3]', fn: tf.add, args: () => [f([1, 2, 3, 4, 5, 6], [2, 3]), f([10, 20, 30])] },
  { kernel: 'Prelu', fn: tf.prelu, args: () => [f([-2, -1, 0, 1, 2, -3]), f([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])] },
  { kernel: 'AddN', fn: (x, y, z) => tf.addN([x, y, z]), args: () => [f([1, 2]), f([3, 4]), f([5, NaN])] },
  { kernel: 'Select', note: 'signed zeros, NaN', fn: (c, x, y) => tf.where(c, x, y),
    args: () => [b([true, false, true, false, true]), f([-0, 2, 0, 1, NaN]), f([-1, -0, -3, 0, 5])] },
  // (tfjs-wasm's Select on bool values returns wrong values and then corrupts its heap: checked on cpu.)
  { kernel: 'Select', note: 'bool, cpu', fn: (c, x, y) => tf.where(c, x, y), args: () => [b([true, false, true, false]), b([true, true, false, false]), b([false, false, true, true])], backend: 'cpu' },
  { kernel: 'Select', note: 'int32', fn: (c, x, y) => tf.where(c, x, y), args: () => [b([false, true]), i32([1, 2]), i32([-1, -2])] },
  // reductions
  { kernel: 'Sum', fn: (x) => x.sum(1), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Sum', note: 'all axes, keepDims, int32', fn: (x) => x.sum(undefined, true), args: () => [i32([1, -2, 3, 4], [2, 2])] },
  { kernel: 'Max', fn: (x) => x.max(0), args: () => [f([1, -2, 3, 4, 5, -6], [2, 3])] },
  { kernel: 'Max', note: 'int32', fn: (x) => x.max(-1), args: () => [i32([1, -2, 3, 4, 5, -6], [2, 3])] },
  { kernel: 'Min', fn: (x) => x.min(1, true), args: () => [f([1, -2, 3, 4, 5, -6], [2, 3])] },
  { kernel: 'Prod', fn: (x) => x.prod(1), args: () => [f([1, -2, 3, 4, 5, -6], [2, 3])] },
  { kernel: 'Mean', fn: (x) => x.mean(0), args: () => [f([1, -2, 3, 4, 5, -6], [2, 3])] },
  { kernel: 'All', fn: (x) => x.all(1), args: () => [b([true, true, false, true])].map((t) => t.reshape([2, 2])) },
  { kernel: 'Any', fn: (x) => x.any(0), args: () => [b([true, false, false, false])].map((t) => t.reshape([2, 2])) },
  { kernel: 'ArgMax', fn: (x) => x.argMax(1), args: () => [f([1, 5, 5, 4, -1, -2], [2, 3])] },
  { kernel: 'ArgMin', fn: (x) => x.argMin(0), args: () => [f([1, 5, 5, 4, -1, -2], [2, 3])] },
  { kernel: 'Softmax', fn: (x) => tf.softmax(x), args: () => [f([1, 2, 3, -1, 0, 1], [2, 3])], tol: 1e-6 },
  { kernel: 'Cumsum', fn: (x) => tf.cumsum(x, 1, true, true), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  // shapes
  { kernel: 'Reshape', fn: (x) => x.reshape([3, -1]), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Reshape', note: 'a zero-size dim', fn: (x) => x.reshape([0, 3]), args: () => [f([], [0, 1, 3])] },
  { kernel: 'Transpose', fn: (x) => x.transpose([1, 0]), args: () => [i32([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Concat', fn: (x, y) => tf.concat([x, y], -1), args: () => [f([1, 2], [2, 1]), f([3, 4, 5, 6], [2, 2])] },
  { kernel: 'Pack', fn: (x, y) => tf.stack([x, y], 1), args: () => [i32([1, 2]), i32([3, 4])] },
  { kernel: 'Unpack', fn: (x) => tf.unstack(x, 1), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'SplitV', fn: (x) => tf.split(x, [1, 2], 1), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Slice', fn: (x) => x.slice([0, 1], [-1, 2]), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Slice', note: 'numbers, a short begin', fn: (x) => x.slice(1, 1).add(x.slice([1])), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Slice', note: '1-D, numbers', fn: (x) => x.slice(2), args: () => [f([1, 2, 3, 4, 5])] },
  { kernel: 'StridedSlice', fn: (x) => tf.stridedSlice(x, [0, 2], [2, 0], [1, -1]), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Reverse', fn: (x) => tf.reverse(x, 1), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Reverse', note: 'no axis: every axis', fn: (x) => tf.reverse(x), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'Tile', fn: (x) => tf.tile(x, [2, 1]), args: () => [f([1, 2, 3], [1, 3])] },
  { kernel: 'PadV2', fn: (x) => tf.pad(x, [[1, 0], [0, 2]], 9), args: () => [f([1, 2, 3, 4], [2, 2])] },
  { kernel: 'GatherV2', fn: (x, i) => tf.gather(x, i, 1), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3]), i32([2, 0, 2])] },
  { kernel: 'GatherNd', fn: (x, i) => tf.gatherND(x, i), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3]), i32([1, 2, 0, 0], [2, 2])] },
  { kernel: 'ExpandDims', fn: (x) => x.expandDims(-1), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3])] },
  { kernel: 'ZerosLike', note: 'NaN and Infinity in', fn: (x) => tf.zerosLike(x), args: () => [f([NaN, Infinity, -0, 4], [2, 2])] },
  { kernel: 'OnesLike', fn: (x) => tf.onesLike(x), args: () => [i32([1, -2, 3])] },
  { kernel: 'OneHot', note: 'a scalar index', fn: (i) => tf.oneHot(i, 4), args: () => [tf.scalar(2, 'int32')] },
  { kernel: 'OneHot', note: 'negative and out-of-range indices', fn: (i) => tf.oneHot(i, 3), args: () => [i32([0, 2, -1, 3])] },
  // matrix products
  { kernel: 'BatchMatMul', fn: (x, y) => tf.matMul(x, y, true, false), args: () => [f([1, 2, 3, 4, 5, 6], [3, 2]), f([1, 0, 2, 1, -1, 3], [3, 2])], tol: 1e-6 },
  { kernel: 'BatchMatMul', note: 'batched, transposeB', fn: (x, y) => tf.matMul(x, y, false, true),
    args: () => [f([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2]), f([1, 0, 2, 1, -1, 3, 0, 1], [2, 2, 2])], tol: 1e-6 },
  { kernel: '_FusedMatMul', note: 'bias + relu', fn: (x, w, bias) => tf.fused.matMul({ a: x, b: w, bias, activation: 'relu' }),
    args: () => [f([1, -2, 3, 4], [2, 2]), f([1, 2, -3, 4], [2, 2]), f([0.5, -20])], tol: 1e-6 },
  { kernel: 'Einsum', fn: (x, y) => tf.einsum('ij,jk->ik', x, y), args: () => [f([1, 2, 3, 4], [2, 2]), f([5, 6, 7, 8], [2, 2])],
    tol: 1e-6, backend: 'cpu' },
  // convolutions and pooling (NHWC in tfjs, NCHW in ONNX)
  { kernel: 'Conv2D', note: 'same, stride 2', fn: (x, w) => tf.conv2d(x as tf.Tensor4D, w as tf.Tensor4D, 2, 'same'),
    args: () => [tf.randomNormal([2, 5, 5, 3]), tf.randomNormal([3, 3, 3, 4])], tol: 1e-5 },
  { kernel: 'Conv2D', note: 'valid, dilated', fn: (x, w) => tf.conv2d(x as tf.Tensor4D, w as tf.Tensor4D, 1, 'valid', 'NHWC', 2),
    args: () => [tf.randomNormal([1, 7, 6, 2]), tf.randomNormal([2, 2, 2, 3])], tol: 1e-5 },
  { kernel: 'FusedConv2D', note: 'bias + relu', fn: (x, w, bias) => tf.fused.conv2d({ x: x as tf.Tensor4D, filter: w as tf.Tensor4D,
    strides: 1, pad: 'same', bias, activation: 'relu' }), args: () => [tf.randomNormal([1, 4, 4, 2]), tf.randomNormal([3, 3, 2, 3]),
    tf.randomNormal([3])], tol: 1e-5 },
  { kernel: 'DepthwiseConv2dNative', note: 'multiplier 2', fn: (x, w) => tf.depthwiseConv2d(x as tf.Tensor4D, w as tf.Tensor4D, 1, 'same'),
    args: () => [tf.randomNormal([1, 5, 5, 3]), tf.randomNormal([3, 3, 3, 2])], tol: 1e-5 },
  { kernel: 'FusedDepthwiseConv2D', note: 'bias + relu6', fn: (x, w, bias) => tf.fused.depthwiseConv2d({ x: x as tf.Tensor4D,
    filter: w as tf.Tensor4D, strides: 1, pad: 'valid', bias, activation: 'relu6' }),
    args: () => [tf.randomNormal([1, 4, 4, 2]), tf.randomNormal([2, 2, 2, 1]), tf.randomNormal([2])], tol: 1e-5 },
  { kernel: 'MaxPool', fn: (x) => tf.maxPool(x as tf.Tensor4D, 3, 2, 'same'), args: () => [tf.randomNormal([2, 5, 5, 3])] },
  { kernel: 'AvgPool', fn: (x) => tf.avgPool(x as tf.Tensor4D, 3, 2, 'same'), args: () => [tf.randomNormal([2, 5, 5, 3])], tol: 1e-6 },
  { kernel: 'FusedBatchNorm', fn: (x, m, v, o, sc) => tf.batchNorm(x, m, v, o, sc, 1e-3),
    args: () => [tf.randomNormal([2, 3]), f([0.5, -1, 2]), f([1, 0.25, 4]), f([0, 1, -1]), f([2, 1, 0.5])] },
  { kernel: 'FusedBatchNorm', note: 'no offset or scale', fn: (x, m, v) => tf.batchNorm(x, m, v),
    args: () => [tf.randomNormal([2, 2, 3]), f([0.5, -1, 2]), f([1, 0.25, 4])] },
  { kernel: 'TopK', fn: (x) => { const { values, indices } = tf.topk(x, 2); return [values, indices]; }, args: () => [f([1, 5, 3, 7, 2, 6], [2, 3])] },
];

// ---- Edge values on both backends (int32 limits, NaN, ±0, ±Infinity): every lowered kernel that
// takes int32 or whose result at an edge depends on the backend.
const I_EDGE = [-2147483648, 2147483647, -2147483647, -1, 0, 1, -7, 16777217];
const F_BIG = [2147483648, -2147483648, 2147483520, -2147483904, 3e9, -3e9, 1e20, Infinity, -Infinity, NaN, -0.5, 0.5, -0, -2.7, 2.7];
const F_ROUND = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 4194304.5, -4194304.5, 8388607.5, 8388609, 1e10, -0, NaN, Infinity];
const F_ZEROS = [-0, 0, -1, 1, NaN, Infinity, -Infinity, 0.25];
// Rows for reductions: NaN first/later, signed zeros, infinities, ties.
const F_ROWS = [NaN, 1, 2, 1, NaN, 0, -0, 0, -0, 0, -0, 0, Infinity, -Infinity, 1, 3, 3, 1, 3e38, 3e38, -3e38];
const I_ROWS = [2147483647, 1, 5, -2147483648, -1, 0, 65536, 65536, 3, 7, 7, -7, 46341, 46341, 46341,
  2147483647, 2147483647, 3, -2147483647, 2147483646, 2147483645];
const onBoth = (make: (backend: string) => OpCase[]): OpCase[] => ['wasm', 'cpu'].flatMap((backend) =>
  make(backend).map((c) => ({ ...c, note: `${c.note ?? ''}${c.note ? ', ' : ''}${backend}`, backend })));

export const edgeCases: OpCase[] = onBoth((backend) => [
  // (tfjs-wasm's float32 approximations are not ORT's: within a tolerance.)
  ...([['Exp', tf.exp], ['Log', tf.log], ['Sigmoid', tf.sigmoid], ['Tanh', tf.tanh], ['Sin', tf.sin], ['Cos', tf.cos]] as const)
    .map(([kernel, fn]): OpCase => ({ kernel, note: 'float32 rounding (exact on cpu)', fn, args: () => [f([0.1, 0.3, 0.7, 1.3, 2.9, 0.05, 0.77, 0.123, 0.456, 0.999, -3.3, 17, 1e-7])],
    ...(backend === 'wasm' ? { tol: 1e-6 } : {}) })),
  ...([
    ['Abs', tf.abs], ['Neg', tf.neg], ['Sign', tf.sign], ['Relu', tf.relu], ['Relu6', tf.relu6],
    ['LeakyRelu', (x: tf.Tensor) => tf.leakyRelu(x, 0.3)], ['Step', (x: tf.Tensor) => tf.step(x, 0.25)],
    ['Exp', tf.exp], ['Round', tf.round], ['Square', tf.square], ['Softplus', tf.softplus], ['Expm1', tf.expm1],
  ] as const).map(([kernel, fn]): OpCase => ({ kernel, note: 'int32 limits', fn, args: () => [i32(I_EDGE)], tol: 1e-6 })),
  // (Their float64 versions on cpu are not ORT kernels.)
  ...([['Selu', tf.selu], ['Asin', tf.asin], ['Atan', tf.atan], ['Sinh', tf.sinh], ['Atanh', tf.atanh], ['Acos', tf.acos],
  ] as const).map(([kernel, fn]): OpCase => ({ kernel, note: 'int32 limits', fn, args: () => [i32(I_EDGE)], tol: 1e-6,
    ...(backend === 'cpu' ? { refused: /no double kernel/ } : {}) })),
  // (tf.erf casts int32 to float32 first: tfjs-cpu keeps the int32 data, so past 2^24 the ORT run
  // fails and the executor computes it.)
  { kernel: 'Erf', note: 'int32 limits', fn: tf.erf, args: () => [i32(I_EDGE)], tol: 1e-5 },
  ...([
    ['Reciprocal', tf.reciprocal], ['ClipByValue', (x: tf.Tensor) => tf.clipByValue(x, -7.5, 3e9)], ['IsNan', tf.isNaN],
    ['IsInf', tf.isInf], ['IsFinite', tf.isFinite], ['Log1p', tf.log1p], ['Asinh', tf.asinh], ['Acosh', tf.acosh],
  ] as const).map(([kernel, fn]): OpCase => ({ kernel, note: 'int32 limits', fn, args: () => [i32(I_EDGE)],
    ...(backend === 'wasm' ? { refused: /float32 bits/ } : ['Asinh', 'Acosh'].includes(kernel) ? { refused: /no double kernel/ } : {}) })),
  ...([
    ['Abs', tf.abs], ['Neg', tf.neg], ['Sign', tf.sign], ['Relu', tf.relu], ['Relu6', tf.relu6], ['Floor', tf.floor],
    ['Ceil', tf.ceil], ['Sqrt', tf.sqrt], ['Log', tf.log], ['Reciprocal', tf.reciprocal], ['Exp', tf.exp], ['Square', tf.square],
    ['LeakyRelu', (x: tf.Tensor) => tf.leakyRelu(x, 0.3)], ['Step', (x: tf.Tensor) => tf.step(x, 0.25)],
    ['Rsqrt', tf.rsqrt], ['Sigmoid', tf.sigmoid], ['Elu', tf.elu], ['Tanh', tf.tanh], ['Softplus', tf.softplus],
  ] as const).map(([kernel, fn]): OpCase => ({ kernel, note: 'float32 zeros, NaN, infinities', fn, args: () => [f(F_ZEROS)], tol: 1e-6 })),
  { kernel: 'Round', note: 'halves, large floats', fn: tf.round, args: () => [f(F_ROUND)] },
  { kernel: 'Cast', note: 'float32 -> int32 out of range', fn: (x) => x.toInt(), args: () => [f(F_BIG)] },
  { kernel: 'Cast', note: 'int32 -> bool', fn: (x) => x.toBool(), args: () => [i32(I_EDGE)],
    ...(backend === 'wasm' ? { refused: /low byte/ } : {}) },
  // (On cpu, values past 2^24 make the ORT run fail and the tfjs executor give tfjs-cpu's exact ints.)
  { kernel: 'Cast', note: 'int32 -> float32', fn: (x) => x.toFloat(), args: () => [i32(I_EDGE)] },
  { kernel: 'Cast', note: 'int32 -> float32, compared', fn: (x) => x.toFloat().equal(16777216), args: () => [i32([16777217, 16777216, -3])] },
  { kernel: 'Cast', note: 'float32 -> bool', fn: (x) => x.toBool(), args: () => [f([-2, 0, -0, 0.5, NaN, 256, Infinity])],
    ...(backend === 'wasm' ? { refused: /low byte/ } : {}) },
  ...([['Maximum', tf.maximum], ['Minimum', tf.minimum], ['FloorDiv', tf.floorDiv], ['Mod', tf.mod], ['RealDiv', tf.div],
    ['Pow', tf.pow], ['SquaredDifference', tf.squaredDifference], ['Equal', tf.equal], ['Less', tf.less], ['GreaterEqual', tf.greaterEqual],
  ] as const).map(([kernel, fn]): OpCase => ({ kernel, note: 'float32 NaN, ±0, infinities', fn,
    args: () => [f([NaN, 1, NaN, -0, 0, -0, Infinity, -Infinity, -0, 0, 5, -5, Infinity, -1, 7]),
      f([1, NaN, NaN, 0, -0, -0, NaN, 5, 3, -3, -0, 0, Infinity, Infinity, -Infinity])], tol: 1e-6 })),
  { kernel: 'SquaredDifference', note: 'int32 limits', fn: tf.squaredDifference, args: () => [i32(AI_LARGE), i32(BI_LARGE)] },
  { kernel: 'Pow', note: 'int32 negative exponents', fn: tf.pow, args: () => [i32([2, -1, 1, 0, 3, -2, -1, 0]), i32([-1, -1, -3, -1, -2, -1, -2, 0])] },
  { kernel: 'AddN', note: 'int32 overflow', fn: (x, y, z) => tf.addN([x, y, z]), args: () => [i32(AI_LARGE), i32(AI_LARGE), i32(BI_LARGE)] },
  { kernel: 'Select', note: 'signed zeros, NaN', fn: (c, x, y) => tf.where(c, x, y),
    args: () => [b([true, false, true, false, true]), f([-0, 2, 0, 1, NaN]), f([-1, -0, -3, 0, 5])] },
  { kernel: 'Select', note: 'int32 limits', fn: (c, x, y) => tf.where(c, x, y),
    args: () => [b([true, false, true, false, true, false, true, false]), i32(I_EDGE), i32(I_EDGE.map((v) => -v | 0))] },
  // reductions
  ...([['Sum', (x: tf.Tensor) => x.sum(1)], ['Prod', (x: tf.Tensor) => x.prod(1)], ['Mean', (x: tf.Tensor) => x.mean(1)],
    ['Max', (x: tf.Tensor) => x.max(1)], ['Min', (x: tf.Tensor) => x.min(1)], ['ArgMax', (x: tf.Tensor) => x.argMax(1)],
    ['ArgMin', (x: tf.Tensor) => x.argMin(1)], ['Cumsum', (x: tf.Tensor) => x.cumsum(1)],
    ['TopK', (x: tf.Tensor) => { const { values, indices } = tf.topk(x, 2); return [values, indices]; }],
  ] as const).flatMap(([kernel, fn]): OpCase[] => [
    { kernel, note: 'float32 NaN, ±0, infinities, ties', fn, args: () => [f(F_ROWS, [7, 3])] },
    { kernel, note: 'int32 overflow, ties', fn, args: () => [i32(I_ROWS, [7, 3])] },
  ]),
  { kernel: 'Softmax', note: 'infinities', fn: (x) => tf.softmax(x), args: () => [f([Infinity, 1, 2, -Infinity, 0, 1, NaN, 1, 1], [3, 3])], tol: 1e-6 },
  // (tfjs-wasm has no int32 BatchMatMul or MaxPool.)
  ...(backend === 'cpu' ? [{ kernel: 'BatchMatMul', note: 'int32 overflow', fn: (x: tf.Tensor, y: tf.Tensor) => tf.matMul(x, y),
    args: () => [i32([65536, 65536, 3, 46341], [2, 2]), i32([65536, 2147483647, 1, 46341], [2, 2])], refused: /past 2\^53/ },
  { kernel: 'MaxPool', note: 'int32', fn: (x: tf.Tensor) => tf.maxPool(x as tf.Tensor4D, 2, 1, 'same'),
    args: () => [i32([16777217, 2147483647, 3, 4, -2147483648, 16777215], [1, 2, 3, 1])] }] : []),
  { kernel: 'Prod', note: 'int32, two axes of 17', fn: (x) => x.prod([0, 2]), args: () => [i32([...Array(68).keys()].map((v) => v * 7919 - 99),
    [17, 2, 2])], ...(backend === 'cpu' ? { refused: /over 16 factors/ } : {}) },
  { kernel: 'Prod', note: 'int32, two axes', fn: (x) => x.prod([0, 2], true), args: () => [i32(I_ROWS.slice(0, 18), [3, 2, 3])] },
  { kernel: 'LeakyRelu', note: 'float32, alpha * -7', fn: (x) => tf.leakyRelu(x, 0.3), args: () => [f([-7, -0, -1e-45, 3, NaN, -Infinity])] },
  { kernel: 'Mean', note: 'int32', fn: (x) => x.mean(), args: () => [i32(I_EDGE)] },
  ...([['Sum', (x: tf.Tensor) => x.sum(1)], ['Mean', (x: tf.Tensor) => x.mean(1)], ['Max', (x: tf.Tensor) => x.max(1)],
    ['ArgMax', (x: tf.Tensor) => x.argMax(1)], ['Prod', (x: tf.Tensor) => x.prod(1)],
    // (tfjs-wasm has no bool cumsum.)
    ...(backend === 'cpu' ? [['Cumsum', (x: tf.Tensor) => x.cumsum(1)] as const] : [])] as const)
    .map(([kernel, fn]): OpCase => ({ kernel, note: 'bool', fn, args: () => [b([true, false, true, true, true, false]).reshape([2, 3])] })),
  ...([['Sum', (x: tf.Tensor) => x.sum(-1)], ['Mean', (x: tf.Tensor) => x.mean(-1)], ['Prod', (x: tf.Tensor) => x.prod(-1)],
    ['Cumsum', (x: tf.Tensor) => x.cumsum(0)]] as const).map(([kernel, fn]): OpCase => ({ kernel, note: 'float32 rounding order, 67 terms',
    fn, args: () => [f([1e8, ...Array(33).fill(1), -1e8, ...Array(32).fill(0.1).map((v, i) => v * (i % 3 ? 1.0001 : -3))])],
    ...(kernel === 'Prod' ? { refused: /over 16 factors/ } : {}) })),
  { kernel: 'Prod', note: 'float32 rounding order', fn: (x) => x.prod([0, 2]),
    args: () => [f([0.1, 3.3, 1e-5, 7.77, 1.1, 0.3, 2.9, 1e10, 5.5, 0.7, 1.3, 3.1], [2, 3, 2])] },
  // (tfjs sums from 0: a sum of -0s is +0.)
  ...([['Sum', (x: tf.Tensor) => x.sum()], ['Sum', (x: tf.Tensor) => x.sum(0)], ['Sum', (x: tf.Tensor) => x.sum(1)]] as const)
    .map(([kernel, fn]): OpCase => ({ kernel, note: 'float32 -0s', fn, args: () => [f([-0, -0, -0, -0], [2, 2])] })),
  ...([['Sum', (x: tf.Tensor) => x.sum(0)], ['Sum', (x: tf.Tensor) => x.sum([0, 1])], ['Mean', (x: tf.Tensor) => x.mean(0)]] as const)
    .map(([kernel, fn]): OpCase => ({ kernel, note: 'float32 rounding order, leading axes', fn,
      args: () => [f([1e8, 3, 1, 0.1, 1, 1, 1, 1, 1, 1, 1, 1, -1e8, 0.7, 1, 1, 0.3, 1e8, 3, 5, 1, 1, 1, 1], [6, 2, 2])] })),
  { kernel: 'Sum', note: 'float32 rounding order, two axes', fn: (x) => x.sum([0, 2], true),
    args: () => [f([1e8, 0.1, 1, 3, -1e8, 0.7, 1, 1, 0.3, 1e8, 3, 5], [2, 3, 2])] },
  { kernel: 'SquaredDifference', note: 'float32 past 2^24', fn: tf.squaredDifference,
    args: () => [f([16777216, 3e38, 0.1, -0]), f([-1, -3e38, 0.3, 0])] },
  { kernel: 'FusedBatchNorm', note: 'rounding, NaN, negative variance', fn: (x, m, v, o, sc) => tf.batchNorm(x, m, v, o, sc, 1e-3),
    args: () => [f([0.1, 16777217, NaN, -3, 1e30, 7.3], [2, 3]), f([0.5, -1, 2]), f([1, 0.25, -4]), f([0, 1, -1]), f([2, 1, 0.3])] },
  { kernel: 'Prelu', note: 'int32', fn: tf.prelu, args: () => [i32([-16777217, -2147483647, 5, -3]), i32([3, 1, 2, 1])],
    ...(backend === 'wasm' ? { refused: /float32 bits/ } : {}) },
  ...(['linear', 'relu', 'relu6', 'leakyrelu', 'elu', 'sigmoid'] as const).map((activation): OpCase => ({ kernel: '_FusedMatMul',
    note: `${activation}, NaN and -7 in`, fn: (x, w, bias) => tf.fused.matMul({ a: x, b: w, bias, activation, leakyreluAlpha: 0.3 }),
    args: () => [f([NaN, 1, -7, 0, 2, 0.5], [3, 2]), f([1, 0, 0, 1], [2, 2]), f([0, -0])],
    tol: activation === 'elu' || activation === 'sigmoid' ? 1e-6 : 0 })),
  { kernel: 'Conv2D', note: 'NaN and ±Infinity in', fn: (x, w) => tf.conv2d(x as tf.Tensor4D, w as tf.Tensor4D, 1, 'valid'),
    args: () => [f([NaN, 1, -7, Infinity, -Infinity, -0], [1, 2, 3, 1]), f([1], [1, 1, 1, 1])] },
  { kernel: 'DepthwiseConv2dNative', note: 'NaN and ±Infinity in', fn: (x, w) => tf.depthwiseConv2d(x as tf.Tensor4D, w as tf.Tensor4D, 1, 'valid'),
    args: () => [f([NaN, 1, -7, Infinity, -Infinity, -0], [1, 2, 3, 1]), f([1], [1, 1, 1, 1])] },
  // (tfjs-wasm's XNNPACK max pool: NaN wins or not by its place in the window; not reproduced, so
  // an input with a NaN fails the ORT run and the executor computes it.)
  { kernel: 'MaxPool', note: 'NaN and ±Infinity in', fn: (x: tf.Tensor) => tf.maxPool(x as tf.Tensor4D, [1, 2], 1, 'valid'),
    args: () => [f([NaN, 1, -7, Infinity, -Infinity, -0, 1, NaN], [1, 2, 4, 1])] },
  // (The NaN guard's `x + 0` once made -0 into +0 before the pool: the max of -0s was +0 on ORT.)
  { kernel: 'MaxPool', note: '-0 everywhere but one -1', fn: (x) => tf.maxPool(x as tf.Tensor4D, 2, 1, 'valid'),
    args: () => [f([-0, -0, -0, -0, -1, -0, -0, -0, -0], [1, 3, 3, 1])] },
  { kernel: 'MaxPool', note: "'same', -Infinity everywhere", fn: (x) => tf.maxPool(x as tf.Tensor4D, 3, 2, 'same'),
    args: () => [f(Array(16).fill(-Infinity), [1, 4, 4, 1])] },
  { kernel: 'AvgPool', note: 'NaN and ±Infinity in', fn: (x) => tf.avgPool(x as tf.Tensor4D, [1, 2], 1, 'valid'),
    args: () => [f([NaN, 1, -7, Infinity, -Infinity, -0, 1, NaN], [1, 2, 4, 1])] },
  { kernel: 'BatchMatMul', note: 'NaN and ±Infinity in', fn: (x, y) => tf.matMul(x, y),
    args: () => [f([NaN, 1, -7, Infinity, -Infinity, -0], [3, 2]), f([1, 0, 0, 1], [2, 2])] },
  { kernel: 'MaxPool', note: "'same', NaN", fn: (x: tf.Tensor) => tf.maxPool(x as tf.Tensor4D, 3, 2, 'same'),
    args: () => [f([NaN, 1, 2, NaN, 3, NaN, NaN, 5, -1, NaN, NaN, NaN, 7, NaN, 8, 9, NaN, 2, NaN, NaN, NaN, NaN, NaN, NaN, 0], [1, 5, 5, 1])] },
  // (tfjs-wasm's XNNPACK average pool adds in its own order: not reproduced.)
  ...(backend === 'cpu' ? [{ kernel: 'AvgPool', note: 'rounding', fn: (x: tf.Tensor) => tf.avgPool(x as tf.Tensor4D, 3, 1, 'same'),
    args: () => [f([0.1, 1e7, 0.7, 3.3, -1e7, 2.2, 1.1, 0.3, 7.7, 1e-3, 5, 6, 0.9, 1e8, 3, 1], [1, 4, 4, 1])] }] : []),
  { kernel: 'AvgPool', note: "'same', NaN", fn: (x) => tf.avgPool(x as tf.Tensor4D, 3, 2, 'same'),
    args: () => [f([NaN, 1, 2, NaN, 3, NaN, NaN, 5, -1, NaN, NaN, NaN, 7, NaN, 8, 9, NaN, 2, NaN, NaN, NaN, NaN, NaN, NaN, 0], [1, 5, 5, 1])] },
  ...(['linear', 'relu', 'relu6', 'leakyrelu', 'elu', 'sigmoid', 'prelu'] as const).map((activation): OpCase => ({ kernel: 'FusedConv2D', note: `${activation}, NaN and -7 in`,
    fn: (x, w) => tf.fused.conv2d({ x: x as tf.Tensor4D, filter: w as tf.Tensor4D, strides: 1, pad: 'valid', activation, leakyreluAlpha: 0.3,
      preluActivationWeights: activation === 'prelu' ? tf.scalar(0.25) : undefined }),
    args: () => [f([NaN, 1, -7, Infinity, -Infinity, -0.5], [1, 2, 3, 1]), f([1], [1, 1, 1, 1])],
    tol: activation === 'elu' || activation === 'sigmoid' ? 1e-6 : 0 })),
  ...([['Selu', tf.selu], ['Expm1', tf.expm1], ['Log1p', tf.log1p], ['Sin', tf.sin], ['Atan', tf.atan], ['Asinh', tf.asinh],
    ['Erf', tf.erf], ['Softplus', tf.softplus]] as const).map(([kernel, fn]): OpCase =>
    ({ kernel, note: 'float32 signed zeros, NaN, infinities', fn, args: () => [f([-0, 0, NaN, Infinity, -Infinity])], tol: 1e-6 })),
  { kernel: 'Sign', note: 'float32 signed zeros', fn: tf.sign, args: () => [f([-0, 0, NaN, -Infinity])] },
  // (tfjs-wasm traps on an int32 modulo by zero; cpu gives 0.)
  ...(backend === 'wasm' ? [{ kernel: 'Mod', note: 'int32 by zero', fn: tf.mod, args: () => [i32(AI), i32(BI)], throws: /remainder by zero/,
    traceArgs: () => [i32(AI), i32(BI_NONZERO)] }] : []),
  // Indices out of range: tfjs throws; ORT fails the run and the tfjs executor gives tfjs's error.
  { kernel: 'GatherV2', note: 'a negative index', fn: (x, i) => tf.gather(x, i, 1), args: () => [f([1, 2, 3, 4, 5, 6], [2, 3]), i32([-1, 0])],
    throws: /index value -1 is not in/, traceArgs: () => [f([1, 2, 3, 4, 5, 6], [2, 3]), i32([1, 0])] },
  { kernel: 'GatherV2', note: 'an index past the end', fn: (x, i) => tf.gather(x, i, 0), args: () => [i32(I_EDGE, [4, 2]), i32([4])],
    throws: /index value 4 is not in/, traceArgs: () => [i32(I_EDGE, [4, 2]), i32([3])] },
  // (tfjs-wasm's GatherNd reads outside the tensor.)
  ...(backend === 'cpu' ? [{ kernel: 'GatherNd', note: 'a negative index', fn: (x: tf.Tensor, i: tf.Tensor) => tf.gatherND(x, i),
    args: () => [f([1, 2, 3, 4, 5, 6], [2, 3]), i32([-1, 0], [1, 2])], throws: /Invalid indices/,
    traceArgs: () => [f([1, 2, 3, 4, 5, 6], [2, 3]), i32([1, 0], [1, 2])] }] : []),
  // data movement on int32
  { kernel: 'Slice', note: 'int32', fn: (x) => x.slice([0, 1], [-1, 2]), args: () => [i32(I_EDGE, [2, 4])] },
  { kernel: 'StridedSlice', note: 'int32', fn: (x) => tf.stridedSlice(x, [0, 3], [2, 0], [1, -1]), args: () => [i32(I_EDGE, [2, 4])],
    ...(backend === 'wasm' ? { refused: /int32 bits as float32/ } : {}) },
  { kernel: 'PadV2', note: 'int32', fn: (x) => tf.pad(x, [[1, 0], [0, 2]], -2147483648), args: () => [i32(I_EDGE, [2, 4])] },
  { kernel: 'Tile', note: 'int32', fn: (x) => tf.tile(x, [2, 1]), args: () => [i32(I_EDGE, [2, 4])] },
  { kernel: 'Reverse', note: 'int32', fn: (x) => tf.reverse(x, 1), args: () => [i32(I_EDGE, [2, 4])] },
  { kernel: 'OneHot', note: 'int32 values', fn: (i) => tf.oneHot(i, 3, 2147483647, -2147483648), args: () => [i32([0, 2, -1, 3])] },
  { kernel: 'OneHot', note: 'float32 values', fn: (i) => tf.oneHot(i, 3, 0.5, -0, 'float32'), args: () => [i32([0, 2, -1, 3, 2147483647])] },
]);
