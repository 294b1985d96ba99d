/**
 * `assert(cond, message)` (node:assert) and `console.assert(cond, ...data)` whose condition may be
 * a Tensor → `ag__.assert(cond, [message], check, { origin })`, where `check` is the original
 * function. Eagerly the operator calls `check` with the condition's value, so the original's
 * behaviour is kept exactly (node's AssertionError, console's message); staged, the check becomes
 * a node of the graph that runs on every call (the paper's assert → tf.Assert).
 */
import type * as TS from 'typescript';
import { closure, operatorCall, optionProperty, optionsObject, param, EmitContext, id } from '../emit';
import { ts } from '../typescript';

export function convertAssert(node: TS.CallExpression, kind: 'node' | 'console',
                              visit: (e: TS.Expression) => TS.Expression, emit: EmitContext): TS.Expression {
  const [cond, ...rest] = node.arguments.map(visit);
  const ok = emit.fresh('ok');
  const args = emit.fresh('args');
  // `(ok, ...args) => callee(ok, ...args)`: keeps `this` for console.assert and any aliasing.
  const check = closure(ts.factory.createCallExpression(visit(node.expression), undefined,
    [id(ok), ts.factory.createSpreadElement(id(args))]),
    [param(ok), ts.factory.createParameterDeclaration(undefined, ts.factory.createToken(ts.SyntaxKind.DotDotDotToken), args)]);
  const options = optionsObject(emit.origin(node));
  if (kind === 'console') {
    return operatorCall(emit, 'assert', [cond, ts.factory.createArrayLiteralExpression(rest), check,
      ts.factory.updateObjectLiteralExpression(options, [...options.properties,
        optionProperty('kind', ts.factory.createStringLiteral('console'))])]);
  }
  return operatorCall(emit, 'assert', [cond, ts.factory.createArrayLiteralExpression(rest), check, options]);
}
