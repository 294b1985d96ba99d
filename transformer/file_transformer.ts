/**
 * The per-file transformer: finds the functions to convert, runs the pipeline on each, reports
 * ConversionErrors as diagnostics (leaving that function unconverted), and imports the runtime
 * under a fresh name when anything was converted. Tensor conditions in the file's code that is
 * not converted are reported as warnings (unconverted_conditions.ts); the file is unchanged there.
 */
import * as path from 'path';
import type * as TS from 'typescript';
import { RUNTIME_MODULE } from '../runtime/names';
import { verboseLog } from '../runtime/verbosity';
import { transparentFunctions } from './analysis/references';
import { Classifier } from './classify';
import { ConversionError, createDiagnostic } from './diagnostics';
import { CallTargets, hasDirective, isConvertibleFunction, isProjectSource, selectFunctions, withoutDirective, ConvertibleFunction } from './directives';
import { EmitContext, id, positionOf } from './emit';
import { explainStatements, functionName } from './explain';
import { NameGenerator } from './names';
import { convertFunctionBody } from './pipeline';
import { RecursionIndex } from './analysis/recursion';
import { closureWritesOf, withClosureWrites } from './analysis/closure_writes';
import { planFunction } from './analysis/plan';
import { isMaybePromoted } from './analysis/promotion';
import { findPromotedParameters, type PromotedParameterTable, setPromotedParameters } from './analysis/promoted_parameters';
import { ts } from './typescript';
import { unconvertedTensorConditions } from './unconverted_conditions';

export interface AutographConfig {
  /** "all" converts every function of the project's sources; default: only by directive. */
  convert?: 'directive' | 'all';
  /** The module emitted code imports the operators from (default 'autograph-ts/runtime'). */
  runtimeModule?: string;
  /** What a warning (TS991xx) does: printed without failing the build (default), reported as an
   * error, or dropped. */
  warnings?: 'error' | 'warning' | 'off';
  /** Testing aid: treat every condition as possibly a Tensor, so that all control flow of the
   * converted functions goes through the operators (their plain-value path). */
  forceDynamic?: boolean;
}

export function createFileTransformer(program: TS.Program, config: AutographConfig,
                                      report: (diagnostic: TS.Diagnostic) => void): TS.TransformerFactory<TS.SourceFile> {
  const checker = program.getTypeChecker();
  const classifier = new Classifier(checker, config.forceDynamic === true, program);
  let selected: Set<TS.Node> | undefined;
  let recursion: RecursionIndex | undefined;
  let promotedParameters: { table: PromotedParameterTable; targets: CallTargets } | undefined;
  const runtimeModule = config.runtimeModule ?? RUNTIME_MODULE;

  return (context) => (file) => {
    if (!isProjectSource(program, file)) return file;
    selected ??= selectFunctions(program, config.convert === 'all');
    const isSelected = (fn: TS.Node): boolean => selected!.has(fn);
    recursion ??= new RecursionIndex(checker, (fn) => isConvertedFunction(fn, selected!));
    promotedParameters ??= promotedParametersOf(program, classifier, selected, recursion);
    setPromotedParameters(promotedParameters.table, promotedParameters.targets);
    // On the original tree (the checker's), whatever transformer ran before this one.
    const original = ts.getOriginalNode(file, ts.isSourceFile) ?? file;
    for (const warning of unconvertedTensorConditions(original, classifier, isSelected)) report(createDiagnostic(warning));
    const names = new NameGenerator(file);
    const runtime = id(names.fresh('ag__'));
    const emit: EmitContext = {
      runtime,
      fresh: (base) => names.fresh(base),
      origin: (node) => originOf(program, node),
    };
    let usesRuntime = false;

    const convert = (fn: ConvertibleFunction): ConvertibleFunction => {
      let body = fn.body;
      if (ts.isBlock(body) && hasDirective(body.statements)) {
        body = ts.factory.updateBlock(body, withoutDirective(body.statements));
      }
      try {
        const result = convertFunctionBody(fn.body, classifier, emit, context, isSloppy(program, fn),
          recursion!.recursiveCalls(fn.body));
        usesRuntime ||= result.usesRuntime;
        if (result.usesRuntime) {
          body = result.body;
          if (ts.isBlock(body) && hasDirective(body.statements)) body = ts.factory.updateBlock(body, withoutDirective(body.statements));
        }
        for (const warning of result.warnings) report(createDiagnostic(warning));
        verboseLog(1, () => `${result.usesRuntime ? 'converted' : 'nothing to convert in'} ${functionName(fn)} (${originOf(program, fn)})`);
        verboseLog(2, () => `classification in ${functionName(fn)}:${explainStatements(fn, classifier, checker).map((line) => `\n  ${line}`).join('')}`);
      } catch (error) {
        // A ConversionError is the user's code; anything else is our bug. Either way the compiler
        // must not crash: the function stays as written and the diagnostic says why.
        const detail = error instanceof Error ? `(${error.message.split('\n')[0]})` : String(error);
        report(createDiagnostic(error instanceof ConversionError ? error : new ConversionError('InternalError', fn, detail)));
      }
      return body === fn.body ? fn : withBody(fn, body);
    };

    const visitor = (inside: boolean) => (node: TS.Node): TS.Node => {
      if (isConvertibleFunction(node) && !transparentFunctions.has(node)) {
        const converting = inside || selected!.has(ts.getOriginalNode(node));
        const converted = converting ? convert(node) : node;
        return ts.visitEachChild(converted, visitor(converting), context);
      }
      return ts.visitEachChild(node, visitor(inside), context);
    };
    let result = ts.visitEachChild(file, visitor(false), context);
    if (hasDirective(result.statements)) result = ts.factory.updateSourceFile(result, withoutDirective(result.statements));
    return usesRuntime ? addRuntimeImport(program, result, runtime, runtimeModule) : result;
  };
}

