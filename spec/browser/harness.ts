/**
 * What the browser spec needs around a page: a scratch user project (the fixture under
 * spec/fixtures/browser, with node_modules linking autograph-ts and tfjs back to this checkout),
 * its builds by Vite and by esbuild with the autograph-ts plugin (configured only as the README
 * says), a localhost server for the built files and tfjs-backend-wasm's .wasm files, and headless
 * Chromium (Debian's, driven by puppeteer-core).
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../../..');
const FIXTURE = path.join(ROOT, 'spec/fixtures/browser');
export const CHROMIUM = '/usr/bin/chromium';

/** ES-module packages, imported from this CommonJS spec (a real dynamic import under node16). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval
type Vite = typeof import('vite', { with: { 'resolution-mode': 'import' } });
type VitePlugin = import('vite', { with: { 'resolution-mode': 'import' } }).Plugin;
type Puppeteer = typeof import('puppeteer-core', { with: { 'resolution-mode': 'import' } });
export type Browser = Awaited<ReturnType<Puppeteer['launch']>>;

const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

/** A copy of the fixture project in a scratch folder; removed by `dispose`. */
export function scratchProject(): { dir: string; dispose(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-browser-'));
  fs.cpSync(FIXTURE, dir, { recursive: true });
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  fs.symlinkSync(ROOT, path.join(modules, 'autograph-ts'), 'junction');
  fs.symlinkSync(path.join(ROOT, 'node_modules/@tensorflow'), path.join(modules, '@tensorflow'), 'junction');
  return { dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface Build { name: string; outDir: string; entry: string; warnings: string[]; ms: number; bytes: number }

/** `vite build` of the project with `plugins: [autograph()]`; `minify` false or Vite's default. */
export async function viteBuild(dir: string, minify: boolean): Promise<Build> {
  const { build } = await importEsm<Vite>('vite');
  const { default: autograph } = await importEsm<{ default: () => VitePlugin }>('autograph-ts/vite');
  const outDir = path.join(dir, minify ? 'dist-vite-min' : 'dist-vite');
  const warnings: string[] = [];
  const started = Date.now();
  await build({
    root: dir, configFile: false, logLevel: 'warn',
    customLogger: collectingLogger(warnings),
    plugins: [autograph()],
    build: { outDir, minify, sourcemap: true, emptyOutDir: true },
  });
  return { name: `vite${minify ? ' minified' : ''}`, outDir, entry: 'index.html', warnings, ms: Date.now() - started, bytes: jsBytes(outDir) };
}

/** `vite build` of samples/browser (its own vite.config.ts), into a scratch folder. */
export async function viteBuildSample(outDir: string): Promise<Build> {
  const { build } = await importEsm<Vite>('vite');
  (require(path.join(ROOT, 'scripts/samples.js')) as { linkPackage(): void }).linkPackage();
  const warnings: string[] = [];
  const started = Date.now();
  await build({ root: path.join(ROOT, 'samples/browser'), logLevel: 'warn', customLogger: collectingLogger(warnings),
    build: { outDir, emptyOutDir: true } });
  return { name: 'samples/browser', outDir, entry: 'index.html', warnings, ms: Date.now() - started, bytes: jsBytes(outDir) };
}

/** esbuild's bundle of src/page.ts with `plugins: [autograph()]`, for the browser. */
export async function esbuildBuild(dir: string, minify: boolean): Promise<Build> {
  const esbuild = await importEsm<typeof import('esbuild')>('esbuild');
  const { default: autograph } = await importEsm<{ default: () => import('esbuild').Plugin }>('autograph-ts/esbuild');
  const outDir = path.join(dir, minify ? 'dist-esbuild-min' : 'dist-esbuild');
  const started = Date.now();
  const result = await esbuild.build({
    absWorkingDir: dir, entryPoints: ['src/page.ts'], bundle: true, format: 'esm', platform: 'browser',
    outdir: outDir, sourcemap: true, minify, logLevel: 'silent', plugins: [autograph()],
  });
  fs.writeFileSync(path.join(outDir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><pre id="log"></pre><script type="module" src="./page.js"></script>\n');
  const warnings = result.warnings.map((w) => `${w.location?.file ?? ''}:${w.location?.line ?? ''} ${w.text}`);
  return { name: `esbuild${minify ? ' minified' : ''}`, outDir, entry: 'index.html', warnings, ms: Date.now() - started, bytes: jsBytes(outDir) };
}

function collectingLogger(warnings: string[]): ReturnType<Vite['createLogger']> {
  const warned = new Set<string>();
  return {
    info() {}, clearScreen() {},
    warn(message) { warnings.push(message); },
    warnOnce(message) { if (!warned.has(message)) { warned.add(message); warnings.push(message); } },
    error(message) { warnings.push(`error: ${message}`); },
    hasErrorLogged: () => false,
    hasWarned: false,
  };
}

/** The bytes of the .js files a build wrote (source maps excluded). */
function jsBytes(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.map': 'application/json' };

/** COOP/COEP: a cross-origin isolated page (SharedArrayBuffer, so wasm threads). */
export const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

/** A localhost server for `dir`, with tfjs-backend-wasm's dist folder at /wasm/, sending `headers` with every file. */
export async function serve(dir: string, headers: Record<string, string> = {}): Promise<{ url: string; close(): Promise<void> }> {
  const wasmDir = path.join(ROOT, 'node_modules/@tensorflow/tfjs-backend-wasm/dist');
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const [base, rest] = pathname.startsWith('/wasm/') ? [wasmDir, pathname.slice(6)] : [dir, pathname.slice(1) || 'index.html'];
    const file = path.resolve(base, rest);
    if (!file.startsWith(base) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { ...headers, 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }) };
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-webgpu-adapter=swiftshader'];

export async function launchChromium(): Promise<Browser> {
  const puppeteer = await importEsm<Puppeteer>('puppeteer-core');
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface CaseResult { backend: string; name: string; ok: boolean; detail: string }

/** Opens `url`, waits for the page's results (`window.autographResults`). */
export async function runPage(browser: Browser, url: string): Promise<{ results: CaseResult[]; webgpuAdapter: boolean; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  try {
    await page.goto(url);
    await page.waitForFunction('window.autographResults !== undefined', { timeout: 60_000 });
    const results = await page.evaluate('window.autographResults') as CaseResult[];
    const webgpuAdapter = await page.evaluate('(async () => !!(navigator.gpu && await navigator.gpu.requestAdapter()))()') as boolean;
    return { results, webgpuAdapter, errors };
  } finally {
    await page.close();
  }
}
