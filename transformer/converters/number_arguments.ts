/**
 * A tfjs op given a maybe-promoted number (the plan's numberArgumentCalls, analysis/number_arguments.ts):
 *   `x.slice([i], [1])`        →  ag__.tensorMethodCall(x, "slice", [[i], [1]], "main.ts:5:41")
 *   `tf.slice(x, [i], [1])`    →  ag__.tfjsCall(tf.slice, "slice", [x, [i], [1]], "main.ts:5:41")
 * On plain values each is the call as written (runtime/promoted_op_arguments.ts); the receiver (or
 * function) is evaluated first, then the arguments, as in the original.
 */
import type * as TS from 'typescript';
import type { NumberArgumentOp } from '../analysis/number_arguments';
import { EmitContext, operatorCall } from '../emit';
import { ts } from '../typescript';

export function convertNumberArgumentCall(node: TS.CallExpression, target: NumberArgumentOp,
                                          visit: (e: TS.Expression) => TS.Expression, emit: EmitContext): TS.Expression {
  const f = ts.factory;
  const args = f.createArrayLiteralExpression(node.arguments.map((a) => visit(a)));
  const origin = f.createStringLiteral(emit.origin(node));
  if (target.method && ts.isPropertyAccessExpression(node.expression)) {
    return operatorCall(emit, 'tensorMethodCall', [visit(node.expression.expression), f.createStringLiteral(node.expression.name.text), args, origin]);
  }
  return operatorCall(emit, 'tfjsCall', [visit(node.expression), f.createStringLiteral(target.op), args, origin]);
}
