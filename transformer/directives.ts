/**
 * Which functions are converted:
 *  - a function whose body starts with the directive `'use autograph';`;
 *  - every function of a file whose first statements include that directive;
 *  - every function, when the plugin entry says `"convert": "all"`;
 *  - functions nested in a converted function (decided while visiting, see file_transformer.ts);
 *  - functions of the project's own source files that a converted function calls, resolved with
 *    the checker (never declaration files, never node_modules), transitively;
 *  - every override of a method so called, since the call dispatches at run time: the methods of
 *    the project's classes whose heritage (extends, implements) reaches the called method's class
 *    or interface, found through the checker's base types and member symbols (OverrideIndex).
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
  const overrides = new OverrideIndex(program);
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
        // A method call runs whichever override the receiver's class provides.
        for (const method of calledMethods(checker, node)) overrides.of(method).forEach(add);
      }
      ts.forEachChild(node, visit);
    };
    visit(fn.body);
  }
  return selected;
}

/** The project's functions a call may run: its callee and, for a method, every override of it. */
export class CallTargets {
  private readonly overrides: OverrideIndex;

  constructor(private readonly program: TS.Program) {
    this.overrides = new OverrideIndex(program);
  }

  of(call: TS.CallExpression | TS.NewExpression): ConvertibleFunction[] {
    const checker = this.program.getTypeChecker();
    const callee = resolveCallee(checker, call);
    const targets = callee !== undefined && isProjectSource(this.program, callee.getSourceFile()) ? [callee] : [];
    for (const method of calledMethods(checker, call)) for (const fn of this.overrides.of(method)) if (!targets.includes(fn)) targets.push(fn);
    return targets;
  }
}

export function resolveCallee(checker: TS.TypeChecker, call: TS.CallExpression | TS.NewExpression): ConvertibleFunction | undefined {
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

/** The class or interface members a call may invoke (`cb.onEpochEnd(...)`: Base's declaration, or
 * the interface's signature), whose overrides run in their place. */
function calledMethods(checker: TS.TypeChecker, call: TS.CallExpression | TS.NewExpression): TS.Declaration[] {
  if (!ts.isCallExpression(call)) return [];
  const callee = skipParentheses(call.expression);
  if (!ts.isPropertyAccessExpression(callee) && !ts.isElementAccessExpression(callee)) return [];
  if (callee.expression.kind === ts.SyntaxKind.SuperKeyword) return []; // super.m() calls that one method
  const symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(callee) ? callee.name : callee.argumentExpression);
  return (symbol?.getDeclarations() ?? []).filter((d) => d.parent !== undefined &&
    (ts.isClassLike(d.parent) || ts.isInterfaceDeclaration(d.parent)));
}

function skipParentheses(expr: TS.Expression): TS.Expression {
  while (ts.isParenthesizedExpression(expr)) expr = expr.expression;
  return expr;
}

/**
 * The overrides of a class or interface member in the project's own classes, found through the
 * checker: the heritage of each class (its base classes and the interfaces it or they implement)
 * and the member symbols of those types, never a member name alone. Built once, on the first question.
 */
class OverrideIndex {
  /** A member declaration of a base class or interface → the project's functions overriding it. */
  private index: Map<TS.Declaration, ConvertibleFunction[]> | undefined;

  constructor(private readonly program: TS.Program) {}

  /** The functions overriding or implementing `member` in the project's classes. */
  of(member: TS.Declaration): readonly ConvertibleFunction[] {
    this.index ??= this.build();
    return this.index.get(member) ?? [];
  }

  private build(): Map<TS.Declaration, ConvertibleFunction[]> {
    const index = new Map<TS.Declaration, ConvertibleFunction[]>();
    const checker = this.program.getTypeChecker();
    const visit = (node: TS.Node): void => {
      if (ts.isClassLike(node)) this.indexClass(checker, node, index);
      if (ts.isObjectLiteralExpression(node)) this.indexObject(checker, node, index);
      ts.forEachChild(node, visit);
    };
    for (const file of this.program.getSourceFiles()) {
      if (isProjectSource(this.program, file)) visit(file);
    }
    return index;
  }

