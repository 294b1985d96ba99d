/**
 * Reductions (Sum, Prod, Mean, Max, Min, All, Any, ArgMax, ArgMin). tfjs names the axes `axis`
 * or `reductionIndices`; opset 18 takes them as an int64 input.
 */
import { OnnxType } from '../onnx_proto';
import type { KernelLowering, LoweringTable } from './lowering';
import { axesOf, castTo, NUMERIC } from './lowering';

const reduce = (opType: string, types: readonly number[] = NUMERIC, resultType?: OnnxType): KernelLowering =>
  (g, [x], attrs, outs) => {
    const given = attrs.axis ?? attrs.reductionIndices;
    // No axis attr: all axes; an empty list: none.
    const axes = given == null ? x.shape.map((_, i) => i) : axesOf(given, x.shape.length);
    const v = castTo(g, x, types as OnnxType[]);
    // No axes: tfjs reduces over nothing (ONNX would reduce over everything).
    if (axes.length === 0) return g.op('Identity', [v], {}, v.type, outs[0].shape);
    const reduced = g.op(opType, [v, g.int64s(axes)], { keepdims: attrs.keepDims ? 1 : 0 }, v.type, outs[0].shape);
    return resultType === undefined ? reduced : g.cast(reduced, resultType);
  };

/** ArgMax/ArgMin: the first index of the extreme value, int64 in ONNX (cast to the recorded int32). */
const arg = (opType: string): KernelLowering => (g, [x], attrs, outs) => {
  const [axis] = axesOf(attrs.axis ?? 0, x.shape.length);
  const v = castTo(g, x, NUMERIC);
  return g.op(opType, [v], { axis, keepdims: 0, select_last_index: 0 }, OnnxType.INT64, outs[0].shape);
};

export const reductionKernels: LoweringTable = {
  Sum: reduce('ReduceSum'),
  Prod: reduce('ReduceProd'),
  Mean: reduce('ReduceMean', [OnnxType.FLOAT]),
  Max: reduce('ReduceMax'),
  Min: reduce('ReduceMin'),
  // Booleans as int32: All = min, Any = max.
  All: reduce('ReduceMin', [OnnxType.INT32], OnnxType.BOOL),
  Any: reduce('ReduceMax', [OnnxType.INT32], OnnxType.BOOL),
  ArgMax: arg('ArgMax'),
  ArgMin: arg('ArgMin'),
};
