/**
 * Compiles TypeScript sources in memory with the autograph transformer, and loads the output.
 * Library and node_modules declaration files are parsed once per process and shared between
 * programs, so a spec can compile many small programs quickly.
 */
import * as path from 'path';
import * as vm from 'vm';
import * as ts from 'typescript';
import type { AutographConfig } from '../../transformer/index';
import { createFileTransformer } from '../../transformer/file_transformer';
import { useTypeScript } from '../../transformer/typescript';
import { registerSourceMap } from '../../runtime/source_map_files';

const ROOT = path.resolve(__dirname, '../../..');
const RUNTIME = path.join(ROOT, 'dist/runtime/operators.js');
const sharedFiles = new Map<string, ts.SourceFile>();

export interface CompileResult {
  /** Emitted JavaScript per input name (`main.ts` → its .js text). */
  js: Record<string, string>;
  maps: Record<string, string>;
  diagnostics: ts.Diagnostic[];
  /** Pre-emit (type-check) diagnostics, for specs that want a clean input. */
  typeErrors: ts.Diagnostic[];
}

export const defaultOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
  sourceMap: true,
  types: [],
  lib: ['lib.es2022.d.ts'],
  ignoreDeprecations: '6.0',
  allowJs: true,
};

export function compile(files: Record<string, string>, config: AutographConfig = {},
                        options: ts.CompilerOptions = {}): CompileResult {
  const { program, js, maps } = virtualProgram(files, { ...defaultOptions, ...options });
  const diagnostics: ts.Diagnostic[] = [];
  // Every diagnostic is collected, warnings included, whatever the warnings policy of the
  // ts-patch entry (transformer/reporting.ts; exercised through the real tspc in spec/e2e).
  useTypeScript(ts);
  const transformer = createFileTransformer(program, { runtimeModule: RUNTIME, ...config }, (d) => diagnostics.push(d));
  program.emit(undefined, undefined, undefined, false, { before: [transformer] });
  const typeErrors = [...program.getSemanticDiagnostics(), ...program.getSyntacticDiagnostics()];
  for (const [name, text] of Object.entries(js)) if (maps[name] !== undefined) emitted.set(text, { name, map: maps[name], id: emitted.get(text)?.id ?? emitted.size });
  return { js, maps, diagnostics, typeErrors };
}

/** Plain `tsc` output of in-memory sources, with no transformer: the reference that tensor-free
 * code must equal byte for byte. */
export function plainEmit(files: Record<string, string>, options: ts.CompilerOptions = {}): Record<string, string> {
  const { program, js } = virtualProgram(files, { ...defaultOptions, sourceMap: false, ...options });
  program.emit();
  return js;
}

/** A program over in-memory files (library files shared between programs), collecting output. */
function virtualProgram(files: Record<string, string>, compilerOptions: ts.CompilerOptions) {
  const dir = path.join(ROOT, 'spec-virtual');
  const outDir = path.join(dir, 'out');
  const virtual = new Map(Object.entries(files).map(([name, text]) => [path.join(dir, name), text]));
  const host = ts.createCompilerHost(compilerOptions, true);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getCurrentDirectory = () => dir;
  host.fileExists = (f) => virtual.has(f) || fileExists(f);
  host.directoryExists = (d) => d === dir || ts.sys.directoryExists(d);
  host.readFile = (f) => virtual.get(f) ?? readFile(f);
  host.getSourceFile = (fileName, languageVersion) => {
    const text = virtual.get(fileName);
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
    let shared = sharedFiles.get(fileName);
    if (shared === undefined) {
      const content = readFile(fileName);
      if (content === undefined) return undefined;
      shared = ts.createSourceFile(fileName, content, languageVersion, true);
      sharedFiles.set(fileName, shared);
    }
    return shared;
  };
  // Resolve packages from the project root (the virtual directory has no node_modules).
  host.resolveModuleNames = (names, containing) => names.map((name) =>
    ts.resolveModuleName(name, containing.startsWith(dir) && !name.startsWith('.') ? path.join(ROOT, 'index.ts') : containing,
      compilerOptions, host).resolvedModule);
  const js: Record<string, string> = {};
  const maps: Record<string, string> = {};
  host.writeFile = (fileName, text) => {
    const name = path.relative(outDir, fileName).replace(/\\/g, '/');
    const source = Object.keys(files).find((f) => f.replace(/\.[jt]s$/, '') === name.replace(/\.js(\.map)?$/, ''));
    if (name.endsWith('.map')) maps[source ?? name] = text;
    else js[source ?? name] = text;
  };
  const program = ts.createProgram([...virtual.keys()], { ...compilerOptions, outDir }, host);
  return { program, js, maps };
}

/** The source and source map of each emitted text compile() made: load() evaluates it under that name. */
const emitted = new Map<string, { name: string; map: string; id: number }>();

/**
 * The CommonJS wrapper of an emitted text. Where compile() made it, it runs as `out/<n>/main.js` under
 * the working directory (one name per text: a map registered for one never maps another's frames)
 * with its source map, whose sources resolve beside `out/`: its frames map to `main.ts` (as the
 * transformer's origins name it) the way a compiled file's do. Other text runs from an anonymous function.
 */
function evaluated(js: string): (...args: unknown[]) => void {
  const source = emitted.get(js);
  if (source === undefined) return new Function('require', 'module', 'exports', js) as (...args: unknown[]) => void;
  const out = path.join(process.cwd(), 'out');
  const filename = path.join(out, String(source.id), source.name.replace(/\.[jt]s$/, '.js'));
  registerSourceMap(filename, JSON.stringify({ ...JSON.parse(source.map), sourceRoot: out }));
  return vm.compileFunction(js, ['require', 'module', 'exports'], { filename }) as (...args: unknown[]) => void;
}

/** This checkout's package entry (dist/index.js): what `autograph-ts` is for evaluated modules. */
const PACKAGE_INDEX = path.resolve(__dirname, '../../index.js');

/**
 * Evaluates an emitted CommonJS module and returns its exports; its `require('autograph-ts')` is
 * this checkout's build.
 */
export function load(js: string): Record<string, any> {
  const module = { exports: {} as Record<string, any> };
  const fn = evaluated(js);
  fn((id: string) => require(id === 'autograph-ts' ? PACKAGE_INDEX : id), module, module.exports);
  return module.exports;
}


export function formatDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return diagnostics.map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${d.file ? path.basename(d.file.fileName) : ''}${where ? `:${where.line + 1}:${where.character + 1}` : ''} AG${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  }).join('\n');
}
