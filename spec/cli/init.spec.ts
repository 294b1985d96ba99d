/**
 * `autograph-ts init`: what it writes into an empty directory and into one with files of its own
 * (kept unless --force; package.json merged), and that the doctor then finds the plugin entry.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { diagnoseProject } from '../../transformer/cli/doctor';
import { initProject } from '../../transformer/cli/init';
import { BASE, makeProject, removeProjects } from './fake_project';

const CLI = path.resolve(__dirname, '../../../dist/transformer/cli.js');
const read = (dir: string, file: string): string => fs.readFileSync(path.join(dir, file), 'utf8');
const readJson = (dir: string, file: string): Record<string, any> => JSON.parse(read(dir, file));

describe('autograph-ts init', () => {
  after(removeProjects);

  it('writes tsconfig.json, .npmrc, src/main.ts and package.json into an empty directory, and says so', () => {
    const dir = makeProject({});
    const report = initProject(dir);
    expect(report.filter((l) => l.startsWith('wrote'))).to.have.length(4);
    const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(dir, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, dir);
    expect(parsed.options).to.include({ module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true,
      outDir: path.join(dir, 'dist'), rootDir: path.join(dir, 'src') });
    expect(parsed.options.plugins).to.deep.equal([{ transform: 'autograph-ts/transformer' }]);
    expect(read(dir, '.npmrc')).to.match(/^install-links=true$/m).and.not.contain('onnxruntime-node-install');
    expect(read(dir, 'src/main.ts')).to.contain("'use autograph'").and.contain('stage(collatzSteps)');
    const manifest = readJson(dir, 'package.json');
    expect(manifest.scripts).to.deep.equal({ build: 'tspc -p .', start: 'node --enable-source-maps dist/main.js' });
    expect(manifest.allowScripts).to.deep.equal({ 'onnxruntime-node': false });
    // With the packages in place, the doctor finds nothing to fix in what init wrote.
    fs.cpSync(makeProject(BASE) + '/node_modules', path.join(dir, 'node_modules'), { recursive: true });
    const findings = diagnoseProject(dir);
    expect(findings.find((f) => f.check === 'tsconfig.json')?.status).to.equal('ok');
    expect(findings.filter((f) => f.status !== 'ok').map((f) => f.check)).to.deep.equal(['engines']); // fakes have no ONNX Runtime
  });

  it('merges its scripts into an existing package.json and keeps every file that exists', () => {
    const dir = makeProject({
      'package.json': { name: 'mine', version: '2.0.0', dependencies: { x: '1' }, scripts: { test: 'mocha', build: 'make' } },
      'tsconfig.json': '{ "compilerOptions": {} }\n',
    });
    const report = initProject(dir);
    expect(report).to.include('kept     tsconfig.json (it exists; --force overwrites it)');
    expect(report).to.include('kept     package.json script \'build\': make (--force sets `tspc -p .`)');
    expect(read(dir, 'tsconfig.json')).to.equal('{ "compilerOptions": {} }\n');
    const manifest = readJson(dir, 'package.json');
    expect(manifest).to.deep.include({ name: 'mine', version: '2.0.0', dependencies: { x: '1' }, allowScripts: { 'onnxruntime-node': false } });
    expect(manifest.scripts).to.deep.equal({ test: 'mocha', build: 'make', start: 'node --enable-source-maps dist/main.js' });
    // A second run changes nothing and keeps everything.
    const again = initProject(dir);
    expect(again.filter((l) => l.startsWith('wrote') || l.startsWith('updated'))).to.deep.equal([]);
  });

  it('overwrites with --force, through the command', () => {
    const dir = makeProject({ 'package.json': { name: 'p', scripts: { build: 'make' } }, 'tsconfig.json': '{}', '.npmrc': 'onnxruntime-node-install=skip\n' });
    const run = spawnSync(process.execPath, [CLI, 'init', '--force'], { cwd: dir, encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.contain('wrote    tsconfig.json').and.contain('wrote    .npmrc');
    expect(read(dir, 'tsconfig.json')).to.contain('"transform": "autograph-ts/transformer"');
    expect(read(dir, '.npmrc')).to.not.contain('onnxruntime-node-install');
    expect(readJson(dir, 'package.json').scripts.build).to.equal('tspc -p .');
    expect(spawnSync(process.execPath, [CLI, 'init', '--bogus'], { cwd: dir, encoding: 'utf8' }).status).to.equal(2);
  });
});
