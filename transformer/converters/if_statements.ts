/**
 * `if (cond) A else B` with a condition that may be a Tensor →
 *   const if_body = () => { A };  const else_body = () => { B };
 *   ag__.ifStmt(cond, if_body, else_body, get_state, set_state, ['x'], 1, { origin });
 * State: names modified in either branch that are live after the if.
 */
import type * as TS from 'typescript';
import {
  asBlock, closure, constStatement, getStateClosure, id, operatorCall, optionsObject, setStateClosure,
  stringArray, withOrigin,
} from '../emit';
import { ts } from '../typescript';
import type { ControlFlowContext } from './control_flow';

export function convertIf(node: TS.IfStatement, cf: ControlFlowContext): TS.Statement[] {
  const { emit } = cf;
  const names = cf.stateOf([node.thenStatement, node.elseStatement], cf.liveness.outOf(node));
  const statements: TS.Statement[] = [];
  const body = emit.fresh('if_body');
  statements.push(withOrigin(constStatement(body, closure(asBlock(cf.visit(node.thenStatement)))), node.thenStatement));
  let orelse: TS.Expression = ts.factory.createIdentifier('undefined');
  if (node.elseStatement) {
    const name = emit.fresh('else_body');
    statements.push(withOrigin(constStatement(name, closure(asBlock(cf.visit(node.elseStatement)))), node.elseStatement));
    orelse = id(name);
  }
  const call = operatorCall(emit, 'ifStmt', [
    node.expression, id(body), orelse, getStateClosure(names), setStateClosure(emit, names),
    stringArray(names), ts.factory.createNumericLiteral(names.length),
    optionsObject(emit.origin(node), cf.flagsIn(names)),
  ]);
  statements.push(withOrigin(ts.factory.createExpressionStatement(call), node));
  return statements;
}
