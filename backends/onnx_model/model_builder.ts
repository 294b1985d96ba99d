/**
 * Builds ONNX graphs: values with their types and static shapes, nodes, initializers (shared by
 * the whole model: sub-graphs read the root graph's initializers from the outer scope) and names
 * unique across the model (ONNX forbids a sub-graph name shadowing an outer one).
 */
import type { DataType } from '../graph/graph';
import type { Attribute, GraphProto, NodeProto, TensorProto, ValueInfo } from './onnx_proto';
import { OnnxType } from './onnx_proto';

/** An ONNX value: its name, element type and (static) shape. */
export interface Value {
  name: string;
  /** The element type (of the tensor, or of a sequence's tensors). */
  type: OnnxType;
  shape: number[];
  /** A sequence of tensors (a tfjs-side list value): ONNX seq(tensor). */
  sequence?: boolean;
  /**
   * Known when lowering (sign_facts.ts): every element is +0, positive or +Infinity — never
   * negative, never -0, never NaN. Lets a float Mod skip its sign fix-up and a float selection be
   * a plain Where; an int index (a counted loop's counter) needs no check for negative entries.
   */
  nonNegative?: boolean;
  /**
   * A list a loop only pushed to, lowered as the Loop's scan output (scan_lists.ts): `rows` holds
   * the pushed elements stacked on a new first axis, after the elements of `prefix` (a sequence
   * with at least one element) when the loop started from a non-empty list. Only tf.stack and
   * tf.concat along axis 0 read it.
   */
  scanRows?: { rows: Value; prefix?: Value };
}

/** A kernel or node that does not lower to ONNX: the lowering records it and goes on. */
export class Unsupported extends Error {
  override name = 'Unsupported';
}

export function onnxType(dtype: DataType): OnnxType {
  switch (dtype) {
    case 'float32': return OnnxType.FLOAT;
    case 'int32': return OnnxType.INT32;
    case 'bool': return OnnxType.BOOL;
    default: throw new Unsupported(`dtype ${dtype} has no ONNX lowering`);
  }
}

export type AttrSpec = Record<string, number | string | number[] | { floats: number[] } | { float: number } |
  { graph: GraphProto } | undefined>;

function attribute(name: string, v: NonNullable<AttrSpec[string]>): Attribute {
  if (typeof v === 'number') return { name, kind: 'int', value: v };
  if (typeof v === 'string') return { name, kind: 'string', value: v };
  if (Array.isArray(v)) return { name, kind: 'ints', value: v };
  if ('floats' in v) return { name, kind: 'floats', value: v.floats };
  if ('float' in v) return { name, kind: 'float', value: v.float };
  return { name, kind: 'graph', value: v.graph };
}

/**
 * Where tfjs backends disagree on edge values, the lowering follows the backend the graph was
 * traced on: wasm clamps NaN to the lower bound (XNNPACK's clamp) and gives INT32_MIN for an int32
 * floor division by zero; cpu (and the reference semantics) keep NaN and give 0.
 */
