/**
 * `while (test) body` and `do body while (test)` with a test that may be a Tensor (or a loop that
 * lowered jumps must leave) →
 *   const loop_test = () => test;  const loop_body = () => { body };
 *   ag__.whileStmt(loop_test, loop_body, get_state, set_state, ['x'], { origin });
 * Flags set by lowered jumps are checked first: `ag__.and(() => ag__.not(break_), () => test)`.
 * State: names modified in the loop that are live into it or out of it, or read by its test.
 */
import type * as TS from 'typescript';
import {
  asBlock, closure, constStatement, getStateClosure, id, operatorCall, optionsObject, setStateClosure,
  stringArray, withOrigin,
} from '../emit';
import { ts } from '../typescript';
import { union, uses } from '../analysis/liveness';
import { ControlFlowContext, testWithFlags } from './control_flow_context';

export function convertWhile(node: TS.WhileStatement, cf: ControlFlowContext): TS.Statement[] {
  return convertLoop(node, node.expression, node.statement, 'whileStmt', cf);
}

export function convertDoWhile(node: TS.DoStatement, cf: ControlFlowContext): TS.Statement[] {
  return convertLoop(node, node.expression, node.statement, 'doWhileStmt', cf);
}

function convertLoop(node: TS.IterationStatement, test: TS.Expression, bodyStatement: TS.Statement,
                     operator: 'whileStmt' | 'doWhileStmt', cf: ControlFlowContext): TS.Statement[] {
  const { emit } = cf;
  // (What the test reads is state too: a do-while's body may assign it before each test, so it is
  // neither live into the loop nor out of it, yet the staged test must see each iteration's value.)
  const names = cf.stateOf([test, bodyStatement], union(cf.liveness.inOf(node), cf.liveness.outOf(node), uses(test)));
  const testName = emit.fresh('loop_test');
  const bodyName = emit.fresh('loop_body');
  return [
    withOrigin(constStatement(testName, closure(testWithFlags(test, cf.loopFlags(node), test, cf))), test),
    withOrigin(constStatement(bodyName, closure(asBlock(cf.visit(bodyStatement)))), bodyStatement),
    withOrigin(ts.factory.createExpressionStatement(operatorCall(emit, operator, [
      id(testName), id(bodyName), getStateClosure(names), setStateClosure(emit, names), stringArray(names),
      optionsObject(emit.origin(node), cf.flagsIn(names), cf.compositesOf(node, [test, bodyStatement]), cf.promotedIn(names),
        cf.observedOf(node, [test, bodyStatement])),
    ])), node),
  ];
}
