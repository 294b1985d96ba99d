/**
 * A syntactic walk over the identifier references of a subtree: which names are read, written,
 * or declared. It works on original and synthesized nodes alike (no parent pointers, no source
 * text), so analyses can run again after a pass has rewritten the tree, as AutoGraph's pyct does.
 *
 * Nested functions are visited with `nested = true` so that callers can decide how to treat them
 * (liveness counts their reads; activity ignores their writes). Functions the transformer itself
 * synthesized (branch and loop bodies) are transparent: registered in `transparentFunctions`.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript';

export type ReferenceKind = 'read' | 'write' | 'readwrite' | 'declare';

export interface ReferenceVisitor {
  /** A plain identifier reference. `nested` is true inside a (user) nested function. */
  name(name: string, kind: ReferenceKind, nested: boolean, node: TS.Node): void;
  /** An assignment to `this.x` / `a.b.c` (property chains of identifiers and `this` only). */
  member?(qualifiedName: string, nested: boolean): void;
}

/** Arrow functions the transformer synthesized; analyses look through them. */
export const transparentFunctions = new WeakSet<TS.Node>();

export function visitReferences(root: TS.Node, visitor: ReferenceVisitor): void {
  walk(root, visitor, false);
}

function walk(node: TS.Node, v: ReferenceVisitor, nested: boolean): void {
  if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
  if (ts.isIdentifier(node)) {
    v.name(node.text, 'read', nested, node);
    return;
  }
  if (ts.isFunctionLike(node)) {
    const inner = nested || !transparentFunctions.has(node);
    if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isClassLike(node)) && node.name) {
      // A declaration's own name belongs to the enclosing scope; an expression's to itself.
      v.name(node.name.text, 'declare', ts.isFunctionExpression(node) ? inner : nested, node.name);
    }
    for (const p of node.parameters) {
      declarePattern(p.name, v, inner);
      if (p.initializer) walk(p.initializer, v, inner);
    }
    const body = (node as TS.FunctionLikeDeclaration).body;
    if (body) walk(body, v, inner);
    return;
  }
  if (ts.isClassLike(node)) {
    if (node.name) v.name(node.name.text, 'declare', nested, node.name);
    node.heritageClauses?.forEach((h) => h.types.forEach((t) => walk(t.expression, v, nested)));
    for (const member of node.members) walkClassMember(member, v, nested);
    return;
  }
  switch (node.kind) {
    case ts.SyntaxKind.PropertyAccessExpression:
      walk((node as TS.PropertyAccessExpression).expression, v, nested);
      return;
    case ts.SyntaxKind.QualifiedName:
    case ts.SyntaxKind.LabeledStatement:
      if (ts.isLabeledStatement(node)) walk(node.statement, v, nested);
      return;
    case ts.SyntaxKind.BreakStatement:
    case ts.SyntaxKind.ContinueStatement:
    case ts.SyntaxKind.DebuggerStatement:
    case ts.SyntaxKind.ImportDeclaration:
    case ts.SyntaxKind.ExportDeclaration:
    case ts.SyntaxKind.MetaProperty:
      return;
    case ts.SyntaxKind.PropertyAssignment: {
      const p = node as TS.PropertyAssignment;
      if (ts.isComputedPropertyName(p.name)) walk(p.name.expression, v, nested);
      walk(p.initializer, v, nested);
      return;
    }
    case ts.SyntaxKind.ShorthandPropertyAssignment: {
      const p = node as TS.ShorthandPropertyAssignment;
      v.name(p.name.text, 'read', nested, p.name);
      if (p.objectAssignmentInitializer) walk(p.objectAssignmentInitializer, v, nested);
      return;
    }
    case ts.SyntaxKind.VariableDeclaration: {
      const d = node as TS.VariableDeclaration;
      if (d.initializer) walk(d.initializer, v, nested);
      declarePattern(d.name, v, nested);
      return;
    }
    case ts.SyntaxKind.CatchClause: {
      const c = node as TS.CatchClause;
      if (c.variableDeclaration) declarePattern(c.variableDeclaration.name, v, nested);
      walk(c.block, v, nested);
      return;
    }
    case ts.SyntaxKind.BinaryExpression: {
      const b = node as TS.BinaryExpression;
      const op = b.operatorToken.kind;
      if (op === ts.SyntaxKind.EqualsToken) {
        walk(b.right, v, nested);
        assignTarget(b.left, v, nested, 'write');
        return;
      }
      if (isCompoundAssignment(op)) {
        walk(b.right, v, nested);
        assignTarget(b.left, v, nested, 'readwrite');
        return;
      }
      break;
    }
    case ts.SyntaxKind.PrefixUnaryExpression:
    case ts.SyntaxKind.PostfixUnaryExpression: {
      const u = node as TS.PrefixUnaryExpression | TS.PostfixUnaryExpression;
      if (u.operator === ts.SyntaxKind.PlusPlusToken || u.operator === ts.SyntaxKind.MinusMinusToken) {
        assignTarget(u.operand, v, nested, 'readwrite');
        return;
      }
      break;
    }
    case ts.SyntaxKind.ForOfStatement:
    case ts.SyntaxKind.ForInStatement: {
      const f = node as TS.ForOfStatement | TS.ForInStatement;
      walk(f.expression, v, nested);
      if (ts.isVariableDeclarationList(f.initializer)) {
        for (const d of f.initializer.declarations) declarePattern(d.name, v, nested);
      } else {
        assignTarget(f.initializer, v, nested, 'write');
      }
      walk(f.statement, v, nested);
      return;
    }
    case ts.SyntaxKind.EnumDeclaration:
    case ts.SyntaxKind.ModuleDeclaration:
      return;
  }
  ts.forEachChild(node, (child) => walk(child, v, nested));
}

