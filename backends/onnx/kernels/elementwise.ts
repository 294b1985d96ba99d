/**
 * Element-wise kernels: unary math, binary arithmetic (tfjs's division and modulo semantics),
 * comparisons, logic, select and cast. tfjs has already made the two inputs of a binary kernel
 * the same dtype; broadcasting is numpy-style in both.
 */
import type { GraphScope, Value } from '../model_builder';
import { OnnxType } from '../onnx_proto';
import type { KernelLowering, LoweringTable, Out } from './lowering';
import { castTo, FLOAT_ONLY, NUMERIC } from './lowering';

const outShape = (outs: Out[]): number[] => outs[0].shape;

/** A unary ONNX op computed in the first of `types` the input is not already one of. */
const unary = (opType: string, types: readonly OnnxType[] = FLOAT_ONLY, attrs = {}): KernelLowering =>
  (g, [x], _a, outs) => {
    const v = castTo(g, x, types);
    return g.op(opType, [v], attrs, v.type, outShape(outs));
  };

/** A unary op whose output type is fixed (IsNaN, IsInf: bool). */
const predicate = (opType: string): KernelLowering =>
  (g, [x], _a, outs) => g.op(opType, [castTo(g, x, FLOAT_ONLY)], {}, OnnxType.BOOL, outShape(outs));

const binary = (opType: string, types: readonly OnnxType[] = NUMERIC): KernelLowering =>
  (g, [a, b], _a, outs) => {
    const x = castTo(g, a, types);
    return g.op(opType, [x, castTo(g, b, [x.type])], {}, x.type, outShape(outs));
  };

/**
 * An integer-valued double as JS stores it into an Int32Array (ToInt32: modulo 2^32, as signed).
 * In arithmetic, not Casts: ORT gives -2^31 for a double or int64 out of int32's range.
 */
function wrapToInt32(g: GraphScope, p: Value, shape: number[]): Value {
  const D = OnnxType.DOUBLE;
  const two32 = g.scalar(2 ** 32, D);
  const r = g.op('Sub', [p, g.op('Mul', [g.op('Floor', [g.op('Div', [p, two32], {}, D, shape)], {}, D, shape), two32], {}, D, shape)], {}, D, shape);
  const high = g.op('GreaterEqual', [r, g.scalar(2 ** 31, D)], {}, OnnxType.BOOL, shape);
  return g.cast(g.op('Where', [high, g.op('Sub', [r, two32], {}, D, shape), r], {}, D, shape), OnnxType.INT32);
}

/**
 * An int32 `op` (Mul, Pow) as the traced-on backend computes it (EdgeSemantics.intMultiply): wasm
 * in int32; cpu on JS numbers (float64, rounded past 2^53) stored into an Int32Array — through a
 * Float32Array first for Square (`roundToFloat32`). Other types: `op` itself.
 */
function intArithmetic(g: GraphScope, op: string, a: Value, b: Value, shape: number[], roundToFloat32 = false): Value {
  if (a.type !== OnnxType.INT32 || g.model.semantics.intMultiply === 'wrap') return g.op(op, [a, b], {}, a.type, shape);
  let exact = g.op(op, [g.cast(a, OnnxType.DOUBLE), g.cast(b, OnnxType.DOUBLE)], {}, OnnxType.DOUBLE, shape);
  if (roundToFloat32) exact = g.cast(g.cast(exact, OnnxType.FLOAT), OnnxType.DOUBLE);
  return wrapToInt32(g, exact, shape);
}

const comparison = (opType: string, types: readonly OnnxType[] = NUMERIC): KernelLowering =>
  (g, [a, b], _a, outs) => {
    const x = castTo(g, a, types);
    return g.op(opType, [x, castTo(g, b, [x.type])], {}, OnnxType.BOOL, outShape(outs));
  };

const logical = (opType: string): KernelLowering =>
  (g, [a, b], _a, outs) => g.op(opType, [g.cast(a, OnnxType.BOOL), g.cast(b, OnnxType.BOOL)], {}, OnnxType.BOOL, outShape(outs));

/** f(x) as a small graph over x (float). */
const composite = (build: (g: GraphScope, x: Value, shape: number[], attrs: Record<string, unknown>) => Value): KernelLowering =>
  (g, [x], attrs, outs) => build(g, castTo(g, x, FLOAT_ONLY), outShape(outs), attrs);

const k = (g: GraphScope, v: number, like: Value): Value => g.scalar(v, like.type);

