/**
 * `autograph-ts doctor`: the checks a user runs instead of reading the README. It looks at the
 * project in the current directory from the outside (its package.json, tsconfig.json, .npmrc and
 * node_modules; packages resolved from the project's directory, native ones loaded in a child
 * process) and says, for each thing autograph-ts needs, whether it is there and what to run if not.
 * It imports nothing of the staging engine: a broken install must not keep the doctor from starting.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadFailure, majorOf, packageCopies, readCompilerOptions, readJson, resolvePackage, type InstalledPackage } from './project';

export type Status = 'ok' | 'note' | 'problem';

export interface Finding {
  check: string;
  status: Status;
  detail: string;
  /** What to run or change (problems and notes). */
  fix?: string;
}

export interface DoctorOptions {
  /** The tsconfig.json to check (default: the project's tsconfig.json). */
  project?: string;
}

export const TRANSFORM = 'autograph-ts/transformer';
export const PLUGIN_ENTRY = `"plugins": [{ "transform": "${TRANSFORM}" }]`;
/** What a checkout-installed autograph-ts needs to stay one copy on every later `npm install`. */
export const REINSTALL_AS_COPY = 'install autograph-ts as a copy: run `npm pack` in your autograph-ts checkout, then ' +
  '`npm install /path/to/autograph-ts-0.1.0.tgz` here (a tarball stays a copy on later installs); or add ' +
  '`install-links=true` to this project\'s .npmrc (`npx autograph-ts init` writes it) and run `npm install` again';
/**
 * How to get onnxruntime-node without its install script, which downloads CUDA libraries from
 * outside the npm registry (and, where that fails, makes npm drop the optional dependency
 * silently). The CPU build is in the npm package itself.
 */
export const ORT_INSTALL = '`npm pkg set allowScripts.onnxruntime-node=false --json && npm install` ' +
  '(npm 11.19 and later then skip its install script, which would download CUDA libraries from outside the npm ' +
  'registry; the CPU build is in the npm package); with an older npm: `ONNXRUNTIME_NODE_INSTALL=skip npm install`';
const TYPESCRIPT_FIX = '`npm install -D typescript@6`';

/** Every check, in the order a fix is best made (an earlier fix may settle a later finding). */
export function diagnoseProject(dir: string, options: DoctorOptions = {}): Finding[] {
  const manifest = readJson(path.join(dir, 'package.json'));
  if (manifest === undefined) {
    return [{ check: 'package.json', status: 'problem', detail: `no package.json in ${dir}`,
      fix: 'run the doctor in your project\'s directory; a new project: `npm init -y`, then the README\'s quick start' }];
  }
  const autograph = resolvePackage('autograph-ts', dir);
  return [
    checkNode(),
    checkAutograph(autograph),
    ...checkOneAutograph(dir),
    checkOneTfjsCore(dir, autograph),
    checkTypeScript(dir),
    checkTsPatch(dir, manifest),
    checkPluginEntry(dir, options.project),
    checkBackends(dir, autograph),
    checkOnnxRuntime(dir, autograph),
    ...checkNpmrc(dir, manifest),
  ];
}

function checkNode(): Finding {
  const major = majorOf(process.versions.node);
  return major >= 20
    ? { check: 'node', status: 'ok', detail: `v${process.versions.node}` }
    : { check: 'node', status: 'problem', detail: `v${process.versions.node}: autograph-ts needs Node.js 20 or later`, fix: 'install Node.js 20 or later' };
}

function checkAutograph(autograph: InstalledPackage | undefined): Finding {
  if (autograph === undefined) {
    return { check: 'autograph-ts', status: 'problem', detail: 'not installed in this project', fix: REINSTALL_AS_COPY };
  }
  if (autograph.linked) {
    return { check: 'autograph-ts', status: 'note', detail: `${autograph.version}, a symlink to ${autograph.realDir}: ` +
      'its own node_modules can supply a second copy of tfjs', fix: REINSTALL_AS_COPY };
  }
  return { check: 'autograph-ts', status: 'ok', detail: `${autograph.version}, installed as a copy` };
}

/**
 * A second copy of autograph-ts (a dependency that brings its own) has its own runtime: code
 * converted against one and staged by the other is not staged. Reported only when there is one.
 */
function checkOneAutograph(dir: string): Finding[] {
  const copies = packageCopies(dir, 'autograph-ts');
  if (copies.length < 2) return [];
  return [{ check: 'autograph-ts copies', status: 'problem',
    detail: `${copies.length} copies (${copies.map((c) => `${c.version} in ${c.realDir}`).join('; ')}): each has its own ` +
      'runtime and staging engine, and code converted against one is not staged by the other',
    fix: '`npm dedupe`; if copies remain, give every dependent the same autograph-ts' }];
}

