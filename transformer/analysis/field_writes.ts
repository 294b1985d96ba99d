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

/** Methods that change the array (or Map/Set) they are called on. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'fill', 'sort', 'reverse', 'copyWithin', 'set', 'add', 'delete', 'clear']);

/** Per object ('this' or a parameter's name): the field names written, in order of first write; `targets`
 * receives the written `this.f` / `p.f` expressions. */
export function fieldWritesOf(body: TS.ConciseBody, targets: TS.Expression[] = []): Map<string, string[]> {
  const fn = body.parent;
  const params = new Set(isConvertibleFunction(fn) ? fn.parameters.filter((p) => ts.isIdentifier(p.name)).map((p) => (p.name as TS.Identifier).text) : []);
  const writes = new Map<string, string[]>();
  const add = (written: TS.Expression): void => {
    // `this.f = `, and `this.f[i] = ` / `this.f.g = ` / `this.f.push(...)`: a change of `this.f`.
    let target = written;
    while ((ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) &&
           (ts.isPropertyAccessExpression(target.expression) || ts.isElementAccessExpression(target.expression))) target = target.expression;
    if (!ts.isPropertyAccessExpression(target) || ts.isPrivateIdentifier(target.name)) return;
    const base = target.expression;
    const owner = base.kind === ts.SyntaxKind.ThisKeyword ? 'this' : ts.isIdentifier(base) && params.has(base.text) ? base.text : undefined;
    if (owner === undefined) return;
    targets.push(target);
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
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && MUTATORS.has(node.expression.name.text)) {
      add(node.expression.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return writes;
}