/** tfjs Mod is a floor modulo for floats and ints alike (the result takes the divisor's sign). */
const mod: KernelLowering = (g, [a, b], _attrs, outs) => {
  const shape = outShape(outs);
  if (a.type === OnnxType.FLOAT) {
    // tfjs: rem = fmod(a, b); (a < 0) === (b < 0) ? rem : fmod(rem + b, b) — the same steps, so
    // signed zeros, NaN and infinities come out as in tfjs.
    const fmod = (x: Value, y: Value): Value => g.op('Mod', [x, y], { fmod: 1 }, OnnxType.FLOAT, shape);
    const rem = fmod(a, b);
    const zero = k(g, 0, a);
    const signsDiffer = g.op('Xor', [g.op('Less', [a, zero], {}, OnnxType.BOOL, a.shape), g.op('Less', [b, zero], {}, OnnxType.BOOL, b.shape)],
      {}, OnnxType.BOOL, shape);
    const adjusted = fmod(g.op('Add', [rem, b], {}, OnnxType.FLOAT, shape), b);
    return where(g, signsDiffer, adjusted, rem, shape);
  }
  // Integers: ONNX's integer Mod is already a floor modulo, but a zero divisor, and -2^31 mod -1,
  // are undefined behaviour in ORT (the process dies of SIGFPE); tfjs-cpu gives 0 for a zero divisor
  // (NaN stored in an int32 array; tfjs-wasm throws). Any x mod -1 is 0 = x mod 1: the divisor -1
  // is replaced by 1 first.
  const x = castTo(g, a, [OnnxType.INT32]);
  const y = castTo(g, b, [OnnxType.INT32]);
  const isMinusOne = g.op('Equal', [y, k(g, -1, y)], {}, OnnxType.BOOL, y.shape);
  const notMinusOne = g.op('Where', [isMinusOne, k(g, 1, y), y], {}, y.type, y.shape);
  return guardZeroDivisor(g, notMinusOne, shape, 0, (safe) => g.op('Mod', [x, safe], { fmod: 0 }, OnnxType.INT32, shape));
};

/** `compute(divisor with zeros replaced by 1)`, with `byZero` where the divisor was 0. */
function guardZeroDivisor(g: GraphScope, divisor: Value, shape: number[], byZero: number,
                          compute: (safe: Value) => Value): Value {
  const isZero = g.op('Equal', [divisor, k(g, 0, divisor)], {}, OnnxType.BOOL, divisor.shape);
  const safe = g.op('Where', [isZero, k(g, 1, divisor), divisor], {}, divisor.type, divisor.shape);
  const result = compute(safe);
  return g.op('Where', [isZero, k(g, byZero, result), result], {}, result.type, shape);
}

/**
 * tfjs FloorDiv: floor(a / b). Floats: Div then Floor, in float32 as tfjs computes it. int32:
 * ONNX's integer Div truncates (and dies of SIGFPE on -2^31 / -1), so the quotient is computed in
 * floats and floored, in the precision the traced-on backend divides in (EdgeSemantics: float32
 * on wasm, exactly on cpu, as double); a zero divisor gives what that backend gives.
 */
const floorDiv: KernelLowering = (g, [a, b], _attrs, outs) => {
  const shape = outShape(outs);
  if (a.type === OnnxType.FLOAT) {
    return g.op('Floor', [g.op('Div', [a, b], {}, OnnxType.FLOAT, shape)], {}, OnnxType.FLOAT, shape);
  }
  const type = g.model.semantics.intDivision === 'float32' ? OnnxType.FLOAT : OnnxType.DOUBLE;
  const x = g.cast(a, type);
  return guardZeroDivisor(g, g.cast(b, type), shape, g.model.semantics.intDivisionByZero, (safe) => {
    const q = g.op('Floor', [g.op('Div', [x, safe], {}, type, shape)], {}, type, shape);
    return g.cast(q, OnnxType.INT32);
  });
};

/** RealDiv: a true division; int32 operands are divided as floats. */
const realDiv: KernelLowering = (g, [a, b], _attrs, outs) => {
  const x = castTo(g, a, FLOAT_ONLY);
  return g.op('Div', [x, castTo(g, b, FLOAT_ONLY)], {}, OnnxType.FLOAT, outShape(outs));
};

/** Cast to the recorded dtype; float -> int32 truncates, NaN becomes 0 as in tfjs (ORT leaves it undefined). */
const cast: KernelLowering = (g, [x], _attrs, outs) => {
  const to = outs[0].type;
  if (x.type === OnnxType.FLOAT && to === OnnxType.INT32) {
    const isNaN = g.op('IsNaN', [x], {}, OnnxType.BOOL, x.shape);
    return g.cast(g.op('Where', [isNaN, k(g, 0, x), x], {}, OnnxType.FLOAT, x.shape), to);
  }
  return g.cast(x, to);
};

