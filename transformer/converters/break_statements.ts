/**
 * Lowers `break` (plain and labeled) that must cross a converted statement: `break_ = true;`,
 * the rest of each block up to the target guarded by `!break_`, and every loop left on the way
 * checking `break_` in its test. The flag is declared right before its target.
 */
import type * as TS from 'typescript';
import { isLoop, Jump } from '../analysis/plan';
import { letStatement } from '../emit';
import { ts } from '../typescript';
import { addLoopFlag, guardLists, LoweringState, setFlag } from './guards';
import { createJumpWalker, visitLabeled } from './jump_targets';

export function lowerBreaks(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  const { plan } = state;
  const targets = new Set<TS.Node>();
  for (const jump of plan.loweredJumps) if (ts.isBreakStatement(jump)) targets.add(plan.jumpTargets.get(jump)!);
  if (targets.size === 0) return body;
  const flags = new Map<TS.Node, string>();
  const walker = createJumpWalker(targets);

  const visit = (node: TS.Node): TS.VisitResult<TS.Node> => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    const original = ts.getOriginalNode(node);
    if (ts.isBreakStatement(node) && plan.loweredJumps.has(original as Jump)) {
      const target = plan.jumpTargets.get(original as Jump)!;
      const flag = flags.get(target)!;
      for (const loop of walker.loopsInside(target)) addLoopFlag(state, loop, flag);
      if (isLoop(target)) addLoopFlag(state, target, flag);
      const statements = [setFlag(state, flag, node)];
      if (plan.switchExits.has(original)) statements.push(ts.factory.createBreakStatement());
      return statements;
    }
    if (ts.isLabeledStatement(node) && !targets.has(original)) return visitLabeled(node, (inner) => visit(inner));
    const isTarget = targets.has(original);
    const flag = isTarget ? state.emit.fresh('break_') : undefined;
    if (flag !== undefined) {
      flags.set(original, flag);
      state.flagNames.add(flag);
    }
    const entered = walker.enter(node);
    let visited = ts.visitEachChild(node, visit, context);
    if (entered) walker.exit();
    if (flag === undefined) return visited;
    visited = guardLists(state, visited, flag, context);
    return [letStatement(flag, ts.factory.createFalse()), visited as TS.Statement];
  };
  return ts.visitEachChild(body, visit, context);
}
