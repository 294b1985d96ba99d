/**
 * An array predicate whose callback may return a Tensor (the plan's arrayPredicates):
 * `xs.some((x) => x.greater(5))` becomes `ag__.arrayPredicate(xs, "some", (x) => x.greater(5),
 * { origin, name: "xs" })`, further arguments (some's thisArg) after the options. The operator is
 * the native call on anything that is not an array at run time; on an array it reads a tensor
 * result as the condition it stands for (runtime/array_predicates.ts).
 */
import type * as TS from 'typescript';
import type { ArrayPredicate } from '../../runtime/names';
import { EmitContext, operatorCall, optionProperty, optionsObject } from '../emit';
import { ts } from '../typescript';

export function convertArrayPredicate(node: TS.CallExpression, method: ArrayPredicate,
                                      visit: (e: TS.Expression) => TS.Expression, emit: EmitContext): TS.Expression {
  const callee = node.expression as TS.PropertyAccessExpression;
  const [callback, ...rest] = node.arguments.map((a) => visit(a));
  const options = optionsObject(emit.origin(node));
  const named = ts.factory.updateObjectLiteralExpression(options, [...options.properties,
    optionProperty('name', ts.factory.createStringLiteral(receiverText(callee.expression)))]);
  return operatorCall(emit, 'arrayPredicate', [visit(callee.expression), ts.factory.createStringLiteral(method), callback, named, ...rest]);
}

/** The receiver as the user wrote it (on one line, shortened), for run-time messages. */
function receiverText(receiver: TS.Expression): string {
  if (receiver.pos < 0 || receiver.parent === undefined) return 'the array';
  const text = receiver.getText().replace(/\s+/g, ' ');
  return text.length <= 40 ? text : `${text.slice(0, 37)}...`;
}