/**
 * Where(c, t, e), exactly: ORT's CPU Where has no bool kernel (bools select as (c and t) or
 * (not c and e)), and for floats it does not keep the sign of a selected zero. So where the value
 * selected was -0 (1/-0 is -Infinity), the result is set to +0 and multiplied by -1. (Not x + 0
 * to clear a zero's sign: ORT's optimizer removes an added 0.)
 */
export function where(g: GraphScope, c: Value, t: Value, e: Value, shape: number[]): Value {
  const B = OnnxType.BOOL;
  const boolSelect = (x: Value, y: Value): Value => g.op('Or', [g.op('And', [c, x], {}, B, shape),
    g.op('And', [g.op('Not', [c], {}, B, c.shape), y], {}, B, shape)], {}, B, shape);
  if (t.type === B) return boolSelect(t, e);
  const selected = g.op('Where', [c, t, e], {}, t.type, shape);
  if (t.type !== OnnxType.FLOAT) return selected;
  const zero = k(g, 0, t);
  const negativeZero = (v: Value): Value => g.op('And', [g.op('Equal', [v, zero], {}, B, v.shape),
    g.op('Less', [g.op('Reciprocal', [v], {}, v.type, v.shape), zero], {}, B, v.shape)], {}, B, v.shape);
  const wasNegativeZero = boolSelect(negativeZero(t), negativeZero(e));
  const sign = g.op('Where', [wasNegativeZero, k(g, -1, t), k(g, 1, t)], {}, t.type, shape);
  const cleared = g.op('Where', [wasNegativeZero, zero, selected], {}, t.type, shape);
  return g.op('Mul', [cleared, sign], {}, t.type, shape);
}

/** Select(condition, t, e); a rank-1 condition over higher-rank t picks rows (tfjs's where). */
const select: KernelLowering = (g, [c, t, e], _attrs, outs) => {
  let cond = g.cast(c, OnnxType.BOOL);
  if (cond.shape.length === 1 && t.shape.length > 1) {
    const shape = [cond.shape[0], ...t.shape.slice(1).map(() => 1)];
    cond = g.op('Reshape', [cond, g.int64s(shape)], {}, OnnxType.BOOL, shape);
  }
  return where(g, cond, t, castTo(g, e, [t.type]), outShape(outs));
};

const relu: KernelLowering = (g, [x], _attrs, outs) =>
  x.type === OnnxType.FLOAT ? g.op('Relu', [x], {}, x.type, outShape(outs))
    : g.op('Max', [castTo(g, x, NUMERIC), k(g, 0, castTo(g, x, NUMERIC))], {}, OnnxType.INT32, outShape(outs));

/** Clip (ONNX keeps NaN; on wasm tfjs clamps NaN to the lower bound). */
function clip(min: number, max: number, x: Value, g: GraphScope, shape: number[]): Value {
  const clipped = g.op('Clip', [x, k(g, min, x), k(g, max, x)], {}, x.type, shape);
  if (x.type !== OnnxType.FLOAT || g.model.semantics.clipNaN === 'nan') return clipped;
  return where(g, g.op('IsNaN', [x], {}, OnnxType.BOOL, shape), k(g, min, x), clipped, shape);
}