/** The promoted parameters of the program's converted functions (analysis/promoted_parameters.ts), from their plans. */
function promotedParametersOf(program: TS.Program, classifier: Classifier, selected: Set<TS.Node>,
                              recursion: RecursionIndex): { table: PromotedParameterTable; targets: CallTargets } {
  const targets = new CallTargets(program);
  const namesOf = (fn: TS.FunctionLikeDeclaration): ReadonlySet<string> | undefined => {
    try {
      return withClosureWrites(closureWritesOf(fn.body!, classifier), () =>
        planFunction(fn.body!, classifier, isSloppy(program, fn), recursion.recursiveCalls(fn.body!)).promotion.names);
    } catch (error) {
      if (error instanceof ConversionError) return undefined; // reported when the function is converted
      throw error;
    }
  };
  return { table: findPromotedParameters(selected, targets, classifier, namesOf, isMaybePromoted), targets };
}

/** Whether a function is converted: selected, or nested in a selected function. */
function isConvertedFunction(fn: TS.Node, selected: Set<TS.Node>): boolean {
  for (let node: TS.Node | undefined = fn; node !== undefined; node = node.parent) if (selected.has(node)) return true;
  return false;
}

/** Whether a function runs in sloppy mode (no module, no 'use strict' on the way up, no alwaysStrict). */
function isSloppy(program: TS.Program, fn: TS.Node): boolean {
  const options = program.getCompilerOptions();
  if (options.alwaysStrict ?? options.strict) return false;
  const file = fn.getSourceFile();
  if (ts.isExternalModule(file)) return false;
  for (let node: TS.Node | undefined = fn; node !== undefined; node = node.parent) {
    if (ts.isClassLike(node)) return false;
    const statements = ts.isSourceFile(node) ? node.statements
      : isConvertibleFunction(node) && ts.isBlock(node.body) ? node.body.statements : undefined;
    if (statements && statements.some((s) => ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression) && s.expression.text === 'use strict')) {
      return false;
    }
  }
  return true;
}

