/**
 * Which functions are converted:
 *  - a function whose body starts with the directive `'use autograph';`;
 *  - every function of a file whose first statements include that directive;
 *  - every function, when the plugin entry says `"convert": "all"`;
 *  - functions nested in a converted function (decided while visiting, see file_transformer.ts);
 *  - functions of the project's own source files that a converted function calls, resolved with
 *    the checker (never declaration files, never node_modules), transitively.
 */
import type * as TS from 'typescript';
import { DIRECTIVE } from '../runtime/names';
import { ts } from './typescript';


export type ConvertibleFunction = TS.FunctionLikeDeclaration & { body: TS.ConciseBody };

export function isConvertibleFunction(node: TS.Node): node is ConvertibleFunction {
  return (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node)) && node.body !== undefined;
}

/** Whether a statement list's directive prologue holds 'use autograph'. */
export function hasDirective(statements: readonly TS.Statement[]): boolean {
  for (const statement of statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isStringLiteral(statement.expression)) return false;
    if (statement.expression.text === DIRECTIVE) return true;
  }
  return false;
}

/** The statements without the 'use autograph' directive; its comments (a license header above a
 * file directive, a note beside it) stay where they were. */
export function withoutDirective(statements: readonly TS.Statement[]): TS.Statement[] {
  return statements.flatMap((s) => {
    if (!isDirective(s) || !isInPrologue(statements, s)) return [s];
    const comments = commentsOf(s);
    if (comments.length === 0) return [];
    // A NotEmittedStatement prints nothing but the comments given to it.
    const placeholder = ts.factory.createNotEmittedStatement(s);
    ts.setSyntheticLeadingComments(placeholder, comments);
    ts.setEmitFlags(placeholder, ts.EmitFlags.NoComments);
    return [placeholder];
  });
}

/** The leading and trailing comments of an original statement, as synthesized comments. */
function commentsOf(s: TS.Statement): TS.SynthesizedComment[] {
  const file = s.getSourceFile?.();
  if (file === undefined || s.pos < 0) return [];
  const text = file.text;
  const ranges = [...(ts.getLeadingCommentRanges(text, s.pos) ?? []), ...(ts.getTrailingCommentRanges(text, s.end) ?? [])];
  return ranges.map((r) => ({
    kind: r.kind,
    text: r.kind === ts.SyntaxKind.SingleLineCommentTrivia ? text.slice(r.pos + 2, r.end) : text.slice(r.pos + 2, r.end - 2),
    hasTrailingNewLine: r.kind === ts.SyntaxKind.SingleLineCommentTrivia || !!r.hasTrailingNewLine,
    pos: -1,
    end: -1,
  }));
}

function isDirective(s: TS.Statement): boolean {
  return ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression) && s.expression.text === DIRECTIVE;
}

function isInPrologue(statements: readonly TS.Statement[], target: TS.Statement): boolean {
  for (const s of statements) {
    if (s === target) return true;
    if (!ts.isExpressionStatement(s) || !ts.isStringLiteral(s.expression)) return false;
  }
  return false;
}

export function isProjectSource(program: TS.Program, file: TS.SourceFile): boolean {
  return !file.isDeclarationFile && !program.isSourceFileFromExternalLibrary(file) &&
    !/[\\/]node_modules[\\/]/.test(file.fileName);
}

/** The program-wide set of functions selected by directives, configuration and calls. */
export function selectFunctions(program: TS.Program, convertAll: boolean): Set<TS.Node> {
  const checker = program.getTypeChecker();
  const selected = new Set<TS.Node>();
  const queue: ConvertibleFunction[] = [];
  const add = (fn: ConvertibleFunction): void => {
    if (selected.has(fn)) return;
    selected.add(fn);
    queue.push(fn);
  };
  for (const file of program.getSourceFiles()) {
    if (!isProjectSource(program, file)) continue;
    const wholeFile = convertAll || hasDirective(file.statements);
    const visit = (node: TS.Node): void => {
      if (isConvertibleFunction(node) &&
          (wholeFile || (ts.isBlock(node.body) && hasDirective(node.body.statements)))) add(node);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  // Callees, transitively; nested functions are reached by the visitor that converts.
  while (queue.length > 0) {
    const fn = queue.pop()!;
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const callee = resolveCallee(checker, node);
        if (callee !== undefined && isProjectSource(program, callee.getSourceFile())) add(callee);
      }
      ts.forEachChild(node, visit);
    };
    visit(fn.body);
  }
  return selected;
}

function resolveCallee(checker: TS.TypeChecker, call: TS.CallExpression | TS.NewExpression): ConvertibleFunction | undefined {
  let symbol = checker.getSymbolAtLocation(call.expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declarations = symbol?.getDeclarations() ?? [];
  const signatureDecl = checker.getResolvedSignature(call)?.getDeclaration();
  for (const decl of [signatureDecl, ...declarations]) {
    if (decl === undefined) continue;
    if (isConvertibleFunction(decl)) return decl;
    if (ts.isVariableDeclaration(decl) && decl.initializer && isConvertibleFunction(decl.initializer)) {
      return decl.initializer;
    }
  }
  // An overload signature: the implementation is the declaration with a body.
  return declarations.find(isConvertibleFunction);
}
