/**
 * The README's quick start, followed literally in a fresh directory with the real npm (issue 19's
 * setup acceptance): the package packed from this checkout, `npm install` of it with tfjs, ts-patch
 * and TypeScript 6, `npx autograph-ts init`, `doctor` healthy, `npm run build && npm start`; then a
 * later `npm i -D @types/node` keeps one copy of tfjs, and the greedy decode with `push`/`break`
 * gives the same tokens staged as eagerly. Then each broken variant of that real project (two
 * copies of tfjs-core, no plugin entry, a TypeScript without the compiler API as TypeScript 7 is,
 * no ONNX Runtime) is reported by `doctor` with what to do.
 *
 * It installs packages from the npm registry (about a minute): run with AUTOGRAPH_E2E_INSTALL=1
 * after `npm run build` (it packs the built dist/ as is). Skipped in the default `npm test`.
 */
import { expect } from 'chai';
import { spawnSync, type SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { packageCopies } from '../../transformer/cli/project';

const ROOT = path.resolve(__dirname, '../../..');

const DECODE = `import * as tf from '@tensorflow/tfjs';
import { stage } from 'autograph-ts';

function decode(start: tf.Tensor, next: tf.Tensor, maxLen: number): tf.Tensor {
  'use autograph';
  let tok = start;                       // shape [1], int32
  const tokens: tf.Tensor[] = [];
  for (let t = tf.scalar(0, 'int32'); t.less(maxLen); t = t.add(tf.scalar(1, 'int32'))) {
    tok = next.gather(tok);
    tokens.push(tok);
    if (tok.equal(0)) break;             // eos
  }
  return tf.concat(tokens);
}

const next = tf.tensor1d([1, 2, 3, 4, 0], 'int32');
const eager = decode(tf.tensor1d([1], 'int32'), next, 10);
const results: Record<string, unknown> = { eager: [eager.arraySync(), eager.dtype] };
for (const engine of ['auto', 'tfjs', 'onnx'] as const) {
  const staged = stage(decode, { engine });
  const out = staged(tf.tensor1d([1], 'int32'), next, 10);
  results[engine] = [out.arraySync(), out.dtype, staged.inspect(tf.tensor1d([1], 'int32'), next, 10).engine.lastCall?.engine];
}
console.log(JSON.stringify(results));
`;

describe('e2e: the README quick start in a fresh directory, with the real npm', function () {
  this.timeout(600_000);
  let dir: string;
  let tarball: string;

  const run = (command: string, args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> => {
    const result = spawnSync(command, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
    return result;
  };
  const ok = (command: string, args: string[]): string => {
    const result = run(command, args);
    expect(result.status, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).to.equal(0);
    return result.stdout;
  };
  const doctor = (): { status: number | null; stdout: string } => {
    const result = run('npx', ['autograph-ts', 'doctor']);
    return { status: result.status, stdout: result.stdout };
  };

  before(function () {
    if (!process.env.AUTOGRAPH_E2E_INSTALL) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-quick-start-'));
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
    expect(packed.status, packed.stderr).to.equal(0);
    tarball = path.join(dir, packed.stdout.trim().split('\n').pop()!);
    dir = path.join(dir, 'project');
    fs.mkdirSync(dir);
  });
  after(() => {
    if (dir !== undefined) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('install, init, doctor healthy, build and start: Tensor 111 twice', () => {
    ok('npm', ['init', '-y']);
    ok('npm', ['pkg', 'set', 'allowScripts.onnxruntime-node=false', '--json']);
    ok('npm', ['install', tarball, '@tensorflow/tfjs', 'ts-patch', 'typescript@6', '--prefer-offline', '--no-audit', '--no-fund']);
    ok('npx', ['autograph-ts', 'init']);
    const healthy = doctor();
    expect(healthy.status, healthy.stdout).to.equal(0);
    expect(healthy.stdout).to.contain('healthy: autograph-ts can compile and stage in this project.')
      .and.contain('ok      engines: onnx (onnxruntime-node');
    ok('npm', ['run', 'build']);
    const start = ok('npm', ['start']);
    expect(start.match(/Tensor\s+111/g)).to.have.length(2);
  });

  it('after `npm i -D @types/node`: one tfjs-core, and the decode with push/break equals eager on every engine', () => {
    ok('npm', ['i', '-D', '@types/node', '--prefer-offline', '--no-audit', '--no-fund']);
    expect(packageCopies(dir, '@tensorflow/tfjs-core')).to.have.length(1);
    expect(doctor().status).to.equal(0);
    fs.writeFileSync(path.join(dir, 'src', 'decode.ts'), DECODE);
    ok('npm', ['run', 'build']);
    const out = ok('node', ['dist/decode.js']).split('\n').find((l) => l.startsWith('{'))!;
    const results = JSON.parse(out) as Record<string, unknown[]>;
    expect(results.eager).to.deep.equal([[2, 3, 4, 0], 'int32']);
    expect(results.tfjs).to.deep.equal([[2, 3, 4, 0], 'int32', 'tfjs']);
    expect(results.onnx).to.deep.equal([[2, 3, 4, 0], 'int32', 'onnx']);
    expect(results.auto.slice(0, 2)).to.deep.equal([[2, 3, 4, 0], 'int32']);
  });

  /** Breaks the project one way, runs the doctor, puts it back. */
  const broken = (breakIt: () => () => void): { status: number | null; stdout: string } => {
    const restore = breakIt();
    try {
      return doctor();
    } finally {
      restore();
    }
  };
  const move = (from: string, to: string) => (): () => void => {
    fs.renameSync(path.join(dir, from), path.join(dir, to));
    return () => fs.renameSync(path.join(dir, to), path.join(dir, from));
  };

  it('doctor reports each broken variant of the real project with what to do', () => {
    const modules = path.join(dir, 'node_modules');
    const twoCopies = broken(() => {
      const second = path.join(modules, 'autograph-ts', 'node_modules', '@tensorflow', 'tfjs-core');
      fs.cpSync(path.join(modules, '@tensorflow', 'tfjs-core'), second, { recursive: true });
      return () => fs.rmSync(path.join(modules, 'autograph-ts', 'node_modules'), { recursive: true, force: true });
    });
    expect(twoCopies.status).to.equal(1);
    expect(twoCopies.stdout).to.match(/PROBLEM @tensorflow\/tfjs-core: 2 copies/).and.contain('fix: `npm dedupe`');

    const noPlugin = broken(() => {
      const file = path.join(dir, 'tsconfig.json');
      const text = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, text.replace(/"plugins":\s*\[[^\]]*\],?/, ''));
      return () => fs.writeFileSync(file, text);
    });
    expect(noPlugin.status).to.equal(1);
    expect(noPlugin.stdout).to.contain('PROBLEM tsconfig.json: no plugin entry for the transformer')
      .and.contain('fix: add "plugins": [{ "transform": "autograph-ts/transformer" }] to "compilerOptions"');

    // TypeScript 7 as the doctor meets it: a `typescript` package of version 7 without the JS compiler API.
    const typescript7 = broken(() => {
      move('node_modules/typescript', 'node_modules/.typescript6')();
      fs.mkdirSync(path.join(modules, 'typescript'));
      fs.writeFileSync(path.join(modules, 'typescript', 'package.json'), JSON.stringify({ name: 'typescript', version: '7.0.0', main: 'index.js' }));
      fs.writeFileSync(path.join(modules, 'typescript', 'index.js'), 'module.exports = {};\n');
      return () => {
        fs.rmSync(path.join(modules, 'typescript'), { recursive: true });
        fs.renameSync(path.join(modules, '.typescript6'), path.join(modules, 'typescript'));
      };
    });
    expect(typescript7.status).to.equal(1);
    expect(typescript7.stdout).to.contain('PROBLEM typescript: 7.0.0: TypeScript 7 (the native port) has no JavaScript compiler API')
      .and.contain('fix: `npm install -D typescript@6`');

    const noOrt = broken(move('node_modules/onnxruntime-node', 'node_modules/.onnxruntime-node'));
    expect(noOrt.status).to.equal(1);
    expect(noOrt.stdout).to.contain('PROBLEM engines: tfjs executor; not onnx: onnxruntime-node is not installed')
      .and.contain('fix: `npm pkg set allowScripts.onnxruntime-node=false --json && npm install`');

    expect(doctor().status, 'restored').to.equal(0);
  });
});
