/**
 * Issue 18: the Rollup and webpack adapters (`autograph-ts/rollup`, `autograph-ts/webpack`), each
 * configured only with the plugin (plus what the bundler itself needs to resolve node_modules and
 * .ts files), bundle the browser fixture's programs with tfjs and autograph-ts's ES-module build
 * (the `browser` condition); Node runs each bundle: collatz, the RNN over for...of at 5 lengths and
 * the decoder give staged == eager, and the RNN's loop is a While in the graph (converted by the plugin).
 */
import { expect } from 'chai';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { promisify } from 'util';
import { scratchProject } from '../browser/harness';

const ROOT = path.resolve(__dirname, '../../..');
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;
type Rollup = typeof import('rollup', { with: { 'resolution-mode': 'import' } });
type RollupPlugin = import('rollup', { with: { 'resolution-mode': 'import' } }).Plugin;

async function rollupBuild(dir: string): Promise<{ file: string; warnings: string[] }> {
  const { rollup } = await importEsm<Rollup>('rollup');
  const { default: autograph } = await importEsm<{ default: () => RollupPlugin }>('autograph-ts/rollup');
  const { nodeResolve } = await importEsm<{ nodeResolve(o: object): RollupPlugin }>('@rollup/plugin-node-resolve');
  const { default: commonjs } = await importEsm<{ default: () => RollupPlugin }>('@rollup/plugin-commonjs');
  const warnings: string[] = [];
  const bundle = await rollup({
    input: path.join(dir, 'src/node_main.ts'),
    plugins: [autograph(), nodeResolve({ browser: true, extensions: ['.ts', '.js', '.mjs'] }), commonjs()],
    onwarn: (warning) => { warnings.push(`${warning.code}: ${warning.message}`); },
  });
  // CommonJS output: tfjs-core's Node platform (chosen when it runs in Node) calls require('util').
  const file = path.join(dir, 'dist-rollup/main.cjs');
  await bundle.write({ file, format: 'cjs', inlineDynamicImports: true, sourcemap: true });
  await bundle.close();
  return { file, warnings };
}

async function webpackBuild(dir: string): Promise<{ file: string; warnings: string[] }> {
  const webpack = require('webpack') as typeof import('webpack');
  const { default: autograph } = await importEsm<{ default: () => import('webpack').WebpackPluginInstance }>('autograph-ts/webpack');
  const outDir = path.join(dir, 'dist-webpack');
  const stats = await new Promise<import('webpack').Stats>((resolve, reject) => webpack({
    context: dir, mode: 'production', target: 'node', devtool: 'source-map',
    entry: './src/node_main.ts', output: { path: outDir, filename: 'main.js' },
    resolve: { extensions: ['.ts', '.js'], conditionNames: ['browser', 'import', 'module', 'default'] },
    optimization: { splitChunks: false },
    plugins: [autograph()],
  }, (error, result) => (error || result === undefined ? reject(error ?? new Error('webpack: no stats')) : resolve(result))));
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
  return { file: path.join(outDir, 'main.js'), warnings: stats.compilation.warnings.map((w) => w.message) };
}

describe('e2e: Rollup and webpack builds with the plugin, run by Node', function () {
  this.timeout(240_000);
  for (const [name, build] of [['rollup', rollupBuild], ['webpack', webpackBuild]] as const) {
    it(`${name}: collatz, the RNN over for...of (5 lengths) and the decoder staged == eager, the loop converted`, async () => {
      const project = scratchProject();
      try {
        fs.copyFileSync(path.join(ROOT, 'spec/fixtures/bundlers/node_main.ts'), path.join(project.dir, 'src/node_main.ts'));
        const { file, warnings } = await build(project.dir);
        const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: project.dir, maxBuffer: 1 << 24 });
        const out = JSON.parse(stdout.trim().split('\n').pop()!) as { results?: Record<string, string>; converted?: boolean; error?: string };
        expect(out.error, `${out.error}\nwarnings: ${warnings.join('\n')}`).to.equal(undefined);
        expect(out.results).to.deep.equal({ collatz: 'staged == eager', 'rnn for...of': 'staged == eager', 'decode push + counter + break': 'staged == eager' });
        expect(out.converted, 'the RNN graph has a While (the plugin converted for...of)').to.equal(true);
      } finally {
        project.dispose();
      }
    });
  }
});
