/**
 * Lowers every `return` of a function with a return inside a converted statement to a single
 * exit: `retval_ = value; do_return = true;`, the rest of each block guarded by `!do_return`,
 * every loop on the way checking `do_return`, and `return ag__.retval(retval_);` at the end.
 */
import type * as TS from 'typescript';
import { id, letStatement, operatorCall, assignStatement, withOrigin } from '../emit';
import { ts } from '../typescript';
import { prologueLength } from './declarations';
import { addLoopFlag, guardLists, LoweringState, setFlag } from '../lowering/guards';
import { createJumpWalker } from '../lowering/jump_targets';

export function lowerReturns(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  const { plan, emit } = state;
  if (!plan.lowerReturns) return body;
  const doReturn = emit.fresh('do_return');
  const retval = emit.fresh('retval_');
  state.flagNames.add(doReturn);
  state.flagNames.add(retval);
  state.returns = { flag: doReturn, value: retval };
  const walker = createJumpWalker();

  const visit = (node: TS.Node): TS.VisitResult<TS.Node> => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    if (ts.isReturnStatement(node)) {
      for (const loop of walker.loops) addLoopFlag(state, loop, doReturn);
      const statements: TS.Statement[] = [];
      if (node.expression) statements.push(withOrigin(assignStatement(id(retval), node.expression), node));
      statements.push(setFlag(state, doReturn, node));
      if (plan.switchExits.has(ts.getOriginalNode(node))) statements.push(ts.factory.createBreakStatement());
      return statements;
    }
    const entered = walker.enter(node);
    const visited = ts.visitEachChild(node, visit, context);
    if (entered) walker.exit();
    return visited;
  };
  const lowered = guardLists(state, ts.visitEachChild(body, visit, context), doReturn, context);
  const prologue = prologueLength(lowered.statements);
  const noValue = ts.factory.createPropertyAccessExpression(
    operatorCallTarget(emit), 'instance');
  return ts.factory.updateBlock(lowered, [
    ...lowered.statements.slice(0, prologue),
    letStatement(doReturn, ts.factory.createFalse()),
    letStatement(retval, noValue),
    ...lowered.statements.slice(prologue),
    ts.factory.createReturnStatement(operatorCall(emit, 'retval', [id(retval)])),
  ]);
}

/** `ag__.UndefinedReturnValue` */
function operatorCallTarget(emit: LoweringState['emit']): TS.Expression {
  return ts.factory.createPropertyAccessExpression(emit.runtime, 'UndefinedReturnValue');
}
