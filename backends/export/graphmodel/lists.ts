/**
 * List nodes as TF TensorList ops that tfjs-converter runs (DT_VARIANT handles, which are also
 * StatelessWhile loop variables and StatelessIf captures and outputs).
 *
 * TF's TensorLists are values; tfjs-converter's are mutable objects behind a handle: its
 * TensorListPushBack appends to the list its input handle names and returns that same handle, and
 * its TensorListPopBack returns only the element (TF: the shorter list, then the element). So:
 * - PushBack is written as TensorListPushBack on a handle no other use holds: where a list value
 *   has several uses, a use that may append to it (a push, a While or If input, a function
 *   result) gets a copy (TensorListResize to its own length: a new list in TF and in tfjs).
 * - PopBack is written as TensorListGetItem of the last element and TensorListResize to one less:
 *   the same values in TF and tfjs, and nothing mutated.
 * - Stack is TensorListStack; Concat (along axis 0 only) the V1 TensorListConcat, whose
 *   element_shape is an attr in both TF and tfjs (V2 takes it as an input in TF, an attr in tfjs).
 */
import type { ListNode, TensorSpec } from '../../graph/graph';

/** What writing one List node needs from the graph writer. */
export interface ListScope {
  /** Input `i` of the node, to read it. */
  read(i: number): string;
  /** Input `i` of the node, a list handle no other use holds (a copy where others do). */
  own(i: number): string;
  /** Appends a node (name made from `op`); returns its output `k` as an input of this scope. */
  emit(op: string, input: string[], attr?: Record<string, unknown>, k?: number): string;
  /** An int32 Const (shared model-wide) as an input of this scope. */
  int32(values: number[], scalar: boolean): string;
  /** The TF dtype name of a tensor dtype (DT_FLOAT, ...). */
  dtype(spec: TensorSpec): string;
}

export type ListWriting = { ok: true; outputs: string[] } | { ok: false; reason: string };

/** Writes `node`; its outputs' refs in order, or why it has no TF / tfjs-converter form. */
export function writeListNode(node: ListNode, inputSpecs: TensorSpec[], scope: ListScope): ListWriting {
  const list = node.op === 'EmptyTensorList' ? node.outputs[0] : inputSpecs[0];
  if ([list, ...node.outputs].some((s) => (s.list ?? 0) > 1)) {
    return { ok: false, reason: "a list of lists (tfjs-converter's TensorList holds tensors only)" };
  }
  const element: TensorSpec = { shape: list.shape, dtype: list.dtype };
  const elementDtype = { type: scope.dtype(element) };
  const elementShape = (): string => scope.int32(element.shape, false);
  switch (node.op) {
    case 'EmptyTensorList':
      // max_num_elements -1: unbounded.
      return ok(scope.emit('EmptyTensorList', [elementShape(), scope.int32([-1], true)],
        { element_dtype: elementDtype, shape_type: { type: 'DT_INT32' } }));
    case 'TensorListPushBack':
      return ok(scope.emit('TensorListPushBack', [scope.own(0), scope.read(1)], { element_dtype: elementDtype }));
    case 'TensorListPopBack': {
      const list = scope.read(0);
      const last = scope.emit('Sub', [scope.emit('TensorListLength', [list]), scope.int32([1], true)], { T: { type: 'DT_INT32' } });
      // Popping an empty list reads index -1: an error in TF and in tfjs.
      const item = scope.emit('TensorListGetItem', [list, last, elementShape()], { element_dtype: elementDtype });
      return ok(scope.emit('TensorListResize', [list, last]), item);
    }
    case 'TensorListLength':
      return ok(scope.emit('TensorListLength', [scope.read(0)]));
    case 'TensorListGetItem':
      return ok(scope.emit('TensorListGetItem', [scope.read(0), scope.read(1), elementShape()], { element_dtype: elementDtype }));
    case 'TensorListStack': {
      if ((node.attrs?.axis ?? 0) !== 0) return { ok: false, reason: `tf.stack along axis ${String(node.attrs?.axis)} (TF stacks a list along axis 0)` };
      return ok(scope.emit('TensorListStack', [scope.read(0), elementShape()], { element_dtype: elementDtype, num_elements: { i: '-1' } }));
    }
    case 'TensorListConcat': {
      const axis = Number(node.attrs?.axis ?? 0);
      if (axis !== 0) return { ok: false, reason: `tf.concat along axis ${axis} (TF's TensorListConcat joins along axis 0)` };
      // tfjs-converter reshapes every element to one shape before it concatenates.
      if (element.shape[0] < 0) {
        return { ok: false, reason: "elements that differ in dim 0 (tfjs-converter's TensorListConcat needs elements of one shape)" };
      }
      const joined = scope.emit('TensorListConcat', [scope.read(0)], {
        element_dtype: elementDtype, element_shape: { shape: { dim: element.shape.map((d) => ({ size: String(d) })) } } });
      if (node.attrs?.emptyRows !== true) return ok(joined);
      // An empty list: tfjs-converter gives shape [0, ...element] (a rank too many), reshaped to no rows.
      return ok(scope.emit('Reshape', [joined, scope.int32([-1, ...element.shape.slice(1)], false)],
        { T: elementDtype, Tshape: { type: 'DT_INT32' } }));
    }
    default:
      return { ok: false, reason: 'no TensorList form' };
  }
}

const ok = (...outputs: string[]): ListWriting => ({ ok: true, outputs });
