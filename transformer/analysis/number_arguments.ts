/**
 * Calls of tfjs ops that take JS numbers (`x.slice([i], [1])`, `tf.oneHot(labels, n)`:
 * NUMBER_ARGUMENT_OPS in runtime/names.ts) with a maybe-promoted value in such an argument, alone
 * or in an array literal: analysis/promotion.ts lets the value reach the call as it is (a tfjs
 * values argument, Classifier.isTfjsValuesArgument), and the call becomes ag__.tfjsCall /
 * ag__.tensorMethodCall (converters/number_arguments.ts), which stages it or refuses it by name
 * (runtime/promoted_op_arguments.ts). On plain values that operator is the call as written.
 */
import type * as TS from 'typescript';
import type { Classifier } from '../classify';
import { ts } from '../typescript';
import { elementsName, isMaybePromoted } from './promotion';

export interface NumberArgumentOp {
  readonly op: string;
  /** The Tensor method (`x.slice(...)`), not the function (`tf.slice(x, ...)`). */
  readonly method: boolean;
}

/** The numberArgumentOp calls of a body (not of nested functions) that may be given a promoted number. */
export function numberArgumentCalls(body: TS.Node, names: ReadonlySet<string>, classifier: Classifier): Map<TS.CallExpression, NumberArgumentOp> {
  const calls = new Map<TS.CallExpression, NumberArgumentOp>();
  if (names.size === 0 || body.pos < 0 || ts.getOriginalNode(body) !== body) return calls;
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isCallExpression(node) && node.arguments.some((arg) => holdsMaybePromoted(arg, names))) {
      const target = classifier.numberArgumentOp(node);
      if (target !== undefined && node.arguments.some((arg) => classifier.isTfjsValuesArgument(node, arg) && holdsMaybePromoted(arg, names))) {
        calls.set(node, target);
      }
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return calls;
}

/** `i`, `[y, x, k]`, `[[i, 0]]`, or an array whose elements are promoted (`counts[]`). */
function holdsMaybePromoted(arg: TS.Expression, names: ReadonlySet<string>): boolean {
  while (ts.isParenthesizedExpression(arg) || ts.isAsExpression(arg) || ts.isNonNullExpression(arg)) arg = arg.expression;
  if (ts.isArrayLiteralExpression(arg)) return arg.elements.some((e) => holdsMaybePromoted(e, names));
  if (ts.isIdentifier(arg) && names.has(elementsName(arg.text))) return true;
  return isMaybePromoted(arg, names);
}
