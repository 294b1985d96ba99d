/**
 * `autograph-ts show`: what the transformer does to a file's functions, for a person to read — each
 * control-flow statement with its classification (static / staged / dynamic) and the type the
 * checker saw, then the converted code as TypeScript. It runs the real transformer
 * (conversion_diagnostics.ts) and the real plan (analysis/plan.ts): what it shows is what tspc does.
 */
import * as path from 'path';
import type * as TS from 'typescript';
import { Classifier } from './classify';
import { convertFile, transformerConfig } from './conversion_diagnostics';
import { isConvertibleFunction, selectFunctions, ConvertibleFunction } from './directives';
import { explainStatements, functionName, where } from './explain';
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
    options.functionName === undefined || functionName(fn) === options.functionName || functionName(fn).endsWith(`.${options.functionName}`));
  if (outermost.length === 0) {
    const what = options.functionName === undefined ? 'no function marked \'use autograph\'' : `no converted function named '${options.functionName}'`;
    throw new Error(`autograph-ts show: ${path.relative(process.cwd(), file)} has ${what}.`);
  }
  const { converted, diagnostics } = convertFile(program, source, config);
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const sections = outermost.map((fn) => {
    const lines = [`// ${functionName(fn)} (${where(source, fn)})`];
    for (const inner of [fn, ...nestedFunctions(fn)]) lines.push(...explainStatements(inner, classifier, program.getTypeChecker()).map((line) => `//   ${line}`));
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
