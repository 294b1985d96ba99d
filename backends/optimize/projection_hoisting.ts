/**
 * Sequence-wide projections out of loops (what cuDNN does for RNNs): a While body that multiplies
 * step t's slice of a loop-invariant sequence by a loop-invariant matrix,
 *   for (const x of xs) h = tanh(x.matMul(W).add(h.matMul(U)))     // or xs.gather(t), t the counter
 * computes the products of every step as one matrix product before the loop, P = xs W (one GEMM
 * of the [T*B, F] rows by [F, H]: emitProduct), and the body reads its row, P[t].
 * Gather(xs, t) W = Gather(xs W, t) row by row, so the result is the same up to the order of the
 * sums inside the GEMM.
 *
 * Only products small enough to be bound by the per-step cost of an operator are hoisted
 * (HOIST_UP_TO_WORK). Measured on a shared 2-core AVX-512 machine, ORT, one thread, T = 128: at
 * 262K multiply-adds per step ([4, 256] x [256, 256]) hoisting is 1.3x faster; at 1M-4.2M (batch
 * 16-64, 256 x 256) the per-step GEMM already runs at the machine's GEMM speed, and the [T, B, H]
 * product written and read back through memory made the loop 0-15% slower (so did the expert
 * hand-built graph of bench/native.ts).
 *
 * Nor is a product hoisted whose per-step result is large while it does little per element
 * (HOIST_ROWS_UP_TO, HOIST_INNER_FROM): the loop then reads back as many elements as the product
 * wrote, and all it saves is the product's dispatch. Measured on both engines (one ORT thread; the
 * tfjs executor on wasm), a tanh RNN of 64 units, off/on at the 10th percentile of 400 alternating
 * calls: a 256-element step result 1.07-1.13x at every inner dim (4-64), 1,024 elements 1.05-1.08x;
 * 4,096 elements (batch 64, as samples/bptt's [64, 4] x [4, 64] in the bench's BPTT row)
 * 0.97-1.00x at inner dim 4, 1.0x at 16, 1.01-1.02x at 32, 1.02-1.04x at 64. (On tfjs-wasm that
 * row was 0.84x in the bench before the executor copied rows, tfjs/wasm_rows.ts: its GatherV2
 * costs ~33 ns per element.) One rule for both engines: the optimizer runs before 'auto' picks one.
 *
 * Only counters index the slice (a loop variable that the body advances by a whole constant): the
 * loop then reads distinct rows, so the hoisted product does no more work than the loop would if
 * it runs to the end of the sequence (a loop that stops early leaves rows unread). The sequence
 * and the matrix must not change while the loop runs: loop invariants, constants, or variables
 * the loop does not assign. Runs after loop-invariant hoisting, so a matrix computed from
 * invariants in the body (W.transpose()) is an invariant parameter by then.
 */
import type { Graph, KernelNode, Node, Program, TensorSpec, ValueRef, WhileNode } from '../graph/graph';
import { forEachGraph, rewriteGraph } from './rewrite';

/** Multiply-adds per step up to which a product is hoisted (see the file comment). */
export const HOIST_UP_TO_WORK = 2 ** 18;
/** Elements of a step's product up to which it is hoisted whatever its inner dim ... */
export const HOIST_ROWS_UP_TO = 2 ** 10;
/** ... and beyond, multiply-adds per element of it from which it is (see the file comment). */
export const HOIST_INNER_FROM = 32;

/** One product to hoist: body node `matMul` = BatchMatMul(..., Gather(sequence, counter), ...). */
interface Projection {
  matMul: number;
  gather: KernelNode;
  /** Which BatchMatMul input is the slice (0: a, 1: b). */
  side: 0 | 1;
  /** Outer values (enclosing graph) of the sequence and the matrix. */
  sequence: ValueRef;
  matrix: ValueRef;
}

/** Hoists the projections of every loop of the program; returns one line per hoisted product (for inspect()). */
export function hoistProjections(program: Program): string[] {
  const notes: string[] = [];
  forEachGraph(program.graph, (graph) => {
    rewriteGraph(graph, (node, index, r) => {
      if (node.kind !== 'While') {
        r.keep(index);
        return;
      }
      const loop: WhileNode = { ...node, inputs: node.inputs.map((x) => r.map(x)) };
      // (graph.nodes is still the old node list while rewriteGraph visits it.)
      const constantInput = (param: number): number | undefined => {
        const outer = graph.nodes[node.inputs[param].node];
        return outer.kind === 'Constant' ? outer.constant : undefined;
      };
      const found = findProjections(program, loop, constantInput, r.emit);
      if (found.length > 0) {
        hoist(loop, found, r.emit);
        notes.push(`${found.length} matrix product${found.length === 1 ? '' : 's'} of a sequence's step slice hoisted out of ` +
          `the loop${loop.origin ? ` at ${loop.origin}` : ''} (one product over all steps, a row read per step)`);
      }
      const at = r.emit(loop);
      r.replace(index, loop.outputs.map((_, output) => ({ node: at, output })));
    });
  });
  return notes;
}

