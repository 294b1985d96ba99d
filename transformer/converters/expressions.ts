/**
 * The expression pass: rewrites the logical and conditional expressions the plan selected,
 * innermost first, on the original tree (before statements are moved into closures).
 */
import type * as TS from 'typescript';
import type { ConversionPlan } from '../analysis/plan';
import { activityOf, compositeTargetsOf, observedObjectsOf } from '../analysis/activity';
import { EmitContext, operatorCall, optionsObject, withOrigin } from '../emit';
import { ts } from '../typescript';
import { convertArrayPredicate } from './array_predicates';
import { convertAssert } from './asserts';
import { convertConditional } from './conditional_expressions';
import { convertLogical } from './logical_expressions';
import { convertListForEach, convertListSpread } from './list_iteration';
import { convertNewList } from './lists';
import { convertIndexDispatch } from './index_dispatch';
import { convertRecursiveCall } from './recursive_calls';
import { convertPromoted, plainValueCall } from './promoted_values';
import { convertNumberArgumentCall } from './number_arguments';

export function convertExpressions<T extends TS.Node>(root: T, plan: ConversionPlan, emit: EmitContext,
                                                     context: TS.TransformationContext): T {
  const { promotion } = plan;
  if (plan.expressions.size === 0 && plan.switchDiscriminants.size === 0 && !promotion.active &&
      plan.newLists.size === 0 && plan.listForEach.size === 0 && plan.listSpreads.size === 0 && plan.recursiveCalls.size === 0 && plan.arrayPredicates.size === 0 && plan.listArguments.size === 0 &&
      plan.indexDispatches.size === 0) return root;
  const visit = (node: TS.Node): TS.Node => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    const dispatched = ts.isExpressionStatement(node) ? plan.indexDispatches.get(node) : undefined;
    if (dispatched !== undefined) {
      return convertIndexDispatch(node as TS.ExpressionStatement, dispatched, visit, emit, context, promotion.names, plan.mayHaveFields);
    }
    if (ts.isVariableDeclaration(node) && plan.newLists.has(node)) return convertNewList(node, visit, emit, plan.scalarLists.has(node));
    // `{ t }` where t needs its plain value: `{ t: ag__.plainValue(t, ...) }`.
    if (ts.isShorthandPropertyAssignment(node) && promotion.plainReads.has(node.name)) {
      return withOrigin(ts.factory.createPropertyAssignment(node.name.text,
        plainValueCall(ts.factory.createIdentifier(node.name.text), promotion.plainReads.get(node.name)!, node.name, emit)), node);
    }
    let converted = convertOne(node);
    const plainName = promotion.plainReads.get(node as TS.Expression);
    if (plainName !== undefined) converted = plainValueCall(converted as TS.Expression, plainName, node, emit);
    if (!plan.switchDiscriminants.has(node as TS.Expression)) return converted;
    return withOrigin(operatorCall(emit, 'switchValue', [converted as TS.Expression, optionsObject(emit.origin(node))]), node);
  };
  const convertOne = (node: TS.Node): TS.Node => {
    if (plan.expressions.has(node as TS.Expression)) {
      const visitExpression = (e: TS.Expression): TS.Expression => visit(e) as TS.Expression;
      const observedOf = (...parts: TS.Node[]): string[] => observedObjectsOf(activityOf(...parts).declared, plan.mayHaveFields, ...parts);
      const converted = ts.isConditionalExpression(node) ? convertConditional(node, visitExpression, emit, observedOf)
        : ts.isCallExpression(node) ? convertAssert(node, plan.asserts.get(node)!, visitExpression, emit)
        : convertLogical(node as TS.Expression, visitExpression, emit, observedOf,
          (part) => compositeTargetsOf(activityOf(part).declared, plan.mayBeArray, part));
      if (converted !== undefined) return withOrigin(converted, node);
    }
    if (ts.isArrayLiteralExpression(node) && plan.listSpreads.has(node)) {
      return withOrigin(convertListSpread(node, (e) => visit(e) as TS.Expression, emit), node);
    }
    if (ts.isCallExpression(node) && plan.listForEach.has(node)) {
      return withOrigin(convertListForEach(node, plan, (e) => visit(e) as TS.Expression, emit), node);
    }
    const predicate = ts.isCallExpression(node) ? plan.arrayPredicates.get(node) : undefined;
    if (predicate !== undefined) {
      return withOrigin(convertArrayPredicate(node as TS.CallExpression, predicate, (e) => visit(e) as TS.Expression, emit), node);
    }
    const numberOp = ts.isCallExpression(node) ? plan.numberArgumentCalls.get(node) : undefined;
    if (numberOp !== undefined) {
      return withOrigin(convertNumberArgumentCall(node as TS.CallExpression, numberOp, (e) => visit(e) as TS.Expression, emit), node);
    }
    if (ts.isIdentifier(node) && plan.listArguments.has(node)) return withOrigin(operatorCall(emit, 'listValue', [node]), node);
    if (ts.isCallExpression(node) && plan.recursiveCalls.has(node)) {
      return withOrigin(convertRecursiveCall(node, (e) => visit(e) as TS.Expression, emit), node);
    }
    if (promotion.active) {
      const converted = convertPromoted(node, promotion, (e) => visit(e) as TS.Expression, emit);
      if (converted !== undefined) return withOrigin(converted, node);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return visit(root) as T;
}
