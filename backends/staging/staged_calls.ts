/**
 * Staged recursion (Snek's): a call the transformer marked as possibly recursive
 * (`ag__.recursiveCall`, transformer/analysis/recursion.ts) is traced like any call — the callee's
 * body inlined into the graph — until the trace meets a call of the same function with the same
 * arguments (same receiver, tensor specs and JS values) under a tensor condition or loop entered
 * since that call began. There the recursion is decided by a tensor, and inlining would never end:
 * the function is traced once more as a graph of its own (Program.functions), and each such call
 * becomes a Call node of it, which the executor runs with a frame per call.
 *
 * What a call of a function still being traced returns is found by a probe: a first trace of the
 * function in which the inner call throws PendingRecursion, which a staged branch turns into a
 * branch that throws (staged_if.ts), so the probe returns what a base case returns. The function is
 * then traced for real with the probe's result as the inner calls' value, and both must agree.
 *
 * JS values a recursive function changes (fields of its receiver or of an argument object) would
 * change once per trace, not once per call: such a change is refused, naming it.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { OperatorOptions } from '../../runtime/options';
import { at, StagingError } from '../common/errors';
import { flatten, type Flat } from '../common/nest';
import { GraphBuilder, specOf } from '../graph/builder';
import { type CallNode, sameShape, specText } from '../graph/graph';
import { markPromoted, promotionOf } from '../../runtime/promoted_values';
import { TracedList } from './staged_lists';
import { unwrapCallback } from '../../runtime/library_code';
import type { Tracer } from './tracer';

type Callable = (...args: never[]) => unknown;

/** Thrown by a call of a function whose first (probe) trace has not returned yet. */
export class PendingRecursion extends Error {
  constructor(readonly key: string) {
    super('autograph-ts internal: a recursive call whose result is not known yet');
  }
}

/** Calls in progress that differ only in their tensors' shapes, before such a recursion is refused. */
const MAX_SHAPE_CHANGES = 12;

interface Activation {
  key: string;
  /** The key without the tensors' specs. */
  jsKey: string;
  /** The graph being traced when the call began: a call under a staged branch or loop of it is staged. */
  builder: GraphBuilder;
}

interface ResultLeaf {
  /** The tensor a trace returned (a stand-in's shape and dtype), or a JS value returned as it is. */
  tensor?: tf.Tensor;
  value?: unknown;
  promotion?: { name: string; origin: string | undefined };
}

interface FunctionTrace {
  index: number;
  name: string;
  /** The probe's result, once it returned. */
  result?: { structure: string; leaves: ResultLeaf[]; rebuild: Flat['rebuild'] };
}

export class StagedCalls {
  private readonly activations: Activation[] = [];
  private readonly functions = new Map<string, FunctionTrace>();
  private readonly ids = new WeakMap<object, number>();
  private lastId = 0;
  /** Probe traces in progress (see traceFunction). */
  private probing = 0;

  constructor(private readonly tracer: Tracer) {}

  call(fn: Callable, args: unknown[], opts: OperatorOptions | undefined, receiver: unknown): unknown {
    const flat = flatten(args);
    if (!flat.leaves.some((leaf) => leaf instanceof tf.Tensor || leaf instanceof TracedList)) return Reflect.apply(fn, receiver, args);
    const { key, jsKey } = this.keyOf(fn, receiver, flat);
    const active = [...this.activations].reverse().find((a) => a.key === key);
    if (active !== undefined && active.builder !== this.tracer.current) return this.staged(fn, receiver, flat, key, opts);
    this.refuseChangingShapes(jsKey, flat, fn, opts);
    return this.inlined(key, jsKey, () => Reflect.apply(fn, receiver, args));
  }

  /**
   * Calls that differ from the ones in progress only in their tensors' shapes (`grow(tf.concat([x,
   * x]), n.sub(1))`) never repeat: inlined without end, each larger than the last.
   */
  private refuseChangingShapes(jsKey: string, flat: Flat, fn: Callable, opts: OperatorOptions | undefined): void {
    const same = this.activations.filter((a) => a.jsKey === jsKey);
    if (same.length < MAX_SHAPE_CHANGES) return;
    if (same.every((a) => a.key === same[0].key)) throw noBaseCase(unwrapCallback(fn).name, opts);
    const shapes = (key: string): string => key.slice(jsKey.length + 1);
    const now = flat.leaves.filter((l): l is tf.Tensor => l instanceof tf.Tensor).map((t) => specText(specOf(t))).join(', ');
    throw new StagingError(`autograph-ts: the recursive function '${unwrapCallback(fn).name}'${at(opts)} is called under a ` +
      `tensor condition with tensors whose shapes change on every call (${shapes(same[0].key)} → ${shapes(same[1].key)} → ... → ` +
      `${now}): a staged recursion runs as a graph when a call repeats the shapes of one in progress. Keep the shapes ` +
      'the same from call to call (pad, or preallocate), or write it as a loop.');
  }

