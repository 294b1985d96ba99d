/**
 * `a && b`, `a || b`, `!a` (and `a &&= b`, `a ||= b`) whose left operand may be a Tensor →
 * `ag__.and(() => a, () => b)`, `ag__.or(...)`, `ag__.not(a)`: lazy, and on a tensor a logical
 * operation instead of "a Tensor object is always truthy".
 */
import type * as TS from 'typescript';
import { activityOf } from '../analysis/activity';
import { closure, operatorCall, optionsObject, withExpressionState, EmitContext } from '../emit';
import { ts } from '../typescript';

export function convertLogical(node: TS.Expression, visit: (e: TS.Expression) => TS.Expression, emit: EmitContext,
                               observedOf: (...parts: TS.Node[]) => string[], compositesOf: (part: TS.Node) => string[]): TS.Expression | undefined {
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
    return operatorCall(emit, 'not', [visit(node.operand)]);
  }
  if (!ts.isBinaryExpression(node)) return undefined;
  const op = node.operatorToken.kind;
  const left = visit(node.left);
  const right = visit(node.right);
  // The origin names the user's line in staged If nodes and run-time errors, as for every operator;
  // variables the right operand assigns (`a && (x = b)`) go in opts.state, for the staging engine,
  // and the objects it reads whose fields code it calls may change (`rng.next()`) in opts.observed.
  // The arrays and objects it changes in place (`isDone[i] ||= done`) go in opts.composites.
  const options = (assigns: TS.Node): TS.Expression => {
    const names = activityOf(assigns).modified;
    return withExpressionState(emit, optionsObject(emit.origin(node), [], compositesOf(assigns), [], observedOf(node.right)), names);
  };
  if (op === ts.SyntaxKind.AmpersandAmpersandToken) return operatorCall(emit, 'and', [closure(left), closure(right), options(node.right)]);
  if (op === ts.SyntaxKind.BarBarToken) return operatorCall(emit, 'or', [closure(left), closure(right), options(node.right)]);
  // `a &&= b` is `a && (a = b)`; only for targets that evaluate without side effects.
  if ((op === ts.SyntaxKind.AmpersandAmpersandEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken) && isSimpleTarget(node.left)) {
    const assign = ts.factory.createAssignment(left, right);
    return operatorCall(emit, op === ts.SyntaxKind.AmpersandAmpersandEqualsToken ? 'and' : 'or',
      [closure(left), closure(assign), options(node)]);
  }
  return undefined;
}

/** A target that reads the same place twice, with no side effect: `a`, `this.x`, `o.x`, `a[i]`, `a[0]`, `this.xs[i]`. */
function isSimpleTarget(target: TS.Expression): boolean {
  return ts.isIdentifier(target) || (ts.isPropertyAccessExpression(target) && isPlainReference(target.expression)) ||
    (ts.isElementAccessExpression(target) && isPlainReference(target.expression) &&
     (isPlainReference(target.argumentExpression) || ts.isNumericLiteral(target.argumentExpression) || ts.isStringLiteral(target.argumentExpression)));
}

function isPlainReference(e: TS.Expression): boolean {
  return ts.isIdentifier(e) || e.kind === ts.SyntaxKind.ThisKeyword ||
    (ts.isPropertyAccessExpression(e) && isPlainReference(e.expression));
}
