/**
 * The user's TypeScript project as a bundler sees it: one whole-program `ts.Program` (from the
 * tsconfig.json the bundler's root holds), and the SAME transformer `tspc` runs (transformer/
 * file_transformer.ts) applied when one file of it is emitted. Whole-program, because the
 * transformer asks the checker: a call into another file is classified by that file's types, and a
 * function called from a converted one is converted too, whichever file it lives in.
 *
 * The program is rebuilt (reusing the unchanged files' trees) when any file of it changes: on the
 * bundler's watch notice, or when the bundler hands a file whose text is not the one the program
 * read. Each file's transform depends on the project files it imports and the ones that import it
 * (`related`): the plugin registers them as watch files, so a change in a callee re-transforms its
 * callers and the other way round.
 */
import * as path from 'node:path';
import ts from 'typescript';
import { type AutographConfig, createFileTransformer } from '../transformer/file_transformer.js';

export interface ProjectOptions extends AutographConfig {
  /** The tsconfig.json of the project (default: the nearest one above each transformed file). */
  tsconfig?: string;
}

/** A diagnostic of the transformer, located. */
export interface TransformMessage {
  category: 'error' | 'warning';
  code: number;
  text: string;
  file?: string;
  /** 1-based line, 0-based column (what Rollup and esbuild expect). */
  line?: number;
  column?: number;
}

export interface EmittedFile {
  code: string;
  map: { version: number; sources: string[]; sourcesContent?: (string | null)[]; mappings: string; names: string[]; file?: string };
  messages: TransformMessage[];
  /** The project files this one's conversion depends on (imports and importers), for the watcher. */
  related: string[];
}

const normalize = (file: string): string => path.resolve(file).replace(/\\/g, '/');

const projects = new Map<string, Project>();

export class Project {
  private readonly config: ts.ParsedCommandLine;
  private readonly texts = new Map<string, string>();
  private program: ts.Program | undefined;
  private transformer: ts.TransformerFactory<ts.SourceFile> | undefined;
  private messages: TransformMessage[] = [];
  private importGraph: Map<string, string[]> | undefined;
  /** The last program: the next one reuses what did not change. */
  private previous: ts.Program | undefined;
  /** Parsed files by name: a file whose text did not change keeps its tree (tfjs's typings above all). */
  private readonly sources = new Map<string, ts.SourceFile>();

