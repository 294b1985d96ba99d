/**
 * Sums over a loop's steps computed once after it: a loop variable that starts at zeros and gets a
 * row-contracting term added on every step,
 *   acc = acc + BatchMatMul(a_t, b_t, transposeA)     // a weight gradient: Σ_t x_tᵀ dy_t
 *   acc = acc + Sum(x_t, axis 0)                       // a bias gradient: Σ_t Σ_rows dy_t
 * is, over all steps, one contraction of the rows of every step: Σ_t a_tᵀ b_t = Aᵀ B with A, B the
 * [steps * rows, ...] concatenations (one GEMM after the loop instead of a small one and an Add
 * per step). The loop pushes a_t and b_t to lists (ONNX Loop scan outputs; each value once when
 * terms share it), joined into rows after it, and the accumulator's uses read zeros + the
 * contraction. Exact up to the order of the sums.
 *
 * The rows of a loop that ran no steps are none (the Concat's emptyRows: no error, unlike
 * tf.concat of an empty list), whose contraction is zeros. Only accumulators that start at +0
 * zeros (a gradient's Fill) qualify, and the zeros are added back after the loop: the loop's sum
 * starts at +0 and so is never -0, while a GEMM or Sum of -0 terms may be; +0 + s is s otherwise.
 *
 * Only loops whose terms are small enough to be bound by the per-step cost of an operator are
 * rewritten (ACCUMULATE_UP_TO_WORK). Measured on ORT, one thread, a shared 2-core AVX-512 machine,
 * samples/bptt's step (T steps, batch B, H units; its terms' multiply-adds per step): T 128, B 4,
 * H 64 (17K) 1.27x faster; T 32, B 64, H 64 (282K) 0.98-0.99x; T 32, B 64, H 256 (4.3M) 0.89x:
 * from there on the per-step GEMMs run at GEMM speed, and the rows written and read back cost more.
 */
import type { Graph, KernelNode, ListNode, Node, Program, TensorSpec, ValueRef, WhileNode } from '../graph/graph';
import { hasUnknownDims } from '../graph/graph';
import { appendLoopVars, paramNode, readsOf } from './loop_vars';
import { forEachGraph, rewriteGraph } from './rewrite';

/** Multiply-adds per step of a loop's terms together up to which its sums are computed after it. */
export const ACCUMULATE_UP_TO_WORK = 2 ** 17;

/** One accumulator: loop variable `param`, whose body result is Input(param) + term. */
interface Accumulator {
  param: number;
  term: KernelNode;
  /** The term's inputs, in the body: the values pushed per step. */
  operands: ValueRef[];
}

/** Rewrites the accumulators of every loop of the program; returns one line per loop (for inspect()). */
export function batchAccumulatedProducts(program: Program): string[] {
  const notes: string[] = [];
  forEachGraph(program.graph, (graph) => {
    rewriteGraph(graph, (node, index, r) => {
      if (node.kind !== 'While') {
        r.keep(index);
        return;
      }
      const loop: WhileNode = { ...node, inputs: node.inputs.map((x) => r.map(x)) };
      const found = findAccumulators(program, graph, node, loop);
      if (found.length === 0) {
        const at = r.emit(loop);
        r.replace(index, loop.outputs.map((_, output) => ({ node: at, output })));
        return;
      }
      const lists = pushPerStep(loop, found, r.emit);
      const at = r.emit(loop);
      const sums = emitContractions(at, loop.inputs, lists, found, r.emit);
      r.replace(index, node.outputs.map((_, output) => sums.get(output) ?? { node: at, output }));
      notes.push(`${found.length} sum${found.length === 1 ? '' : 's'} over the steps of the loop${loop.origin ? ` at ${loop.origin}` : ''} ` +
        'computed after it (one product of the rows of all steps each)');
    });
  });
  return notes;
}

function findAccumulators(program: Program, outer: Graph, original: WhileNode, loop: WhileNode): Accumulator[] {
  const found: Accumulator[] = [];
  for (let param = 0; param < loop.loopVars; param++) {
    const init = outer.nodes[original.inputs[param].node];
    if (!isPositiveZeros(program, init)) continue;
    const acc = accumulatorOf(loop, param);
    if (acc !== undefined) found.push(acc);
  }
  const work = found.reduce((sum, acc) => sum + termWork(loop.body, acc.term), 0);
  return work <= ACCUMULATE_UP_TO_WORK ? found : [];
}

/** Multiply-adds (or adds) of one step's term; its operands' dims are known. */
function termWork(body: Graph, term: KernelNode): number {
  const [a, b] = term.inputs.map((x) => body.nodes[x.node].outputs[x.output].shape);
  const size = a.reduce((p, d) => p * d, 1);
  return term.op === 'BatchMatMul' ? size * b[1] : size;
}

/** Loop variable `param` as an accumulator of a row-contracting term, if it is one. */
function accumulatorOf(loop: WhileNode, param: number): Accumulator | undefined {
  const body = loop.body;
  const result = body.results[param];
  const add = body.nodes[result.node];
  if (add.kind !== 'Kernel' || add.op !== 'Add' || add.inputs.length !== 2 || add.multiOutput) return undefined;
  const input = body.nodes.findIndex((n) => n.kind === 'Input' && n.param === param);
  const side = add.inputs.findIndex((x) => x.node === input);
  if (input < 0 || side < 0) return undefined;
  const termRef = add.inputs[1 - side];
  const term = body.nodes[termRef.node];
  if (term.kind !== 'Kernel' || !isRowContraction(body, term)) return undefined;
  // The accumulator, the sum and the term are read by nothing else; the test does not read it.
  const once = [{ node: input, output: 0 }, result, termRef].every((ref) => readsOf(body, ref) === 1);
  const condInput = loop.cond.nodes.findIndex((n) => n.kind === 'Input' && n.param === param);
  if (!once || (condInput >= 0 && readsOf(loop.cond, { node: condInput, output: 0 }) > 0)) return undefined;
  const specs = [add.outputs[0], term.outputs[0], body.nodes[input].outputs[0]];
  if (!specs.every((s) => isPlainFloat(s) && s.shape.join() === specs[0].shape.join())) return undefined;
  return { param, term, operands: [...term.inputs] };
}

