/**
 * Prepares a staged If or While for its gradient (the contract is prepared.ts): by kind, in
 * if_gradient.ts or while_gradient.ts. Their branches and bodies may hold control flow of their
 * own, which the reverse pass (differentiate.ts) prepares through the function handed to it here.
 */
import type { IfNode, WhileNode } from '../graph/graph';
import type { Tracer } from '../staging/tracer';
import { prepareIf } from './if_gradient';
import type { Preparation, Wrt } from './prepared';
import { prepareWhile } from './while_gradient';

/** Makes `node` (changed in place) differentiable with respect to `wrt`. */
export function prepareControlFlow(tracer: Tracer, node: IfNode | WhileNode, wrt: Wrt): Preparation {
  return node.kind === 'If' ? prepareIf(tracer, node, wrt, prepareControlFlow) : prepareWhile(tracer, node, wrt, prepareControlFlow);
}