  /** The functions of an object literal typed as an interface or class (`new CustomCallback({ onEpochEnd: (e, l) => ... })`):
   * a call of the member through that type (`this.args.onEpochEnd(epoch, loss)`) may run them. */
  private indexObject(checker: TS.TypeChecker, object: TS.ObjectLiteralExpression,
                      index: Map<TS.Declaration, ConvertibleFunction[]>): void {
    let contextual: TS.Type | undefined;
    for (const property of object.properties) {
      const fn = ts.isPropertyAssignment(property) && (ts.isArrowFunction(property.initializer) || ts.isFunctionExpression(property.initializer)) &&
        isConvertibleFunction(property.initializer) ? property.initializer
        : ts.isMethodDeclaration(property) && isConvertibleFunction(property) ? property : undefined;
      const name = property.name;
      if (fn === undefined || name === undefined || !(ts.isIdentifier(name) || ts.isStringLiteral(name))) continue;
      contextual ??= checker.getContextualType(object);
      if (contextual === undefined) return;
      for (const decl of checker.getPropertyOfType(contextual.getNonNullableType(), name.text)?.getDeclarations() ?? []) {
        if (decl === property || decl.parent === undefined || !(ts.isClassLike(decl.parent) || ts.isInterfaceDeclaration(decl.parent))) continue;
        const list = index.get(decl) ?? [];
        if (!list.includes(fn)) list.push(fn);
        index.set(decl, list);
      }
    }
  }

  private indexClass(checker: TS.TypeChecker, cls: TS.ClassLikeDeclaration,
                     index: Map<TS.Declaration, ConvertibleFunction[]>): void {
    const ancestors = heritageOf(checker, cls);
    if (ancestors.length === 0) return;
    for (const member of cls.members) {
      const fn = overridingFunction(member);
      if (fn === undefined || member.name === undefined) continue;
      const name = checker.getSymbolAtLocation(member.name)?.getName();
      if (name === undefined) continue;
      for (const ancestor of ancestors) {
        for (const decl of checker.getPropertyOfType(ancestor, name)?.getDeclarations() ?? []) {
          if (decl === member) continue;
          const list = index.get(decl) ?? [];
          if (!list.includes(fn)) list.push(fn);
          index.set(decl, list);
        }
      }
    }
  }
}

/** An instance method with a body, or a field initialized with a function (`m = (x) => ...`). */
function overridingFunction(member: TS.ClassElement): ConvertibleFunction | undefined {
  if (ts.getCombinedModifierFlags(member as TS.Declaration) & ts.ModifierFlags.Static) return undefined;
  if (ts.isMethodDeclaration(member) && isConvertibleFunction(member)) return member;
  if (ts.isPropertyDeclaration(member) && member.initializer !== undefined && isConvertibleFunction(member.initializer) &&
      (ts.isArrowFunction(member.initializer) || ts.isFunctionExpression(member.initializer))) return member.initializer;
  return undefined;
}

/** Every class and interface a class's instances are declared to be: base classes, transitively,
 * and the interfaces that it or its bases implement, with their own bases. */
function heritageOf(checker: TS.TypeChecker, cls: TS.ClassLikeDeclaration): TS.Type[] {
  const result: TS.Type[] = [];
  const seen = new Set<TS.Type>();
  const add = (type: TS.Type): void => {
    const target = (type as TS.TypeReference).target ?? type;
    if (seen.has(target)) return;
    seen.add(target);
    result.push(type);
    if ((target.flags & ts.TypeFlags.Object) && ((target as TS.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) {
      for (const base of checker.getBaseTypes(target as TS.InterfaceType)) add(base);
    }
    for (const decl of target.getSymbol()?.getDeclarations() ?? []) {
      if (ts.isClassLike(decl)) addImplemented(decl);
    }
  };
  const addImplemented = (decl: TS.ClassLikeDeclaration): void => {
    for (const clause of decl.heritageClauses ?? []) {
      if (clause.token !== ts.SyntaxKind.ImplementsKeyword) continue;
      for (const expr of clause.types) add(checker.getTypeAtLocation(expr));
    }
  };
  const own = checker.getTypeAtLocation(cls);
  const symbol = cls.name !== undefined ? checker.getSymbolAtLocation(cls.name) : own.getSymbol();
  if (symbol === undefined) return [];
  const instance = checker.getDeclaredTypeOfSymbol(symbol);
  seen.add(instance);
  for (const base of checker.getBaseTypes(instance as TS.InterfaceType)) add(base);
  addImplemented(cls);
  return result;
}