/** BatchMatMul(a, b) contracting a's rows (transposeA, 2-D operands), or a Sum over the rows. */
function isRowContraction(body: Graph, term: KernelNode): boolean {
  const specs = term.inputs.map((x) => body.nodes[x.node].outputs[x.output]);
  if (term.multiOutput || !specs.every(isPlainFloat)) return false;
  if (term.op === 'BatchMatMul') {
    return specs.length === 2 && specs.every((s) => s.shape.length === 2) && term.attrs.transposeA === true &&
      !term.attrs.transposeB && Object.keys(term.attrs).every((k) => k === 'transposeA' || k === 'transposeB');
  }
  if (term.op === 'Sum') {
    const axis = term.attrs.axis;
    return specs.length === 1 && specs[0].shape.length >= 1 && !term.attrs.keepDims &&
      (axis === 0 || (Array.isArray(axis) && axis.length === 1 && axis[0] === 0));
  }
  return false;
}

const isPlainFloat = (s: TensorSpec): boolean => s.dtype === 'float32' && !s.list && !hasUnknownDims(s);

/** A Fill of +0 or a constant of +0s. */
function isPositiveZeros(program: Program, node: Node): boolean {
  if (node.kind === 'Kernel') return node.op === 'Fill' && node.inputs.length === 0 && Object.is(node.attrs.value, 0);
  if (node.kind !== 'Constant') return false;
  const value = program.constants[node.constant];
  if (value === undefined || value.isDisposed || value.dtype !== 'float32') return false;
  return (value.dataSync() as Float32Array).every((v) => Object.is(v, 0));
}

/** A list the loop pushes a body value to on every step: its loop variable and the pushed value's spec. */
interface PushedList { loopVar: number; spec: TensorSpec }

/**
 * Makes the loop push every operand (each value once) to a list that starts empty, and pass the accumulators through unchanged (pruned later as unused). Returns the list of each operand.
 */
function pushPerStep(loop: WhileNode, found: Accumulator[], emit: (node: Node) => number): Map<string, PushedList> {
  const body = loop.body;
  const values = new Map<string, ValueRef>();
  for (const acc of found) for (const x of acc.operands) values.set(key(x), x);
  const specs = [...values.values()].map((x) => body.nodes[x.node].outputs[x.output]);
  const starts = specs.map((spec) => ({ node: emit(listNode('EmptyTensorList', [], spec)), output: 0 }));
  const first = appendLoopVars(loop, starts, specs.map(listOf));
  for (const acc of found) body.results[acc.param] = { node: paramNode(body, acc.param, acc.term.outputs[0]), output: 0 };
  const lists = new Map<string, PushedList>();
  [...values.entries()].forEach(([k, x], i) => {
    const list = { node: paramNode(body, first + i, listOf(specs[i])), output: 0 };
    body.results.push({ node: body.nodes.push(listNode('TensorListPushBack', [list, x], specs[i])) - 1, output: 0 });
    lists.set(k, { loopVar: first + i, spec: specs[i] });
  });
  return lists;
}

/** After the loop at `at`: each list's rows (its elements concatenated on axis 0), each accumulator's zeros + contraction of them (by loop variable). */
function emitContractions(at: number, inits: ValueRef[], lists: Map<string, PushedList>, found: Accumulator[],
                          emit: (node: Node) => number): Map<number, ValueRef> {
  const rows = new Map<string, ValueRef>();
  for (const [k, list] of lists) {
    const spec: TensorSpec = { shape: [-1, ...list.spec.shape.slice(1)], dtype: list.spec.dtype };
    rows.set(k, { node: emit({ kind: 'List', op: 'TensorListConcat', inputs: [{ node: at, output: list.loopVar }], attrs: { axis: 0, emptyRows: true }, outputs: [spec] }), output: 0 });
  }
  const sums = new Map<number, ValueRef>();
  for (const acc of found) {
    const inputs = acc.operands.map((x) => rows.get(key(x))!);
    const spec = acc.term.outputs[0];
    const term = emit({ ...acc.term, inputs, attrs: { ...acc.term.attrs }, outputs: [{ ...spec }] });
    sums.set(acc.param, { node: emit({ kind: 'Kernel', op: 'Add', inputs: [inits[acc.param], { node: term, output: 0 }], inputNames: ['a', 'b'],
      variadic: false, attrs: {}, multiOutput: false, outputs: [{ ...spec }] }), output: 0 });
  }
  return sums;
}

const key = (x: ValueRef): string => `${x.node}:${x.output}`;

const listOf = (spec: TensorSpec): TensorSpec => ({ shape: [...spec.shape], dtype: spec.dtype, list: 1 });

function listNode(op: 'EmptyTensorList' | 'TensorListPushBack', inputs: ValueRef[], element: TensorSpec): ListNode {
  return { kind: 'List', op, inputs, outputs: [listOf(element)] };
}



