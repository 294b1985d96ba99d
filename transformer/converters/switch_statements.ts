/**
 * A switch that a lowered jump must leave from inside a closure (`case 'x': if (cond) break;`
 * with a tensor or `any` condition) cannot stay native: the guard that skips "the rest of the
 * switch" after the jump would have to span case labels. It becomes an if chain with the switch's
 * exact semantics — the discriminant evaluated once, the case expressions lazily in order until
 * one is strictly equal (===), default wherever it stands taken when none is, then fall-through:
 *   switch (d) { case a: A; case b: B; break; default: D; case c: C }   →
 *   { const switch_value = d;
 *     const case_index = switch_value === a ? 0 : switch_value === b ? 1 : switch_value === c ? 3 : 2;
 *     if (case_index <= 0) { A }
 *     if (case_index <= 1) { B; break }     // then lowered by the break converter: flag + guards
 *     if (case_index <= 2) { D }
 *     if (case_index <= 3) { C } }
 * Entering at clause k runs every clause from k on, as fall-through does; every break out of the
 * switch is lowered to a flag (plan.ts), whose guards then skip the clauses that follow. The ifs
 * test a JS number, so they stay native. Runs before the jump-lowering converters. Every other
 * switch stays native.
 */
import type * as TS from 'typescript';
import { constStatement, id, withOrigin, withPosition } from '../emit';
import { ts } from '../typescript';
import { LoweringState } from '../lowering/guards';

export function lowerSwitches(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  if (state.plan.loweredSwitches.size === 0) return body;
  const visit = (node: TS.Node): TS.Node => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    const visited = ts.visitEachChild(node, visit, context);
    if (!ts.isSwitchStatement(visited) || !state.plan.loweredSwitches.has(ts.getOriginalNode(visited) as TS.SwitchStatement)) {
      return visited;
    }
    return withOrigin(ifChain(visited, state), visited);
  };
  return ts.visitEachChild(body, visit, context);
}

function ifChain(node: TS.SwitchStatement, state: LoweringState): TS.Block {
  const f = ts.factory;
  const value = state.emit.fresh('switch_value');
  const index = state.emit.fresh('case_index');
  const clauses = node.caseBlock.clauses;
  const defaultIndex = clauses.findIndex((c) => ts.isDefaultClause(c));
  let entry: TS.Expression = f.createNumericLiteral(defaultIndex >= 0 ? defaultIndex : clauses.length);
  for (let k = clauses.length - 1; k >= 0; k--) {
    const clause = clauses[k];
    if (!ts.isCaseClause(clause)) continue;
    const matches = f.createStrictEquality(id(value), clause.expression);
    entry = f.createConditionalExpression(matches, undefined, f.createNumericLiteral(k), undefined, entry);
  }
  const statements: TS.Statement[] = [
    withPosition(constStatement(value, node.expression), node.expression),
    withPosition(constStatement(index, entry), node.caseBlock),
  ];
  clauses.forEach((clause, k) => {
    if (clause.statements.length === 0) return;
    const entered = f.createLessThanEquals(id(index), f.createNumericLiteral(k));
    statements.push(withPosition(f.createIfStatement(entered, f.createBlock(clause.statements, true)), clause));
  });
  return f.createBlock(statements, true);
}
