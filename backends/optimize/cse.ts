/**
 * Common-subexpression elimination: two pure kernel nodes with the same op, attrs and inputs
 * compute the same value; later ones are replaced by the first. Constant nodes of the same
 * constant (or of small constants with equal values) are merged too. Stateful nodes (variable
 * reads, random draws, host callbacks) are never merged.
 */
import type { Graph, Program } from '../graph/graph';
import { forEachGraph, rewriteGraph } from './rewrite';

/** Constants up to this size are compared by value. */
const SMALL_CONSTANT = 64;

export function eliminateCommonSubexpressions(program: Program): void {
  const canonical = canonicalConstants(program);
  forEachGraph(program.graph, (graph: Graph) => {
    const seen = new Map<string, number>();
    rewriteGraph(graph, (node, index, r) => {
      let key: string | undefined;
      if (node.kind === 'Constant') {
        key = `c${canonical[node.constant]}`;
      } else if (node.kind === 'Kernel') {
        const inputs = node.inputs.map((x) => r.map(x)).map((x) => `${x.node}:${x.output}`).join(',');
        key = `k${node.op}(${inputs})${node.inputNames.join(',')}${JSON.stringify(node.attrs)}`;
      }
      const same = key === undefined ? undefined : seen.get(key);
      if (same !== undefined) {
        r.replace(index, node.outputs.map((_, output) => ({ node: same, output })));
        return;
      }
      const at = r.keep(index, node.kind === 'Constant' ? { ...node, constant: canonical[node.constant] } : node);
      if (key !== undefined) seen.set(key, at);
    });
  });
}

/** For each constant, the index of the first constant with the same dtype, shape and values. */
function canonicalConstants(program: Program): number[] {
  const byValue = new Map<string, number>();
  return program.constants.map((t, i) => {
    if (t.size > SMALL_CONSTANT || t.dtype === 'string' || t.dtype === 'complex64') return i;
    const key = `${t.dtype}[${t.shape.join(',')}]${Array.from(t.dataSync() as ArrayLike<number>).join(',')}`;
    const first = byValue.get(key);
    if (first !== undefined) return first;
    byValue.set(key, i);
    return i;
  });
}
