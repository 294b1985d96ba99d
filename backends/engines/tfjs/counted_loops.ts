/**
 * Loops whose trip count is known when they start: `for (const x of xs)` over a tensor,
 * `for (const i of range(n))`, `for (let t = 0; t < maxLen; t++)` with a promoted counter and no
 * tensor break. Their While test is `i < n` (or `i <= n`) on a loop variable `i` that the body only
 * steps by a positive constant, and a bound `n` the loop does not change. The executor then reads
 * `i` and `n` once when the loop starts (nothing at all when both are constants: read once per
 * program) and runs the body that many times, instead of reading the test back every iteration
 * (a GPU sync per iteration on webgl / webgpu, where eager code reads nothing).
 */
import type { Graph, Node, ValueRef, WhileNode } from '../../graph/graph';

/** Where a value the trip count needs comes from when the loop starts. */
export type LoopOperand = { input: number } | { constant: number };

export interface CountedLoop {
  /** The loop variable tested and stepped (its index among the While's inputs). */
  counter: number;
  /** The bound: a While input the loop does not change, or a program constant. */
  bound: LoopOperand;
  /** The program constant the body adds to the counter (a positive integer, checked when read). */
  step: number;
  /** `i <= n` rather than `i < n`. */
  inclusive: boolean;
  dtype: 'int32' | 'float32';
}

const nodeOf = (graph: Graph, ref: ValueRef): Node => graph.nodes[ref.node];

/** The loop's While input or program constant behind `ref` in a cond / body graph, if it is one. */
function operand(graph: Graph, ref: ValueRef): LoopOperand | undefined {
  const node = nodeOf(graph, ref);
  if (node.kind === 'Input') return { input: node.param };
  if (node.kind === 'Constant') return { constant: node.constant };
  return undefined;
}

/** The program constant the body adds to loop variable `counter`, when that is all it does to it. */
function constantStep(body: Graph, counter: number): number | undefined {
  const next = nodeOf(body, body.results[counter]);
  if (next.kind !== 'Kernel' || next.op !== 'Add' || next.inputs.length !== 2) return undefined;
  const [a, b] = next.inputs.map((r) => operand(body, r));
  const isCounter = (o: LoopOperand | undefined): boolean => o !== undefined && 'input' in o && o.input === counter;
  if (isCounter(a) && b !== undefined && 'constant' in b) return b.constant;
  if (isCounter(b) && a !== undefined && 'constant' in a) return a.constant;
  return undefined;
}

/** Whether the body hands loop variable `index` back unchanged. */
function unchanged(body: Graph, index: number): boolean {
  const result = nodeOf(body, body.results[index]);
  return result.kind === 'Input' && result.param === index;
}

/** `node` as a counted loop, or undefined when its test may depend on anything else. */
export function countedLoop(node: WhileNode): CountedLoop | undefined {
  const { cond, body, loopVars } = node;
  if (cond.results.length !== 1) return undefined;
  const test = nodeOf(cond, cond.results[0]);
  if (test.kind !== 'Kernel' || (test.op !== 'Less' && test.op !== 'LessEqual') || test.inputs.length !== 2) return undefined;
  // The test alone: nothing else runs in the cond (no side effect, no other read).
  if (cond.nodes.some((n) => n !== test && n.kind !== 'Input' && n.kind !== 'Constant')) return undefined;
  const counter = operand(cond, test.inputs[0]);
  const bound = operand(cond, test.inputs[1]);
  if (counter === undefined || !('input' in counter) || counter.input >= loopVars || bound === undefined) return undefined;
  // Scalars: a counter of another shape (broadcast, or changing dims) is tested as written.
  const scalar = (ref: ValueRef): boolean => nodeOf(cond, ref).outputs[ref.output].shape.length === 0;
  if (!test.inputs.every(scalar)) return undefined;
  const dtype = nodeOf(cond, test.inputs[0]).outputs[test.inputs[0].output].dtype;
  if (dtype !== 'int32' && dtype !== 'float32') return undefined;
  if ('input' in bound && (bound.input === counter.input || (bound.input < loopVars && !unchanged(body, bound.input)))) return undefined;
  const step = constantStep(body, counter.input);
  if (step === undefined) return undefined;
  return { counter: counter.input, bound, step, inclusive: test.op === 'LessEqual', dtype };
}

/** Largest magnitude up to which float32 counters and bounds are exact integers. */
const FLOAT32_EXACT = 2 ** 24;
const INT32_MAX = 2 ** 31 - 1;

/**
 * How many times the body runs from `start` to `bound` by `step`, or undefined when the values
 * make it anything but a plain count (a fraction, a non-positive step, a counter that would wrap
 * past int32 or lose float32 precision): then the loop tests every iteration as written.
 */
export function tripCount(loop: CountedLoop, start: number, bound: number, step: number): number | undefined {
  if (!Number.isInteger(start) || !Number.isInteger(bound) || !Number.isInteger(step) || step <= 0) return undefined;
  const span = bound - start + (loop.inclusive ? 1 : 0);
  const trips = span <= 0 ? 0 : Math.ceil(span / step);
  const last = start + trips * step;
  const limit = loop.dtype === 'int32' ? INT32_MAX : FLOAT32_EXACT;
  if (last > limit || Math.abs(start) > limit || Math.abs(bound) > limit) return undefined;
  return trips;
}
