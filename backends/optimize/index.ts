/**
 * The optimization pipeline, run once per trace. Order:
 * 1. dead nodes out first, so later passes do not work on what will be dropped, with the unused
 *    outputs of If/While nodes (a gradient's accumulators when the gradient was not taken);
 * 2. constant folding, which turns constant-only kernels into constants ..., then comparisons of
 *    an int cast to float with a whole number compare the ints (int_comparisons.ts: no Cast, and a
 *    loop test `i < 64` that the ONNX lowering can count);
 * 3. ... that CSE can then merge (and CSE merges the duplicates tracing creates: the same scalar
 *    converted on every use, the same expression written twice), after Reshapes to the shape their
 *    input has are replaced by their input (no_op_reshapes.ts, part of `cse`: a value the same as
 *    another);
 * 4. loop-invariant hoisting, after CSE so each invariant is hoisted once;
 * 5. projections of a sequence's step slices out of loops (projection_hoisting.ts), after
 *    loop-invariant hoisting so a matrix computed from invariants in the body is a parameter;
 *    then sums over a loop's steps of products of per-step rows (a weight gradient's Σ x_tᵀ dy_t)
 *    computed as one product after the loop (accumulated_products.ts), their accumulators pruned;
 * 6. dead nodes again: folding, merging and hoisting leave unused nodes behind (the slices);
 * 7. constants no node refers to any more (merged, folded into others) are released.
 */
import type { Program } from '../graph/graph';
import { eliminateCommonSubexpressions } from './cse';
import { removeNoOpReshapes } from './no_op_reshapes';
import { foldConstants } from './constant_folding';
import { compareIntsDirectly } from './int_comparisons';
import { eliminateDeadNodes } from './dead_code';
import { hoistLoopInvariants } from './loop_invariant';
import { hoistProjections } from './projection_hoisting';
import { batchAccumulatedProducts } from './accumulated_products';
import { pruneConstants } from './prune_constants';
import { pruneControlFlowOutputs } from './prune_outputs';

export interface OptimizeOptions {
  constantFolding: boolean;
  cse: boolean;
  loopInvariant: boolean;
  /** Products of each step's slice of a sequence computed for all steps before the loop. */
  hoistProjections: boolean;
  /** Sums over a loop's steps of per-step row products (Σ_t x_tᵀ dy_t) as one product after the loop. */
  accumulatedProducts: boolean;
}

export function optimizeProgram(program: Program, options: boolean | Partial<OptimizeOptions> | undefined): void {
  if (program.functions !== undefined) return optimizeWithFunctions(program);
  const on = options === false
    ? { constantFolding: false, cse: false, loopInvariant: false, hoistProjections: false, accumulatedProducts: false }
    : { constantFolding: true, cse: true, loopInvariant: true, hoistProjections: true, accumulatedProducts: true,
      ...(typeof options === 'object' ? options : {}) };
  eliminateDeadNodes(program.graph);
  pruneControlFlowOutputs(program.graph);
  if (on.constantFolding) {
    foldConstants(program);
    compareIntsDirectly(program);
  }
  if (on.cse) {
    removeNoOpReshapes(program);
    eliminateCommonSubexpressions(program);
  }
  if (on.loopInvariant) hoistLoopInvariants(program.graph);
  rewriteLoopsKeepingGradientProgram(program, on);
  eliminateDeadNodes(program.graph);
  if (program.forGradients !== undefined) eliminateDeadNodes(program.forGradients.graph);
  pruneConstants(program);
}

/**
 * A program with function graphs (staged recursion) loses only its dead nodes: the passes
 * renumber constants and move nodes per graph, and know nothing of the calls between graphs.
 */
function optimizeWithFunctions(program: Program): void {
  eliminateDeadNodes(program.graph);
  for (const f of program.functions!) eliminateDeadNodes(f);
  program.optimizations = [...(program.optimizations ?? []), 'staged recursion: only dead nodes removed (the other passes do not follow calls)'];
}

/**
 * Projection hoisting and accumulated products, keeping the program as it was for runs under a
 * gradient tape: a row gather of the hoisted product puts the product on the weights' gradient
 * path, where tfjs's gradient of GatherV2 scatters (UnsortedSegmentSum, which tfjs-wasm lacks) and
 * the in-graph gradient would accumulate a full [steps, ...] gradient per iteration; lists are not
 * on tfjs's tape.
 */
function rewriteLoopsKeepingGradientProgram(program: Program, on: OptimizeOptions): void {
  if (!(on.hoistProjections || on.accumulatedProducts) || !program.graph.nodes.some((n) => n.kind === 'While')) return;
  const before = structuredClone(program.graph);
  const notes = [
    ...(on.hoistProjections ? hoistProjections(program) : []),
    ...(on.accumulatedProducts ? batchAccumulatedProducts(program) : []),
  ];
  if (notes.length === 0) return;
  if (on.accumulatedProducts) pruneControlFlowOutputs(program.graph);
  program.optimizations = [...(program.optimizations ?? []), ...notes];
  program.forGradients = { ...program, graph: before, optimizations: undefined };
}