export interface EdgeSemantics {
  clipNaN: 'nan' | 'lower';
  intDivisionByZero: number;
  /** int32 Mod by zero: tfjs-wasm throws (a wasm trap), cpu gives 0. */
  intModByZero: 'throws' | 0;
  /**
   * How int32 FloorDiv divides: tfjs-wasm converts both operands to float32 (past 2^24 the quotient
   * is that of the rounded operands: 100000007 / 3 = 33333336, 2147483647 / 1 = -2^31), tfjs-cpu
   * divides exactly (in float64).
   */
  intDivision: 'float32' | 'exact';
  /**
   * How int32 products and powers wrap: tfjs-wasm computes in int32 (wraps exactly); tfjs-cpu
   * computes on JS numbers and stores the float64 result (rounded past 2^53) into an Int32Array.
   */
  intMultiply: 'wrap' | 'float64';
  /**
   * A float kernel (Neg, Selu, Asin, Sinh, ...) on int32 recorded as int32: tfjs-wasm computes in
   * float32 and converts as C does (-16777217 -> -16777216, NaN and out of range -> -2^31); tfjs-cpu
   * computes on JS numbers (Neg exactly) and stores with ToInt32 (NaN, ±Infinity -> 0, wraps).
   */
  int32Unary: 'float32' | 'float64';
  /**
   * tfjs-wasm reads an int32 operand's bits as float32 in Reciprocal, Log1p, Asinh, Acosh, IsNan,
   * IsInf, IsFinite, ClipByValue and Prelu (2^31 - 1 is NaN; 1 / 0 = +Infinity written back as the bits
   * 2139095040) and StridedSlice gives int32 data a float32 dtype: ONNX has no bit cast, so those
   * lowerings refuse int32 on wasm. cpu computes on the values.
   */
  int32AsFloatBits: boolean;
  /**
   * Cast int32/float32 -> bool: cpu is x != 0; tfjs-wasm stores the low byte of ToInt32(x) (-2 ->
   * 254, 256 and 0.5 -> 0, 2^31 - 1 -> 255): a bool of value 254 is not an ONNX bool, so it refuses.
   */
  castToBool: 'nonzero' | 'lowByte';
  /**
   * Cast int32 -> float32: tfjs-wasm rounds to float32; tfjs-cpu keeps the int32 data under the
   * float32 dtype (2^31 - 1 stays 2147483647, read exactly by the next kernel): ONNX float cannot
   * hold it, so on cpu an ORT run with such a value past 2^24 fails and the executor runs it.
   */
  intToFloat: 'float32' | 'keepsInt32';
  /**
   * float32 Maximum / Minimum: cpu propagates NaN (Math.max); tfjs-wasm is std::max / std::min
   * (a < b ? b : a; b < a ? b : a), so a NaN second operand gives the first (max(1, NaN) = 1).
   */
  floatMaxMin: 'nan' | 'stdMinMax';
  /**
   * float32 Sum, Prod and Mean: tfjs-wasm accumulates in float32 (3e38 + 3e38 - 3e38 = Infinity)
   * and Mean is sum / n; cpu accumulates in float64, rounding the sum once, and Mean is the sum
   * of float32(x / n). Likewise cpu computes SquaredDifference and AvgPool in float64 and rounds
   * once; wasm rounds each step (its XNNPACK average pool adds in its own order: not reproduced).
   */
  floatSum: 'float32' | 'float64';
  /** float32 Pow: tfjs-wasm is C's pow (1^NaN = 1, (-1)^Infinity = 1); cpu is Math.pow (both NaN). */
  pow: 'c' | 'js';
  /** Round half to even: tfjs-cpu gives +0 for -0.5 (it computes floor(-0.5) + 1); wasm and ONNX -0. */
  roundMinusHalf: 'negativeZero' | 'positiveZero';
  /** LeakyRelu: tfjs-wasm multiplies by float32(alpha) in float32; cpu by alpha in float64, rounded once. */
  leakyRelu: 'float32' | 'float64';
  /** OneHot: tfjs-wasm takes onValue / offValue as int32 (ToInt32: 0.5 -> 0) for any dtype; cpu stores them into the dtype. */
  oneHotValues: 'int32' | 'dtype';
  /**
   * FusedBatchNorm, offset + (x - mean) * scale / sqrt(variance + epsilon): cpu on JS numbers,
   * rounded once; tfjs-wasm (x - mean) * scale and sqrt(variance + epsilon) in float32, the
   * division and the offset in double (33487526 where all-float32 gives 33487528; found by
   * matching, the C source reads all-float).
   */
  batchNorm: 'float64' | 'mixed';
  /**
   * float32 Exp, Log, Sin, Cos, Tanh, Sigmoid: tfjs-cpu computes on JS numbers (Math.exp, ...) and
   * rounds once, as ORT's double kernels do; tfjs-wasm's float32 approximations are not ORT's
   * (ulp differences, left to the op checks' tolerances).
   */
  floatMath: 'float32' | 'float64';
  /**
   * NaN out of a convolution or pool: tfjs-wasm's XNNPACK clamps its outputs to [-Infinity,
   * Infinity] with a max/min that turns NaN into -Infinity (before the fused activation: relu
   * gives 0, sigmoid 0, elu -1), and its fused matrix product's relu / relu6 turn NaN into 0; cpu
   * keeps NaN. (XNNPACK's max pool also depends on where the NaN is in the window: not reproduced.)
   */
  xnnpackNaN: 'lower' | 'nan';
  /** NaN in a max pool window: tfjs-cpu skips it (the max of the other values, -Infinity if none); ORT's MaxPool does not. */
  maxPoolNaN: 'skip' | 'xnnpack';
}

