/**
 * Element-wise kernels: unary math, binary arithmetic (tfjs's division and modulo semantics),
 * comparisons, logic, select and cast. tfjs has already made the two inputs of a binary kernel
 * the same dtype; broadcasting is numpy-style in both.
 */
import type { GraphScope, Value } from '../model_builder';
import { Unsupported } from '../model_builder';
import { OnnxType } from '../onnx_proto';
import type { KernelLowering, LoweringTable, Out } from './lowering';
import { isNonNegative } from '../sign_facts';
import { castTo, cInt32, FLOAT_ONLY, int32Via, NUMERIC, toInt32, wrapToInt32 } from './lowering';

const outShape = (outs: Out[]): number[] => outs[0].shape;

/** tfjs-wasm's kernels that read int32 data as float32 bits (EdgeSemantics.int32AsFloatBits). */
const READS_INT32_BITS = new Set(['Reciprocal', 'Log1p', 'Asinh', 'Acosh', 'IsNan', 'IsInf', 'IsFinite', 'ClipByValue', 'Prelu']);

function refuseInt32Bits(g: GraphScope, kernel: string): void {
  if (READS_INT32_BITS.has(kernel) && g.model.semantics.int32AsFloatBits) {
    throw new Unsupported(`${kernel} on int32: tfjs-wasm reads the int32 data as float32 bits (ONNX has no bit cast)`);
  }
}

/**
 * `compute` over x (float), unless tfjs ran the float kernel on int32 and recorded int32: then as
 * the traced-on backend computes and stores it (int32Via: tfjs-cpu's Reciprocal gives 1 / 0 -> 0,
 * tfjs-wasm's Asin(2) -> -2^31), or refused where tfjs-wasm reads the int32 bits as floats.
 */
function floatKernel(g: GraphScope, kernel: string, x: Value, outs: Out[], compute: (v: Value) => Value, inDouble = true): Value {
  if (x.type !== OnnxType.INT32 || outs[0].type !== OnnxType.INT32) return compute(castTo(g, x, FLOAT_ONLY));
  refuseInt32Bits(g, kernel);
  if (!inDouble && g.model.semantics.int32Unary === 'float64') {
    throw new Unsupported(`${kernel} on int32: tfjs-cpu computes it in float64, ORT's ${kernel} has no double kernel`);
  }
  return int32Via(g, x, compute);
}

/** Unary ops ORT's CPU provider runs on doubles. */
const DOUBLE_OPS = new Set(['Reciprocal', 'Exp', 'Log', 'Sqrt', 'Sin', 'Cos', 'Tanh', 'Sigmoid', 'Floor', 'Ceil']);
/** Those of them whose float32 result is not already the double one rounded (EdgeSemantics.floatMath). */
const TRANSCENDENTAL = new Set(['Exp', 'Log', 'Sin', 'Cos', 'Tanh', 'Sigmoid']);

/** A unary ONNX op computed in the first of `types` the input is not already one of. */
const unary = (opType: string, types: readonly OnnxType[] = FLOAT_ONLY, attrs = {}): KernelLowering =>
  (g, [x], _a, outs) => {
    if (types.includes(OnnxType.INT32) || x.type !== OnnxType.INT32) {
      const v = castTo(g, x, types);
      if (v.type === OnnxType.FLOAT && g.model.semantics.floatMath === 'float64' && TRANSCENDENTAL.has(opType)) {
        // tfjs-cpu: Math.exp etc. on JS numbers, rounded once to float32.
        return g.cast(g.op(opType, [g.cast(v, OnnxType.DOUBLE)], attrs, OnnxType.DOUBLE, outShape(outs)), OnnxType.FLOAT);
      }
      return g.op(opType, [v], attrs, v.type, outShape(outs));
    }
    return floatKernel(g, opType, x, outs, (v) => g.op(opType, [v], attrs, v.type, outShape(outs)), DOUBLE_OPS.has(opType));
  };

