/**
 * `counts[p] += 1` (analysis/index_dispatch.ts) →
 *   ag__.atIndex(counts, p, (array_, k_) => { array_[k_] = ag__.binaryOp("+", array_[k_], 1); }, getState, setState,
 *                names, { origin, name: "counts", ... })
 * The array and the index are evaluated once, before; the statement runs on `array_[k_]` (runtime/index_dispatch.ts
 * runs it for the index, or for each element under a staged `if (p === k)`). A compound assignment or `++`/`--`
 * becomes `T = ag__.binaryOp(op, T, v)` / `T = ag__.unaryOp("++", T)` on its target: the element may hold a
 * promoted value, which JS's `+=` would turn into a string.
 */
import type * as TS from 'typescript';
import { activityOf, elementWriteCalls, observedObjectsOf } from '../analysis/activity';
import { COMPOUND_ASSIGNMENT } from '../analysis/promotion';
import { writtenChain } from '../analysis/index_dispatch';
import {
  closure, EmitContext, getStateClosure, id, operatorCall, optionProperty, optionsObject, param, setStateClosure, stringArray, withOrigin,
} from '../emit';
import { ts } from '../typescript';

export function convertIndexDispatch(statement: TS.ExpressionStatement, element: TS.ElementAccessExpression,
                                     visit: (node: TS.Node) => TS.Node, emit: EmitContext, context: TS.TransformationContext,
                                     promoted: ReadonlySet<string>, mayHaveFields: (name: TS.Expression) => boolean): TS.Statement {
  const f = ts.factory;
  const arrayName = emit.fresh('array');
  const indexName = emit.fresh('k');
  const replace = (node: TS.Node): TS.Node => (node === element
    ? withOrigin(f.createElementAccessExpression(id(arrayName), id(indexName)), element)
    : ts.visitEachChild(node, replace, context));
  const onElement = visit(lowered(replace(statement) as TS.ExpressionStatement, emit)) as TS.Statement;
  const names = activityOf(statement).modified.filter((name) => !name.includes('.') && !name.includes('['));
  const declared = activityOf(statement).declared;
  const options = optionsObject(emit.origin(statement), [], [], names.filter((n) => promoted.has(n)),
    observedObjectsOf(declared, mayHaveFields, statement));
  const within = writtenChain(statement.expression) !== element;
  const named = f.updateObjectLiteralExpression(options, [...options.properties,
    optionProperty('name', f.createStringLiteral(element.expression.getText())), ...(within ? [optionProperty('within', f.createTrue())] : [])]);
  const array = visit(element.expression) as TS.Expression;
  const call = operatorCall(emit, 'atIndex', [
    array, visit(element.argumentExpression) as TS.Expression,
    closure(f.createBlock([onElement], true), [param(arrayName), param(indexName)]),
    getStateClosure(names), setStateClosure(emit, names), stringArray(names), named,
  ]);
  // (The array is what the statement changes in place, for the statements around it: a composite target.)
  elementWriteCalls.set(call, array);
  return withOrigin(f.createExpressionStatement(call), statement);
}

/** `T op= v` → `T = ag__.binaryOp("op", T, v)`; `T++`, `++T` (the value unused) → `T = ag__.unaryOp("++", T)`. */
function lowered(statement: TS.ExpressionStatement, emit: EmitContext): TS.ExpressionStatement {
  const f = ts.factory;
  const e = statement.expression;
  const target = writtenChain(e);
  if (target === undefined) return statement;
  let value: TS.Expression | undefined;
  if (ts.isBinaryExpression(e) && COMPOUND_ASSIGNMENT.has(e.operatorToken.kind)) {
    value = operatorCall(emit, 'binaryOp', [f.createStringLiteral(ts.tokenToString(COMPOUND_ASSIGNMENT.get(e.operatorToken.kind)!)!), target, e.right]);
  } else if (ts.isPrefixUnaryExpression(e) || ts.isPostfixUnaryExpression(e)) {
    value = operatorCall(emit, 'unaryOp', [f.createStringLiteral(ts.tokenToString(e.operator)!), target]);
  }
  return value === undefined ? statement : withOrigin(f.createExpressionStatement(f.createAssignment(target, value)), statement);
}
