/**
 * Lowers `continue` (plain and labeled) that must cross a converted statement: `continue_ = true;`
 * and the rest of each block up to the target loop's body guarded by `!continue_`; the flag is
 * reset at the top of every iteration. Loops between the jump and its target stop on the flag.
 */
import type * as TS from 'typescript';
import { Jump } from '../analysis/plan';
import { assignStatement, id, letStatement, statementsOf } from '../emit';
import { ts } from '../typescript';
import { addLoopFlag, guardLists, LoweringState, setFlag } from './guards';
import { createJumpWalker, visitLabeled } from './jump_targets';

export function lowerContinues(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  const { plan } = state;
  const targets = new Set<TS.Node>();
  for (const jump of plan.loweredJumps) if (ts.isContinueStatement(jump)) targets.add(plan.jumpTargets.get(jump)!);
  if (targets.size === 0) return body;
  const flags = new Map<TS.Node, string>();
  const walker = createJumpWalker(targets);

  const visit = (node: TS.Node): TS.VisitResult<TS.Node> => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    const original = ts.getOriginalNode(node);
    if (ts.isContinueStatement(node) && plan.loweredJumps.has(original as Jump)) {
      const target = plan.jumpTargets.get(original as Jump)!;
      const flag = flags.get(target)!;
      for (const loop of walker.loopsInside(target)) addLoopFlag(state, loop, flag);
      const statements = [setFlag(state, flag, node)];
      if (plan.switchExits.has(original)) statements.push(ts.factory.createBreakStatement());
      return statements;
    }
    if (ts.isLabeledStatement(node) && !targets.has(original)) return visitLabeled(node, (inner) => visit(inner));
    const flag = targets.has(original) ? state.emit.fresh('continue_') : undefined;
    if (flag !== undefined) {
      flags.set(original, flag);
      state.flagNames.add(flag);
    }
    const entered = walker.enter(node);
    let visited = ts.visitEachChild(node, visit, context) as TS.IterationStatement;
    if (entered) walker.exit();
    if (flag === undefined) return visited;
    const reset = assignStatement(id(flag), ts.factory.createFalse());
    const loopBody = guardLists(state, ts.factory.createBlock([reset, ...statementsOf(visited.statement)], true), flag, context);
    visited = replaceLoopBody(visited, loopBody);
    return [letStatement(flag, ts.factory.createFalse()), visited];
  };
  return ts.visitEachChild(body, visit, context);
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