/** A unary op whose output type is fixed (IsNaN, IsInf: bool). */
const predicate = (opType: string): KernelLowering =>
  (g, [x], _a, outs) => {
    if (x.type === OnnxType.INT32) refuseInt32Bits(g, opType === 'IsNaN' ? 'IsNan' : opType);
    return g.op(opType, [castTo(g, x, FLOAT_ONLY)], {}, OnnxType.BOOL, outShape(outs));
  };

const binary = (opType: string, types: readonly OnnxType[] = NUMERIC): KernelLowering =>
  (g, [a, b], _a, outs) => {
    const x = castTo(g, a, types);
    return g.op(opType, [x, castTo(g, b, [x.type])], {}, x.type, outShape(outs));
  };

/**
 * An int32 `op` (Mul, Pow) as the traced-on backend computes it (EdgeSemantics.intMultiply): wasm
 * in int32; cpu on JS numbers (float64, rounded past 2^53) stored into an Int32Array — through a
 * Float32Array first for Square (`roundToFloat32`). Other types: `op` itself.
 */
function intArithmetic(g: GraphScope, op: string, a: Value, b: Value, shape: number[], roundToFloat32 = false): Value {
  if (a.type !== OnnxType.INT32 || g.model.semantics.intMultiply === 'wrap') return g.op(op, [a, b], {}, a.type, shape);
  let exact = g.op(op, [g.cast(a, OnnxType.DOUBLE), g.cast(b, OnnxType.DOUBLE)], {}, OnnxType.DOUBLE, shape);
  if (roundToFloat32) exact = g.cast(g.cast(exact, OnnxType.FLOAT), OnnxType.DOUBLE);
  // (A power can be fractional or infinite: 2^-1 -> 0, 0^-1 -> Infinity -> 0.)
  return op === 'Pow' ? toInt32(g, exact) : wrapToInt32(g, exact, shape);
}

/**
 * LeakyRelu (also the fused activation): x < 0 ? alpha * x : x. tfjs-wasm multiplies by
 * float32(alpha) in float32; tfjs-cpu by alpha as a float64, rounding the product once
 * (EdgeSemantics.leakyRelu: -7 * 0.3 = -2.0999999, not -2.1000001).
 */
export function leakyRelu(g: GraphScope, input: Value, alpha: number): Value {
  const x = castTo(g, input, FLOAT_ONLY);
  if (g.model.semantics.leakyRelu === 'float32') return g.op('LeakyRelu', [x], { alpha: { float: alpha } }, x.type, x.shape);
  const D = OnnxType.DOUBLE;
  const scaled = g.cast(g.op('Mul', [g.cast(input, D), g.scalar(alpha, D)], {}, D, x.shape), OnnxType.FLOAT);
  return where(g, g.op('Less', [x, k(g, 0, x)], {}, OnnxType.BOOL, x.shape), scaled, x, x.shape);
}

/**
 * Maximum / Minimum. float32 on tfjs-wasm (EdgeSemantics.floatMaxMin): std::max(a, b) is
 * a < b ? b : a, std::min b < a ? b : a, so a NaN second operand gives the first, and of two
 * equal values (-0, 0) the first is kept; on tfjs-cpu Math.max / Math.min (NaN wins, -0 < +0).
 */
