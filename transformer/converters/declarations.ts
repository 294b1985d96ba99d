/**
 * Declarations, prepared for closures (runs before jump lowering and control-flow conversion).
 *
 * Converted code moves statements into arrow functions. A `var` inside one would become local to
 * that closure, so every `var` of the function (outside nested functions) is hoisted to a single
 * `var a, b;` at the top of the body and its declarations become assignments — exactly what JS
 * hoisting does anyway. Function declarations are moved to the top of their block, where JS
 * hoists them too, so that a guard wrapping "the rest of the block" cannot hide one from code
 * before it.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript';
import { withOrigin } from '../emit';

export function hoistDeclarations(body: TS.Block, context: TS.TransformationContext): TS.Block {
  const hoisted: string[] = [];

  const visit = (node: TS.Node): TS.VisitResult<TS.Node | undefined> => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    if (ts.isVariableStatement(node) && isVar(node.declarationList)) {
      const assignment = varAssignment(node.declarationList, hoisted);
      if (assignment === undefined) return undefined;
      return withOrigin(ts.factory.createExpressionStatement(ts.visitNode(assignment, visit) as TS.Expression), node);
    }
    if ((ts.isForStatement(node)) && node.initializer && ts.isVariableDeclarationList(node.initializer) && isVar(node.initializer)) {
      const init = varAssignment(node.initializer, hoisted);
      const updated = ts.factory.updateForStatement(node, init, node.condition, node.incrementor, node.statement);
      return ts.visitEachChild(updated, visit, context);
    }
    if ((ts.isForOfStatement(node) || ts.isForInStatement(node)) && ts.isVariableDeclarationList(node.initializer) &&
        isVar(node.initializer)) {
      const target = bindingToTarget(node.initializer.declarations[0].name, hoisted);
      const updated = ts.isForOfStatement(node)
        ? ts.factory.updateForOfStatement(node, node.awaitModifier, target, node.expression, node.statement)
        : ts.factory.updateForInStatement(node, target, node.expression, node.statement);
      return ts.visitEachChild(updated, visit, context);
    }
    if (ts.isBlock(node) || ts.isCaseClause(node) || ts.isDefaultClause(node)) {
      const visited = ts.visitEachChild(node, visit, context);
      return functionsFirst(visited);
    }
    return ts.visitEachChild(node, visit, context);
  };

  const visited = functionsFirst(ts.visitEachChild(body, visit, context));
  if (hoisted.length === 0) return visited;
  const unique = [...new Set(hoisted)];
  const declaration = ts.factory.createVariableStatement(undefined, ts.factory.createVariableDeclarationList(
    unique.map((name) => ts.factory.createVariableDeclaration(name))));
  const prologue = prologueLength(visited.statements);
  return ts.factory.updateBlock(visited, [
    ...visited.statements.slice(0, prologue), declaration, ...visited.statements.slice(prologue)]);
}

function isVar(list: TS.VariableDeclarationList): boolean {
  return (list.flags & ts.NodeFlags.BlockScoped) === 0;
}

/** `var a = 1, b, [c] = d` → `a = 1, [c] = d` (undefined when nothing is assigned). */
function varAssignment(list: TS.VariableDeclarationList, hoisted: string[]): TS.Expression | undefined {
  const assignments: TS.Expression[] = [];
  for (const decl of list.declarations) {
    const target = bindingToTarget(decl.name, hoisted);
    if (decl.initializer) assignments.push(withOrigin(ts.factory.createAssignment(target, decl.initializer), decl));
  }
  if (assignments.length === 0) return undefined;
  return assignments.reduce((a, b) => ts.factory.createComma(a, b));
}

/** A binding pattern as an assignment target: `{a, b: [c = 1], ...r}` → the same as an expression. */
function bindingToTarget(name: TS.BindingName, hoisted: string[]): TS.Expression {
  if (ts.isIdentifier(name)) {
    hoisted.push(name.text);
    return ts.factory.createIdentifier(name.text);
  }
  if (ts.isArrayBindingPattern(name)) {
    return ts.factory.createArrayLiteralExpression(name.elements.map((element) => {
      if (ts.isOmittedExpression(element)) return element;
      const target = withDefault(bindingToTarget(element.name, hoisted), element.initializer);
      return element.dotDotDotToken ? ts.factory.createSpreadElement(target) : target;
    }));
  }
  return ts.factory.createObjectLiteralExpression(name.elements.map((element) => {
    if (element.dotDotDotToken) return ts.factory.createSpreadAssignment(bindingToTarget(element.name, hoisted));
    if (element.propertyName === undefined && ts.isIdentifier(element.name)) {
      hoisted.push(element.name.text);
      return ts.factory.createShorthandPropertyAssignment(element.name.text, element.initializer);
    }
    const key = element.propertyName ?? (element.name as TS.Identifier);
    return ts.factory.createPropertyAssignment(key as TS.PropertyName,
      withDefault(bindingToTarget(element.name, hoisted), element.initializer));
  }));
}

function withDefault(target: TS.Expression, initializer: TS.Expression | undefined): TS.Expression {
  return initializer ? ts.factory.createAssignment(target, initializer) : target;
}

/** Function declarations first, in their original order; everything else after, in order. */
function functionsFirst<T extends TS.Block | TS.CaseOrDefaultClause>(node: T): T {
  const statements = [...node.statements];
  const prologue = prologueLength(statements);
  const rest = statements.slice(prologue);
  const functions = rest.filter((s) => ts.isFunctionDeclaration(s) && s.body !== undefined);
  if (functions.length === 0 || rest.slice(0, functions.length).every((s, i) => s === functions[i])) return node;
  const reordered = [...statements.slice(0, prologue), ...functions, ...rest.filter((s) => !functions.includes(s))];
  if (ts.isBlock(node)) return ts.factory.updateBlock(node, reordered) as T;
  if (ts.isCaseClause(node)) return ts.factory.updateCaseClause(node, node.expression, reordered) as T;
  return ts.factory.updateDefaultClause(node as TS.DefaultClause, reordered) as T;
}

/** The number of leading directive statements ('use strict', ...). */
export function prologueLength(statements: readonly TS.Statement[]): number {
  let i = 0;
  while (i < statements.length && ts.isExpressionStatement(statements[i]) &&
         ts.isStringLiteral((statements[i] as TS.ExpressionStatement).expression)) i++;
  return i;
}