function walkClassMember(member: TS.ClassElement, v: ReferenceVisitor, nested: boolean): void {
  if (member.name && ts.isComputedPropertyName(member.name)) walk(member.name.expression, v, nested);
  if (ts.isFunctionLike(member)) {
    walk(member, v, true);
  } else if (ts.isPropertyDeclaration(member) && member.initializer) {
    walk(member.initializer, v, true);
  } else if (ts.isClassStaticBlockDeclaration(member)) {
    walk(member.body, v, true);
  }
}

function declarePattern(name: TS.BindingName, v: ReferenceVisitor, nested: boolean): void {
  if (ts.isIdentifier(name)) {
    v.name(name.text, 'declare', nested, name);
    return;
  }
  for (const element of name.elements) {
    if (ts.isOmittedExpression(element)) continue;
    if (element.propertyName && ts.isComputedPropertyName(element.propertyName)) {
      walk(element.propertyName.expression, v, nested);
    }
    if (element.initializer) walk(element.initializer, v, nested);
    declarePattern(element.name, v, nested);
  }
}

/** The target of an assignment: identifiers are written; member targets report their chain and
 * read their object; destructuring patterns recurse. */
function assignTarget(target: TS.Expression, v: ReferenceVisitor, nested: boolean, kind: 'write' | 'readwrite'): void {
  if (ts.isParenthesizedExpression(target) || ts.isNonNullExpression(target) ||
      ts.isAsExpression(target) || ts.isTypeAssertionExpression(target) || ts.isSatisfiesExpression(target)) {
    assignTarget(target.expression, v, nested, kind);
    return;
  }
  if (ts.isIdentifier(target)) {
    v.name(target.text, kind, nested, target);
    return;
  }
  if (ts.isArrayLiteralExpression(target)) {
    for (const e of target.elements) {
      if (ts.isOmittedExpression(e)) continue;
      assignTarget(ts.isSpreadElement(e) ? e.expression : e, v, nested, 'write');
    }
    return;
  }
  if (ts.isObjectLiteralExpression(target)) {
    for (const p of target.properties) {
      if (ts.isShorthandPropertyAssignment(p)) {
        if (p.objectAssignmentInitializer) walk(p.objectAssignmentInitializer, v, nested);
        v.name(p.name.text, 'write', nested, p.name);
      } else if (ts.isPropertyAssignment(p)) {
        if (ts.isComputedPropertyName(p.name)) walk(p.name.expression, v, nested);
        assignTarget(p.initializer, v, nested, 'write');
      } else if (ts.isSpreadAssignment(p)) {
        assignTarget(p.expression, v, nested, 'write');
      }
    }
    return;
  }
  if (ts.isBinaryExpression(target) && target.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    walk(target.right, v, nested); // a default value in a destructuring target
    assignTarget(target.left, v, nested, kind);
    return;
  }
  const qualified = qualifiedName(target);
  if (qualified !== undefined && v.member) v.member(qualified, nested);
  walk(target, v, nested);
}

/**
 * `this.x`, `a.b.c` as text (`a.b!.c`, `(a.b).c`: the same chain at run time); undefined for
 * computed or call-based chains.
 */
export function qualifiedName(expr: TS.Expression): string | undefined {
  if (ts.isNonNullExpression(expr) || ts.isParenthesizedExpression(expr)) return qualifiedName(expr.expression);
  if (ts.isIdentifier(expr)) return expr.text;
  if (expr.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.name)) {
    const base = qualifiedName(expr.expression);
    return base === undefined ? undefined : `${base}.${expr.name.text}`;
  }
  return undefined;
}

export function isCompoundAssignment(op: TS.SyntaxKind): boolean {
  return op >= ts.SyntaxKind.FirstCompoundAssignment && op <= ts.SyntaxKind.LastCompoundAssignment;
}
