/**
 * What lowering `break` and `continue` have in common: find the targets of the lowered jumps,
 * give each target a fresh flag declared right before it, replace each lowered jump with
 * `flag = true;` (plus a native `break` inside a switch), and tell the loops it leaves to check
 * the flag. The two converters differ in which loops check it and how the target is guarded.
 */
import type * as TS from 'typescript';
import { Jump } from '../analysis/plan';
import { letStatement } from '../emit';
import { ts } from '../typescript';
import { addLoopFlag, LoweringState, setFlag } from './guards';
import { createJumpWalker, visitLabeled } from './jump_targets';

export interface JumpKind {
  /** Which lowered jumps this converter handles. */
  matches(node: TS.Node): node is Jump;
  /** Base name of the flags (`break_`, `continue_`). */
  flagBase: string;
  /** Loops that must check the flag, given the loops strictly inside the target on the jump's
   * path, and the target. */
  checkingLoops(inside: TS.Node[], target: TS.Node): TS.Node[];
  /** Guards the target (visited) once its jumps are lowered. */
  guardTarget(target: TS.Statement, flag: string, state: LoweringState, context: TS.TransformationContext): TS.Statement;
}

export function lowerLoopJumps(body: TS.Block, state: LoweringState, context: TS.TransformationContext,
                               kind: JumpKind): TS.Block {
  const { plan } = state;
  const targets = new Set<TS.Node>();
  for (const jump of plan.loweredJumps) if (kind.matches(jump)) targets.add(plan.jumpTargets.get(jump)!);
  if (targets.size === 0) return body;
  const flags = new Map<TS.Node, string>();
  const walker = createJumpWalker(targets);

  const visit = (node: TS.Node): TS.VisitResult<TS.Node> => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    const original = ts.getOriginalNode(node);
    if (kind.matches(node) && plan.loweredJumps.has(original as Jump)) {
      const target = plan.jumpTargets.get(original as Jump)!;
      const flag = flags.get(target)!;
      for (const loop of kind.checkingLoops(walker.loopsInside(target), target)) addLoopFlag(state, loop, flag);
      const statements = [setFlag(state, flag, node)];
      if (plan.switchExits.has(original)) statements.push(ts.factory.createBreakStatement());
      return statements;
    }
    if (ts.isLabeledStatement(node) && !targets.has(original)) return visitLabeled(node, (inner) => visit(inner));
    const flag = targets.has(original) ? state.emit.fresh(kind.flagBase) : undefined;
    if (flag !== undefined) {
      flags.set(original, flag);
      state.flagNames.add(flag);
    }
    const entered = walker.enter(node);
    const visited = ts.visitEachChild(node, visit, context) as TS.Statement;
    if (entered) walker.exit();
    if (flag === undefined) return visited;
    return [letStatement(flag, ts.factory.createFalse()), kind.guardTarget(visited, flag, state, context)];
  };
  return ts.visitEachChild(body, visit, context);
}
