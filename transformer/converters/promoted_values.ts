/**
 * Uses of the user's numbers and booleans that a staged loop may promote to tensors (the plan's
 * `promotion`, analysis/promotion.ts; runtime/promoted_values.ts says why):
 *   `t < n`, `t + 1`, `t === k`   →  ag__.binaryOp('<', t, n)   (the JS operator on plain values)
 *   `t += k`                      →  t = ag__.binaryOp('+', t, k)
 *   `t++` (its value unused), `++t`  →  t = ag__.unaryOp('++', t)
 *   `-t`                          →  ag__.unaryOp('-', t)
 *   `xs[t]`, `typeof t`, `f(t)`   →  ag__.plainValue(t, 't', origin): refuses a promoted tensor
 *   `xs[t]` on a list             →  ag__.listItem(xs, t, "xs[t]", origin)   (`xs[t]`, or the list's element at a tensor t)
 *   `xs[t] = v` on a list or array →  ag__.setListItem(xs, t, v, "t", origin)   (an element write at a tensor t)
 *   `values[t]` on a number[]     →  ag__.arrayItem(values, t, "values[t]", origin)   (a gather in a trace)
 *   `t++` whose value is used     →  ag__.postfixOp('++', t, (t_next) => t = t_next)   (the old value)
 *   `Math.floor(t / 2)`           →  ag__.mathCall(Math.floor, [ag__.binaryOp('/', t, 2)])
 * A promotable field (`this.wait`, `state.best`) is rewritten like a variable: `this.wait++` →
 * `this.wait = ag__.unaryOp('++', this.wait)` (its object is read twice: a `this` or a variable).
 */
import type * as TS from 'typescript';
import { COMPOUND_ASSIGNMENT, isArithmetic, isListItem, isListItemWrite, isMathCall, isMaybePromoted, isPromotedElement, isPromotedItemRead, isPromotedItemWrite, PromotionPlan } from '../analysis/promotion';
import { qualifiedName } from '../analysis/references';
import { elementWriteCalls } from '../analysis/activity';
import { closure, EmitContext, id, operatorCall, param, withOrigin } from '../emit';
import { ts } from '../typescript';

export function convertPromoted(node: TS.Node, promotion: PromotionPlan, visit: (e: TS.Expression) => TS.Expression,
                                emit: EmitContext): TS.Expression | undefined {
  const { names } = promotion;
  // A promotable variable (`t`) or field (`this.wait`): its qualified name.
  const promotable = (e: TS.Expression): string | undefined => {
    const name = ts.isIdentifier(e) || ts.isPropertyAccessExpression(e) ? qualifiedName(e) : undefined;
    return name !== undefined && names.has(name) ? name : undefined;
  };
  // An element of a promotable array (`counts[c]`) with an index that reads nothing twice wrongly.
  const element = (e: TS.Expression): TS.ElementAccessExpression | undefined =>
    (ts.isElementAccessExpression(e) && isPromotedElement(e, names) && pureIndex(e.argumentExpression) ? e : undefined);
  const binary = (op: TS.SyntaxKind, left: TS.Expression, right: TS.Expression): TS.Expression =>
    operatorCall(emit, 'binaryOp', [ts.factory.createStringLiteral(ts.tokenToString(op)!), left, right]);
  // A new reference to the target, each time it is read or written.
  const targetRef = (target: string | TS.ElementAccessExpression): TS.Expression => (typeof target === 'string' ? reference(target)
    : ts.factory.createElementAccessExpression(id((target.expression as TS.Identifier).text), visit(target.argumentExpression)));
  const update = (target: string | TS.ElementAccessExpression, op: TS.SyntaxKind, value: TS.Expression): TS.Expression =>
    ts.factory.createAssignment(targetRef(target), binary(op, targetRef(target), value));

  if ((isListItemWrite(node, names) && isMaybePromoted(node.left.argumentExpression, names)) || isPromotedItemWrite(node)) {
    const index = node.left.argumentExpression;
    const array = visit(node.left.expression);
    const call = operatorCall(emit, 'setListItem', [array, visit(index), visit(node.right),
      ts.factory.createStringLiteral(index.getText().replace(/\s+/g, ' ')), ts.factory.createStringLiteral(emit.origin(index))]);
    elementWriteCalls.set(call, array);
    return call;
  }
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (isArithmetic(op) && (isMaybePromoted(node.left, names) || isMaybePromoted(node.right, names))) {
      return binary(op, visit(node.left), visit(node.right));
    }
    const arithmetic = COMPOUND_ASSIGNMENT.get(op);
    const target = arithmetic === undefined ? undefined : promotable(node.left) ?? element(node.left);
    if (target !== undefined) return update(target, arithmetic!, visit(node.right));
    return undefined;
  }
  if (isMathCall(node) && node.arguments.some((a) => isMaybePromoted(a, names))) {
    return operatorCall(emit, 'mathCall', [visit(node.expression as TS.Expression),
      ts.factory.createArrayLiteralExpression(node.arguments.map((a) => visit(a)))]);
  }
  if (isListItem(node, names) && isMaybePromoted(node.argumentExpression, names)) {
    return operatorCall(emit, 'listItem', [visit(node.expression), visit(node.argumentExpression),
      ts.factory.createStringLiteral(node.getText().replace(/\s+/g, ' ')), ts.factory.createStringLiteral(emit.origin(node))]);
  }
  if (isPromotedItemRead(node)) {
    return operatorCall(emit, 'arrayItem', [visit(node.expression), visit(node.argumentExpression),
      ts.factory.createStringLiteral(node.getText().replace(/\s+/g, ' ')), ts.factory.createStringLiteral(emit.origin(node))]);
  }
  if (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) {
    const op = node.operator;
    const target = op === ts.SyntaxKind.PlusPlusToken || op === ts.SyntaxKind.MinusMinusToken
      ? promotable(node.operand) ?? element(node.operand) : undefined;
    if (target !== undefined && (ts.isPrefixUnaryExpression(node) || valueUnused(node))) {
      // Not `t + 1`: `++t` converts a string to a number first.
      return ts.factory.createAssignment(targetRef(target),
        operatorCall(emit, 'unaryOp', [ts.factory.createStringLiteral(ts.tokenToString(op)!), targetRef(target)]));
    }
    if (target !== undefined) {
      const base = typeof target === 'string' ? target.slice(target.lastIndexOf('.') + 1) : (target.expression as TS.Identifier).text;
      const next = emit.fresh(`${base}_next`);
      return operatorCall(emit, 'postfixOp', [ts.factory.createStringLiteral(ts.tokenToString(op)!), targetRef(target),
        closure(ts.factory.createAssignment(targetRef(target), id(next)), [param(next)])]);
    }
    if (ts.isPrefixUnaryExpression(node) && (op === ts.SyntaxKind.MinusToken || op === ts.SyntaxKind.PlusToken) &&
        isMaybePromoted(node.operand, names)) {
      return operatorCall(emit, 'unaryOp', [ts.factory.createStringLiteral(ts.tokenToString(op)!), visit(node.operand)]);
    }
  }
  return undefined;
}