export function edgeSemantics(backendName: string): EdgeSemantics {
  return backendName === 'wasm'
    ? { clipNaN: 'lower', intDivisionByZero: -(2 ** 31), intModByZero: 'throws', intDivision: 'float32', intMultiply: 'wrap', int32Unary: 'float32',
      int32AsFloatBits: true, castToBool: 'lowByte', intToFloat: 'float32', floatMaxMin: 'stdMinMax', floatSum: 'float32',
      pow: 'c', roundMinusHalf: 'negativeZero', leakyRelu: 'float32', oneHotValues: 'int32',
      xnnpackNaN: 'lower', maxPoolNaN: 'xnnpack', batchNorm: 'mixed', floatMath: 'float32' }
    : { clipNaN: 'nan', intDivisionByZero: 0, intModByZero: 0, intDivision: 'exact', intMultiply: 'float64', int32Unary: 'float64',
      int32AsFloatBits: false, castToBool: 'nonzero', intToFloat: 'keepsInt32', floatMaxMin: 'nan', floatSum: 'float64',
      pow: 'js', roundMinusHalf: 'positiveZero', leakyRelu: 'float64', oneHotValues: 'dtype',
      xnnpackNaN: 'nan', maxPoolNaN: 'skip', batchNorm: 'float64', floatMath: 'float64' };
}

/**
 * `backendName`'s semantics without float64 arithmetic where that backend computes in float64
 * (tfjs-cpu's sums, transcendental functions, int32 products and divisions, ...): the model then
 * computes in float32 as tfjs-wasm and WebGL do, and loads in runtimes without double kernels
 * (onnxruntime-web). Values may differ from a cpu run in the last bits (and int32 products past
 * 2^53, divisions past 2^24). The other edge behaviours (NaN, division by zero) stay the backend's.
 */
export function float32Semantics(backendName: string): EdgeSemantics {
  return { ...edgeSemantics(backendName), intDivision: 'float32', intMultiply: 'wrap', int32Unary: 'float32', floatSum: 'float32',
    leakyRelu: 'float32', batchNorm: 'mixed', floatMath: 'float32' };
}

/** State shared by every graph of one model. */
export class ModelContext {
  constructor(readonly semantics: EdgeSemantics = edgeSemantics('cpu')) {}

  private counters = new Map<string, number>();
  private taken = new Set<string>();
  readonly initializers: TensorProto[] = [];
  private constants = new Map<string, Value>();
  private byName = new Map<string, TensorProto>();

  fresh(base: string): string {
    const clean = base.replace(/[^A-Za-z0-9_]/g, '_') || 'v';
    let name = clean;
    while (this.taken.has(name)) {
      const n = (this.counters.get(clean) ?? 0) + 1;
      this.counters.set(clean, n);
      name = `${clean}_${n}`;
    }
    this.taken.add(name);
    return name;
  }

  /** Claims a name exactly as given (model inputs and outputs); throws when taken. */
  claim(name: string): string {
    if (this.taken.has(name)) throw new Error(`autograph-ts internal: ONNX name '${name}' used twice`);
    this.taken.add(name);
    return name;
  }

  /** An initializer holding `raw` (deduplicated by content). */
  initializer(type: OnnxType, shape: number[], raw: Uint8Array, hint = 'const'): Value {
    const key = `${type}|${shape.join(',')}|${bytesKey(raw)}`;
    let v = this.constants.get(key);
    if (v === undefined) {
      v = { name: this.fresh(hint), type, shape: [...shape] };
      const proto = { name: v.name, dataType: type, dims: [...shape], raw: new Uint8Array(raw) };
      this.initializers.push(proto);
      this.byName.set(v.name, proto);
      this.constants.set(key, v);
    }
    return v;
  }

  /** The elements of `v` when it is an int32 or int64 initializer, else undefined. */
  intsOf(v: Value): number[] | undefined {
    const proto = this.byName.get(v.name);
    if (proto === undefined || proto.raw === undefined) return undefined;
    const bytes = proto.raw.slice().buffer;
    if (proto.dataType === OnnxType.INT32) return Array.from(new Int32Array(bytes));
    return proto.dataType === OnnxType.INT64 ? Array.from(new BigInt64Array(bytes), Number) : undefined;
  }

  /** The elements of `v` when it is a float initializer (a value known when lowering), else undefined. */
  floatsOf(v: Value): Float32Array | undefined {
    const proto = this.byName.get(v.name);
    if (proto === undefined || proto.dataType !== OnnxType.FLOAT || proto.raw === undefined) return undefined;
    return new Float32Array(proto.raw.slice().buffer);
  }
}

/** The bytes as a string, one char per byte (a Map key; no Buffer in a browser). */
function bytesKey(raw: Uint8Array): string {
  const CHUNK = 0x8000;
  let key = '';
  for (let i = 0; i < raw.length; i += CHUNK) key += String.fromCharCode(...raw.subarray(i, i + CHUNK));
  return key;
}

const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** One ONNX graph (the root graph or a sub-graph) under construction. */
export class GraphScope {
  readonly nodes: NodeProto[] = [];
  readonly inputs: ValueInfo[] = [];
  /** Names produced by nodes of this scope (a sub-graph output must be one of them). */
  private readonly produced = new Set<string>();

