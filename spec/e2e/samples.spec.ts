/**
 * End to end: sample projects compiled by the real `tspc` (ts-patch loading the plugin named in
 * their tsconfig.json), then run by `node` in child processes, as a user would. The samples are
 * copied to a scratch directory first (see scripts/samples.js copySamples), so this spec never
 * races with `npm run demo` or another test run over samples/<name>/out.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SourceMapConsumer } from 'source-map';

interface NodeResult { code: number; stdout: string; stderr: string; ms: number }
interface SamplesScripts {
  copySamples(dir: string, names?: string[]): void;
  compileSamples(names: string[], options: { cwd: string }): Promise<NodeResult>;
  runNode(args: string[], options: { cwd: string }): Promise<NodeResult>;
  runSample(name: string, nodeArgs: string[], dir: string, env?: Record<string, string>): Promise<NodeResult>;
}

const ROOT = path.resolve(__dirname, '../../..');
const samples = require(path.join(ROOT, 'scripts/samples.js')) as SamplesScripts;
const NAMES = ['collatz', 'rnn', 'control', 'script', 'training', 'newton', 'seq2seq', 'mnist', 'bptt'];

/** 1-based line of the first line of `file` that contains `text`. */
function lineOf(file: string, text: string): number {
  const index = fs.readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`'${text}' not found in ${file}`);
  return index + 1;
}

