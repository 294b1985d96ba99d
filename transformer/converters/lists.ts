/**
 * Arrays that staged loops may grow: `const xs = [t]` becomes `const xs = ag__.newList([t], { origin,
 * name: 'xs' })` when the checker types xs as an array that may hold tensors and a converted loop
 * changes it in place (the plan's newLists). ag__.newList is the array itself outside a trace; a
 * trace may make it a list value of the graph (AutoGraph's lists converter, without annotations:
 * the checker knows the element type). An array of JS numbers or booleans (`number[]`) gets
 * `scalars: true`: as a list its elements are promoted scalars, read back as JS values.
 */
import type * as TS from 'typescript';
import { EmitContext, operatorCall, optionProperty, optionsObject, withOrigin } from '../emit';
import { ts } from '../typescript';

export function convertNewList(node: TS.VariableDeclaration, visit: (node: TS.Node) => TS.Node,
                               emit: EmitContext, scalars: boolean): TS.VariableDeclaration {
  const name = (node.name as TS.Identifier).text;
  const options = optionsObject(emit.origin(node));
  const withName = ts.factory.createObjectLiteralExpression(
    [...options.properties, optionProperty('name', ts.factory.createStringLiteral(name)),
      ...(scalars ? [optionProperty('scalars', ts.factory.createTrue())] : [])], false);
  const init = visit(node.initializer!) as TS.Expression;
  const call = withOrigin(operatorCall(emit, 'newList', [init, withName]), node.initializer!);
  return ts.factory.updateVariableDeclaration(node, node.name, node.exclamationToken, node.type, call);
}
