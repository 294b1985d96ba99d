/**
 * Fake user projects for the init and doctor specs: a temp directory with the given files
 * (objects are written as JSON), and a healthy base layout the broken variants change one thing of.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export type Layout = Record<string, string | object | undefined>;

const made: string[] = [];

export function makeProject(layout: Layout): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-doctor-'));
  made.push(dir);
  for (const [file, content] of Object.entries(layout)) {
    if (content === undefined) continue;
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

export function removeProjects(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

const pkg = (name: string, version: string): object => ({ name, version });

export const PLUGIN_TSCONFIG = { compilerOptions: { strict: true, plugins: [{ transform: 'autograph-ts/transformer' }] } };

/** Every package in place except onnxruntime-node (a fake cannot load a native binary). */
export const BASE: Layout = {
  'package.json': { name: 'user-project', version: '1.0.0', scripts: { build: 'tspc -p .' }, allowScripts: { 'onnxruntime-node': false } },
  'tsconfig.json': PLUGIN_TSCONFIG,
  'node_modules/autograph-ts/package.json': pkg('autograph-ts', '0.1.0'),
  'node_modules/@tensorflow/tfjs/package.json': pkg('@tensorflow/tfjs', '4.22.0'),
  'node_modules/@tensorflow/tfjs-core/package.json': pkg('@tensorflow/tfjs-core', '4.22.0'),
  'node_modules/@tensorflow/tfjs-backend-wasm/package.json': pkg('@tensorflow/tfjs-backend-wasm', '4.22.0'),
  'node_modules/typescript/package.json': pkg('typescript', '6.0.3'),
  'node_modules/ts-patch/package.json': pkg('ts-patch', '3.3.0'),
};

/**
 * A healthy project: this checkout's own node_modules, entry by entry, and autograph-ts as a
 * symlink to the checkout (whose node_modules are the same packages: one copy of each).
 */
export function checkoutProject(root: string): string {
  const dir = makeProject({ 'package.json': BASE['package.json'], 'tsconfig.json': PLUGIN_TSCONFIG });
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (entry === 'autograph-ts' || entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  fs.symlinkSync(root, path.join(modules, 'autograph-ts'));
  return dir;
}
