/**
 * Issue 18: samples/browser in headless Chromium, served cross-origin isolated (COOP/COEP, as its
 * vite.config.ts serves it), where onnxruntime-web and tfjs-backend-wasm could start threads. Every
 * row of the page (the RNN and the greedy decoder eager vs staged on cpu, wasm and webgl, and the
 * RNN staged on onnxruntime-web via `staged.run` next to tfjs-wasm eager) must give staged == eager;
 * the timings are printed, not asserted (the machine may be shared).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Browser, CHROMIUM, ISOLATED, launchChromium, serve, viteBuildSample } from './harness';

interface SampleRow { backend: string; name: string; eagerMs?: number; stagedMs?: number; speedUp?: number; same: boolean; detail: string }
interface SamplePage { results: SampleRow[]; setup: Record<string, string>; error?: string }

describe('browser: samples/browser, cross-origin isolated', function () {
  this.timeout(300_000);
  let page: SamplePage | undefined;
  const errors: string[] = [];
  let browser: Browser | undefined;
  let outDir: string | undefined;

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-sample-'));
    await viteBuildSample(outDir);
    const server = await serve(outDir, ISOLATED);
    browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      tab.on('pageerror', (error) => errors.push(String(error)));
      await tab.goto(`${server.url}index.html`);
      await tab.waitForFunction('window.sampleResults !== undefined', { timeout: 240_000, polling: 500 });
      page = await tab.evaluate('window.sampleResults') as SamplePage;
    } finally {
      await server.close();
    }
    const figures = page.results.map((r) => `${r.backend} ${r.name}: eager ${r.eagerMs?.toFixed(1)} ms, staged ${r.stagedMs?.toFixed(1)} ms, ${r.speedUp?.toFixed(2)}×`);
    console.log(`      sample page: ${JSON.stringify(page.setup)}\n      ${figures.join('\n      ')}`);
  });

  after(async () => {
    await browser?.close();
    if (outDir !== undefined) fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('is cross-origin isolated and finishes without uncaught errors (tfjs-wasm threads off, see main.ts)', () => {
    expect(page!.error, page!.error).to.equal(undefined);
    expect(errors).to.deep.equal([]);
    expect(page!.setup.crossOriginIsolated).to.equal('true');
  });

  for (const backend of ['cpu', 'wasm', 'webgl']) {
    it(`${backend}: the RNN and the greedy decoder staged == eager`, () => {
      const rows = page!.results.filter((r) => r.backend === backend && !r.name.includes('onnxruntime-web'));
      expect(rows.map((r) => r.name)).to.deep.equal(['rnn 32 steps', 'greedy decoder']);
      for (const r of rows) expect(r.detail, r.name).to.equal('staged == eager');
    });
  }

  it('the RNN staged on onnxruntime-web (wasm, staged.run) == tfjs-wasm eager', () => {
    const row = page!.results.find((r) => r.name.includes('onnxruntime-web'));
    expect(row, JSON.stringify(page!.results)).to.not.equal(undefined);
    expect(row!.detail).to.equal('staged == eager');
    expect(page!.setup['onnxruntime-web']).to.match(/execution providers wasm, wasm threads \d+/);
  });
});
