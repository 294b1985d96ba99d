/**
 * Statements that write through an element at an index that may be promoted (runtime/index_dispatch.ts):
 * `counts[p] += 1`, `counts[p]++`, `m[p][1] = 7`, `m[1][p]++`, `byClass[c].push(box)`, `this.counts[arm] += 1`,
 * `counts[pick(x)]++`. The element is the one nearest the root of the written chain whose index may be
 * promoted, on a value that may be an array. A plain `xs[i] = v` on an array variable or field, or on a list, is
 * ag__.setListItem's (promotion.ts), and stays so.
 */
import type * as TS from 'typescript';
import type { Classifier } from '../classify';
import { ts } from '../typescript';
import { isListItemWrite, isMaybePromoted, isPromotedElement, isPromotedItemWrite } from './promotion';

/** Each dispatched statement → the element access it dispatches on. */
export function indexDispatchesOf(body: TS.Node, names: ReadonlySet<string>, classifier: Classifier): Map<TS.ExpressionStatement, TS.ElementAccessExpression> {
  const found = new Map<TS.ExpressionStatement, TS.ElementAccessExpression>();
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    // (`xs[i] = v` on an array variable or field, or on a list, is ag__.setListItem's.)
    if (ts.isExpressionStatement(node) && !isPromotedItemWrite(node.expression) && !isListItemWrite(node.expression, names)) {
      const element = dispatchedElement(writtenChain(node.expression), names) ?? recomputedElement(node.expression, names);
      if (element !== undefined && element.pos >= 0 && classifier.mayBeArray(element.expression)) found.set(node, element);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** The chain a statement writes through: an assignment's target (not `&&=`, `||=`, `??=`), `++`/`--`'s operand, a call's callee. */
export function writtenChain(e: TS.Expression): TS.Expression | undefined {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    const logical = op === ts.SyntaxKind.AmpersandAmpersandEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken ||
      op === ts.SyntaxKind.QuestionQuestionEqualsToken;
    return op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment && !logical ? e.left : undefined;
  }
  if ((ts.isPrefixUnaryExpression(e) || ts.isPostfixUnaryExpression(e)) &&
      (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)) return e.operand;
  if (ts.isCallExpression(e) && e.questionDotToken === undefined) return e.expression;
  return undefined;
}

/** Along `a.b[i].c[j]` from the root: the first element access whose index may be promoted (not optional). */
function dispatchedElement(chain: TS.Expression | undefined, names: ReadonlySet<string>): TS.ElementAccessExpression | undefined {
  const links: TS.Expression[] = [];
  for (let e = chain; e !== undefined;) {
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      if (e.questionDotToken !== undefined) return undefined;
      links.push(e);
      e = e.expression;
    } else if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) {
      e = e.expression;
    } else {
      e = undefined;
    }
  }
  for (const link of links.reverse()) {
    if (ts.isElementAccessExpression(link) && isMaybePromoted(link.argumentExpression, names)) return link;
  }
  return undefined;
}

/**
 * `ar[Math.min(k, 1)] += 2` on an array whose elements may be promoted, at an index that is not a plain name or
 * literal: the element is read and written again by ag__.atIndex (a JS index runs the statement once), so that its
 * new value goes through ag__.binaryOp (JS's `+=` would make a string of a promoted element).
 */
function recomputedElement(e: TS.Expression, names: ReadonlySet<string>): TS.ElementAccessExpression | undefined {
  const compound = (ts.isBinaryExpression(e) && e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) ||
    ts.isPrefixUnaryExpression(e) || ts.isPostfixUnaryExpression(e);
  const target = compound ? writtenChain(e) : undefined;
  if (target === undefined || !ts.isElementAccessExpression(target) || !isPromotedElement(target, names)) return undefined;
  const index = target.argumentExpression;
  return ts.isIdentifier(index) || ts.isNumericLiteral(index) || ts.isStringLiteral(index) ? undefined : target;
}
