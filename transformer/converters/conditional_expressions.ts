/**
 * `cond ? a : b` whose condition may be a Tensor → `ag__.ifExp(cond, () => a, () => b, { origin })`:
 * only the branch taken is evaluated (eager), or a cond in the graph (staged).
 */
import type * as TS from 'typescript';
import { closure, operatorCall, optionsObject, EmitContext } from '../emit';

export function convertConditional(node: TS.ConditionalExpression, visit: (e: TS.Expression) => TS.Expression,
                                   emit: EmitContext): TS.Expression {
  return operatorCall(emit, 'ifExp', [
    visit(node.condition), closure(visit(node.whenTrue)), closure(visit(node.whenFalse)), optionsObject(emit.origin(node)),
  ]);
}