function withBody(fn: ConvertibleFunction, body: TS.ConciseBody): ConvertibleFunction {
  const f = ts.factory;
  if (ts.isArrowFunction(fn)) {
    return f.updateArrowFunction(fn, fn.modifiers, fn.typeParameters, fn.parameters, fn.type, fn.equalsGreaterThanToken, body);
  }
  const block = body as TS.Block;
  if (ts.isFunctionDeclaration(fn)) {
    return f.updateFunctionDeclaration(fn, fn.modifiers, fn.asteriskToken, fn.name, fn.typeParameters, fn.parameters, fn.type, block) as ConvertibleFunction;
  }
  if (ts.isFunctionExpression(fn)) {
    return f.updateFunctionExpression(fn, fn.modifiers, fn.asteriskToken, fn.name, fn.typeParameters, fn.parameters, fn.type, block);
  }
  if (ts.isMethodDeclaration(fn)) {
    return f.updateMethodDeclaration(fn, fn.modifiers, fn.asteriskToken, fn.name, fn.questionToken, fn.typeParameters, fn.parameters, fn.type, block) as ConvertibleFunction;
  }
  if (ts.isGetAccessorDeclaration(fn)) return f.updateGetAccessorDeclaration(fn, fn.modifiers, fn.name, fn.parameters, fn.type, block) as ConvertibleFunction;
  if (ts.isSetAccessorDeclaration(fn)) return f.updateSetAccessorDeclaration(fn, fn.modifiers, fn.name, fn.parameters, block) as ConvertibleFunction;
  return f.updateConstructorDeclaration(fn as TS.ConstructorDeclaration, fn.modifiers, fn.parameters, block) as ConvertibleFunction;
}

/** `import * as ag__ from '...'` in ES module output, `const ag__ = require('...')` otherwise
 * (also in scripts, which an import would silently turn into modules). */
function addRuntimeImport(program: TS.Program, file: TS.SourceFile, runtime: TS.Identifier, specifier: string): TS.SourceFile {
  const f = ts.factory;
  const esm = emitsEsm(program, file);
  const statement: TS.Statement = esm
    ? f.createImportDeclaration(undefined, f.createImportClause(false, undefined, f.createNamespaceImport(runtime)),
        f.createStringLiteral(specifier))
    : f.createVariableStatement(undefined, f.createVariableDeclarationList([f.createVariableDeclaration(runtime, undefined, undefined,
        f.createCallExpression(f.createIdentifier('require'), undefined, [f.createStringLiteral(specifier)]))], ts.NodeFlags.Const));
  let prologue = 0;
  while (prologue < file.statements.length && ts.isExpressionStatement(file.statements[prologue]) &&
         ts.isStringLiteral((file.statements[prologue] as TS.ExpressionStatement).expression)) prologue++;
  return f.updateSourceFile(file, [...file.statements.slice(0, prologue), statement, ...file.statements.slice(prologue)]);
}

function emitsEsm(program: TS.Program, file: TS.SourceFile): boolean {
  const options = program.getCompilerOptions();
  const kind = options.module ?? ((options.target ?? 0) >= ts.ScriptTarget.ES2015 ? ts.ModuleKind.ES2015 : ts.ModuleKind.CommonJS);
  if (kind === ts.ModuleKind.None || kind === ts.ModuleKind.CommonJS || kind === ts.ModuleKind.AMD ||
      kind === ts.ModuleKind.UMD || kind === ts.ModuleKind.System) return false;
  if (kind >= ts.ModuleKind.Node16 && kind <= ts.ModuleKind.NodeNext) {
    const format = (program as { getImpliedNodeFormatForEmit?(f: TS.SourceFile): TS.ResolutionMode }).getImpliedNodeFormatForEmit?.(file) ??
      file.impliedNodeFormat;
    return format === ts.ModuleKind.ESNext;
  }
  return true;
}

/** `src/model.ts:12:5` relative to the project directory. */
export function originOf(program: TS.Program, node: TS.Node): string {
  const original = positionOf(node);
  const file = original.getSourceFile?.();
  if (file === undefined || original.pos < 0) return '<generated>';
  const { line, character } = file.getLineAndCharacterOfPosition(original.getStart(file));
  // Relative to the project (the tsconfig's folder), wherever the compiler was started from.
  const configFile = program.getCompilerOptions().configFilePath;
  const base = typeof configFile === 'string' ? path.dirname(configFile) : program.getCurrentDirectory();
  const name = path.relative(base, file.fileName).replace(/\\/g, '/');
  return `${name}:${line + 1}:${character + 1}`;
}