const maxMin = (opType: 'Max' | 'Min'): KernelLowering => (g, [a, b], _a, outs) => {
  const x = castTo(g, a, NUMERIC);
  const y = castTo(g, b, [x.type]);
  const shape = outShape(outs);
  if (x.type !== OnnxType.FLOAT) return g.op(opType, [x, y], {}, x.type, shape);
  if (g.model.semantics.floatMaxMin === 'nan') {
    // tfjs-cpu is Math.max / Math.min, for which -0 < +0 (Math.min(0, -0) is -0); ORT's Max / Min
    // keep either zero. Of two zeros: max = a + b (+0 unless both are -0), min = -(-a + -b).
    const plain = g.op(opType, [x, y], {}, x.type, shape);
    const F = OnnxType.FLOAT;
    const zero = k(g, 0, x);
    const bothZero = g.op('And', [g.op('Equal', [x, zero], {}, OnnxType.BOOL, x.shape), g.op('Equal', [y, zero], {}, OnnxType.BOOL, y.shape)],
      {}, OnnxType.BOOL, shape);
    const zeros = opType === 'Max' ? g.op('Add', [x, y], {}, F, shape)
      : g.op('Neg', [g.op('Add', [g.op('Neg', [x], {}, F, x.shape), g.op('Neg', [y], {}, F, y.shape)], {}, F, shape)], {}, F, shape);
    return where(g, bothZero, zeros, plain, shape);
  }
  const takeSecond = g.op('Less', opType === 'Max' ? [x, y] : [y, x], {}, OnnxType.BOOL, shape);
  return where(g, takeSecond, y, x, shape);
};

const comparison = (opType: string, types: readonly OnnxType[] = NUMERIC): KernelLowering =>
  (g, [a, b], _a, outs) => {
    const x = castTo(g, a, types);
    return g.op(opType, [x, castTo(g, b, [x.type])], {}, OnnxType.BOOL, outShape(outs));
  };

const logical = (opType: string): KernelLowering =>
  (g, [a, b], _a, outs) => g.op(opType, [g.cast(a, OnnxType.BOOL), g.cast(b, OnnxType.BOOL)], {}, OnnxType.BOOL, outShape(outs));

/** f(x) as a small graph over x (float; int32 recorded as int32: floatKernel). */
const composite = (kernel: string, build: (g: GraphScope, x: Value, shape: number[], attrs: Record<string, unknown>) => Value): KernelLowering =>
  (g, [x], attrs, outs) => floatKernel(g, kernel, x, outs, (v) => build(g, v, outShape(outs), attrs));

const k = (g: GraphScope, v: number, like: Value): Value => g.scalar(v, like.type);

/**
 * tfjs's float Mod: rem = fmod(a, b); (a < 0) === (b < 0) ? rem : fmod(rem + b, b), as
 * fmod(rem - offset, b) with offset = -b where the signs differ and +0 elsewhere: the same steps
 * (rem - (-b) is rem + b exactly; fmod(rem - 0, b) is rem, a -0 included, as |rem| < |b|), so
 * signed zeros, NaN and infinities come out as in tfjs, without a selection of the result (ORT's
 * Where drops the sign of a selected -0: the exact where() takes a dozen nodes). For a divisor
 * known when lowering and positive (`n.mod(2)`), the sign test is a < 0 and -b a constant: five
 * nodes per element-wise Mod in a scalar loop like collatz instead of twenty-two.
 */
function floatMod(g: GraphScope, a: Value, b: Value, shape: number[]): Value {
  const F = OnnxType.FLOAT;
  const B = OnnxType.BOOL;
  const fmod = (x: Value, y: Value): Value => g.op('Mod', [x, y], { fmod: 1 }, F, shape);
  const rem = fmod(a, b);
  const known = g.model.floatsOf(b);
  const positive = known !== undefined && known.every((v) => v > 0);
  // a never negative nor -0 (sign_facts.ts) and b > 0: tfjs's result is rem.
  if (positive && isNonNegative(g.model, a)) return rem;
  const zero = k(g, 0, a);
  const aNegative = g.op('Less', [a, zero], {}, B, a.shape);
  const signsDiffer = positive ? aNegative : g.op('Xor', [aNegative, g.op('Less', [b, zero], {}, B, b.shape)], {}, B, shape);
  const minusB = positive ? g.data(known.map((v) => -v), F, b.shape) : g.op('Neg', [b], {}, F, b.shape);
  // Where selects -b (a -0 only for b = 0, where rem is NaN anyway) or the constant +0.
  const offset = g.op('Where', [signsDiffer, minusB, zero], {}, F, shape);
  return fmod(g.op('Sub', [rem, offset], {}, F, shape), b);
}

