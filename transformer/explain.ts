/**
 * Why each statement of a converted function is converted or not, in words: the classification
 * (static / staged / dynamic) of its condition or iterable with the type the checker saw. Used by
 * `autograph-ts show` and by AUTOGRAPH_VERBOSITY=2 during a build.
 */
import type * as TS from 'typescript';
import { planFunction } from './analysis/plan';
import { Classifier } from './classify';
import { ConversionError } from './diagnostics';
import type { ConvertibleFunction } from './directives';
import { ts } from './typescript';

/** One line per control-flow statement and converted expression of fn's own body. */
export function explainStatements(fn: ConvertibleFunction, classifier: Classifier, checker: TS.TypeChecker): string[] {
  const source = fn.getSourceFile();
  let plan;
  try {
    plan = planFunction(fn.body, classifier);
  } catch (error) {
    if (error instanceof ConversionError) return [];  // reported with the diagnostics
    throw error;
  }
  const lines: string[] = [];
  const visit = (node: TS.Node): void => {
    if (node !== fn && ts.isFunctionLike(node)) return;
    const classified = classifier.statement(node);
    if (classified !== undefined) {
      const { tested, kind } = classified;
      const type = checker.typeToString(checker.getTypeAtLocation(tested));
      const verdict = plan.converted.has(node) ? (kind === 'static' ? 'converted (a lowered jump must leave it)' : kind)
        : kind === 'static' ? 'static' : `${kind}, kept native`;
      const role = classified.role === 'keys' ? 'iterable' : classified.role;
      lines.push(`${where(source, node)}  ${headOf(node, tested, source)}  → ${verdict} (${role} type: ${type})`);
    } else if (plan.expressions.has(node as TS.Expression)) {
      lines.push(`${where(source, node)}  ${snippet(node, source)}  → operator call (${classifier.expression(node as TS.Expression)})`);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn.body, visit);
  return lines;
}

function headOf(node: TS.Node, testedNode: TS.Expression, source: TS.SourceFile): string {
  const tested = snippet(testedNode, source);
  if (ts.isForOfStatement(node)) return `for (… of ${tested})`;
  if (ts.isForInStatement(node)) return `for (… in ${tested})`;
  const keyword = ts.isIfStatement(node) ? 'if' : ts.isDoStatement(node) ? 'do … while' : ts.isSwitchStatement(node) ? 'switch'
    : ts.isWhileStatement(node) ? 'while' : 'for (…;';
  return `${keyword} (${tested})`;
}

function snippet(node: TS.Node, source: TS.SourceFile): string {
  const text = node.getText(source).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function where(source: TS.SourceFile, at: TS.Node | number): string {
  const pos = typeof at === 'number' ? at : at.getStart(source);
  const { line, character } = source.getLineAndCharacterOfPosition(pos);
  return `${line + 1}:${character + 1}`;
}

export function functionName(fn: ConvertibleFunction): string {
  const own = fn.name && (ts.isIdentifier(fn.name) || ts.isPrivateIdentifier(fn.name) || ts.isStringLiteral(fn.name)) ? fn.name.text : undefined;
  if (ts.isConstructorDeclaration(fn)) return `${className(fn)}.constructor`;
  if (ts.isMethodDeclaration(fn) || ts.isGetAccessorDeclaration(fn) || ts.isSetAccessorDeclaration(fn)) {
    return `${className(fn)}.${own ?? '<computed>'}`;
  }
  if (own !== undefined) return own;
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return '<anonymous>';
}

function className(member: TS.Node): string {
  const cls = member.parent;
  return ts.isClassLike(cls) && cls.name ? cls.name.text : '<class>';
}