/** An index that can be read twice: a name, a literal, a property chain (`counts[c]`, `counts[0]`, `xs[this.k]`). */
function pureIndex(e: TS.Expression): boolean {
  return ts.isIdentifier(e) || ts.isNumericLiteral(e) || ts.isStringLiteral(e) || qualifiedName(e) !== undefined;
}

/** A new reference to a qualified name: `t`, `this.wait`, `state.best` (a field is read and written again). */
function reference(name: string): TS.Expression {
  const [root, ...fields] = name.split('.');
  let e: TS.Expression = root === 'this' ? ts.factory.createThis() : id(root);
  for (const field of fields) e = ts.factory.createPropertyAccessExpression(e, field);
  return e;
}

/** `ag__.plainValue(value, 'name', 'file.ts:l:c')` for a maybe-promoted read the plan listed. */
export function plainValueCall(value: TS.Expression, name: string, original: TS.Node, emit: EmitContext): TS.Expression {
  const receiver = pushReceiver(original);
  return withOrigin(operatorCall(emit, 'plainValue', [value, ts.factory.createStringLiteral(name),
    ts.factory.createStringLiteral(emit.origin(original)), ...(receiver === undefined ? [] : [receiver])]), original);
}

/**
 * For the argument of `a.b.push(v)` (or unshift) on a receiver that reading again does not change
 * (`this`, names and fields): a new reference to it, for ag__.plainValue's `pushedInto` — an array
 * held in a field that a staged statement carries takes a promoted value (control_flow.ts).
 */
function pushReceiver(argument: TS.Node): TS.Expression | undefined {
  let node = argument;
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const call = node.parent;
  if (call === undefined || !ts.isCallExpression(call) || call.arguments.length !== 1 || call.arguments[0] !== node) return undefined;
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || !['push', 'unshift'].includes(callee.name.text)) return undefined;
  const path: string[] = [];
  let target: TS.Expression = callee.expression;
  while (ts.isPropertyAccessExpression(target) && ts.isIdentifier(target.name)) {
    path.unshift(target.name.text);
    target = target.expression;
  }
  if (target.kind === ts.SyntaxKind.ThisKeyword) path.unshift('this');
  else if (ts.isIdentifier(target)) path.unshift(target.text);
  else return undefined;
  return reference(path.join('.'));
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
