/**
 * Uses of the user's numbers and booleans that a staged loop may promote to tensors (the plan's
 * `promotion`, analysis/promotion.ts; runtime/promoted_values.ts says why):
 *   `t < n`, `t + 1`, `t === k`   →  ag__.binaryOp('<', t, n)   (the JS operator on plain values)
 *   `t += k`                      →  t = ag__.binaryOp('+', t, k)
 *   `t++` (its value unused), `++t`  →  t = ag__.unaryOp('++', t)
 *   `-t`                          →  ag__.unaryOp('-', t)
 *   `xs[t]`, `typeof t`, `f(t)`   →  ag__.plainValue(t, 't', origin): refuses a promoted tensor
 *   `xs[t]` on a list             →  ag__.listItem(xs, t)   (`xs[t]`, or the list's element at a tensor t)
 *   `t++` whose value is used     →  ag__.postfixOp('++', t, (t_next) => t = t_next)   (the old value)
 */
import type * as TS from 'typescript';
import { COMPOUND_ASSIGNMENT, isArithmetic, isListItem, isMaybePromoted, PromotionPlan } from '../analysis/promotion';
import { closure, EmitContext, id, operatorCall, param, withOrigin } from '../emit';
import { ts } from '../typescript';

export function convertPromoted(node: TS.Node, promotion: PromotionPlan, visit: (e: TS.Expression) => TS.Expression,
                                emit: EmitContext): TS.Expression | undefined {
  const { names } = promotion;
  const isPromotable = (e: TS.Expression): e is TS.Identifier => ts.isIdentifier(e) && names.has(e.text);
  const binary = (op: TS.SyntaxKind, left: TS.Expression, right: TS.Expression): TS.Expression =>
    operatorCall(emit, 'binaryOp', [ts.factory.createStringLiteral(ts.tokenToString(op)!), left, right]);
  const update = (target: TS.Identifier, op: TS.SyntaxKind, value: TS.Expression): TS.Expression =>
    ts.factory.createAssignment(id(target.text), binary(op, id(target.text), value));

  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (isArithmetic(op) && (isMaybePromoted(node.left, names) || isMaybePromoted(node.right, names))) {
      return binary(op, visit(node.left), visit(node.right));
    }
    const arithmetic = COMPOUND_ASSIGNMENT.get(op);
    if (arithmetic !== undefined && isPromotable(node.left)) return update(node.left, arithmetic, visit(node.right));
    return undefined;
  }
  if (isListItem(node, names) && isMaybePromoted(node.argumentExpression, names)) {
    return operatorCall(emit, 'listItem', [visit(node.expression), visit(node.argumentExpression)]);
  }
  if (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) {
    const op = node.operator;
    if ((op === ts.SyntaxKind.PlusPlusToken || op === ts.SyntaxKind.MinusMinusToken) && isPromotable(node.operand) &&
        (ts.isPrefixUnaryExpression(node) || valueUnused(node))) {
      // Not `t + 1`: `++t` converts a string to a number first.
      return ts.factory.createAssignment(id(node.operand.text),
        operatorCall(emit, 'unaryOp', [ts.factory.createStringLiteral(ts.tokenToString(op)!), id(node.operand.text)]));
    }
    if ((op === ts.SyntaxKind.PlusPlusToken || op === ts.SyntaxKind.MinusMinusToken) && isPromotable(node.operand)) {
      const next = emit.fresh(`${node.operand.text}_next`);
      return operatorCall(emit, 'postfixOp', [ts.factory.createStringLiteral(ts.tokenToString(op)!), id(node.operand.text),
        closure(ts.factory.createAssignment(id(node.operand.text), id(next)), [param(next)])]);
    }
    if (ts.isPrefixUnaryExpression(node) && (op === ts.SyntaxKind.MinusToken || op === ts.SyntaxKind.PlusToken) &&
        isMaybePromoted(node.operand, names)) {
      return operatorCall(emit, 'unaryOp', [ts.factory.createStringLiteral(ts.tokenToString(op)!), visit(node.operand)]);
    }
  }
  return undefined;
}

/** `ag__.plainValue(value, 'name', 'file.ts:l:c')` for a maybe-promoted read the plan listed. */
export function plainValueCall(value: TS.Expression, name: string, original: TS.Node, emit: EmitContext): TS.Expression {
  return withOrigin(operatorCall(emit, 'plainValue', [value, ts.factory.createStringLiteral(name),
    ts.factory.createStringLiteral(emit.origin(original))]), original);
}

function valueUnused(node: TS.Expression): boolean {
  let child: TS.Node = node;
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) {
    child = parent;
    parent = parent.parent;
  }
  return ts.isExpressionStatement(parent) || ts.isVoidExpression(parent) ||
    (ts.isForStatement(parent) && parent.incrementor === child) ||
    (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.CommaToken && parent.left === child);
}
