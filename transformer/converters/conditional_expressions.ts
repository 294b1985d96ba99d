/**
 * `cond ? a : b` whose condition may be a Tensor → `ag__.ifExp(cond, () => a, () => b, { origin })`:
 * only the branch taken is evaluated (eager), or a cond in the graph (staged). Variables the
 * branches assign are listed in opts.state, for the staging engine.
 */
import type * as TS from 'typescript';
import { activityOf } from '../analysis/activity';
import { closure, operatorCall, optionsObject, withExpressionState, EmitContext } from '../emit';

export function convertConditional(node: TS.ConditionalExpression, visit: (e: TS.Expression) => TS.Expression,
                                   emit: EmitContext, observedOf: (...parts: TS.Node[]) => string[]): TS.Expression {
  // (opts.observed: the objects the branches read whose fields code they call may change, as for an if statement.)
  return operatorCall(emit, 'ifExp', [
    visit(node.condition), closure(visit(node.whenTrue)), closure(visit(node.whenFalse)),
    withExpressionState(emit, optionsObject(emit.origin(node), [], [], [], observedOf(node.whenTrue, node.whenFalse)),
      activityOf(node.whenTrue, node.whenFalse).modified),
  ]);
}