describe('e2e: sample projects compiled with tspc', function () {
  this.timeout(120_000);
  let dir: string;

  before(async function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-e2e-'));
    samples.copySamples(dir, NAMES);
    await samples.compileSamples(NAMES, { cwd: dir });   // one `tspc -b` process for all of them
  });

  after(() => {
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = async (name: string, nodeArgs: string[] = [], env: Record<string, string> = {}): Promise<string> => {
    const result = await samples.runSample(name, nodeArgs, path.join(dir, name), env);
    expect(result.code, `node ${name}:\n${result.stdout}${result.stderr}`).to.equal(0);
    return result.stdout;
  };

  it('a CommonJS project (module node16) computes collatz(27) = 111 steps, eager and staged', async () => {
    expect(fs.readFileSync(path.join(dir, 'collatz/out/collatz.js'), 'utf8')).to.contain('require("autograph-ts/runtime")');
    const out = await run('collatz');
    expect(out).to.contain('collatz(27) = 111 steps (eager), 111 (staged)');
    expect(out).to.contain('collatz(97) = 118 steps (eager), 118 (staged)');
    expect(out).to.contain('traced 1 time(s)');
  });

  it('an ES-module project ("type": "module", nodenext) runs the RNN and greedy decoder', async () => {
    expect(fs.readFileSync(path.join(dir, 'rnn/out/rnn.js'), 'utf8')).to.match(/^import \* as ag__ from "autograph-ts\/runtime";/);
    const out = await run('rnn');
    expect(out).to.contain('rnn: last hidden state sum = 0.9705 (eager), 0.9705 (staged)');
    expect(out).to.contain('greedyDecode(eos=5): length 4, checksum 9 (eager), length 4, checksum 9 (staged)');
    expect(out).to.contain('greedyDecode(eos=3): length 10, checksum 21 (eager), length 10, checksum 21 (staged)');
    // Hidden 256 against the plain tfjs reference; the batched decoder stops when all 16 sequences have.
    const gaps = /max \|eager - reference\| (\S+), max \|staged - reference\| (\S+)/.exec(out)!.slice(1).map(Number);
    expect(gaps[0], out).to.equal(0);
    expect(gaps[1], out).to.be.lessThan(1e-4);
    const lengths = '13,5,27,29,13,38,10,40,45,45,9,26,37,25,13,21';
    expect(out).to.contain(`decodeBatch b16 v1000 (eager): lengths ${lengths}; same tokens as the reference`);
    expect(out).to.contain(`decodeBatch b16 v1000 (staged): lengths ${lengths}; same tokens as the reference`);
  });

  it('BPTT: gradients through the staged loop over time equal eager ones, and the loss goes down', async () => {
    const out = await run('bptt', [], { BPTT_STEPS: '40' });
    // 'auto' may run the graph in ONNX Runtime, whose float sums round in another order: 1e-5.
    const [, gap, lossEager, lossStaged] = /max \|staged - eager\| (\S+) \(loss (\S+) eager, (\S+) staged\)/.exec(out)!;
    expect(Number(gap), out).to.be.at.most(1e-5);
    expect(lossStaged).to.equal(lossEager);
    const losses = [...(/loss before step (.*)/.exec(out)![1]).matchAll(/\d+: ([\d.]+)/g)].map((m) => Number(m[1]));
    expect(losses, out).to.have.length(3);
    expect(losses[2], out).to.be.lessThan(losses[0] / 10);
    // The staged step's first calls run on both engines in turn ('auto' times them), whose float
    // sums round differently: the weights agree with the whole loop's to rounding, not bit for bit.
    const [, weightGap] = /the whole loop staged \(41 steps in one graph call\): last loss \S+, max \|weights - staged step's\| (\S+)/.exec(out)!;
    expect(Number(weightGap), out).to.be.at.most(1e-5);
  });

  it('early return, nested break/continue, ?: and &&/||/! on tensors give the right numbers', async () => {
    const out = await run('control');
    expect(out).to.contain('firstNegative([3, 1, -4, -1]), firstNegative([3, 1]) = -4, 0 (eager), -4, 0 (staged)');
    expect(out).to.contain('= 14 (eager), 14 (staged)');
    expect(out).to.contain('sign(-2.5), sign(0), sign(7) = -1, 0, 1 (eager), -1, 0, 1 (staged)');
    expect(out).to.contain('accepts(5 | 11 | 42 | NaN) = accepted, rejected, accepted, not a number (eager)');
    expect(out).to.contain('powerIfPositive(2, 10), powerIfPositive(-2, 10) = 1024, 0 (eager), 1024, 0 (staged)');
  });

  it('a script without imports gets the runtime by require() and stays a script; allowJs files convert', async () => {
    const js = fs.readFileSync(path.join(dir, 'script/out/script.js'), 'utf8');
    expect(js.split('\n').slice(0, 2)).to.deep.equal(['"use strict";', 'const ag__ = require("autograph-ts/runtime");']);
    expect(js).not.to.match(/\bexports\b|^import /m);
    expect(fs.readFileSync(path.join(dir, 'script/out/legacy.js'), 'utf8')).to.contain('ag__.whileStmt(');
    const out = await run('script');
    expect(out).to.contain('digitCount(65535, 16) = 4 (eager), 4 (staged)');
    expect(out).to.contain('halvings(1000) = 10 (eager), 10 (staged)');
  });

  it('Newton-CG with three nested tensor loops: staged equals eager, one graph with three While nodes', async () => {
    const out = await run('newton');
    const lines = out.split('\n').filter((l) => l.startsWith('newtonCG'));
    expect(lines).to.have.length(3);
    const steps = lines.map((l) => /: (\d+) Newton steps, (\d+) CG steps, loss (\S+),/.exec(l)!.slice(1).join(' '));
    expect(new Set(steps).size, out).to.equal(1);
    // 'auto' may run the solver in ONNX Runtime, whose float sums round in another order: 1e-5.
    for (const line of lines) expect(Number(/max \|w - w_eager\| (\S+),/.exec(line)![1]), line).to.be.at.most(1e-5);
    expect(Number(/loss (\S+),/.exec(lines[0])![1])).to.be.lessThan(0.2);
    expect(out).to.contain('staged graph: 3 While nodes');
    expect(out).to.contain('traced 1 time(s)');
  });

  it('seq2seq: greedy decoding and beam search that push tokens and break: staged equals eager, one While', async () => {
    const out = await run('seq2seq');
    expect(out).to.match(/greedy decode .*: \d+ steps for 16 sentences; staged == eager: true/);
    expect(out).to.match(/staged graph: 1 While node\(s\), \d+ list op\(s\)/);
    expect(out).to.match(/beam search \(beam 4\): best hypotheses lengths \d+–\d+; staged == eager: true/);
  });

  it('MNIST softmax training: eager loop, staged step and staged loop reach the same loss and accuracy', async () => {
    const out = await run('mnist', [], { MNIST_STEPS: '40' });
    const lines = out.split('\n').filter((l) => l.startsWith('mnist softmax'));
    expect(lines).to.have.length(3);
    const results = lines.map((l) => /final batch loss (\S+), test accuracy (\S+)%/.exec(l)!.slice(1).map(Number));
    for (const [loss, acc] of results) {
      expect(loss).to.be.closeTo(results[0][0], 1e-3);
      expect(acc).to.be.closeTo(results[0][1], 0.11);
      expect(acc, out).to.be.greaterThan(75);   // 40 steps of real digits: far above chance (10%)
    }
  });

  it('every sample model function stages to a graph whose DOT renders with Graphviz', async function () {
    fs.copyFileSync(path.join(__dirname, '../../../spec/e2e/sample_graphs.mjs'), path.join(dir, 'sample_graphs.mjs'));
    const result = await samples.runNode(['sample_graphs.mjs'], { cwd: dir });
    expect(result.code, result.stderr).to.equal(0);
    const graphs = result.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(graphs.map((g) => g.name)).to.have.length(14);
    for (const g of graphs) {
      expect(g.dot, g.name).to.match(new RegExp(`^digraph "${g.name}" \\{`));
      if (g.whiles > 0) expect(g.dot, g.name).to.contain('"body of %');
      if (g.ifs > 0) expect(g.dot, g.name).to.contain('"then of %');
    }
    const hasDot = spawnSync('dot', ['-V']).status === 0;
    if (!hasDot) {
      console.log('      (Graphviz `dot` not installed: DOT not rendered; apt-get install graphviz)');
      return;
    }
    for (const g of graphs) {
      const svg = spawnSync('dot', ['-Tsvg'], { input: g.dot, encoding: 'utf8' });
      expect(svg.status, `${g.name}: ${svg.stderr}`).to.equal(0);
      expect(svg.stdout, g.name).to.contain('<svg');
    }
  });

  it('the source map maps converted lines back to the user\'s .ts lines', async () => {
    const jsFile = path.join(dir, 'collatz/out/collatz.js');
    const tsFile = path.join(dir, 'collatz/src/collatz.ts');
    expect(fs.existsSync(`${jsFile}.map`)).to.equal(true);
    const js = fs.readFileSync(jsFile, 'utf8').split('\n');
    const raw = JSON.parse(fs.readFileSync(`${jsFile}.map`, 'utf8'));
    const expectations: [string, string][] = [
      ['n = n.div(2).floor();', 'n = n.div(2).floor();'],       // inside the converted if, in the converted while
      ['n = n.mul(3).add(1);', 'n = n.mul(3).add(1);'],
      ['steps = steps.add(1);', 'steps = steps.add(1);'],
      ['ag__.whileStmt(', 'while (n.greater(1)) {'],              // the operator call is the while statement
      ['ag__.ifStmt(', 'if (n.mod(2).equal(0))'],
    ];
    await SourceMapConsumer.with(raw, null, (consumer) => {
      for (const [generated, original] of expectations) {
        const line = js.findIndex((l) => l.includes(generated)) + 1;
        expect(line, generated).to.be.greaterThan(0);
        const column = js[line - 1].indexOf(generated.trim()[0] === 'a' ? 'ag__' : generated.trim());
        const pos = consumer.originalPositionFor({ line, column });
        expect(pos.source && path.resolve(path.dirname(jsFile), pos.source), generated).to.equal(tsFile);
        expect(pos.line, `${generated} -> ${original}`).to.equal(lineOf(tsFile, original));
      }
    });
  });

  it('an error thrown in a converted branch has a stack frame at the user\'s .ts line (--enable-source-maps)', async () => {
    const project = path.join(dir, 'control');
    const tsFile = path.join(project, 'src/control.ts');
    const line = lineOf(tsFile, "throw new RangeError('checkedSqrt: negative input')");
    const column = fs.readFileSync(tsFile, 'utf8').split('\n')[line - 1].indexOf('throw') + 1;
    const program = [
      "const tf = require('@tensorflow/tfjs');",
      "const { checkedSqrt } = require('./out/control.js');",
      'try { checkedSqrt(tf.scalar(-1)); } catch (e) { console.log(e.stack); }',
    ].join('\n');
    const result = await samples.runNode(['--enable-source-maps', '-e', program], { cwd: project });
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.contain('RangeError: checkedSqrt: negative input');
    const frames = result.stdout.split('\n').filter((l) => /^\s+at /.test(l));
    expect(frames[0]).to.contain(`${tsFile}:${line}:${column + 6}`);   // at `new RangeError(`, as node reports it
    // ...and the converted `if` itself maps back to the user's if statement, further down the stack.
    expect(frames.some((f) => f.includes(`${tsFile}:${lineOf(tsFile, 'if (x.less(0)) {')}:`))).to.equal(true);
  });
});
