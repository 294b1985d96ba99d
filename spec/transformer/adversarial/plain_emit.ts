/**
 * Plain `tsc` output of in-memory sources: the same compiler options and module resolution as
 * spec/harness/compile.ts, but no transformer at all — the reference the converted output of
 * tensor-free code must equal byte for byte.
 */
import * as path from 'path';
import * as ts from 'typescript';
import { defaultOptions } from '../../harness/compile';

const ROOT = path.resolve(__dirname, '../../../..');
const shared = new Map<string, ts.SourceFile>();

export function plainEmit(files: Record<string, string>, options: ts.CompilerOptions = {}): Record<string, string> {
  const compilerOptions = { ...defaultOptions, sourceMap: false, ...options };
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
    let file = shared.get(fileName);
    if (file === undefined) {
      const content = readFile(fileName);
      if (content === undefined) return undefined;
      file = ts.createSourceFile(fileName, content, languageVersion, true);
      shared.set(fileName, file);
    }
    return file;
  };
  host.resolveModuleNames = (names, containing) => names.map((name) =>
    ts.resolveModuleName(name, containing.startsWith(dir) && !name.startsWith('.') ? path.join(ROOT, 'index.ts') : containing,
      compilerOptions, host).resolvedModule);
  const js: Record<string, string> = {};
  host.writeFile = (fileName, text) => {
    const name = path.relative(outDir, fileName).replace(/\\/g, '/');
    if (name.endsWith('.map')) return;
    const source = Object.keys(files).find((f) => f.replace(/\.[jt]s$/, '') === name.replace(/\.js$/, ''));
    js[source ?? name] = text;
  };
  const program = ts.createProgram([...virtual.keys()], { ...compilerOptions, outDir }, host);
  program.emit();
  return js;
}