/** The constant (its index in Program.constants) a loop input is, if it is one. */
type ConstantInput = (param: number) => number | undefined;

function findProjections(program: Program, loop: WhileNode, constantInput: ConstantInput, emit: (node: Node) => number): Projection[] {
  const body = loop.body;
  const assigned = assignedVariables([loop.body, loop.cond]);
  const outerOf = new Map<number, ValueRef>();
  /** The enclosing graph's value of body node `i`, if it is the same on every iteration. */
  const outer = (i: number): ValueRef | undefined => {
    if (outerOf.has(i)) return outerOf.get(i);
    const n = body.nodes[i];
    let value: ValueRef | undefined;
    if (n.kind === 'Input' && n.param >= loop.loopVars) value = loop.inputs[n.param];
    else if (n.kind === 'Constant') value = { node: emit({ ...n }), output: 0 };
    else if (n.kind === 'ReadVariable' && !assigned.has(n.variable)) value = { node: emit({ ...n }), output: 0 };
    if (value !== undefined) outerOf.set(i, value);
    return value;
  };
  const found: Projection[] = [];
  body.nodes.forEach((n, i) => {
    if (n.kind !== 'Kernel' || n.op !== 'BatchMatMul' || n.multiOutput || n.inputs.length !== 2) return;
    for (const side of [0, 1] as const) {
      const slice = body.nodes[n.inputs[side].node];
      const other = n.inputs[1 - side];
      if (slice.kind !== 'Kernel' || !isCounterRowGather(program, loop, constantInput, slice)) continue;
      if (!pays(n, side, slice)) continue;
      // The other operand's batch dims must not reach the sequence's new leading axis when broadcast.
      if (body.nodes[other.node].outputs[other.output].shape.length > slice.outputs[0].shape.length) continue;
      if (!isInvariantCandidate(body, slice.inputs[0].node) || !isInvariantCandidate(body, other.node)) continue;
      const sequence = outer(slice.inputs[0].node);
      const matrix = outer(other.node);
      if (sequence === undefined || matrix === undefined) continue;
      found.push({ matMul: i, gather: slice, side, sequence, matrix });
      return;
    }
  });
  return found;
}

/**
 * Whether hoisting one step's product pays (the file comment): its multiply-adds are at most
 * HOIST_UP_TO_WORK, and its result is small or its inner dim large. Not where a dim is unknown.
 */
function pays(product: KernelNode, side: 0 | 1, slice: KernelNode): boolean {
  const s = slice.outputs[0].shape;
  const transposed = side === 0 ? product.attrs.transposeA : product.attrs.transposeB;
  const inner = s[s.length - ((side === 0) !== Boolean(transposed) ? 1 : 2)];
  const out = product.outputs[0].shape;
  if ([...out, inner].some((d) => d < 0)) return false;
  const elements = out.reduce((a, b) => a * b, 1);
  return elements * inner <= HOIST_UP_TO_WORK && (elements <= HOIST_ROWS_UP_TO || inner >= HOIST_INNER_FROM);
}

/** Whether body node `i` may be invariant (checked before `outer` emits anything for it). */
function isInvariantCandidate(body: Graph, i: number): boolean {
  const kind = body.nodes[i].kind;
  return kind === 'Input' || kind === 'Constant' || kind === 'ReadVariable';
}

/** GatherV2(x, i) of one row along axis 0, i an int32 scalar loop variable that the body advances by a whole constant. */
function isCounterRowGather(program: Program, loop: WhileNode, constantInput: ConstantInput, node: KernelNode): boolean {
  const body = loop.body;
  if (node.op !== 'GatherV2' || node.inputs.length !== 2 || node.multiOutput) return false;
  if (Number(node.attrs.axis ?? 0) !== 0 || Number(node.attrs.batchDims ?? 0) !== 0) return false;
  const index = body.nodes[node.inputs[1].node];
  if (index.kind !== 'Input' || index.param >= loop.loopVars || index.outputs[0].shape.length !== 0 || index.outputs[0].dtype !== 'int32') {
    return false;
  }
  return advancesByConstant(program, loop, constantInput, index.param);
}

/**
 * Whether the body's result for loop variable `param` is that variable plus a nonzero whole
 * constant (a constant of the body, or a constant of the enclosing graph passed in).
 */
