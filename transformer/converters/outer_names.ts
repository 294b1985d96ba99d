/**
 * The names of bindings outside the converted function (a module's `export const performance`, an
 * import) that synthesized code refers to — getState/setState closures, `observed: () => ({ levels })`,
 * composites — get the user's own identifier as their original node. TypeScript's module transforms
 * rewrite a reference to an exported or imported binding (`exports.performance`, `mod_1.x`) only when
 * the resolver can find its symbol through the parse tree; a bare synthesized identifier would name a
 * global of the same name instead (silently another object), or nothing (a ReferenceError).
 * Only names that nothing in the function declares are bound: each then means one binding throughout.
 */
import type * as TS from 'typescript';
import { activityOf } from '../analysis/activity';
import { visitReferences } from '../analysis/references';
import { ts } from '../typescript';

export function bindOuterNames<T extends TS.Node>(converted: T, original: TS.ConciseBody): T {
  const outer = outerReferences(original);
  if (outer.size === 0) return converted;
  // (Identifiers are bound in place: only synthesized ones, which no other tree holds.)
  const walk = (node: TS.Node): void => {
    if (ts.isIdentifier(node)) {
      const user = outer.get(node.text);
      if (user !== undefined && node.pos < 0 && ts.getOriginalNode(node) === node) ts.setOriginalNode(node, user);
      return;
    }
    // A property name is not a reference (a shorthand property's name is).
    if (ts.isPropertyAccessExpression(node)) return walk(node.expression);
    if (ts.isPropertyAssignment(node)) return walk(node.initializer);
    ts.forEachChild(node, walk);
  };
  walk(converted);
  return converted;
}

/** Name → a parse-tree reference in `body`, for the names read or written there that it does not declare. */
function outerReferences(body: TS.ConciseBody): Map<string, TS.Identifier> {
  const fn = body.parent;
  const declared = new Set(activityOf(body).declared);
  if (fn !== undefined && ts.isFunctionLike(fn)) for (const p of fn.parameters) bindingNames(p.name, declared);
  const found = new Map<string, TS.Identifier>();
  visitReferences(body, {
    name(name, kind, _nested, node) {
      if (kind === 'declare' || declared.has(name) || found.has(name) || !ts.isIdentifier(node) || node.pos < 0) return;
      found.set(name, node);
    },
  });
  return found;
}

function bindingNames(name: TS.BindingName, into: Set<string>): void {
  if (ts.isIdentifier(name)) into.add(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name, into);
}
