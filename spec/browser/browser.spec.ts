/**
 * Issue 18: autograph-ts in the browser. A user project (spec/fixtures/browser) is built by Vite and
 * by esbuild, each configured only with the autograph-ts plugin, minified and not; the builds warn
 * about no Node module; in headless Chromium each page stages collatz, an RNN over for...of, a
 * greedy decoder (push + JS counter + tensor break) and the RNN at 5 sequence lengths, and
 * compares with eager on cpu, wasm, webgl (SwiftShader) and webgpu where an adapter exists. One
 * Chromium for all pages.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Browser, Build, CaseResult, CHROMIUM, esbuildBuild, launchChromium, runPage, scratchProject, serve, viteBuild, viteBuildSample } from './harness';

/** webgpu runs where Chromium has an adapter (SwiftShader's Vulkan here); its cases are skipped, saying so, elsewhere. */
const BACKENDS = ['cpu', 'wasm', 'webgl', 'webgpu'];
const CASES = ['collatz', 'rnn for...of', 'decode push + counter + break', 'power by recursion', 'rnn with 5 sequence lengths'];
const BUILDS: Array<[string, (dir: string) => Promise<Build>]> = [
  ['vite', (dir) => viteBuild(dir, false)],
  ['vite minified', (dir) => viteBuild(dir, true)],
  ['esbuild', (dir) => esbuildBuild(dir, false)],
  ['esbuild minified', (dir) => esbuildBuild(dir, true)],
];
/**
 * Failures whose cause is known and outside autograph-ts: a case failing with one of these errors is
 * reported pending, its title naming the cause; any other failure fails. webgpu (measured in this
 * Chromium, which has a SwiftShader fallback adapter): eager reads with data() are right, but once
 * one dataSync ran, tfjs-webgpu's kernels return zeros and the device is destroyed shortly after
 * (plain eager tfjs, without autograph-ts, does the same).
 */
const KNOWN_CAUSES: Array<[RegExp, string]> = [
  [/Failed to execute '(mapAsync|createBuffer)' on 'GPU(Buffer|Device)'/,
    'tfjs-webgpu 4.22 on SwiftShader: after the first synchronous read (dataSync, which eager converted code uses for ' +
    'its tensor conditions) its kernels return zeros (tf.scalar(27).mod(2) gives 0; eager collatz(27) 1 step, not ' +
    '111; with data() only: 111) and the device is then destroyed, so there is no eager reference on webgpu here'],
];

/** Warnings that say a Node module reached the browser build. */
const NODE_MODULE_WARNING = /\b(fs|path|os|util|worker_threads|module|crypto|child_process|perf_hooks)\b.*(externalized|browser compatibility|could not be resolved|not found)|node:|__dirname|Dynamic require|onnxruntime-node|\.node\b/i;

describe('browser: Vite and esbuild builds with the plugin, run in headless Chromium', function () {
  this.timeout(240_000);
  const builds = new Map<string, Build>();
  const pages = new Map<string, { results: CaseResult[]; webgpuAdapter: boolean; errors: string[] }>();
  let project: { dir: string; dispose(): void } | undefined;
  let browser: Browser | undefined;

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    const started = Date.now();
    project = scratchProject();
    for (const [name, build] of BUILDS) builds.set(name, await build(project.dir));
    browser = await launchChromium();
    for (const [name, build] of builds) {
      const server = await serve(build.outDir);
      try {
        const pageStarted = Date.now();
        pages.set(name, await runPage(browser, `${server.url}${build.entry}`));
        console.log(`      ${name}: page ${Date.now() - pageStarted} ms`);
      } finally {
        await server.close();
      }
    }
    const summary = [...builds.values()].map((b) => `${b.name} ${(b.bytes / 1e6).toFixed(2)} MB js, ${b.warnings.length} warning(s), ${b.ms} ms`);
    const adapter = [...pages.values()].some((p) => p.webgpuAdapter);
    console.log(`      browser spec: ${summary.join('; ')}; WebGPU adapter: ${adapter ? 'yes' : 'none'}; total ${Date.now() - started} ms`);
  });

  after(async () => {
    await browser?.close();
    project?.dispose();
  });

  it('samples/browser builds with its vite.config.ts, converted, without warnings about Node modules', async () => {
    const sample = await viteBuildSample(path.join(project!.dir, 'dist-sample'));
    expect(sample.warnings.filter((w) => NODE_MODULE_WARNING.test(w)), sample.warnings.join('\n')).to.deep.equal([]);
    const js = fs.readdirSync(path.join(sample.outDir, 'assets')).filter((f) => f.endsWith('.js'))
      .map((f) => fs.readFileSync(path.join(sample.outDir, 'assets', f), 'utf8')).join('\n');
    expect(js).to.contain('src/models.ts:19:3');   // the origin of the converted for...of
    // tfjs-backend-wasm's three binaries (and onnxruntime-web's, for the onnx-web engine).
    expect(fs.readdirSync(path.join(sample.outDir, 'assets')).filter((f) => f.endsWith('.wasm') && f.startsWith('tfjs-backend-wasm'))).to.have.length(3);
  });

  for (const [name] of BUILDS) {
    describe(name, () => {
      it('builds without warnings about Node modules', () => {
        const warnings = builds.get(name)!.warnings;
        expect(warnings.filter((w) => NODE_MODULE_WARNING.test(w)), warnings.join('\n')).to.deep.equal([]);
      });

      it('the page runs without uncaught errors', () => {
        expect(pages.get(name)!.errors).to.deep.equal([]);
      });

      for (const backend of BACKENDS) {
        for (const what of CASES) {
          it(`${backend}: ${what} staged == eager`, function () {
            const page = pages.get(name)!;
            if (backend === 'webgpu' && !page.webgpuAdapter) {
              this.test!.title += ' — skipped: this Chromium has no WebGPU adapter';
              this.skip();
            }
            const result = page.results.find((r) => r.backend === backend && r.name === what);
            expect(result, JSON.stringify(pages.get(name)!.results, null, 1)).to.not.equal(undefined);
            const known = KNOWN_CAUSES.find(([error]) => !result!.ok && error.test(result!.detail));
            if (known !== undefined) {
              this.test!.title += ` — PENDING (${known[1]}): ${result!.detail.slice(0, 160)}`;
              this.skip();
            }
            expect(result!.detail).to.equal('staged == eager');
          });
        }
      }
    });
  }
});
