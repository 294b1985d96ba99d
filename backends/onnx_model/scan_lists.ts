/**
 * Lists a loop only appends to, once per iteration, and that are only stacked or concatenated after
 * it (a decoder's tokens: `tokens.push(tok)` in the loop, `tf.stack(tokens)` after): lowered as
 * ONNX Loop scan outputs — the body outputs the pushed tensor and ORT concatenates them — instead
 * of a sequence carried through the loop (SequenceInsert per step, ConcatFromSequence after).
 * Lists read inside the loop, pushed conditionally or more than once, read after the loop
 * otherwise (length, pop, item) or whose elements' dims change keep the sequence lowering.
 */
import { type Graph, hasUnknownDims, type ListNode, nodeInputs, type WhileNode } from '../graph/graph';

/** A scanned list: the body's push node, and whether the list the loop starts from is empty (else one push on it). */
export interface ScanList { push: number; startsEmpty: boolean }

const sameRef = (a: { node: number; output: number }, b: { node: number; output: number }): boolean => a.node === b.node && a.output === b.output;

/** Uses of (node, output) in `graph`: by nodes (their index) and as a result. */
function usesOf(graph: Graph, node: number, output: number): { users: number[]; isResult: boolean } {
  const ref = { node, output };
  const users: number[] = [];
  graph.nodes.forEach((n, i) => nodeInputs(n).forEach((r) => { if (sameRef(r, ref)) users.push(i); }));
  return { users, isResult: graph.results.some((r) => sameRef(r, ref)) };
}

/** The Input node of parameter `param` in `graph`, if any. */
const inputNode = (graph: Graph, param: number): number => graph.nodes.findIndex((n) => n.kind === 'Input' && n.param === param);

/** The loop variables of the While at `index` of `graph` that lower as scan outputs. */
export function scanLists(graph: Graph, index: number): Map<number, ScanList> {
  const node = graph.nodes[index] as WhileNode;
  const found = new Map<number, ScanList>();
  for (let k = 0; k < node.loopVars; k++) {
    const spec = node.outputs[k];
    if (spec.list !== 1 || hasUnknownDims(spec)) continue;
    // After the loop: only tf.stack / tf.concat along axis 0, or a later loop that pops one element per iteration.
    const after = usesOf(graph, index, k);
    const emptyStart = graph.nodes[node.inputs[k].node];
    if (after.isResult || after.users.length === 0 || !after.users.every((u) => {
      const n = graph.nodes[u];
      if (n.kind === 'While') {
        const at = n.inputs.findIndex((r) => sameRef(r, { node: index, output: k }));
        const once = n.inputs.filter((r) => sameRef(r, { node: index, output: k })).length === 1;
        return once && emptyStart.kind === 'List' && emptyStart.op === 'EmptyTensorList' && after.users.length === 1 &&
          popReads(graph, u, at) !== undefined;
      }
      // (tf.concat of scalars is an error: such a list keeps the sequence lowering, which fails as tfjs does.)
      return n.kind === 'List' && Number(n.attrs?.axis ?? 0) === 0 &&
        (n.op === 'TensorListStack' || (n.op === 'TensorListConcat' && spec.shape.length > 0));
    })) continue;
    // Before: an empty list, or a list just pushed to (at least one element).
    const start = graph.nodes[node.inputs[k].node];
    if (start.kind !== 'List' || (start.op !== 'EmptyTensorList' && start.op !== 'TensorListPushBack')) continue;
    // The test does not read it.
    const inCond = inputNode(node.cond, k);
    if (inCond >= 0 && usesOf(node.cond, inCond, 0).users.length > 0) continue;
    // The body pushes once, at its top level, and passes the result on unread.
    const param = inputNode(node.body, k);
    if (param < 0) continue;
    const inBody = usesOf(node.body, param, 0);
    if (inBody.isResult || inBody.users.length !== 1) continue;
    const push = inBody.users[0];
    const p = node.body.nodes[push] as ListNode;
    if (p.kind !== 'List' || p.op !== 'TensorListPushBack' || !sameRef(p.inputs[0], { node: param, output: 0 })) continue;
    const item = node.body.nodes[p.inputs[1].node].outputs[p.inputs[1].output];
    if (hasUnknownDims(item) || item.list) continue;
    const pushed = usesOf(node.body, push, 0);
    if (pushed.users.length !== 0 || !sameRef(node.body.results[k], { node: push, output: 0 }) ||
        node.body.results.filter((r) => sameRef(r, { node: push, output: 0 })).length !== 1) continue;
    found.set(k, { push, startsEmpty: start.op === 'EmptyTensorList' });
  }
  return found;
}

/**
 * Whether loop variable k of the While at `index` of `graph` is a list the loop only pops, once
 * per iteration at its body's top level, and that nothing reads after the loop (a gradient's
 * backward loop over the activations its forward loop saved): then iteration i reads row
 * (count - 1 - i) of the rows the forward loop's scan output stacked. Returns the pop node.
 */
export function popReads(graph: Graph, index: number, k: number): number | undefined {
  const node = graph.nodes[index];
  if (node.kind !== 'While' || k < 0 || k >= node.loopVars || node.outputs[k].list !== 1) return undefined;
  const after = usesOf(graph, index, k);
  if (after.isResult || after.users.length > 0) return undefined;
  const inCond = inputNode(node.cond, k);
  if (inCond >= 0 && usesOf(node.cond, inCond, 0).users.length > 0) return undefined;
  const param = inputNode(node.body, k);
  if (param < 0) return undefined;
  const inBody = usesOf(node.body, param, 0);
  if (inBody.isResult || inBody.users.length !== 1) return undefined;
  const pop = inBody.users[0];
  const p = node.body.nodes[pop];
  if (p.kind !== 'List' || p.op !== 'TensorListPopBack' || !sameRef(p.inputs[0], { node: param, output: 0 })) return undefined;
  const rest = { node: pop, output: 0 };
  if (usesOf(node.body, pop, 0).users.length !== 0 || !sameRef(node.body.results[k], rest) ||
      node.body.results.filter((r) => sameRef(r, rest)).length !== 1) return undefined;
  return pop;
}
