/**
 * A call that may recurse (analysis/recursion.ts): `power(x, n.sub(1))` becomes
 * `ag__.recursiveCall(power, [x, n.sub(1)], { origin })` and `this.walk(t)` becomes
 * `ag__.recursiveCall(this.walk, [t], { origin }, this)`. Outside a trace the operator is the call
 * itself; a trace may stage it as a call of the function's graph (backends/staging/staged_calls.ts).
 */
import type * as TS from 'typescript';
import { EmitContext, operatorCall, optionsObject } from '../emit';
import { ts } from '../typescript';

export function convertRecursiveCall(node: TS.CallExpression, visit: (e: TS.Expression) => TS.Expression,
                                     emit: EmitContext): TS.Expression {
  const f = ts.factory;
  const args = f.createArrayLiteralExpression(node.arguments.map((a) => visit(a)), false);
  const callee = node.expression;
  const receiver = ts.isPropertyAccessExpression(callee) ? [visit(callee.expression)] : [];
  return operatorCall(emit, 'recursiveCall', [visit(callee), args, optionsObject(emit.origin(node)), ...receiver]);
}