function checkOneTfjsCore(dir: string, autograph: InstalledPackage | undefined): Finding {
  const check = '@tensorflow/tfjs-core';
  const copies = packageCopies(dir, check);
  if (copies.length === 0) {
    return { check, status: 'problem', detail: 'not installed', fix: '`npm install @tensorflow/tfjs`' };
  }
  if (copies.length === 1) return { check, status: 'ok', detail: `${copies[0].version}, one copy` };
  return {
    check, status: 'problem',
    detail: `${copies.length} copies (${copies.map((c) => `${c.version} in ${c.realDir}`).join('; ')}): tfjs loaded twice ` +
      'fails with `Platform node has already been set`, and tensors of one copy are not tensors to the other',
    fix: autograph?.linked ? REINSTALL_AS_COPY : '`npm dedupe`; if copies remain, give @tensorflow/tfjs the version autograph-ts uses (4.22.0)',
  };
}

function checkTypeScript(dir: string): Finding {
  const typescript = resolvePackage('typescript', dir);
  if (typescript === undefined) return { check: 'typescript', status: 'problem', detail: 'not installed', fix: TYPESCRIPT_FIX };
  const major = majorOf(typescript.version);
  if (major >= 7) {
    return { check: 'typescript', status: 'problem', detail: `${typescript.version}: TypeScript 7 (the native port) has no ` +
      'JavaScript compiler API, which ts-patch and the transformer need (`npx tspc` fails with ' +
      '`Cannot read properties of undefined (reading \'LineFeed\')`)', fix: TYPESCRIPT_FIX };
  }
  const minor = Number.parseInt(typescript.version.split('.')[1] ?? '0', 10);
  if (major < 5 || (major === 5 && minor < 9)) {
    return { check: 'typescript', status: 'problem', detail: `${typescript.version}: autograph-ts needs TypeScript 5.9 or 6`, fix: TYPESCRIPT_FIX };
  }
  return { check: 'typescript', status: 'ok', detail: `${typescript.version}, with the compiler API ts-patch needs` };
}

function checkTsPatch(dir: string, manifest: Record<string, unknown>): Finding {
  const tsPatch = resolvePackage('ts-patch', dir);
  if (tsPatch === undefined) {
    return { check: 'ts-patch', status: 'problem', detail: 'not installed: plain `tsc` does not run the transformer', fix: '`npm install -D ts-patch`' };
  }
  const scripts = (manifest.scripts ?? {}) as Record<string, string>;
  const plainTsc = Object.entries(scripts).find(([, command]) => /(^|[\s;&|])tsc(\s|$)/.test(command));
  if (plainTsc !== undefined) {
    return { check: 'ts-patch', status: 'note', detail: `${tsPatch.version}; script '${plainTsc[0]}' runs plain \`tsc\`, which ` +
      'skips the transformer (unless `ts-patch install` patched TypeScript)', fix: `use \`tspc\` in script '${plainTsc[0]}'` };
  }
  return { check: 'ts-patch', status: 'ok', detail: `${tsPatch.version} (compile with \`npx tspc\`)` };
}

function checkPluginEntry(dir: string, project: string | undefined): Finding {
  const configPath = path.resolve(dir, project ?? 'tsconfig.json');
  const check = path.relative(dir, configPath) || configPath;
  if (!fs.existsSync(configPath)) {
    return { check, status: 'problem', detail: 'not found', fix: '`npx autograph-ts init` writes one with the plugin entry' };
  }
  let options: Record<string, unknown>;
  try {
    options = readCompilerOptions(configPath, dir);
  } catch (error) {
    return { check, status: 'problem', detail: error instanceof Error ? error.message : String(error), fix: 'fix the file' };
  }
  const plugins = (Array.isArray(options.plugins) ? options.plugins : []) as { transform?: string }[];
  if (!plugins.some((p) => typeof p.transform === 'string' && p.transform.startsWith(TRANSFORM))) {
    return { check, status: 'problem', detail: 'no plugin entry for the transformer: `tspc` compiles \'use autograph\' ' +
      'functions unconverted, and stage() throws', fix: `add ${PLUGIN_ENTRY} to "compilerOptions"` };
  }
  return { check, status: 'ok', detail: `plugin entry ${TRANSFORM}` };
}

/** The tfjs backends the project can register in Node.js (webgl is for browsers). */
function checkBackends(dir: string, autograph: InstalledPackage | undefined): Finding {
  const available = ['cpu'];
  const missing: string[] = [];
  const wasm = resolvePackage('@tensorflow/tfjs-backend-wasm', dir) ??
    (autograph && resolvePackage('@tensorflow/tfjs-backend-wasm', autograph.realDir));
  if (wasm !== undefined) available.push('wasm');
  else missing.push('wasm (npm install @tensorflow/tfjs-backend-wasm)');
  const native = ['@tensorflow/tfjs-node-gpu', '@tensorflow/tfjs-node'].map((n) => [n, resolvePackage(n, dir)] as const)
    .find(([, p]) => p !== undefined);
  if (native === undefined) {
    missing.push('tensorflow (optional: native TensorFlow, npm install @tensorflow/tfjs-node)');
  } else {
    const failure = loadFailure(native[1]!.realDir, dir);
    if (failure === undefined) available.push(`tensorflow (${native[0]})`);
    else missing.push(`tensorflow: ${native[0]} does not load (${failure}; reinstall it with its install script allowed)`);
  }
  return { check: 'tfjs backends', status: 'ok', detail: `${available.join(', ')}${missing.length ? `; not: ${missing.join('; ')}` : ''}` };
}

