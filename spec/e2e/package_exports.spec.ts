/**
 * package.json's exports, as a Node project meets them: an ES-module project imports `stage` and
 * the runtime by name and gets the CommonJS build (the `node` condition: one copy of autograph-ts
 * and tfjs whatever imports it), while bundlers' `browser` condition gets the ES-module build,
 * whose files are ES modules that name no Node built-in.
 */
import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';

const ROOT = path.resolve(__dirname, '../../..');

describe('package exports: Node ESM and the browser condition', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-esm-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(ROOT, path.join(dir, 'node_modules/autograph-ts'), 'junction');
    fs.symlinkSync(path.join(ROOT, 'node_modules/@tensorflow'), path.join(dir, 'node_modules/@tensorflow'), 'junction');
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs `script` as the project's main.mjs; package URLs in its output are made relative to the package. */
  const node = (args: string[], script: string): string => {
    fs.writeFileSync(path.join(dir, 'main.mjs'), script);
    const out = execFileSync(process.execPath, [...args, 'main.mjs'], { cwd: dir, encoding: 'utf8' });
    return out.split(`${pathToFileURL(fs.realpathSync(ROOT)).href}/`).join('');
  };

  it('an ES-module project imports { stage } and the runtime, gets the CommonJS build, and stages', () => {
    const out = node([], `
      import * as tf from '@tensorflow/tfjs';
      import { stage, range, StagingError } from 'autograph-ts';
      import * as ag__ from 'autograph-ts/runtime';
      const double = stage((x) => x.mul(2).add(ag__.ifExp(x.sum().greater(0), () => 1, () => -1)));
      const staged = double(tf.tensor([1, 2, 3])).arraySync();
      console.log(JSON.stringify({ staged, range: typeof range, error: typeof StagingError,
        resolved: import.meta.resolve('autograph-ts'),
        runtime: import.meta.resolve('autograph-ts/runtime') }));
    `);
    expect(JSON.parse(out)).to.deep.equal({ staged: [3, 5, 7], range: 'function', error: 'function',
      resolved: 'dist/index.js', runtime: 'dist/runtime/operators.js' });
  });

  it('the browser condition resolves to the ES-module build, which imports no Node built-in', () => {
    const out = node(['--conditions=browser'], `
      console.log(JSON.stringify([import.meta.resolve('autograph-ts'), import.meta.resolve('autograph-ts/runtime')]
        .map((u) => u)));
    `);
    expect(JSON.parse(out)).to.deep.equal(['dist/esm/index.js', 'dist/esm/runtime/operators.js']);
    const builtins = new Set(require('module').builtinModules as string[]);
    const files = fs.readdirSync(path.join(ROOT, 'dist/esm'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(files.length).to.be.greaterThan(50);
    const offenders = files.flatMap((f) => {
      const text = fs.readFileSync(path.join(ROOT, 'dist/esm', f), 'utf8');
      const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? m[2]);
      // (onnxruntime-web is the page's ONNX engine, imported on first use; the plugin stands in for it when absent.)
      return specifiers.filter((s) => s.startsWith('node:') || builtins.has(s) || s.startsWith('onnxruntime-node')).map((s) => `${f}: ${s}`);
    });
    expect(offenders).to.deep.equal([]);
  });
});