/** tfjs Mod is a floor modulo for floats and ints alike (the result takes the divisor's sign). */
const mod: KernelLowering = (g, [a, b], _attrs, outs) => {
  const shape = outShape(outs);
  if (a.type === OnnxType.FLOAT) return floatMod(g, a, b, shape);
  // Integers: ONNX's integer Mod is already a floor modulo, but a zero divisor, and -2^31 mod -1,
  // are undefined behaviour in ORT (the process dies of SIGFPE); tfjs-cpu gives 0 for a zero divisor
  // (NaN stored in an int32 array; tfjs-wasm throws). Any x mod -1 is 0 = x mod 1: the divisor -1
  // is replaced by 1 first.
  const x = castTo(g, a, [OnnxType.INT32]);
  const y = castTo(g, b, [OnnxType.INT32]);
  const isMinusOne = g.op('Equal', [y, k(g, -1, y)], {}, OnnxType.BOOL, y.shape);
  const notMinusOne = g.op('Where', [isMinusOne, k(g, 1, y), y], {}, y.type, y.shape);
  const result = guardZeroDivisor(g, notMinusOne, shape, 0, (safe) => g.op('Mod', [x, safe], { fmod: 0 }, OnnxType.INT32, shape));
  return g.model.semantics.intModByZero === 'throws' ? failRunIf(g, g.op('Equal', [y, k(g, 0, y)], {}, OnnxType.BOOL, y.shape), result) : result;
};

/**
 * `value`, but the ORT run fails where any element of `condition` is true (a Gather out of
 * range): the program then runs on the tfjs executor, which raises tfjs's own error (engines/choice.ts
 * runOn). For kernels tfjs throws on at some values (tfjs-wasm's int32 Mod by zero), and values
 * whose result ONNX cannot reproduce (tfjs-wasm's max pool of a NaN).
 */
export function failRunIf(g: GraphScope, condition: Value, value: Value): Value {
  const any = g.op('ReduceMax', [g.cast(condition, OnnxType.INT32)], { keepdims: 0 }, OnnxType.INT32, []);
  // -0, not +0: x + (-0) is x for every x, where -0 + 0 would be +0 (a max pool of -0s gave +0).
  const zero = g.op('Gather', [g.filled([1], -0, value.type), any], { axis: 0 }, value.type, []);
  return g.op('Add', [value, zero], {}, value.type, value.shape);
}

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
  if (a.type === OnnxType.FLOAT && outs[0].type === OnnxType.INT32) {
    // tfjs-cpu's float FloorDiv is int32: Math.floor(a / b) in float64, stored with ToInt32 (NaN, ±Infinity -> 0).
    const D = OnnxType.DOUBLE;
    return toInt32(g, g.op('Floor', [g.op('Div', [g.cast(a, D), g.cast(b, D)], {}, D, shape)], {}, D, shape));
  }
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

/**
 * Cast to the recorded dtype. float -> int32 is JS ToInt32 on both backends (3e9 -> -1294967296,
 * NaN and ±Infinity -> 0; ORT's Cast gives -2^31). To bool on tfjs-wasm gives values ONNX cannot
 * hold (EdgeSemantics.castToBool): refused; int32 -> float32 on tfjs-cpu past 2^24 likewise
 * (intToFloat): the ORT run fails there and the tfjs executor runs the program.
 */
