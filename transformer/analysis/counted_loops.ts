/**
 * Counted loops: `for (let i = 0; i < heads.length; i++)` whose counter may stay a JS number when a
 * lowered `break`/`return` in the body is staged on a tensor. Python AutoGraph keeps a loop over a Python
 * range in Python; so can we, once the loop's own test stays JS: each remaining iteration then runs under
 * a staged `if` on "no jump yet" (backends/staging/control_flow.ts guardedLoop), and the counter indexes
 * JS arrays (`this.blocks[i]`, `stages[w]`) as the user wrote.
 *
 * Running iterations past a staged exit is unobservable when:
 * - the counters are declared by the loop's `let` (nothing after the loop sees them);
 * - only the update writes them (so on the path that has not jumped they hold their JS values);
 * - the test and the update only read and write (no calls, no `new`): evaluating them again on the path
 *   that has not jumped is what JS does on that path, and nothing else sees it.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript';
import { activityOf } from './activity';

/** The counters of `loop` (declared in its head) when it may run as a guarded JS loop; else undefined. */
export function countedLoopCounters(loop: TS.ForStatement): string[] | undefined {
  const original = ts.getOriginalNode(loop) as TS.ForStatement;
  const init = original.initializer;
  if (init === undefined || !ts.isVariableDeclarationList(init) || !(init.flags & ts.NodeFlags.Let)) return undefined;
  const counters = activityOf(init).declared;
  const update = original.incrementor;
  if (update === undefined || !onlyReads(original.condition) || !writesOnly(update, counters)) return undefined;
  if (activityOf(original.statement).modified.some((name) => counters.has(name))) return undefined;
  return [...counters];
}

/** No calls, constructions, writes, awaits or nested functions (a getter is taken as a read). */
function onlyReads(node: TS.Node | undefined): boolean {
  if (node === undefined) return true;
  if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node) || ts.isAwaitExpression(node) ||
      ts.isYieldExpression(node) || ts.isDeleteExpression(node) || ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) return false;
  if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) return false;
  return ts.forEachChild(node, (child) => (onlyReads(child) ? undefined : true)) === undefined;
}

/** `i++`, `i += step`, `i = i * 2`, `i++, j--`: writes of `counters` only, their operands reads. */
function writesOnly(node: TS.Expression, counters: Set<string>): boolean {
  if (ts.isParenthesizedExpression(node)) return writesOnly(node.expression, counters);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.CommaToken) {
    return writesOnly(node.left, counters) && writesOnly(node.right, counters);
  }
  if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) {
    return ts.isIdentifier(node.operand) && counters.has(node.operand.text);
  }
  if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) {
    return ts.isIdentifier(node.left) && counters.has(node.left.text) && onlyReads(node.right);
  }
  return false;
}

function isAssignment(kind: TS.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}