  /** `configPath`: the project's tsconfig.json (none: default options, the files the bundler hands). */
  constructor(private readonly options: ProjectOptions, configPath: string | undefined) {
    const parsed = configPath === undefined ? undefined
      : ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(`autograph-ts: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      } });
    this.config = parsed ?? { options: { target: ts.ScriptTarget.ES2022, strict: true }, fileNames: [], errors: [] };
    this.config.options = {
      ...this.config.options,
      // The bundler takes ES modules with source maps; it does the rest (resolution, downleveling).
      module: ts.ModuleKind.ESNext,
      moduleResolution: this.config.options.moduleResolution ?? ts.ModuleResolutionKind.Bundler,
      noEmit: false, emitDeclarationOnly: false, declaration: false, declarationMap: false, composite: false,
      incremental: false, tsBuildInfoFile: undefined, sourceMap: true, inlineSourceMap: false, inlineSources: true,
      outDir: undefined, outFile: undefined, rootDir: undefined, sourceRoot: undefined, mapRoot: undefined,
      noEmitOnError: false, removeComments: false, importHelpers: false,
    };
  }

  /**
   * The project `file` belongs to: the tsconfig.json given (relative to `root`) or the nearest one
   * above the file. Shared by the builds of one process (a Vite client and SSR build, a watch
   * session's rebuilds, a test building twice): its program is rebuilt only when a file changed
   * (`refresh` at each build's start, `invalidate` on a watch notice).
   */
  static of(file: string, options: ProjectOptions, root: string): Project {
    const configPath = options.tsconfig !== undefined ? path.resolve(root, options.tsconfig)
      : ts.findConfigFile(path.dirname(file), ts.sys.fileExists, 'tsconfig.json');
    const key = JSON.stringify([configPath ?? '', options]);
    let project = projects.get(key);
    if (project === undefined) projects.set(key, project = new Project(options, configPath));
    return project;
  }

  /** Every project of this process: each build refreshes them at its start. */
  static all(): Iterable<Project> {
    return projects.values();
  }

  /** Drops the program when a project file's text on disk is not the one it read. */
  refresh(): void {
    const program = this.program;
    if (program === undefined) return;
    const stale = program.getSourceFiles().some((source) => Project.includes(source.fileName) &&
      ts.sys.readFile(source.fileName) !== source.text);
    if (stale) {
      this.texts.clear();
      this.program = undefined;
    }
  }

  /** A file changed (or was added / removed): when TypeScript's, the next transform builds a new program. */
  invalidate(file: string): void {
    if (!/\.[cm]?tsx?$/.test(file)) return;
    this.texts.delete(normalize(file));
    this.program = undefined;
  }

  /** Whether the plugin compiles `file`: a TypeScript source (not a .d.ts) outside node_modules. */
  static includes(file: string): boolean {
    return /\.[cm]?tsx?$/.test(file) && !/\.d\.[cm]?ts$/.test(file) && !/[\\/]node_modules[\\/]/.test(file);
  }

  /** `file` (whose current text the bundler hands as `code`) compiled with the transformer. */
  emit(file: string, code: string): EmittedFile {
    const name = normalize(file);
    this.texts.set(name, code);
    if (this.program?.getSourceFile(name)?.text !== code) this.program = undefined;
    const program = this.currentProgram(name);
    const source = program.getSourceFile(name);
    if (source === undefined) throw new Error(`autograph-ts: ${file} is not part of the TypeScript program`);
    this.messages = [];
    let js: string | undefined;
    let map: string | undefined;
    const result = program.emit(source, (out, text) => {
      if (out.endsWith('.map')) map = text;
      else if (/\.[cm]?jsx?$/.test(out)) js = text;
    }, undefined, false, { before: [this.transformer!] });
    if (result.emitSkipped || js === undefined || map === undefined) {
      throw new Error(`autograph-ts: TypeScript emitted nothing for ${file}`);
    }
    const parsedMap = JSON.parse(map) as EmittedFile['map'];
    parsedMap.sources = [file];
    parsedMap.sourcesContent = [code];
    return { code: js.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'), map: parsedMap, messages: this.messages, related: this.related(name) };
  }

  private currentProgram(file: string): ts.Program {
    if (this.program !== undefined) return this.program;
    const roots = new Set(this.config.fileNames.map(normalize));
    roots.add(file);
    for (const known of this.texts.keys()) roots.add(known);
    const host = ts.createCompilerHost(this.config.options, true);
    const readFile = host.readFile.bind(host);
    host.readFile = (name) => this.texts.get(normalize(name)) ?? readFile(name);
    host.getSourceFile = (name, languageVersion) => {
      const text = host.readFile(name);
      if (text === undefined) return undefined;
      const cached = this.sources.get(name);
      if (cached?.text === text) return cached;
      const parsed = ts.createSourceFile(name, text, languageVersion, true);
      this.sources.set(name, parsed);
      return parsed;
    };
    this.program = ts.createProgram({ rootNames: [...roots], options: this.config.options, host,
      projectReferences: this.config.projectReferences, oldProgram: this.previous });
    this.previous = this.program;
    this.importGraph = undefined;
    const program = this.program;
    this.transformer = createFileTransformer(program, this.options, (diagnostic) => this.report(diagnostic));
    return program;
  }


  private report(diagnostic: ts.Diagnostic): void {
    const category = diagnostic.category === ts.DiagnosticCategory.Warning ? 'warning' : 'error';
    const policy = this.options.warnings ?? 'warning';
    if (category === 'warning' && policy === 'off') return;
    const message: TransformMessage = {
      category: category === 'warning' && policy === 'error' ? 'error' : category,
      code: diagnostic.code,
      text: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    };
    if (diagnostic.file !== undefined && diagnostic.start !== undefined) {
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      Object.assign(message, { file: diagnostic.file.fileName, line: line + 1, column: character });
    }
    this.messages.push(message);
  }

  /**
   * The files whose conversion depends on `file` (as of the last program built; none before
   * one): a dev server re-transforms them when `file` changes.
   */
  dependents(file: string): string[] {
    return this.importGraph === undefined ? [] : this.related(normalize(file));
  }

  /** The project files `file` imports or is imported by, transitively. */
  private related(file: string): string[] {
    const graph = this.importGraph ??= this.buildImportGraph();
    const reverse = new Map<string, string[]>();
    for (const [from, tos] of graph) for (const to of tos) reverse.set(to, [...reverse.get(to) ?? [], from]);
    const seen = new Set<string>([file]);
    for (const edges of [graph, reverse]) {
      const queue = [file];
      while (queue.length > 0) {
        for (const next of edges.get(queue.pop()!) ?? []) {
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
    }
    seen.delete(file);
    return [...seen];
  }

  private buildImportGraph(): Map<string, string[]> {
    const program = this.program!;
    const graph = new Map<string, string[]>();
    for (const source of program.getSourceFiles()) {
      if (!Project.includes(source.fileName)) continue;
      const imports = ts.preProcessFile(source.text, true, true).importedFiles.flatMap((imported) => {
        const resolved = ts.resolveModuleName(imported.fileName, source.fileName, program.getCompilerOptions(), ts.sys)
          .resolvedModule?.resolvedFileName;
        return resolved !== undefined && Project.includes(resolved) ? [normalize(resolved)] : [];
      });
      graph.set(normalize(source.fileName), imports);
    }
    return graph;
  }
}