const cast: KernelLowering = (g, [x], _attrs, outs) => {
  const to = outs[0].type;
  const semantics = g.model.semantics;
  if (x.type === OnnxType.FLOAT && to === OnnxType.INT32) return toInt32(g, x);
  if (to === OnnxType.BOOL && x.type !== OnnxType.BOOL && semantics.castToBool === 'lowByte') {
    throw new Unsupported('Cast to bool: tfjs-wasm keeps the low byte of ToInt32(x) (-2 -> 254, 0.5 -> 0), not an ONNX bool');
  }
  if (to === OnnxType.FLOAT && x.type === OnnxType.INT32 && semantics.intToFloat === 'keepsInt32') {
    // tfjs-cpu keeps the int32 values (2147483647 stays exact) where ONNX float rounds past 2^24.
    // Refusing would send every graph that mixes ints and floats (a token compared with a number)
    // to the tfjs executor: instead the ORT run fails when a value is past 2^24, and the
    // executor runs the program exactly (runOn).
    const limit = 2 ** 24;
    const large = g.op('Or', [g.op('Greater', [x, g.scalar(limit, x.type)], {}, OnnxType.BOOL, x.shape),
      g.op('Less', [x, g.scalar(-limit, x.type)], {}, OnnxType.BOOL, x.shape)], {}, OnnxType.BOOL, x.shape);
    return failRunIf(g, large, g.cast(x, to));
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

/**
 * cond ? t : e for a scalar bool cond and t, e of `shape` (known dims), any type, bit for bit: the
 * two values stacked and the taken one gathered (a gather copies, a -0 stays -0, where ORT's
 * Where clears it). Five nodes where where() takes about fourteen for floats: what an If whose
 * branches compute a float scalar lowers to (Lowering.selectNode), in place of a sub-graph call.
 */
export function selectWhole(g: GraphScope, cond: Value, t: Value, e: Value, shape: number[]): Value {
  const axis = g.int64s([0], [1]);
  const stacked = [1, ...shape];
  const both = g.op('Concat', [g.op('Unsqueeze', [e, axis], {}, e.type, stacked), g.op('Unsqueeze', [t, axis], {}, t.type, stacked)],
    { axis: 0 }, t.type, [2, ...shape]);
  return g.op('Gather', [both, g.op('Cast', [cond], { to: OnnxType.INT64 }, OnnxType.INT64, [])], { axis: 0 }, t.type, shape);
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
  // int32 |x| on both backends: in float32 (|16777217| = 16777216, |2^31 - 1| = 2^31 -> -2^31).
  Abs: (g, [x], _a, outs) => {
    if (x.type !== OnnxType.INT32) return g.op('Abs', [castTo(g, x, FLOAT_ONLY)], {}, OnnxType.FLOAT, outShape(outs));
    const v = g.cast(x, OnnxType.FLOAT);
    return cInt32(g, g.op('Abs', [v], {}, v.type, outShape(outs)));
  },
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
  // int32 -x: tfjs-wasm in float32 (EdgeSemantics.int32Unary), cpu exactly (wraps, as ORT's Neg).
  Neg: (g, [x], _a, outs) => {
    const v = castTo(g, x, NUMERIC);
    if (v.type === OnnxType.INT32 && g.model.semantics.int32Unary === 'float32') {
      return int32Via(g, v, (f) => g.op('Neg', [f], {}, f.type, f.shape));
    }
    return g.op('Neg', [v], {}, v.type, outShape(outs));
  },
  Reciprocal: unary('Reciprocal'),
  // Half to even; int32 is kept as is. tfjs-cpu: round(-0.5) = +0 (EdgeSemantics.roundMinusHalf).
  Round: (g, [x], _a, outs) => {
    if (x.type === OnnxType.INT32) return x;
    const v = castTo(g, x, FLOAT_ONLY);
    const rounded = g.op('Round', [v], {}, v.type, outShape(outs));
    if (g.model.semantics.roundMinusHalf === 'negativeZero') return rounded;
    return where(g, g.op('Equal', [v, k(g, -0.5, v)], {}, OnnxType.BOOL, v.shape), k(g, 0, v), rounded, outShape(outs));
  },
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
  // int32 softplus(x) stored as int32 is max(x, 0) on both backends (x + log(1 + e^-x) truncates to x).
  Softplus: (g, [x], _a, outs) => (x.type === OnnxType.INT32 && outs[0].type === OnnxType.INT32
    ? g.op('Max', [x, k(g, 0, x)], {}, x.type, outShape(outs))
    : g.op('Softplus', [castTo(g, x, FLOAT_ONLY)], {}, OnnxType.FLOAT, outShape(outs))),
  Sqrt: unary('Sqrt'),
  Tan: unary('Tan'),
  Tanh: unary('Tanh'),
  Relu: relu,
  IsNan: predicate('IsNaN'),
  IsInf: predicate('IsInf'),
  IsFinite: (g, [x], _a, outs) => {
    if (x.type === OnnxType.INT32) refuseInt32Bits(g, 'IsFinite');
    const v = castTo(g, x, FLOAT_ONLY);
    const nonFinite = g.op('Or', [g.op('IsNaN', [v], {}, OnnxType.BOOL, v.shape), g.op('IsInf', [v], {}, OnnxType.BOOL, v.shape)],
      {}, OnnxType.BOOL, v.shape);
    return g.op('Not', [nonFinite], {}, OnnxType.BOOL, outShape(outs));
  },
  LogicalNot: (g, [x], _a, outs) => g.op('Not', [g.cast(x, OnnxType.BOOL)], {}, OnnxType.BOOL, outShape(outs)),
  Expm1: composite('Expm1', (g, x, s) => g.op('Sub', [g.op('Exp', [x], {}, x.type, s), k(g, 1, x)], {}, x.type, s)),
  Log1p: composite('Log1p', (g, x, s) => g.op('Log', [g.op('Add', [x, k(g, 1, x)], {}, x.type, s)], {}, x.type, s)),
  Rsqrt: composite('Rsqrt', (g, x, s) => g.op('Reciprocal', [g.op('Sqrt', [x], {}, x.type, s)], {}, x.type, s)),
  Square: (g, [x], _a, outs) => {
    const v = castTo(g, x, NUMERIC);
    return intArithmetic(g, 'Mul', v, v, outShape(outs), true);
  },
  Relu6: composite('Relu6', (g, x, s) => clip(0, 6, x, g, s)),
  ClipByValue: (g, [x], attrs, outs) => {
    if (x.type === OnnxType.INT32) {
      // tfjs-cpu clamps the JS numbers and stores with ToInt32 (bounds need not be int32s).
      refuseInt32Bits(g, 'ClipByValue');
      return int32Via(g, x, (d) => clip(Number(attrs.clipValueMin), Number(attrs.clipValueMax), d, g, d.shape));
    }
    const v = castTo(g, x, NUMERIC);
    return clip(Number(attrs.clipValueMin), Number(attrs.clipValueMax), v, g, outShape(outs));
  },
  LeakyRelu: (g, [x], attrs) => leakyRelu(g, x, Number(attrs.alpha ?? 0.2)),
  Step: composite('Step', (g, x, s, attrs) => {
    // tfjs: x > 0 ? 1 : alpha, NaN stays NaN.
    const positive = g.op('Greater', [x, k(g, 0, x)], {}, OnnxType.BOOL, s);
    const step = g.op('Where', [positive, k(g, 1, x), k(g, Number(attrs.alpha ?? 0), x)], {}, x.type, s);
    return g.op('Where', [g.op('IsNaN', [x], {}, OnnxType.BOOL, s), x, step], {}, x.type, s);
  }),
  Prelu: (g, [x, alpha], _a, outs) => {
    const s = outShape(outs);
    if (x.type !== OnnxType.INT32) return g.op('PRelu', [castTo(g, x, FLOAT_ONLY), castTo(g, alpha, FLOAT_ONLY)], {}, OnnxType.FLOAT, s);
    refuseInt32Bits(g, 'Prelu');
    // tfjs-cpu: alpha * x on JS numbers, rounded once to float32 (-16777217 * 3 = -50331652, not -50331648).
    const D = OnnxType.DOUBLE;
    const scaled = g.cast(g.op('Mul', [g.cast(x, D), g.cast(alpha, D)], {}, D, s), OnnxType.FLOAT);
    const v = g.cast(x, OnnxType.FLOAT);
    return where(g, g.op('Less', [x, k(g, 0, x)], {}, OnnxType.BOOL, x.shape), scaled, v, s);
  },

  Add: binary('Add'),
  Sub: binary('Sub'),
  Multiply: (g, [a, b], _a, outs) => {
    const x = castTo(g, a, NUMERIC);
    return intArithmetic(g, 'Mul', x, castTo(g, b, [x.type]), outShape(outs));
  },
  RealDiv: realDiv,
  FloorDiv: floorDiv,
  Mod: mod,
  Maximum: maxMin('Max'),
  Minimum: maxMin('Min'),
  Pow: (g, [a, b], _a, outs) => {
    const x = castTo(g, a, NUMERIC);
    const y = castTo(g, b, [x.type]);
    const s = outShape(outs);
    const power = intArithmetic(g, 'Pow', x, y, s);
    if (x.type !== OnnxType.FLOAT || g.model.semantics.pow === 'c') return power;
    // tfjs-cpu is Math.pow: 1^NaN and (±1)^±Infinity are NaN (C's pow gives 1).
    const B = OnnxType.BOOL;
    const unit = g.op('Equal', [g.op('Abs', [x], {}, x.type, x.shape), k(g, 1, x)], {}, B, x.shape);
    const notFinite = g.op('Or', [g.op('IsNaN', [y], {}, B, y.shape), g.op('IsInf', [y], {}, B, y.shape)], {}, B, y.shape);
    return g.op('Where', [g.op('And', [unit, notFinite], {}, B, s), k(g, NaN, x), power], {}, x.type, s);
  },
  SquaredDifference: (g, [a, b], _a, outs) => {
    const s = outShape(outs);
    const x = castTo(g, a, NUMERIC);
    const y = castTo(g, b, [x.type]);
    if (x.type === OnnxType.INT32 && g.model.semantics.intMultiply === 'float64') {
      // tfjs-cpu: (a - b)^2 on JS numbers (the difference unwrapped, the square rounded past 2^53), then ToInt32.
      const D = OnnxType.DOUBLE;
      const dd = g.op('Sub', [g.cast(x, D), g.cast(y, D)], {}, D, s);
      return wrapToInt32(g, g.op('Mul', [dd, dd], {}, D, s), s);
    }
    if (x.type === OnnxType.FLOAT && g.model.semantics.floatSum === 'float64') {
      // tfjs-cpu: (a - b)^2 on JS numbers, rounded once (16777216 - -1 squared: 281475010265088, not 2^48).
      const D = OnnxType.DOUBLE;
      const dd = g.op('Sub', [g.cast(x, D), g.cast(y, D)], {}, D, s);
      return g.cast(g.op('Mul', [dd, dd], {}, D, s), OnnxType.FLOAT);
    }
    const d = g.op('Sub', [x, y], {}, x.type, s);
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
    if (rest.length === 0) return g.op('Identity', [first], {}, first.type, outShape(outs));
    // ORT's Sum has no int32 kernel: int32 terms are added one by one (wrapping, as both backends).
    if (first.type === OnnxType.INT32) return rest.reduce((acc, v) => g.op('Add', [acc, v], {}, acc.type, outShape(outs)), first);
    return g.op('Sum', [first, ...rest.map((v) => castTo(g, v, [first.type]))], {}, first.type, outShape(outs));
  },
  // (No node: a value is immutable, and graph outputs get an Identity where ONNX needs one.)
  Identity: (_g, [x]) => x,
};