/** onnxruntime-node as autograph-ts's ONNX engine will require it: resolved from autograph-ts's directory. */
function checkOnnxRuntime(dir: string, autograph: InstalledPackage | undefined): Finding {
  const check = 'engines';
  const slower = 'staged graphs run on the tfjs executor only (large graphs ~10x slower than in ONNX Runtime)';
  const ort = resolvePackage('onnxruntime-node', autograph?.realDir ?? dir);
  if (ort === undefined) {
    return { check, status: 'problem', detail: `tfjs executor; not onnx: onnxruntime-node is not installed, ${slower}`, fix: ORT_INSTALL };
  }
  const binary = path.join(ort.realDir, 'bin', 'napi-v6', process.platform, process.arch, 'onnxruntime_binding.node');
  if (!fs.existsSync(binary)) {
    return { check, status: 'problem', detail: `tfjs executor; not onnx: onnxruntime-node ${ort.version} has no binary for ` +
      `${process.platform}/${process.arch} (${path.relative(ort.realDir, binary)}), ${slower}`,
    fix: `\`rm -rf ${path.relative(dir, ort.dir) || ort.dir}\`, then ${ORT_INSTALL}` };
  }
  const failure = loadFailure(ort.realDir, dir);
  if (failure !== undefined) {
    return { check, status: 'problem', detail: `tfjs executor; not onnx: onnxruntime-node ${ort.version} does not load ` +
      `(${failure}), ${slower}`, fix: `\`rm -rf ${path.relative(dir, ort.dir) || ort.dir}\`, then ${ORT_INSTALL}` };
  }
  return { check, status: 'ok', detail: `onnx (onnxruntime-node ${ort.version}: engine 'auto' uses it on the wasm and cpu ` +
    'backends where a graph lowers), tfjs executor' };
}

/** The project's npm settings for onnxruntime-node's install script. */
function checkNpmrc(dir: string, manifest: Record<string, unknown>): Finding[] {
  let npmrc = '';
  try {
    npmrc = fs.readFileSync(path.join(dir, '.npmrc'), 'utf8');
  } catch { /* no .npmrc */ }
  const findings: Finding[] = [];
  if (/^\s*onnxruntime-node-install\s*=/m.test(npmrc)) {
    findings.push({ check: '.npmrc', status: 'note', detail: '`onnxruntime-node-install` is not an npm setting: npm 11 warns ' +
      '"Unknown project config" on every command and the next major version ignores it',
    fix: 'delete the line; `npm pkg set allowScripts.onnxruntime-node=false --json` does its job' });
  }
  const allowScripts = (manifest.allowScripts ?? {}) as Record<string, unknown>;
  if (allowScripts['onnxruntime-node'] !== false) {
    findings.push({ check: 'allowScripts', status: 'note', detail: 'package.json does not deny onnxruntime-node\'s install ' +
      'script: a fresh `npm install`/`npm ci` runs it, it downloads from outside the npm registry, and where that fails npm drops ' +
      'onnxruntime-node without a message', fix: '`npm pkg set allowScripts.onnxruntime-node=false --json`' });
  }
  return findings;
}

const LABEL: Record<Status, string> = { ok: 'ok', note: 'note', problem: 'PROBLEM' };

export function formatFindings(dir: string, findings: Finding[]): string {
  const lines = [`autograph-ts doctor: ${dir}`];
  for (const f of findings) {
    lines.push(`  ${LABEL[f.status].padEnd(8)}${f.check}: ${f.detail}`);
    if (f.fix !== undefined && f.status !== 'ok') lines.push(`  ${''.padEnd(8)}  fix: ${f.fix}`);
  }
  const problems = findings.filter((f) => f.status === 'problem').length;
  lines.push(problems === 0 ? 'healthy: autograph-ts can compile and stage in this project.'
    : `${problems} problem${problems === 1 ? '' : 's'}: fix them in the order listed, then run \`npx autograph-ts doctor\` again.`);
  return `${lines.join('\n')}\n`;
}

/** `autograph-ts doctor [--project tsconfig.json]`: exit code 0 when healthy, 1 with problems. */
export function doctorCommand(args: string[], dir = process.cwd()): number {
  const at = args.findIndex((a) => a === '--project' || a === '-p');
  const findings = diagnoseProject(dir, { project: at >= 0 ? args[at + 1] : undefined });
  process.stdout.write(formatFindings(dir, findings));
  return findings.some((f) => f.status === 'problem') ? 1 : 0;
}
