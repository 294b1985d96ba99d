/**
 * Iterating arrays a staged loop may make lists (runtime/list_iteration.ts).
 *
 * `xs.forEach((x, i) => ...)` on an array that a staged loop may make a list (plan.listForEach) →
 * `ag__.forEachItem(xs, (x, i) => ..., { origin, name, state, composites, observed })`: the native call
 * on a JS array; on a list, a staged loop (runtime/list_iteration.ts) that carries the variables the
 * callback assigns (opts.state), the arrays it changes in place and the objects whose fields it may change.
 */
import type * as TS from 'typescript';
import { activityOf, compositeTargetsOf, observedObjectsOf } from '../analysis/activity';
import type { ConversionPlan } from '../analysis/plan';
import { operatorCall, optionProperty, optionsObject, withExpressionState, type EmitContext } from '../emit';
import { ts } from '../typescript';

export function convertListForEach(node: TS.CallExpression, plan: ConversionPlan, visit: (e: TS.Expression) => TS.Expression,
                                   emit: EmitContext): TS.Expression {
  const callee = node.expression as TS.PropertyAccessExpression;
  const [callback, ...rest] = node.arguments;
  const { declared } = activityOf(callback);
  const assigned = activityOf(callback).modified.filter((name) => !name.includes('.'));
  // (The callback's body: a function node is where these analyses stop.)
  const body = (callback as TS.ArrowFunction | TS.FunctionExpression).body;
  const options = optionsObject(emit.origin(node), [], compositeTargetsOf(declared, plan.mayBeArray, body), [],
    observedObjectsOf(declared, plan.mayHaveFields, body));
  const named = ts.factory.updateObjectLiteralExpression(options, [...options.properties,
    optionProperty('name', ts.factory.createStringLiteral((callee.expression as TS.Identifier).text))]);
  return operatorCall(emit, 'forEachItem', [visit(callee.expression), visit(callback), withExpressionState(emit, named, assigned),
    ...rest.map(visit)]);
}

/** `[a, ...xs, b]` (plan.listSpreads) → `ag__.spreadItems([a, xs, b], [1], { origin, name: 'xs' })`. */
export function convertListSpread(node: TS.ArrayLiteralExpression, visit: (e: TS.Expression) => TS.Expression, emit: EmitContext): TS.Expression {
  const parts = node.elements.map((e) => visit(ts.isSpreadElement(e) ? e.expression : e));
  const spreads = node.elements.flatMap((e, i) => (ts.isSpreadElement(e) ? [ts.factory.createNumericLiteral(i)] : []));
  const first = node.elements.find(ts.isSpreadElement)!.expression;
  const options = optionsObject(emit.origin(node));
  const named = ts.factory.updateObjectLiteralExpression(options, [...options.properties,
    optionProperty('name', ts.factory.createStringLiteral(ts.isIdentifier(first) ? first.text : 'the array'))]);
  return operatorCall(emit, 'spreadItems', [ts.factory.createArrayLiteralExpression(parts), ts.factory.createArrayLiteralExpression(spreads), named]);
}
