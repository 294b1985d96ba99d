/**
 * `autograph-ts show`: what the transformer does to a file's functions, for a person to read — each
 * control-flow statement with its classification (static / staged / dynamic) and the type the
 * checker saw, then the converted code as TypeScript. It runs the real transformer
 * (conversion_diagnostics.ts) and the real plan (analysis/plan.ts): what it shows is what tspc does.
 */
import * as path from 'path';
import type * as TS from 'typescript';
import { planFunction } from './analysis/plan';
import { Classifier } from './classify';
import { convertFile, transformerConfig } from './conversion_diagnostics';
import { ConversionError } from './diagnostics';
import { isConvertibleFunction, selectFunctions, ConvertibleFunction } from './directives';
import type { AutographConfig } from './file_transformer';
import { ts } from './typescript';

export interface ShowOptions {
  /** Only the function (or method, `Class.method`) of this name. */
  functionName?: string;
  /** tsconfig.json to take compiler options and the plugin entry from (default: the nearest one). */
  project?: string;
}

/** The report for one file, as text. Throws an Error with a message for the user on bad input. */
export function showFile(fileName: string, options: ShowOptions = {}): string {
  const file = path.resolve(fileName);
  const { program, config } = programFor(file, options.project);
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`autograph-ts show: cannot read ${fileName}`);
  const classifier = new Classifier(program.getTypeChecker(), false, program);
  const selected = selectFunctions(program, config.convert === 'all');
  const outermost = convertedFunctions(source, selected).filter((fn) =>
    options.functionName === undefined || nameOf(fn) === options.functionName || nameOf(fn).endsWith(`.${options.functionName}`));
  if (outermost.length === 0) {
    const what = options.functionName === undefined ? 'no function marked \'use autograph\'' : `no converted function named '${options.functionName}'`;
    throw new Error(`autograph-ts show: ${path.relative(process.cwd(), file)} has ${what}.`);
  }
  const { converted, diagnostics } = convertFile(program, source, config);
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const sections = outermost.map((fn) => {
    const lines = [`// ${nameOf(fn)} (${where(source, fn)})`];
    for (const inner of [fn, ...nestedFunctions(fn)]) lines.push(...annotations(inner, source, classifier, program.getTypeChecker()));
    for (const d of diagnostics) {
      if (d.start !== undefined && d.start >= fn.getStart(source) && d.start < fn.end) {
        lines.push(`//   ${where(source, d.start)} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
      }
    }
    const output = findConverted(converted, fn);
    lines.push(output === undefined ? '// (not converted)' : printer.printNode(ts.EmitHint.Unspecified, output, converted));
    return lines.join('\n');
  });
  return sections.join('\n\n') + '\n';
}

function programFor(file: string, project: string | undefined): { program: TS.Program; config: AutographConfig } {
  const configPath = project ? path.resolve(project) : ts.findConfigFile(path.dirname(file), ts.sys.fileExists);
  let options: TS.CompilerOptions = { strict: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022 };
  let roots = [file];
  if (configPath !== undefined) {
    const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
      ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(`autograph-ts show: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      },
    });
    if (parsed !== undefined) {
      options = parsed.options;
      roots = parsed.fileNames.some((f) => path.resolve(f) === file) ? parsed.fileNames : [...parsed.fileNames, file];
    }
  }
  return { program: ts.createProgram(roots, { ...options, noEmit: true }), config: transformerConfig(options) };
}

/** Functions the build converts, outermost only (nested ones are shown inside them). */
function convertedFunctions(source: TS.SourceFile, selected: Set<TS.Node>): ConvertibleFunction[] {
  const found: ConvertibleFunction[] = [];
  const visit = (node: TS.Node): void => {
    if (isConvertibleFunction(node) && selected.has(node)) {
      found.push(node);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function nestedFunctions(fn: ConvertibleFunction): ConvertibleFunction[] {
  const found: ConvertibleFunction[] = [];
  const visit = (node: TS.Node): void => {
    if (node !== fn && isConvertibleFunction(node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return found;
}

/** One line per control-flow statement and converted expression of fn's own body. */
function annotations(fn: ConvertibleFunction, source: TS.SourceFile, classifier: Classifier, checker: TS.TypeChecker): string[] {
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
    const tested = testedExpression(node);
    if (tested !== undefined) {
      const kind = ts.isForOfStatement(node) ? classifier.iterable(tested) : classifier.predicate(tested);
      const type = checker.typeToString(checker.getTypeAtLocation(tested));
      const verdict = plan.converted.has(node) ? (kind === 'static' ? 'converted (a lowered jump must leave it)' : kind)
        : kind === 'static' ? 'static' : `${kind}, kept native`;
      const role = ts.isForOfStatement(node) || ts.isForInStatement(node) ? 'iterable' : ts.isSwitchStatement(node) ? 'discriminant' : 'condition';
      lines.push(`//   ${where(source, node)}  ${headOf(node, source)}  → ${verdict} (${role} type: ${type})`);
    } else if (plan.expressions.has(node as TS.Expression)) {
      lines.push(`//   ${where(source, node)}  ${snippet(node, source)}  → operator call (${classifier.predicate(node as TS.Expression)})`);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn.body, visit);
  return lines;
}

function testedExpression(node: TS.Node): TS.Expression | undefined {
  if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) return node.expression;
  if (ts.isForStatement(node)) return node.condition;
  if (ts.isForOfStatement(node) || ts.isForInStatement(node) || ts.isSwitchStatement(node)) return node.expression;
  return undefined;
}

function headOf(node: TS.Node, source: TS.SourceFile): string {
  const tested = snippet(testedExpression(node)!, source);
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

function where(source: TS.SourceFile, at: TS.Node | number): string {
  const pos = typeof at === 'number' ? at : at.getStart(source);
  const { line, character } = source.getLineAndCharacterOfPosition(pos);
  return `${line + 1}:${character + 1}`;
}

function nameOf(fn: ConvertibleFunction): string {
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

function findConverted(converted: TS.SourceFile, original: TS.Node): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (found !== undefined) return;
    if (ts.getOriginalNode(node) === original && isConvertibleFunction(node)) {
      found = node;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(converted);
  return found;
}
