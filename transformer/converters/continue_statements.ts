/**
 * Lowers `continue` (plain and labeled) that must cross a converted statement: `continue_ = true;`
 * and the rest of each block up to the target loop's body guarded by `!continue_`; the flag is
 * reset at the top of every iteration. Loops between the jump and its target stop on the flag.
 */
import type * as TS from 'typescript';
import { assignStatement, id, statementsOf } from '../emit';
import { ts } from '../typescript';
import { guardLists, LoweringState } from '../lowering/guards';
import { lowerLoopJumps } from '../lowering/loop_jumps';

export function lowerContinues(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  return lowerLoopJumps(body, state, context, {
    matches: ts.isContinueStatement,
    flagBase: 'continue_',
    checkingLoops: (inside) => inside,
    guardTarget(target, flag) {
      const loop = target as TS.IterationStatement;
      const reset = assignStatement(id(flag), ts.factory.createFalse());
      const loopBody = guardLists(state, ts.factory.createBlock([reset, ...statementsOf(loop.statement)], true), flag, context);
      return replaceLoopBody(loop, loopBody);
    },
  });
}

export function replaceLoopBody(loop: TS.IterationStatement, body: TS.Statement): TS.IterationStatement {
  const f = ts.factory;
  if (ts.isWhileStatement(loop)) return f.updateWhileStatement(loop, loop.expression, body);
  if (ts.isDoStatement(loop)) return f.updateDoStatement(loop, body, loop.expression);
  if (ts.isForStatement(loop)) return f.updateForStatement(loop, loop.initializer, loop.condition, loop.incrementor, body);
  if (ts.isForOfStatement(loop)) return f.updateForOfStatement(loop, loop.awaitModifier, loop.initializer, loop.expression, body);
  const forIn = loop as TS.ForInStatement;
  return f.updateForInStatement(forIn, forIn.initializer, forIn.expression, body);
}