  /** Runs `run` as an activation of `key` (its calls of `key` under a staged condition are staged). */
  private inlined<T>(key: string, jsKey: string, run: () => T): T {
    this.activations.push({ key, jsKey, builder: this.tracer.current });
    try {
      return run();
    } finally {
      this.activations.pop();
    }
  }

  /** A Call node of the function graph of `key` (traced first if this is its first staged call). */
  private staged(fn: Callable, receiver: unknown, flat: Flat, key: string, opts: OperatorOptions | undefined): unknown {
    refuseLists(flat, fn, opts);
    let traced = this.functions.get(key);
    if (traced === undefined) {
      try {
        traced = this.traceFunction(fn, receiver, flat, key, opts);
      } catch (error) {
        // (A statement may trace again after a failure: observed fields, lists.)
        this.functions.delete(key);
        throw error;
      }
    }
    if (traced.result === undefined) throw new PendingRecursion(key);
    const tensors = flat.leaves.filter((l): l is tf.Tensor => l instanceof tf.Tensor);
    const leaves = traced.result.leaves;
    const outputs = leaves.filter((l) => l.tensor !== undefined).map((l) => this.standIn(l));
    const node: CallNode = { kind: 'Call', function: traced.index, inputs: tensors.map((t) => this.tracer.resolve(t)),
      origin: opts?.origin, outputs: outputs.map((t) => specOf(t)) };
    this.tracer.define(node, outputs);
    let k = 0;
    return traced.result.rebuild(leaves.map((l) => (l.tensor !== undefined ? outputs[k++] : l.value)));
  }

  /** A tensor of the result leaf's shape and dtype that no other value of the trace shares. */
  private standIn(leaf: ResultLeaf): tf.Tensor {
    const t = this.tracer.freshCopy(leaf.tensor!);
    this.tracer.onTensorMade(t, true);
    return leaf.promotion === undefined ? t : markPromoted(t, leaf.promotion.name, leaf.promotion.origin);
  }

  private traceFunction(fn: Callable, receiver: unknown, flat: Flat, key: string, opts: OperatorOptions | undefined): FunctionTrace {
    const program = this.tracer.program;
    const functions = (program.functions ??= []);
    const name = unwrapCallback(fn).name || 'the function';
    const traced: FunctionTrace = { index: functions.push({ numParams: 0, nodes: [], results: [] }) - 1, name };
    this.functions.set(key, traced);
    this.probing++;
    let probe: NonNullable<FunctionTrace['result']>;
    try {
      probe = this.traceBody(fn, receiver, flat, key, opts, traced, true);
    } finally {
      this.probing--;
    }
    traced.result = probe;
    // Inside another function's probe, this function's calls of that one have no value yet: its
    // probe's result serves the probe around it, and it is traced for real when next called.
    if (this.probing > 0) {
      this.functions.delete(key);
      return traced;
    }
    const real = this.traceBody(fn, receiver, flat, key, opts, traced, false);
    refuseDifferentResults(probe, real, name, opts);
    return traced;
  }

  /** One trace of fn's body as the graph of `traced`; returns its result as the Call's outputs describe it. */
  private traceBody(fn: Callable, receiver: unknown, flat: Flat, key: string, opts: OperatorOptions | undefined,
                    traced: FunctionTrace, probe: boolean): NonNullable<FunctionTrace['result']> {
    const builder = new GraphBuilder(undefined, `the recursive function '${traced.name}'${at(opts)}`);
    const args = flat.rebuild(flat.leaves.map((leaf) => {
      if (!(leaf instanceof tf.Tensor)) return leaf;
      const param = this.tracer.freshCopy(leaf);
      builder.values.set(param, builder.addParam(specOf(param)));
      return param;
    })) as unknown[];
    const before = snapshot(receiver, args);
    let result: unknown;
    try {
      result = this.tracer.inSubgraph(builder, () => this.inlined(key, this.keyOf(fn, receiver, flat).jsKey, () => {
        const value = Reflect.apply(fn, receiver, args);
        return this.bindResults(builder, value, traced.name, opts);
      }));
    } catch (error) {
      if (error instanceof PendingRecursion && error.key === key) throw noBaseCase(traced.name, opts);
      throw error;
    }
    refuseChangedState(before, snapshot(receiver, args), traced.name, opts);
    if (!probe) this.tracer.program.functions![traced.index] = builder.graph;
    return result as NonNullable<FunctionTrace['result']>;
  }

