/**
 * `for (const x of iterable) body` with an iterable that may be a Tensor or TensorRange (or a loop
 * that lowered jumps must leave) →
 *   const loop_body = (x) => { body };
 *   ag__.forStmt(iterable, extra_test, loop_body, get_state, set_state, ['y'], { origin });
 * The head binds as a closure parameter, which gives every iteration its own binding as the
 * original `const`/`let` head does. A head that assigns an existing target (`for (x of xs)`)
 * assigns it first thing in the body. `for...in` is the same with ag__.forInStmt (for_in_statements.ts).
 */
import type * as TS from 'typescript';
import {
  asBlock, closure, constStatement, getStateClosure, id, operatorCall, optionsObject, param,
  setStateClosure, statementsOf, stringArray, withOrigin, assignStatement,
} from '../emit';
import { activityOf } from '../analysis/activity';
import { visitReferences } from '../analysis/references';
import { ts } from '../typescript';
import { union } from '../analysis/liveness';
import type { ControlFlowContext } from './control_flow_context';
import { noFlagSet } from '../lowering/guards';

export function convertForOf(node: TS.ForOfStatement, cf: ControlFlowContext): TS.Statement[] {
  return convertIteration(node, 'forStmt', cf);
}

/** for...of and for...in (for_in_statements.ts) alike: only the operator differs. */
export function convertIteration(node: TS.ForOfStatement | TS.ForInStatement, operator: 'forStmt' | 'forInStmt',
                          cf: ControlFlowContext): TS.Statement[] {
  const { emit } = cf;
  const live = union(cf.liveness.inOf(node), cf.liveness.outOf(node));
  const head = node.initializer;
  const names = cf.stateOf([ts.isVariableDeclarationList(head) ? undefined : head, node.statement], live)
    .filter((name) => !(ts.isVariableDeclarationList(head) && declaresName(head, name)));
  let parameter: TS.ParameterDeclaration;
  const bodyStatements = statementsOf(asBlock(cf.visit(node.statement)));
  if (ts.isVariableDeclarationList(head)) {
    parameter = param(head.declarations[0].name);
  } else {
    const item = emit.fresh('item');
    parameter = param(item);
    bodyStatements.unshift(withOrigin(assignStatement(head, id(item)), head));
  }
  const flags = cf.loopFlags(node);
  const extraTest = flags.length > 0 ? closure(noFlagSet(cf.state, flags, node)) : ts.factory.createIdentifier('undefined');
  const bodyName = emit.fresh('loop_body');
  return [
    withOrigin(constStatement(bodyName, closure(ts.factory.createBlock(bodyStatements, true), [parameter])), node.statement),
    withOrigin(ts.factory.createExpressionStatement(operatorCall(emit, operator, [
      iterableInHeadScope(node), extraTest, id(bodyName), getStateClosure(names), setStateClosure(emit, names),
      stringArray(names), optionsObject(emit.origin(node), cf.flagsIn(names), cf.compositesOf(node, [node.initializer, node.statement]),
        cf.promotedIn(names), cf.observedOf(node, [node.statement])),
    ])), node),
  ];
}

/**
 * The iterable is evaluated where the head's let/const names exist but are not initialized yet
 * (ES ForIn/OfHeadEvaluation's TDZ): `for (const x of x)` throws a ReferenceError, and so does a
 * closure in it that reads x, even later. An iterable that names one of them is evaluated in
 * such a scope: `(() => { return xs; let x; })()` — the unreachable `let` is never initialized.
 */
function iterableInHeadScope(node: TS.ForOfStatement | TS.ForInStatement): TS.Expression {
  const head = node.initializer;
  if (!ts.isVariableDeclarationList(head) || !(head.flags & ts.NodeFlags.BlockScoped)) return node.expression;
  const declared = [...activityOf(head).declared];
  let references = false;
  visitReferences(node.expression, { name(name) { if (declared.includes(name)) references = true; } });
  if (!references) return node.expression;
  const f = ts.factory;
  const tdz = f.createVariableStatement(undefined, f.createVariableDeclarationList(
    declared.map((name) => f.createVariableDeclaration(name)), ts.NodeFlags.Let));
  return f.createCallExpression(f.createParenthesizedExpression(
    closure(f.createBlock([f.createReturnStatement(node.expression), tdz], false))), undefined, []);
}

function declaresName(list: TS.VariableDeclarationList, name: string): boolean {
  let found = false;
  const visit = (n: TS.BindingName): void => {
    if (ts.isIdentifier(n)) found ||= n.text === name;
    else for (const e of n.elements) if (!ts.isOmittedExpression(e)) visit(e.name);
  };
  list.declarations.forEach((d) => visit(d.name));
  return found;
}
