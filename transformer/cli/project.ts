/**
 * A user's project seen from the outside, for `autograph-ts doctor` and `init`: its files and the
 * packages installed in it, read from disk and resolved from the project's directory (never
 * loaded into this process: a package that does not load is checked in a child process).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export interface InstalledPackage {
  /** The package's directory as installed (under node_modules), and where it really is. */
  dir: string;
  realDir: string;
  version: string;
  /** node_modules/<name> is a symlink (npm link, or a directory dependency without install-links). */
  linked: boolean;
}

export function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * `name` as Node resolves it from `fromDir`: the nearest node_modules/<name> up the directory
 * tree (Node's own algorithm; require.resolve would answer with the real path and hide a symlink).
 */
export function resolvePackage(name: string, fromDir: string): InstalledPackage | undefined {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', ...name.split('/'));
    const manifest = readJson(path.join(candidate, 'package.json'));
    if (manifest !== undefined) {
      return { dir: candidate, realDir: fs.realpathSync(candidate), version: String(manifest.version ?? 'unknown'),
        linked: fs.lstatSync(candidate).isSymbolicLink() };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Every copy of package `name` under the project's node_modules, nested ones and those reached
 * through symlinked packages included (a linked checkout brings its own node_modules), one per
 * real directory, as `{ realDir, version }`.
 */
export function packageCopies(projectDir: string, name: string): { realDir: string; version: string }[] {
  const seen = new Set<string>();
  const copies = new Map<string, string>();
  const visitPackage = (dir: string, packageName: string): void => {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      return; // a dangling symlink
    }
    if (seen.has(real)) return;
    seen.add(real);
    if (packageName === name && fs.existsSync(path.join(real, 'package.json'))) {
      copies.set(real, String(readJson(path.join(real, 'package.json'))?.version ?? 'unknown'));
    }
    visitModules(path.join(real, 'node_modules'));
  };
  const visitModules = (modulesDir: string): void => {
    let entries: string[];
    try {
      entries = fs.readdirSync(modulesDir);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith('.')) continue;
      if (entry.startsWith('@')) {
        let scoped: string[] = [];
        try {
          scoped = fs.readdirSync(path.join(modulesDir, entry));
        } catch { /* not a directory */ }
        for (const s of scoped) visitPackage(path.join(modulesDir, entry, s), `${entry}/${s}`);
      } else {
        visitPackage(path.join(modulesDir, entry), entry);
      }
    }
  };
  visitModules(path.join(projectDir, 'node_modules'));
  return [...copies].map(([realDir, version]) => ({ realDir, version }));
}

/** Loads `modulePath` in a child Node process run in `cwd`: undefined if it loads, else the error's first line. */
export function loadFailure(modulePath: string, cwd: string, expression = ''): string | undefined {
  try {
    execFileSync(process.execPath, ['-e', `const m = require(${JSON.stringify(modulePath)}); ${expression}`],
      { cwd, stdio: 'pipe', timeout: 60_000 });
    return undefined;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
    const line = stderr.split('\n').find((l) => /Error|error:/.test(l)) ?? stderr.split('\n')[0];
    return (line || (error instanceof Error ? error.message : String(error))).trim();
  }
}

/** The major version of a semver string ('7.0.0-dev' -> 7). */
export const majorOf = (version: string): number => Number.parseInt(version, 10);

/**
 * A tsconfig.json's compiler options, "extends" followed. Read with the project's own TypeScript
 * when it has the compiler API; TypeScript 7 has none (the case the doctor must still report), so
 * then as JSON with comments, following relative "extends" paths.
 */
export function readCompilerOptions(configPath: string, projectDir: string): Record<string, unknown> {
  const typescript = loadTypeScript(projectDir);
  if (typescript !== undefined) {
    const read = typescript.readConfigFile(configPath, typescript.sys.readFile);
    if (read.error !== undefined) throw new Error(typescript.flattenDiagnosticMessageText(read.error.messageText, '\n'));
    return typescript.parseJsonConfigFileContent(read.config, typescript.sys, path.dirname(configPath), undefined, configPath).options;
  }
  const config = parseJsonc(fs.readFileSync(configPath, 'utf8')) as { extends?: unknown; compilerOptions?: Record<string, unknown> };
  const base = typeof config.extends === 'string' && config.extends.startsWith('.')
    ? readCompilerOptions(path.resolve(path.dirname(configPath), config.extends.endsWith('.json') ? config.extends : `${config.extends}.json`), projectDir)
    : {};
  return { ...base, ...config.compilerOptions };
}

function loadTypeScript(projectDir: string): typeof import('typescript') | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const typescript = require(require.resolve('typescript', { paths: [projectDir, __dirname] })) as typeof import('typescript');
    return typeof typescript.readConfigFile === 'function' ? typescript : undefined;
  } catch {
    return undefined;
  }
}

/** JSON with comments and trailing commas (tsconfig's dialect). */
function parseJsonc(text: string): unknown {
  const stripped = text.replace(/"(?:[^"\\]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.startsWith('"') ? m : ''));
  return JSON.parse(stripped.replace(/,(\s*[}\]])/g, '$1'));
}
