/**
 * `autograph-ts doctor` on fake projects: a healthy one (this checkout's packages) and each broken
 * variant the README's quick start can end in, each finding with the advice it prints.
 */
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { diagnoseProject, type Finding, formatFindings, ORT_INSTALL, PLUGIN_ENTRY, REINSTALL_AS_COPY } from '../../transformer/cli/doctor';
import { BASE, checkoutProject, makeProject, removeProjects } from './fake_project';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist', 'transformer', 'cli.js');

const find = (findings: Finding[], check: string): Finding => {
  const found = findings.find((f) => f.check === check);
  expect(found, `a finding for ${check}`).to.not.equal(undefined);
  return found!;
};
const problems = (findings: Finding[]): string[] => findings.filter((f) => f.status === 'problem').map((f) => f.check);

describe('autograph-ts doctor', () => {
  after(removeProjects);

  it('reports this checkout\'s packages, installed into a project, as healthy', () => {
    const dir = checkoutProject(ROOT);
    const findings = diagnoseProject(dir);
    expect(problems(findings)).to.deep.equal([]);
    expect(find(findings, '@tensorflow/tfjs-core').detail).to.equal('4.22.0, one copy');
    expect(find(findings, 'tsconfig.json').detail).to.equal('plugin entry autograph-ts/transformer');
    expect(find(findings, 'typescript').detail).to.match(/^6\.\d+\.\d+, with the compiler API/);
    expect(find(findings, 'engines').detail).to.match(/^onnx \(onnxruntime-node 1\.30\.\d+/);
    expect(find(findings, 'tfjs backends').detail).to.match(/^cpu, wasm/);
    // The checkout is linked, not copied: worth a note, not a problem while tfjs is one copy.
    expect(find(findings, 'autograph-ts')).to.include({ status: 'note', fix: REINSTALL_AS_COPY });
    expect(formatFindings(dir, findings)).to.contain('healthy: autograph-ts can compile and stage in this project.');
    const run = spawnSync(process.execPath, [CLI, 'doctor'], { cwd: dir, encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.contain('healthy');
  });

  it('finds two copies of tfjs-core, and says to dedupe', () => {
    const dir = makeProject({ ...BASE,
      'node_modules/autograph-ts/node_modules/@tensorflow/tfjs-core/package.json': { name: '@tensorflow/tfjs-core', version: '4.21.0' } });
    const copies = find(diagnoseProject(dir), '@tensorflow/tfjs-core');
    expect(copies.status).to.equal('problem');
    expect(copies.detail).to.match(/^2 copies \(4\.22\.0 in .*; 4\.21\.0 in .*node_modules\/autograph-ts\/node_modules\/@tensorflow\/tfjs-core\)/);
    expect(copies.detail).to.contain('Platform node has already been set');
    expect(copies.fix).to.contain('`npm dedupe`');
  });

  it('finds two copies of autograph-ts (a dependency that brings its own), and says to dedupe', () => {
    const dir = makeProject({ ...BASE,
      'node_modules/some-model-zoo/package.json': { name: 'some-model-zoo', version: '1.0.0' },
      'node_modules/some-model-zoo/node_modules/autograph-ts/package.json': { name: 'autograph-ts', version: '0.0.9' } });
    const copies = find(diagnoseProject(dir), 'autograph-ts copies');
    expect(copies.status).to.equal('problem');
    expect(copies.detail).to.match(/^2 copies \(0\.1\.0 in .*; 0\.0\.9 in .*some-model-zoo\/node_modules\/autograph-ts\): each has its own runtime/);
    expect(copies.fix).to.contain('`npm dedupe`');
    expect(diagnoseProject(makeProject(BASE)).some((f) => f.check === 'autograph-ts copies')).to.equal(false);
  });

  it('finds the second copy a symlinked checkout brings, and says to install autograph-ts as a copy', () => {
    const checkout = makeProject({
      'package.json': { name: 'autograph-ts', version: '0.1.0' },
      'node_modules/@tensorflow/tfjs-core/package.json': { name: '@tensorflow/tfjs-core', version: '4.22.0' },
    });
    const layout = { ...BASE, 'node_modules/autograph-ts/package.json': undefined };
    const dir = makeProject(layout);
    fs.symlinkSync(checkout, path.join(dir, 'node_modules', 'autograph-ts'));
    const findings = diagnoseProject(dir);
    expect(find(findings, 'autograph-ts').status).to.equal('note');
    expect(find(findings, 'autograph-ts').detail).to.contain(`a symlink to ${fs.realpathSync(checkout)}`);
    const copies = find(findings, '@tensorflow/tfjs-core');
    expect(copies).to.include({ status: 'problem', fix: REINSTALL_AS_COPY });
    expect(copies.detail).to.match(/^2 copies/);
    expect(REINSTALL_AS_COPY).to.contain('npm install /path/to/autograph-ts-0.1.0.tgz').and.contain('install-links=true');
  });

  it('finds a tsconfig.json without the plugin entry, and follows "extends" to one that has it', () => {
    const without = find(diagnoseProject(makeProject({ ...BASE, 'tsconfig.json': { compilerOptions: { strict: true } } })), 'tsconfig.json');
    expect(without).to.include({ status: 'problem', fix: `add ${PLUGIN_ENTRY} to "compilerOptions"` });
    expect(without.detail).to.match(/^no plugin entry/);
    const extended = makeProject({ ...BASE, 'tsconfig.json': { extends: './tsconfig.base.json' }, 'tsconfig.base.json': BASE['tsconfig.json'] });
    expect(find(diagnoseProject(extended), 'tsconfig.json').status).to.equal('ok');
    const none = find(diagnoseProject(makeProject({ ...BASE, 'tsconfig.json': undefined })), 'tsconfig.json');
    expect(none).to.include({ status: 'problem', detail: 'not found' });
    expect(none.fix).to.contain('npx autograph-ts init');
  });

  it('finds TypeScript 7 (no compiler API for ts-patch), and says to install TypeScript 6', () => {
    // A package without the compiler API, as TypeScript 7's: the tsconfig is still read (comments, "extends").
    const dir = makeProject({ ...BASE, 'node_modules/typescript/package.json': { name: 'typescript', version: '7.0.0', main: 'index.js' },
      'node_modules/typescript/index.js': 'module.exports = {};\n',
      'tsconfig.json': '{\n  // comment\n  "extends": "./base",\n  "compilerOptions": { "strict": true, },\n}\n',
      'base.json': '{ /* the plugin */ "compilerOptions": { "plugins": [{ "transform": "autograph-ts/transformer" }] } }' });
    expect(find(diagnoseProject(dir), 'tsconfig.json').status).to.equal('ok');
    fs.writeFileSync(path.join(dir, 'base.json'), '{}');
    expect(find(diagnoseProject(dir), 'tsconfig.json').status).to.equal('problem');
    const typescript = find(diagnoseProject(dir), 'typescript');
    expect(typescript.status).to.equal('problem');
    expect(typescript.detail).to.match(/^7\.0\.0: TypeScript 7 \(the native port\) has no JavaScript compiler API/);
    expect(typescript.fix).to.equal('`npm install -D typescript@6`');
    const old = find(diagnoseProject(makeProject({ ...BASE, 'node_modules/typescript/package.json': { version: '5.4.5' } })), 'typescript');
    expect(old).to.include({ status: 'problem', detail: '5.4.5: autograph-ts needs TypeScript 5.9 or 6' });
  });

  it('finds no ONNX Runtime, or one without its binary, and says how to install it without the download', () => {
    const missing = find(diagnoseProject(makeProject(BASE)), 'engines');
    expect(missing).to.include({ status: 'problem', fix: ORT_INSTALL });
    expect(missing.detail).to.match(/^tfjs executor; not onnx: onnxruntime-node is not installed, staged graphs run on the tfjs executor only/);
    expect(ORT_INSTALL).to.contain('npm pkg set allowScripts.onnxruntime-node=false --json && npm install')
      .and.contain('ONNXRUNTIME_NODE_INSTALL=skip npm install');
    const noBinary = find(diagnoseProject(makeProject({ ...BASE,
      'node_modules/onnxruntime-node/package.json': { name: 'onnxruntime-node', version: '1.30.0', main: 'index.js' } })), 'engines');
    expect(noBinary.status).to.equal('problem');
    expect(noBinary.detail).to.contain(`onnxruntime-node 1.30.0 has no binary for ${process.platform}/${process.arch}`);
    expect(noBinary.fix).to.equal(`\`rm -rf node_modules/onnxruntime-node\`, then ${ORT_INSTALL}`);
  });

  it('finds missing packages and a project without package.json', () => {
    const bare = makeProject({ 'package.json': BASE['package.json'], 'tsconfig.json': BASE['tsconfig.json'] });
    expect(problems(diagnoseProject(bare))).to.deep.equal(['autograph-ts', '@tensorflow/tfjs-core', 'typescript', 'ts-patch', 'engines']);
    const notAProject = diagnoseProject(makeProject({}));
    expect(notAProject).to.have.length(1);
    expect(notAProject[0]).to.include({ check: 'package.json', status: 'problem' });
  });

  it('notes the npm config key npm 11 warns about, a build with plain tsc, and a missing allowScripts denial', () => {
    const dir = makeProject({ ...BASE, '.npmrc': 'onnxruntime-node-install=skip\n',
      'package.json': { name: 'p', version: '1.0.0', scripts: { build: 'tsc -p .' } } });
    const findings = diagnoseProject(dir);
    expect(find(findings, '.npmrc')).to.include({ status: 'note', fix: 'delete the line; `npm pkg set allowScripts.onnxruntime-node=false --json` does its job' });
    expect(find(findings, 'allowScripts')).to.include({ status: 'note', fix: '`npm pkg set allowScripts.onnxruntime-node=false --json`' });
    expect(find(findings, 'ts-patch')).to.include({ status: 'note', fix: 'use `tspc` in script \'build\'' });
  });

  it('prints each problem with its fix and exits 1', () => {
    const dir = makeProject({ ...BASE, 'node_modules/typescript/package.json': { name: 'typescript', version: '7.0.0' } });
    let status = 0;
    let stdout = '';
    try {
      execFileSync(process.execPath, [CLI, 'doctor'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      ({ status, stdout } = error as { status: number; stdout: string });
    }
    expect(status).to.equal(1);
    expect(stdout).to.contain('  PROBLEM typescript: 7.0.0: TypeScript 7').and.contain('fix: `npm install -D typescript@6`')
      .and.contain('2 problems: fix them in the order listed');
    const show = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    expect(show.stdout).to.contain('autograph-ts doctor').and.contain('autograph-ts init').and.contain('autograph-ts show');
  });
});
