/**
 * List nodes (backends/graph/graph.ts's ListNode, TF's TensorList ops) as ONNX sequences: a list value is
 * a seq(tensor) of its elements' type, so a list can be Loop state and If output like any value.
 * Lists are values in both: SequenceInsert / SequenceErase return a new sequence.
 *
 * One line per op, from the sequence helpers below (position -1 is the last element; ONNX counts
 * negative positions from the end). An op without a line does not lower, naming itself.
 */
import { GraphScope, Unsupported, type Value } from '../model_builder';
import { OnnxType } from '../onnx_proto';

/** A list node's output: a sequence (list) or a tensor (element, length), of this type and shape. */
export interface ListOut { type: OnnxType; shape: number[]; sequence?: boolean }

export type ListLowering = (g: GraphScope, inputs: Value[], outs: ListOut[], attrs?: Record<string, unknown>) => Value[];

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

/**
 * A position read from the graph: ONNX counts a negative one from the end, the executor refuses it
 * (checkedIndex): made out of range, so ORT fails the run as the executor does.
 */
const checkedPosition = (g: GraphScope, i: Value): Value => {
  const p = g.cast(i, OnnxType.INT64);
  const negative = g.op('Less', [p, g.scalar(0, OnnxType.INT64)], {}, OnnxType.BOOL, []);
  return g.op('Where', [negative, g.scalar(2 ** 31 - 1, OnnxType.INT64), p], {}, OnnxType.INT64, []);
};

/**
 * `xs[i] = item`: for i < length an If whose then branch erases element i and inserts item there,
 * whose else branch inserts it at i (i == length appends). Past the end (holes, which a sequence
 * cannot hold) the insert is out of range and ORT fails the run on purpose: the tfjs executor,
 * which holds holes, runs that call (engines/choice.ts).
 */
function setItem(g: GraphScope, [list, index, item]: Value[], [out]: ListOut[]): Value[] {
  const p = checkedPosition(g, index);
  const n = g.op('SequenceLength', [list], {}, OnnxType.INT64, []);
  const branch = (name: string, replace: boolean): { graph: ReturnType<GraphScope['graph']> } => {
    const scope = new GraphScope(g.model, g.model.fresh(name));
    const kept = replace ? erase(scope, list, p, out) : list;
    return { graph: scope.graph(scope.outputs([insert(scope, kept, item, out, p)])) };
  };
  const replaces = g.op('Less', [p, n], {}, OnnxType.BOOL, []);
  return g.opN('If', [replaces], { then_branch: branch('set_item', true), else_branch: branch('append_item', false) }, [out]);
}

/**
 * tf.stack (a new axis) or tf.concat (an existing one) of the elements; ORT fails on an empty list.
 * A Concat with attrs.emptyRows gives no rows for an empty list: lowered only from scan outputs.
 */
const join = (newAxis: 0 | 1) => (g: GraphScope, [list]: Value[], [out]: ListOut[], axis: number, emptyRows = false): Value[] => {
  if (list.scanRows !== undefined) return [joinRows(g, list, list.scanRows, newAxis, out, emptyRows)];
  if (emptyRows) throw new Unsupported('rows of a list that may be empty, not a scan output of its loop');
  return [g.op('ConcatFromSequence', [list], { axis, new_axis: newAxis }, list.type, out.shape)];
};

/**
 * tf.stack / tf.concat along axis 0 of a list lowered as a Loop's scan output (scan_lists.ts): its
 * rows (one per iteration, stacked by ORT), reshaped for a concat, after the elements the list
 * started with. An empty list fails the run, as ConcatFromSequence does (the tfjs executor then
 * raises tfjs's error): an index 1 into a one-element Gather where the loop pushed nothing.
 */
function joinRows(g: GraphScope, list: Value, { rows, prefix }: { rows: Value; prefix?: Value }, newAxis: 0 | 1, out: ListOut,
                  emptyRows: boolean): Value {
  const I64 = OnnxType.INT64;
  const element = list.shape;
  let joined = newAxis === 1 ? rows : g.op('Reshape', [rows, g.int64s([-1, ...element.slice(1)])], {}, list.type, out.shape);
  if (prefix !== undefined) {
    const first = g.op('ConcatFromSequence', [prefix], { axis: 0, new_axis: newAxis }, list.type, out.shape);
    return g.op('Concat', [first, joined], { axis: 0 }, list.type, out.shape);
  }
  if (emptyRows) return joined;
  const count = g.op('Shape', [rows], { start: 0, end: 1 }, I64, [1]);
  const empty = g.op('Cast', [g.op('Equal', [count, g.int64s([0])], {}, OnnxType.BOOL, [1])], { to: I64 }, I64, [1]);
  const from = g.op('Gather', [g.int64s([0]), empty], { axis: 0 }, I64, [1]);
  joined = g.op('Slice', [joined, from, g.int64s([2 ** 53]), g.int64s([0])], {}, list.type, out.shape);
  return joined;
}

export const listLowerings: Record<string, ListLowering> = {
  EmptyTensorList: (g, _inputs, [list]) => g.opN('SequenceEmpty', [], { dtype: list.type }, [list]),
  TensorListPushBack: (g, [list, item], [out]) => [insert(g, list, item, out)],
  TensorListPopBack: (g, [list], [rest, item]) => [erase(g, list, -1, rest), at(g, list, -1, item)],
  TensorListPopFront: (g, [list], [rest, item]) => [erase(g, list, 0, rest), at(g, list, 0, item)],
  TensorListSetItem: setItem,
  TensorListLength: (g, [list], [out]) => [g.cast(g.op('SequenceLength', [list], {}, OnnxType.INT64, []), out.type)],
  TensorListGetItem: (g, [list, index], [out]) => [at(g, list, checkedPosition(g, index), out)],
  TensorListStack: (g, inputs, outs, attrs) => join(1)(g, inputs, outs, Number(attrs?.axis ?? 0)),
  TensorListConcat: (g, inputs, outs, attrs) => join(0)(g, inputs, outs, Number(attrs?.axis ?? 0), attrs?.emptyRows === true),
};
