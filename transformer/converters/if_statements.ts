/**
 * `if (cond) A else B` with a condition that may be a Tensor →
 *   const if_body = () => { A };  const else_body = () => { B };
 *   ag__.ifStmt(cond, if_body, else_body, get_state, set_state, ['x'], 1, { origin });
 * State: names modified in either branch that are live after the if (the `nouts` outputs), then
 * the other names the branches modify: a staging engine traces both branches one after the other
 * and must put those back too before tracing the second (`if (p) c = a; else b = c;` reads the c
 * from before the if in its else branch, even though c is dead after it).
 *
 * A long `else if` chain would nest one closure per branch (deep enough, that overflows the
 * printer's stack, and indentation makes the output quadratic); past LONG_CHAIN branches it is
 * emitted flat instead, one operator call per branch after a flag:
 *   let branch_taken = false;
 *   ag__.ifStmt(c1, () => { branch_taken = true; A1 }, ...);
 *   ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => c2), () => { branch_taken = true; A2 }, ...);
 *   ...
 *   ag__.ifStmt(ag__.not(branch_taken), else_body, ...);
 * Each condition is still evaluated only when no earlier branch was taken.
 */
import type * as TS from 'typescript';
import {
  asBlock, assignStatement, closure, constStatement, getStateClosure, id, letStatement, operatorCall, optionProperty, optionsObject,
  setStateClosure, stringArray, withOrigin,
} from '../emit';
import { activityOf } from '../analysis/activity';
import { ts } from '../typescript';
import type { ControlFlowContext } from './control_flow_context';
import { type GuardJump, guardJumpOf } from '../lowering/guards';

const LONG_CHAIN = 16;

export function convertIf(node: TS.IfStatement, cf: ControlFlowContext): TS.Statement[] {
  const chain = elseIfChain(node, cf);
  if (chain.length > LONG_CHAIN) return convertFlatChain(node, chain, cf);
  const { emit } = cf;
  const outputs = cf.stateOf([node.thenStatement, node.elseStatement], cf.liveness.outOf(node));
  const names = withRestored(outputs, [node.thenStatement, node.elseStatement]);
  const statements: TS.Statement[] = [];
  const body = emit.fresh('if_body');
  statements.push(withOrigin(constStatement(body, closure(asBlock(cf.visit(node.thenStatement)))), node.thenStatement));
  let orelse: TS.Expression = ts.factory.createIdentifier('undefined');
  if (node.elseStatement) {
    const name = emit.fresh('else_body');
    statements.push(withOrigin(constStatement(name, closure(asBlock(cf.visit(node.elseStatement)))), node.elseStatement));
    orelse = id(name);
  }
  const options = optionsObject(emit.origin(node), cf.flagsIn(names), cf.compositesOf(node, [node.thenStatement, node.elseStatement]),
    cf.promotedIn(names), cf.observedOf(node, [node.thenStatement, node.elseStatement]));
  const call = operatorCall(emit, 'ifStmt', [
    node.expression, id(body), orelse, getStateClosure(names), setStateClosure(emit, names),
    stringArray(names), ts.factory.createNumericLiteral(outputs.length), withJump(options, guardJumpOf(cf.state, node), cf),
  ]);
  statements.push(withOrigin(ts.factory.createExpressionStatement(call), node));
  return statements;
}

/**
 * A guard that a lowered jump put around the rest of a block (`if (!continue_) { ... }`) names the
 * jump and the user's condition it is under: errors about the guard speak of them (opts.jump), not
 * of the statement the guard starts at.
 */
function withJump(options: TS.ObjectLiteralExpression, jump: GuardJump | undefined, cf: ControlFlowContext): TS.ObjectLiteralExpression {
  if (jump === undefined) return options;
  const value = ts.factory.createObjectLiteralExpression([
    ts.factory.createPropertyAssignment('kind', ts.factory.createStringLiteral(jump.kind)),
    ts.factory.createPropertyAssignment('origin', ts.factory.createStringLiteral(cf.emit.origin(jump.at))),
  ], false);
  return ts.factory.createObjectLiteralExpression([...options.properties, optionProperty('jump', value)], false);
}

/** The outputs, then the other names that `branches` modify (restored between branch traces). */
function withRestored(outputs: string[], branches: (TS.Statement | undefined)[]): string[] {
  return [...outputs, ...activityOf(...branches).modified.filter((name) => !outputs.includes(name))];
}

/** The converted ifs of an `if / else if / else if ...` chain, starting at `node`. */
function elseIfChain(node: TS.IfStatement, cf: ControlFlowContext): TS.IfStatement[] {
  const chain = [node];
  for (let next = node.elseStatement; next && ts.isIfStatement(next) && cf.isConverted(next); next = next.elseStatement) {
    chain.push(next);
  }
  return chain;
}

function convertFlatChain(node: TS.IfStatement, chain: TS.IfStatement[], cf: ControlFlowContext): TS.Statement[] {
  const { emit } = cf;
  const taken = emit.fresh('branch_taken');
  cf.state.flagNames.add(taken);
  const live = cf.liveness.outOf(node);
  const statements: TS.Statement[] = [letStatement(taken, ts.factory.createFalse())];
  const branch = (cond: TS.Expression, body: TS.Statement | undefined, origin: TS.Node, marks: boolean): void => {
    if (body === undefined) return;
    const outputs = [...cf.stateOf([body], live), ...(marks ? [taken] : [])];
    const names = withRestored(outputs, [body]);
    const name = emit.fresh(marks ? 'if_body' : 'else_body');
    const inner = asBlock(cf.visit(body));
    const block = marks ? ts.factory.createBlock([assignStatement(id(taken), ts.factory.createTrue()), ...inner.statements], true) : inner;
    statements.push(withOrigin(constStatement(name, closure(block)), body));
    statements.push(withOrigin(ts.factory.createExpressionStatement(operatorCall(emit, 'ifStmt', [
      cond, id(name), ts.factory.createIdentifier('undefined'), getStateClosure(names), setStateClosure(emit, names),
      stringArray(names), ts.factory.createNumericLiteral(outputs.length), optionsObject(emit.origin(origin), cf.flagsIn(names), cf.compositesOf(body, [body]), cf.promotedIn(names),
        cf.observedOf(body, [body])),
    ])), origin));
  };
  const notTaken = (): TS.Expression => operatorCall(emit, 'not', [id(taken)]);
  chain.forEach((link, i) => {
    const cond = i === 0 ? link.expression : operatorCall(emit, 'and', [closure(notTaken()), closure(link.expression), optionsObject(emit.origin(link))]);
    branch(cond, link.thenStatement, link, true);
  });
  const last = chain[chain.length - 1];
  branch(notTaken(), last.elseStatement, last.elseStatement ?? last, false);
  return statements;
}
