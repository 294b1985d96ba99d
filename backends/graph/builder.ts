/**
 * Builds one Graph (the function body, a branch, a loop's cond or body) while a trace runs.
 * Tensors are known by value identity: (dataId, shape, dtype). dataId alone is not enough since
 * some kernels (Reshape, Identity, same-dtype Cast) return their input's dataId.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { type Graph, type Node, sameShape, type TensorSpec, type ValueRef } from './graph';

export function specOf(info: tf.TensorInfo): TensorSpec {
  // A list value while tracing (staged_lists.ts TracedList): its spec object is shared on purpose.
  const list = (info as { listSpec?: TensorSpec }).listSpec;
  if (list !== undefined) return list;
  return { shape: [...info.shape], dtype: info.dtype };
}


interface ValueEntry<V> { shape: readonly number[]; dtype: string; value: V }

/**
 * A map keyed by a tensor's value identity. Most data have one value (an entry of its own; a
 * list only where a kernel reshaped or cast the data in place): a trace sets one per kernel output.
 */
export class ValueTable<V> {
  private readonly byDataId = new Map<object, ValueEntry<V> | ValueEntry<V>[]>();

  get(info: tf.TensorInfo): V | undefined {
    const found = this.byDataId.get(info.dataId);
    if (found === undefined) return undefined;
    if (!Array.isArray(found)) return matches(found, info) ? found.value : undefined;
    for (const e of found) if (matches(e, info)) return e.value;
    return undefined;
  }

  set(info: tf.TensorInfo, value: V): void {
    const found = this.byDataId.get(info.dataId);
    if (found === undefined) {
      this.byDataId.set(info.dataId, entryOf(info, value));
    } else if (!Array.isArray(found)) {
      if (matches(found, info)) found.value = value;
      else this.byDataId.set(info.dataId, [found, entryOf(info, value)]);
    } else {
      const existing = found.find((e) => matches(e, info));
      if (existing) existing.value = value;
      else found.push(entryOf(info, value));
    }
  }
}

/** A scalar's shape in every entry (never changed: entries only compare it). */
const SCALAR_SHAPE: readonly number[] = Object.freeze([]);

const entryOf = <V>(info: tf.TensorInfo, value: V): ValueEntry<V> =>
  ({ shape: info.shape.length === 0 ? SCALAR_SHAPE : [...info.shape], dtype: info.dtype, value });

const matches = (e: ValueEntry<unknown>, info: tf.TensorInfo): boolean => e.dtype === info.dtype && sameShape(e.shape, info.shape);

export class GraphBuilder {
  readonly graph: Graph = { numParams: 0, nodes: [], results: [] };
  readonly values = new ValueTable<ValueRef>();
  /** Captured values of the enclosing graph: parameter, outer reference, and the tensor the trace used. */
  readonly captures: { param: number; outer: ValueRef; tensor?: tf.TensorInfo }[] = [];
  /** Last read (or assigned value) of each variable in this graph, valid while its dataId holds. */
  readonly variableReads = new Map<number, { dataId: object; ref: ValueRef }>();

  /**
   * @param parent the enclosing graph (none for the function body)
   * @param label what this sub-graph is, for errors: "the if branch of the conditional (main.ts:8:3)"
   */
  constructor(readonly parent?: GraphBuilder, readonly label = 'the function body') {}

  /** Whether `other` is this graph or encloses it (its values are visible here, as captures). */
  isWithin(other: GraphBuilder): boolean {
    for (let b: GraphBuilder | undefined = this; b !== undefined; b = b.parent) if (b === other) return true;
    return false;
  }

  add(node: Node): number {
    this.graph.nodes.push(node);
    return this.graph.nodes.length - 1;
  }

  /** A new parameter (explicit ones must all be added before the first capture). */
  addParam(spec: TensorSpec): ValueRef {
    const param = this.graph.numParams++;
    return { node: this.add({ kind: 'Input', param, outputs: [spec] }), output: 0 };
  }

  addCapture(outer: ValueRef, spec: TensorSpec, tensor?: tf.TensorInfo): ValueRef {
    const existing = this.captures.find((c) => c.outer.node === outer.node && c.outer.output === outer.output);
    if (existing) {
      const node = this.graph.nodes.findIndex((n) => n.kind === 'Input' && n.param === existing.param);
      return { node, output: 0 };
    }
    const ref = this.addParam(spec);
    this.captures.push({ param: this.graph.numParams - 1, outer, tensor });
    return ref;
  }
}

/**
 * Gives several sub-graphs one parameter list: the explicit parameters (the first `explicit`),
 * then the distinct captured values of all of them. Returns the outer references of the
 * captures, in parameter order.
 */
export function unifyCaptures(builders: GraphBuilder[], explicit: number): ValueRef[] {
  const outer: ValueRef[] = [];
  const paramOf = new Map<string, number>();
  for (const b of builders) {
    const renumber = new Map<number, number>();
    for (const c of b.captures) {
      const key = `${c.outer.node}:${c.outer.output}`;
      let param = paramOf.get(key);
      if (param === undefined) {
        param = explicit + outer.push(c.outer) - 1;
        paramOf.set(key, param);
      }
      renumber.set(c.param, param);
    }
    for (const node of b.graph.nodes) {
      if (node.kind === 'Input' && node.param >= explicit) node.param = renumber.get(node.param)!;
    }
  }
  for (const b of builders) b.graph.numParams = explicit + outer.length;
  return outer;
}

/** The tensors the trace used for the captured values `outer` (as unifyCaptures returned them). */
export function capturedTensors(builders: GraphBuilder[], outer: ValueRef[]): (tf.TensorInfo | undefined)[] {
  const byRef = new Map<string, tf.TensorInfo | undefined>();
  for (const b of builders) {
    for (const c of b.captures) if (!byRef.has(`${c.outer.node}:${c.outer.output}`)) byRef.set(`${c.outer.node}:${c.outer.output}`, c.tensor);
  }
  return outer.map((r) => byRef.get(`${r.node}:${r.output}`));
}