  constructor(readonly model: ModelContext, readonly name: string) {}

  input(name: string, type: OnnxType, shape: number[], sequence = false): Value {
    const v = { name, type, shape: [...shape], ...(sequence ? { sequence } : {}) };
    this.inputs.push({ name, type, shape, ...(sequence ? { sequence } : {}) });
    this.produced.add(name);
    return v;
  }

  /** Adds a node with one output. */
  op(opType: string, inputs: (Value | string)[], attrs: AttrSpec, type: OnnxType, shape: number[], hint?: string): Value {
    return this.opN(opType, inputs, attrs, [{ type, shape }], hint)[0];
  }

  /** Adds a node with several outputs. */
  opN(opType: string, inputs: (Value | string)[], attrs: AttrSpec, outs: { type: OnnxType; shape: number[]; sequence?: boolean }[],
      hint?: string): Value[] {
    const outputs: Value[] = outs.map((o) => ({ name: this.model.fresh(hint ?? opType.toLowerCase()), type: o.type, shape: [...o.shape],
      ...(o.sequence ? { sequence: true } : {}) }));
    const attributes = Object.entries(attrs).flatMap(([k, v]) => (v === undefined ? [] : [attribute(k, v)]));
    this.nodes.push({
      opType, inputs: inputs.map((i) => (typeof i === 'string' ? i : i.name)), outputs: outputs.map((o) => o.name), attributes,
    });
    for (const o of outputs) this.produced.add(o.name);
    return outputs;
  }

  cast(v: Value, type: OnnxType): Value {
    if (v.sequence && v.type !== type) throw new Error(`autograph-ts internal: a cast of the sequence ${v.name}`);
    return v.type === type ? v : this.op('Cast', [v], { to: type }, type, v.shape);
  }

  // ---- constants (root initializers) ----

  int64s(values: readonly number[], shape: number[] = [values.length]): Value {
    return this.model.initializer(OnnxType.INT64, shape, bytesOf(BigInt64Array.from(values.map((v) => BigInt(v)))), 'shape');
  }

  scalar(value: number | boolean, type: OnnxType): Value {
    return this.filled([], value, type);
  }

  /** A constant of `shape` filled with `value`. */
  filled(shape: number[], value: number | boolean, type: OnnxType): Value {
    const n = shape.reduce((a, b) => a * b, 1);
    const v = Number(value);
    const data = type === OnnxType.FLOAT ? new Float32Array(n).fill(v)
      : type === OnnxType.DOUBLE ? new Float64Array(n).fill(v)
      : type === OnnxType.INT32 ? new Int32Array(n).fill(v)
      : type === OnnxType.INT64 ? new BigInt64Array(n).fill(BigInt(v))
      : new Uint8Array(n).fill(v ? 1 : 0);
    return this.model.initializer(type, shape, bytesOf(data), 'k');
  }

  /** A constant from tfjs data (float32 / int32 / bool values). */
  data(values: ArrayLike<number> | Uint8Array, type: OnnxType, shape: number[], hint?: string): Value {
    const data = type === OnnxType.FLOAT ? Float32Array.from(values as ArrayLike<number>)
      : type === OnnxType.INT32 ? Int32Array.from(values as ArrayLike<number>)
      : Uint8Array.from(values as ArrayLike<number>, (x) => (x ? 1 : 0));
    return this.model.initializer(type, shape, bytesOf(data), hint);
  }

  /**
   * Outputs of this graph: each must be produced here, once (ORT rejects a sub-graph that returns
   * an outer-scope value or an initializer directly): others go through an Identity.
   */
  outputs(values: Value[], names?: string[]): ValueInfo[] {
    const used = new Set<string>();
    return values.map((v, i) => {
      let out = v;
      const wanted = names?.[i];
      if (wanted !== undefined || !this.produced.has(v.name) || used.has(v.name)) {
        const name = wanted ?? this.model.fresh(`${v.name}_out`);
        this.nodes.push({ opType: 'Identity', inputs: [v.name], outputs: [name], attributes: [] });
        this.produced.add(name);
        out = { ...v, name };
      }
      used.add(out.name);
      return { name: out.name, type: out.type, shape: out.shape, ...(out.sequence ? { sequence: true } : {}) };
    });
  }

  graph(outputs: ValueInfo[], initializers: TensorProto[] = []): GraphProto {
    return { name: this.name, nodes: this.nodes, initializers, inputs: this.inputs, outputs };
  }
}

export const size = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);
