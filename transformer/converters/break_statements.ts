/**
 * Lowers `break` (plain and labeled) that must cross a converted statement: `break_ = true;`,
 * the rest of each block up to the target guarded by `!break_`, and every loop left on the way —
 * the target loop included — checking `break_` in its test.
 */
import type * as TS from 'typescript';
import { isLoop } from '../analysis/loops';
import { ts } from '../typescript';
import { guardLists, LoweringState } from '../lowering/guards';
import { lowerLoopJumps } from '../lowering/loop_jumps';

export function lowerBreaks(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  return lowerLoopJumps(body, state, context, {
    matches: ts.isBreakStatement,
    flagBase: 'break_',
    checkingLoops: (inside, target) => (isLoop(target) ? [...inside, target] : inside),
    guardTarget: (target, flag) => guardLists(state, target, flag, context),
  });
}
