/**
 * Comparisons of an int32 value with a whole number compare the ints.
 *
 * tfjs makes a JS number in `t.less(64)` or `token.equal(eos)` a float32 scalar, so an int32 `t`
 * is cast to float32 first: a Cast per comparison, and in a loop test `Less(Cast(i), 64)` hides
 * the counted loop (`i < n`, i += 1) from the ONNX lowering's trip count. Comparing the ints is
 * the same comparison when the number c is a whole number with |c| < 2^24: float32 rounding of an
 * int is monotonic and c - 1, c, c + 1 are exact floats, so for every int32 i,
 * float32(i) < c ⟺ i < c, and likewise for <=, >, >=, ==, != (on tfjs-cpu, whose cast keeps the
 * int, trivially). Numbers past 2^24 or with a fraction keep the Cast.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Graph, KernelNode, Node, Program, ValueRef } from '../graph/graph';
import { forEachGraph, rewriteGraph } from './rewrite';

const COMPARISONS = new Set(['Less', 'LessEqual', 'Greater', 'GreaterEqual', 'Equal', 'NotEqual']);

/** The int32 value `ref` is a float32 cast of, if it is one. */
function castFromInt(graph: Graph, ref: ValueRef): ValueRef | undefined {
  const node = graph.nodes[ref.node];
  if (node.kind !== 'Kernel' || node.op !== 'Cast' || node.attrs.dtype !== 'float32' || node.outputs[0].dtype !== 'float32') return undefined;
  const source = node.inputs[0];
  return graph.nodes[source.node].outputs[source.output].dtype === 'int32' ? source : undefined;
}

/** The whole number within ±2^24 that `ref` is a float32 scalar constant of, if it is one. */
function wholeNumber(graph: Graph, ref: ValueRef, program: Program): number | undefined {
  const node: Node = graph.nodes[ref.node];
  if (node.kind !== 'Constant') return undefined;
  const t = program.constants[node.constant];
  if (t.dtype !== 'float32' || t.rank !== 0) return undefined;
  const c = t.dataSync()[0];
  return Number.isInteger(c) && Math.abs(c) < 2 ** 24 ? c : undefined;
}

export function compareIntsDirectly(program: Program): void {
  const intConstants = new Map<number, number>(); // value -> constant index
  const intConstant = (c: number): number => {
    let index = intConstants.get(c);
    if (index === undefined) intConstants.set(c, (index = program.constants.push(tf.keep(tf.scalar(c, 'int32'))) - 1));
    return index;
  };
  forEachGraph(program.graph, (graph) => {
    rewriteGraph(graph, (node, index, r) => {
      if (node.kind !== 'Kernel' || !COMPARISONS.has(node.op) || node.inputs.length !== 2) {
        r.keep(index);
        return;
      }
      const [a, b] = node.inputs;
      const sources = [castFromInt(graph, a), castFromInt(graph, b)];
      const numbers = [wholeNumber(graph, a, program), wholeNumber(graph, b, program)];
      const intSide = sources[0] !== undefined && numbers[1] !== undefined ? 0 : sources[1] !== undefined && numbers[0] !== undefined ? 1 : -1;
      if (intSide < 0) {
        r.keep(index);
        return;
      }
      const c = numbers[1 - intSide]!;
      const constant = r.emit({ kind: 'Constant', constant: intConstant(c), outputs: [{ dtype: 'int32', shape: [] }] });
      const operands = [r.map(sources[intSide]!), { node: constant, output: 0 }];
      const compared: KernelNode = { ...node, inputs: intSide === 0 ? operands : [operands[1], operands[0]] };
      r.replace(index, [{ node: r.emit(compared), output: 0 }]);
    });
  });
}