function advancesByConstant(program: Program, loop: WhileNode, constantInput: ConstantInput, param: number): boolean {
  const body = loop.body;
  const add = body.nodes[body.results[param].node];
  if (add.kind !== 'Kernel' || add.op !== 'Add' || add.inputs.length !== 2) return false;
  const [a, b] = add.inputs.map((x) => body.nodes[x.node]);
  const step = a.kind === 'Input' && a.param === param ? b : b.kind === 'Input' && b.param === param ? a : undefined;
  const constant = step?.kind === 'Constant' ? step.constant
    : step?.kind === 'Input' && step.param >= loop.loopVars ? constantInput(step.param) : undefined;
  if (constant === undefined) return false;
  const value = program.constants[constant];
  if (value === undefined || value.size !== 1 || value.isDisposed) return false;
  const v = value.dataSync()[0] as number;
  return Number.isInteger(v) && v !== 0;
}

/** Variables assigned anywhere in these graphs (their sub-graphs included). */
function assignedVariables(graphs: Graph[]): Set<number> {
  const assigned = new Set<number>();
  for (const root of graphs) {
    forEachGraph(root, (g) => {
      for (const n of g.nodes) if (n.kind === 'AssignVariable') assigned.add(n.variable);
    });
  }
  return assigned;
}

/**
 * Emits P = BatchMatMul(sequence, matrix) (sequence on the slice's side) before the loop, passes
 * it in as a new invariant parameter, and replaces each product in the body by Gather(P, counter).
 */
function hoist(loop: WhileNode, found: Projection[], emit: (node: Node) => number): void {
  const byNode = new Map<number, { projection: Projection; param: number; spec: TensorSpec }>();
  for (const p of found) {
    const product = loop.body.nodes[p.matMul] as KernelNode;
    const spec = { ...product.outputs[0], shape: [sequenceLength(loop, p), ...product.outputs[0].shape] };
    const at = emitProduct(loop, p, product, spec, emit);
    byNode.set(p.matMul, { projection: p, param: loop.inputs.length, spec });
    loop.inputs = [...loop.inputs, { node: at, output: 0 }];
  }
  loop.body.numParams = loop.cond.numParams = loop.inputs.length;
  rewriteGraph(loop.body, (n, i, r) => {
    const hoisted = byNode.get(i);
    if (hoisted === undefined) {
      r.keep(i);
      return;
    }
    const { projection, param, spec } = hoisted;
    const rows = r.emit({ kind: 'Input', param, outputs: [spec] });
    const counter = r.map(projection.gather.inputs[1]);
    const row = r.emit({ ...projection.gather, inputs: [{ node: rows, output: 0 }, counter], outputs: n.outputs });
    r.replace(i, [{ node: row, output: 0 }]);
  });
}

/**
 * The product of every step: where all dims are known and the slice is the left operand, one 2-D
 * GEMM, Reshape(xs, [T*B, F]) W reshaped to [T, B, H] (a GEMM that tfjs-wasm runs as one call);
 * else BatchMatMul(xs, W) with W broadcast over the steps (ORT folds it into one GEMM as well).
 */
function emitProduct(loop: WhileNode, p: Projection, product: KernelNode, spec: TensorSpec, emit: (node: Node) => number): number {
  const x = p.gather.inputs[0];
  const xShape = loop.body.nodes[x.node].outputs[x.output].shape;
  const m = loop.body.nodes[product.inputs[1 - p.side].node].outputs[product.inputs[1 - p.side].output];
  const flat = p.side === 0 && !product.attrs.transposeA && xShape.length === 3 && m.shape.length === 2 &&
    [...xShape, ...spec.shape].every((d) => d >= 0);
  if (!flat) {
    const inputs = p.side === 0 ? [p.sequence, p.matrix] : [p.matrix, p.sequence];
    return emit({ ...product, inputs, outputs: [spec] });
  }
  const [T, B, F] = xShape;
  const reshape = (input: ValueRef, shape: number[]): ValueRef => ({
    node: emit({ kind: 'Kernel', op: 'Reshape', inputs: [input], inputNames: ['x'], variadic: false, attrs: { shape },
      multiOutput: false, outputs: [{ dtype: spec.dtype, shape }] }),
    output: 0,
  });
  const rows = reshape(p.sequence, [T * B, F]);
  const H = spec.shape[2];
  const gemm = emit({ ...product, inputs: [rows, p.matrix], outputs: [{ ...spec, shape: [T * B, H] }] });
  return reshape({ node: gemm, output: 0 }, [T, B, H]).node;
}

/** The sequence's length (its leading dim, possibly unknown), from the gather's input spec in the body. */
function sequenceLength(loop: WhileNode, p: Projection): number {
  const x = p.gather.inputs[0];
  return loop.body.nodes[x.node].outputs[x.output].shape[0];
}
