/**
 * `for (const k in object) body` with an object that may be a Tensor (or a loop that lowered jumps
 * must leave) →
 *   const loop_body = (k) => { body };
 *   ag__.forInStmt(object, extra_test, loop_body, get_state, set_state, ['y'], { origin });
 * Exactly the for...of conversion (for_of_statements.ts) with ag__.forInStmt: the head binds as
 * the closure parameter, and the runtime iterates the object's enumerable keys as JS does.
 */
import type * as TS from 'typescript';
import type { ControlFlowContext } from './control_flow_context';
import { convertIteration } from './for_of_statements';

export function convertForIn(node: TS.ForInStatement, cf: ControlFlowContext): TS.Statement[] {
  return convertIteration(node, 'forInStmt', cf);
}