  /** The function graph's results: the tensors of fn's return value (JS values stay JS values). */
  private bindResults(builder: GraphBuilder, value: unknown, name: string, opts: OperatorOptions | undefined): FunctionTrace['result'] {
    const flat = flatten(value);
    const leaves: ResultLeaf[] = flat.leaves.map((leaf) => {
      if (leaf instanceof TracedList) {
        throw new StagingError(`autograph-ts: the recursive function '${name}'${at(opts)} returns a list grown in a staged ` +
          'loop; a staged recursion returns tensors and JS values (return tf.stack(list)).');
      }
      if (!(leaf instanceof tf.Tensor)) return { value: leaf };
      const promotion = promotionOf(leaf);
      return { tensor: leaf, promotion: promotion && { name: promotion.name, origin: promotion.origin } };
    });
    builder.graph.results = leaves.filter((l) => l.tensor !== undefined).map((l) => this.tracer.resolve(l.tensor!));
    return { structure: flat.structure, leaves, rebuild: flat.rebuild };
  }

  /** Which function, receiver and arguments a call has: tensors by spec, JS values by value, objects by identity. */
  private keyOf(fn: Callable, receiver: unknown, flat: Flat): { key: string; jsKey: string } {
    const part = (value: unknown): string => {
      if (value instanceof tf.Tensor) return 'tensor';
      if (value !== null && (typeof value === 'object' || typeof value === 'function')) return `#${this.idOf(value)}`;
      return typeof value === 'string' ? JSON.stringify(value) : `${typeof value}:${Object.is(value, -0) ? '-0' : String(value)}`;
    };
    const jsKey = `${this.idOf(unwrapCallback(fn))} ${part(receiver)} ${flat.structure} ${flat.leaves.map(part).join(' ')}`;
    const specs = flat.leaves.filter((l): l is tf.Tensor => l instanceof tf.Tensor).map((t) => specText(specOf(t)));
    return { key: `${jsKey} ${specs.join(', ')}`, jsKey };
  }

  private idOf(value: object): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = ++this.lastId));
    return id;
  }
}

function refuseLists(flat: Flat, fn: Callable, opts: OperatorOptions | undefined): void {
  if (!flat.leaves.some((l) => l instanceof TracedList)) return;
  throw new StagingError(`autograph-ts: a recursive call of '${unwrapCallback(fn).name}'${at(opts)} under a tensor condition passes a list ` +
    'grown in a staged loop; a staged recursion takes tensors and JS values (pass tf.stack(list)).');
}

function noBaseCase(name: string, opts: OperatorOptions | undefined): StagingError {
  return new StagingError(`autograph-ts: the recursive function '${name}'${at(opts)} calls itself on every path the trace ` +
    'took, with the same arguments: no branch returns without calling it again, so a call could never end.');
}

function refuseDifferentResults(probe: NonNullable<FunctionTrace['result']>, real: NonNullable<FunctionTrace['result']>,
                                name: string, opts: OperatorOptions | undefined): void {
  const describe = (r: NonNullable<FunctionTrace['result']>): string => `${r.structure} of ` +
    r.leaves.map((l) => (l.tensor !== undefined ? specText(specOf(l.tensor)) : String(l.value))).join(', ');
  const same = probe.structure === real.structure && probe.leaves.length === real.leaves.length &&
    probe.leaves.every((a, i) => {
      const b = real.leaves[i];
      if (a.tensor === undefined || b.tensor === undefined) return a.tensor === b.tensor && Object.is(a.value, b.value);
      return a.tensor.dtype === b.tensor.dtype && sameShape(a.tensor.shape, b.tensor.shape) &&
        (a.promotion === undefined) === (b.promotion === undefined);
    });
  if (same) return;
  throw new StagingError(`autograph-ts: the recursive function '${name}'${at(opts)} returns ${describe(real)} where it ` +
    `calls itself and ${describe(probe)} where it does not: a staged recursion returns the same shapes, dtypes and JS ` +
    'values on every path.');
}

/** The JS-visible state a recursive function could change: the receiver's fields and argument objects' contents, by path. */
function snapshot(receiver: unknown, args: unknown[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const visit = (value: unknown, path: string, depth: number): void => {
    out.set(path, value);
    if (depth > 2 || value === null || typeof value !== 'object' || value instanceof tf.Tensor) return;
    for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    out.set(`${path}.length`, Array.isArray(value) ? value.length : Object.keys(value).length);
  };
  visit(receiver, 'this', 0);
  args.forEach((a, i) => visit(a, `argument ${i + 1}`, 1));
  return out;
}

function refuseChangedState(before: Map<string, unknown>, after: Map<string, unknown>, name: string,
                            opts: OperatorOptions | undefined): void {
  const changed = [...after.keys()].find((path) => !before.has(path) || !Object.is(before.get(path), after.get(path))) ??
    [...before.keys()].find((path) => !after.has(path));
  if (changed === undefined) return;
  throw new StagingError(`autograph-ts: the recursive function '${name}'${at(opts)} changes '${changed}': a staged ` +
    'recursion would make that change once per trace, not once per call. Return the new value instead.');
}
