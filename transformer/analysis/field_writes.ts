/**
 * Fields a converted function writes on objects that outlive its call: `this.best = loss`,
 * `this.wait++`, `state.count += 1` (state a parameter). A staged call runs the function's
 * JavaScript only while tracing, so such a write would happen once per trace; the function then
 * starts with `ag__.observeFields(this, ["best", "wait"], "this", { origin })`, and a trace
 * carries those fields as the graph's state (backends/staging/object_state.ts): tensors in and
 * out of the graph, written back after every call; a change of a JS value traces again.
 */
import type * as TS from 'typescript';
import { isConvertibleFunction } from '../directives';
import { ts } from '../typescript';

/** Per object ('this' or a parameter's name): the field names written, in order of first write. */
export function fieldWritesOf(body: TS.ConciseBody): Map<string, string[]> {
  const fn = body.parent;
  const params = new Set(isConvertibleFunction(fn) ? fn.parameters.filter((p) => ts.isIdentifier(p.name)).map((p) => (p.name as TS.Identifier).text) : []);
  const writes = new Map<string, string[]>();
  const add = (target: TS.Expression): void => {
    if (!ts.isPropertyAccessExpression(target) || ts.isPrivateIdentifier(target.name)) return;
    const base = target.expression;
    const owner = base.kind === ts.SyntaxKind.ThisKeyword ? 'this' : ts.isIdentifier(base) && params.has(base.text) ? base.text : undefined;
    if (owner === undefined) return;
    const keys = writes.get(owner) ?? [];
    if (!keys.includes(target.name.text)) keys.push(target.name.text);
    writes.set(owner, keys);
  };
  const visit = (node: TS.Node): void => {
    // An arrow function sees the same `this` and parameters; another function has its own.
    if (isConvertibleFunction(node) && !ts.isArrowFunction(node)) return;
    if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) add(node.left);
    if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) add(node.operand);
    ts.forEachChild(node, visit);
  };
  visit(body);
  return writes;
}
