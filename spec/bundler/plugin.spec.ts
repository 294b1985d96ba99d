/**
 * The bundler plugin (bundler/): esbuild with `autograph-ts/esbuild` converts what tspc converts,
 * across files; the transformer's diagnostics become esbuild's errors and warnings at file:line;
 * the output's source map leads back to the .ts; and a change in a callee's file re-transforms
 * its caller (the project's program is rebuilt; the caller lists the callee as a watch file).
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SourceMapConsumer } from 'source-map';

const ROOT = path.resolve(__dirname, '../../..');
type Esbuild = typeof import('esbuild');
type ProjectModule = typeof import('../../bundler/project.mjs', { with: { 'resolution-mode': 'import' } });
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'esnext', moduleResolution: 'bundler', strict: true, skipLibCheck: true, types: [] }, include: ['src'] };

describe('bundler plugin: the transformer in esbuild (autograph-ts/esbuild)', function () {
  this.timeout(120_000);
  let dir: string;
  let esbuild: Esbuild;
  let autograph: (options?: object) => import('esbuild').Plugin;

  const write = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  const bundle = (entry: string, options: object = {}) => esbuild.build({
    absWorkingDir: dir, entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', write: false,
    outdir: 'out', sourcemap: 'external', logLevel: 'silent', external: ['@tensorflow/*', 'autograph-ts', 'autograph-ts/runtime'],
    plugins: [autograph(options)],
  });

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bundler-'));
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(ROOT, path.join(dir, 'node_modules/autograph-ts'), 'junction');
    fs.symlinkSync(path.join(ROOT, 'node_modules/@tensorflow'), path.join(dir, 'node_modules/@tensorflow'), 'junction');
    write('tsconfig.json', JSON.stringify(TSCONFIG));
    esbuild = await importEsm<Esbuild>('esbuild');
    autograph = (await importEsm<{ default: typeof autograph }>('autograph-ts/esbuild')).default;
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('converts a directive function and its callee in another file; the source map leads to the .ts', async () => {
    write('src/step.ts', `import * as tf from '@tensorflow/tfjs';
export function step(n: tf.Tensor): tf.Tensor {
  if (n.mod(2).equal(0)) return n.div(2);
  return n.mul(3).add(1);
}
`);
    write('src/main.ts', `import * as tf from '@tensorflow/tfjs';
import { step } from './step';
export function collatz(n: tf.Tensor): tf.Tensor {
  'use autograph';
  let steps = tf.scalar(0);
  while (n.greater(1)) {
    n = step(n);
    steps = steps.add(1);
  }
  return steps;
}
`);
    const result = await bundle('src/main.ts');
    expect(result.errors).to.deep.equal([]);
    expect(result.warnings).to.deep.equal([]);
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
    expect(js).to.match(/import \* as ag__\d* from "autograph-ts\/runtime"/);
    expect(js).to.match(/ag__\d*\.whileStmt\(/);
    expect(js).to.match(/ag__\d*\.ifStmt\(/);            // in step(), the callee
    expect(js).to.contain('origin: "src/step.ts:3:3"');
    const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith('.map'))!.text);
    const line = js.split('\n').findIndex((l) => /ag__\d*\.whileStmt\(/.test(l)) + 1;
    const consumer = await new SourceMapConsumer(map);
    const original = consumer.originalPositionFor({ line, column: js.split('\n')[line - 1].search(/ag__\d*\.whileStmt\(/) });
    consumer.destroy();
    expect(original.source).to.match(/src\/main\.ts$/);
    expect(original.line).to.equal(6);
  });

  it('reports the transformer\'s warnings as esbuild warnings and its errors as errors, at file:line', async () => {
    write('src/warned.ts', `import * as tf from '@tensorflow/tfjs';
export function positive(x: tf.Tensor): number {
  if (x.greater(0)) return 1;
  return 0;
}
`);
    const warned = await bundle('src/warned.ts');
    expect(warned.errors).to.deep.equal([]);
    expect(warned.warnings.map((w) => [/^TS99103: /.test(w.text), w.location?.file, w.location?.line]))
      .to.deep.equal([[true, 'src/warned.ts', 3]]);

    write('src/refused.ts', `import * as tf from '@tensorflow/tfjs';
export function pick(x: tf.Tensor): number {
  'use autograph';
  switch (x.sum()) { case 1: return 1; default: return 0; }
}
`);
    const refused = await bundle('src/refused.ts').then(() => undefined, (error: { errors: { text: string; location?: { line: number } }[] }) => error);
    expect(refused, 'the build fails').to.not.equal(undefined);
    expect(refused!.errors.map((e) => e.text)).to.satisfy((texts: string[]) => texts.some((t) => /TS99003: autograph-ts: A switch on a Tensor/.test(t)));
    expect(refused!.errors[0].location?.line).to.equal(4);
    // "warnings": "error" (the plugin's options are the tsconfig plugin entry's)
    const strict = await bundle('src/warned.ts', { warnings: 'error' }).then(() => 'built', () => 'failed');
    expect(strict).to.equal('failed');
  });

  it('a change in a callee\'s file re-transforms its caller (the program is rebuilt; the callee is a watch file)', async () => {
    const { Project } = await importEsm<ProjectModule>(path.join(ROOT, 'dist/bundler/project.mjs'));
    write('src/flag.ts', `export function flag(x: number): boolean { return x > 0; }\n`);
    write('src/user.ts', `import { flag } from './flag';
export function f(x: number): number {
  'use autograph';
  if (flag(x)) return 1;
  return 0;
}
`);
    const project = new Project({}, path.join(dir, 'tsconfig.json'));
    const caller = path.join(dir, 'src/user.ts');
    const before = project.emit(caller, fs.readFileSync(caller, 'utf8'));
    expect(before.code).to.not.contain('ag__.ifStmt');   // a boolean condition: plain JS
    expect(before.related).to.deep.equal([path.join(dir, 'src/flag.ts').replace(/\\/g, '/')]);
    write('src/flag.ts', `import * as tf from '@tensorflow/tfjs';\nexport function flag(x: number): tf.Tensor { return tf.scalar(x).greater(0); }\n`);
    project.invalidate(path.join(dir, 'src/flag.ts'));
    const after = project.emit(caller, fs.readFileSync(caller, 'utf8'));
    expect(after.code).to.contain('ag__.ifStmt');        // now a Tensor condition: converted
  });

  it('in Vite\'s dev server, a change in a callee\'s file re-transforms its caller', async () => {
    type Vite = typeof import('vite', { with: { 'resolution-mode': 'import' } });
    const { createServer } = await importEsm<Vite>('vite');
    const autographVite = (await importEsm<{ default: () => import('vite', { with: { 'resolution-mode': 'import' } }).Plugin }>('autograph-ts/vite')).default;
    write('src/dev_flag.ts', `export function flag(x: number): boolean { return x > 0; }\n`);
    write('src/dev_user.ts', `import { flag } from './dev_flag';
export function f(x: number): number {
  'use autograph';
  if (flag(x)) return 1;
  return 0;
}
`);
    const server = await createServer({ root: dir, configFile: false, logLevel: 'silent', plugins: [autographVite()],
      server: { middlewareMode: true, ws: false }, optimizeDeps: { noDiscovery: true } });
    try {
      expect((await server.transformRequest('/src/dev_user.ts'))!.code).to.not.contain('ifStmt');
      await server.transformRequest('/src/dev_flag.ts');
      const callee = path.join(dir, 'src/dev_flag.ts');
      fs.writeFileSync(callee, `import * as tf from '@tensorflow/tfjs';\nexport function flag(x: number): tf.Tensor { return tf.scalar(x).greater(0); }\n`);
      server.watcher.emit('change', callee);   // (what the file watcher reports, without waiting for it)
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await server.transformRequest('/src/dev_user.ts'))!.code).to.contain('ifStmt');
    } finally {
      await server.close();
    }
  });
});
