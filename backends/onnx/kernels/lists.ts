/**
 * List nodes (backends/graph.ts's ListNode, TF's TensorList ops) as ONNX sequences: a list value is
 * a seq(tensor) of its elements' type, so a list can be Loop state and If output like any value.
 * Lists are values in both: SequenceInsert / SequenceErase return a new sequence.
 *
 * One line per op, from the sequence helpers below (position -1 is the last element; ONNX counts
 * negative positions from the end). An op without a line does not lower, naming itself.
 */
import type { GraphScope, Value } from '../model_builder';
import { OnnxType } from '../onnx_proto';

/** A list node's output: a sequence (list) or a tensor (element, length), of this type and shape. */
export interface ListOut { type: OnnxType; shape: number[]; sequence?: boolean }

export type ListLowering = (g: GraphScope, inputs: Value[], outs: ListOut[]) => Value[];

const position = (g: GraphScope, i: Value | number): Value =>
  (typeof i === 'number' ? g.scalar(i, OnnxType.INT64) : g.cast(i, OnnxType.INT64));

/** The element at `i`. */
const at = (g: GraphScope, list: Value, i: Value | number, out: ListOut): Value =>
  g.op('SequenceAt', [list, position(g, i)], {}, list.type, out.shape);

/** The list without the element at `i`. */
const erase = (g: GraphScope, list: Value, i: Value | number, out: ListOut): Value =>
  g.opN('SequenceErase', [list, position(g, i)], {}, [out])[0];

/** The list with `item` appended (or inserted at `i`). */
const insert = (g: GraphScope, list: Value, item: Value, out: ListOut, i?: Value | number): Value =>
  g.opN('SequenceInsert', [list, g.cast(item, list.type), ...(i === undefined ? [] : [position(g, i)])], {}, [out])[0];

export const listLowerings: Record<string, ListLowering> = {
  EmptyTensorList: (g, _inputs, [list]) => g.opN('SequenceEmpty', [], { dtype: list.type }, [list]),
  TensorListPushBack: (g, [list, item], [out]) => [insert(g, list, item, out)],
  TensorListPopBack: (g, [list], [rest, item]) => [erase(g, list, -1, rest), at(g, list, -1, item)],
};