export const elementwiseKernels: LoweringTable = {
  Abs: unary('Abs', NUMERIC),
  Acos: unary('Acos'),
  Acosh: unary('Acosh'),
  Asin: unary('Asin'),
  Asinh: unary('Asinh'),
  Atan: unary('Atan'),
  Atanh: unary('Atanh'),
  Ceil: unary('Ceil'),
  Cos: unary('Cos'),
  Cosh: unary('Cosh'),
  Elu: unary('Elu'),
  Erf: unary('Erf'),
  Exp: unary('Exp'),
  Floor: unary('Floor'),
  Log: unary('Log'),
  Neg: unary('Neg', NUMERIC),
  Reciprocal: unary('Reciprocal'),
  Round: unary('Round'),
  Selu: unary('Selu'),
  Sigmoid: unary('Sigmoid'),
  // tfjs: sign(NaN) = 0.
  Sign: (g, [x], _a, outs) => {
    const v = castTo(g, x, NUMERIC);
    const sign = g.op('Sign', [v], {}, v.type, outShape(outs));
    if (v.type !== OnnxType.FLOAT) return sign;
    return g.op('Where', [g.op('IsNaN', [v], {}, OnnxType.BOOL, v.shape), k(g, 0, v), sign], {}, v.type, outShape(outs));
  },
  Sin: unary('Sin'),
  Sinh: unary('Sinh'),
  Softplus: unary('Softplus'),
  Sqrt: unary('Sqrt'),
  Tan: unary('Tan'),
  Tanh: unary('Tanh'),
  Relu: relu,
  IsNan: predicate('IsNaN'),
  IsInf: predicate('IsInf'),
  IsFinite: (g, [x], _a, outs) => {
    const v = castTo(g, x, FLOAT_ONLY);
    const nonFinite = g.op('Or', [g.op('IsNaN', [v], {}, OnnxType.BOOL, v.shape), g.op('IsInf', [v], {}, OnnxType.BOOL, v.shape)],
      {}, OnnxType.BOOL, v.shape);
    return g.op('Not', [nonFinite], {}, OnnxType.BOOL, outShape(outs));
  },
  LogicalNot: (g, [x], _a, outs) => g.op('Not', [g.cast(x, OnnxType.BOOL)], {}, OnnxType.BOOL, outShape(outs)),
  Expm1: composite((g, x, s) => g.op('Sub', [g.op('Exp', [x], {}, x.type, s), k(g, 1, x)], {}, x.type, s)),
  Log1p: composite((g, x, s) => g.op('Log', [g.op('Add', [x, k(g, 1, x)], {}, x.type, s)], {}, x.type, s)),
  Rsqrt: composite((g, x, s) => g.op('Reciprocal', [g.op('Sqrt', [x], {}, x.type, s)], {}, x.type, s)),
  Square: (g, [x], _a, outs) => {
    const v = castTo(g, x, NUMERIC);
    return intArithmetic(g, 'Mul', v, v, outShape(outs), true);
  },
  Relu6: composite((g, x, s) => clip(0, 6, x, g, s)),
  ClipByValue: (g, [x], attrs, outs) => {
    const v = castTo(g, x, NUMERIC);
    return clip(Number(attrs.clipValueMin), Number(attrs.clipValueMax), v, g, outShape(outs));
  },
  LeakyRelu: composite((g, x, s, attrs) => g.op('LeakyRelu', [x], { alpha: { float: Number(attrs.alpha ?? 0.2) } }, x.type, s)),
  Step: composite((g, x, s, attrs) => {
    // tfjs: x > 0 ? 1 : alpha, NaN stays NaN.
    const positive = g.op('Greater', [x, k(g, 0, x)], {}, OnnxType.BOOL, s);
    const step = g.op('Where', [positive, k(g, 1, x), k(g, Number(attrs.alpha ?? 0), x)], {}, x.type, s);
    return g.op('Where', [g.op('IsNaN', [x], {}, OnnxType.BOOL, s), x, step], {}, x.type, s);
  }),
  Prelu: (g, [x, alpha], _a, outs) => g.op('PRelu', [castTo(g, x, FLOAT_ONLY), castTo(g, alpha, FLOAT_ONLY)], {},
    OnnxType.FLOAT, outShape(outs)),

  Add: binary('Add'),
  Sub: binary('Sub'),
  Multiply: (g, [a, b], _a, outs) => {
    const x = castTo(g, a, NUMERIC);
    return intArithmetic(g, 'Mul', x, castTo(g, b, [x.type]), outShape(outs));
  },
  RealDiv: realDiv,
  FloorDiv: floorDiv,
  Mod: mod,
  Maximum: binary('Max'),
  Minimum: binary('Min'),
  Pow: (g, [a, b], _a, outs) => {
    const x = castTo(g, a, NUMERIC);
    return intArithmetic(g, 'Pow', x, castTo(g, b, [x.type]), outShape(outs));
  },
  SquaredDifference: (g, [a, b], _a, outs) => {
    const s = outShape(outs);
    const x = castTo(g, a, NUMERIC);
    const d = g.op('Sub', [x, castTo(g, b, [x.type])], {}, x.type, s);
    return g.op('Mul', [d, d], {}, x.type, s);
  },
  Equal: comparison('Equal', [OnnxType.FLOAT, OnnxType.INT32, OnnxType.BOOL]),
  NotEqual: (g, inputs, attrs, outs, node) => {
    const eq = comparison('Equal', [OnnxType.FLOAT, OnnxType.INT32, OnnxType.BOOL])(g, inputs, attrs, outs, node) as Value;
    return g.op('Not', [eq], {}, OnnxType.BOOL, outShape(outs));
  },
  Greater: comparison('Greater'),
  GreaterEqual: comparison('GreaterOrEqual'),
  Less: comparison('Less'),
  LessEqual: comparison('LessOrEqual'),
  LogicalAnd: logical('And'),
  LogicalOr: logical('Or'),
  Select: select,
  Cast: cast,
  AddN: (g, inputs, _a, outs) => {
    const [first, ...rest] = inputs.map((v) => castTo(g, v, NUMERIC));
    return rest.length === 0 ? g.op('Identity', [first], {}, first.type, outShape(outs))
      : g.op('Sum', [first, ...rest.map((v) => castTo(g, v, [first.type]))], {}, first.type, outShape(outs));
  },
  // (No node: a value is immutable, and graph outputs get an Identity where ONNX needs one.)
  Identity: (_g, [x]) => x,
};

