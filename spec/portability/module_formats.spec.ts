/**
 * Issue 18 item 2: staging behaves the same whatever the module format. One user project
 * (spec/fixtures/portability: the decode loop with push and a tensor break, an RNN over for...of, a staged
 * recursion, a cell keeping its state on the object,
 * collatz with a JS counter, a loop called with 5 sequence lengths) is compiled by the real `tspc`
 * to CommonJS and to an ES module, and the ES module is bundled by esbuild into one file, minified
 * and not, taking tfjs's ES module build (`module` main field: getter-only exports, as browser
 * bundles have). Each runs in one child process that prints the eager and the staged results;
 * staged must equal eager (values, dtypes, shapes, JS types) and every format must retrace as
 * often as CommonJS does.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

interface NodeResult { code: number; stdout: string; stderr: string }
interface SamplesScripts {
  ROOT: string;
  copySamples(dir: string, names?: string[]): void;
  compileSamples(names: string[], options: { cwd: string }): Promise<NodeResult>;
  runNode(args: string[], options: { cwd: string }): Promise<NodeResult>;
}

const ROOT = path.resolve(__dirname, '../../..');
const samples = require(path.join(ROOT, 'scripts/samples.js')) as SamplesScripts;
const FIXTURE = path.join(ROOT, 'spec/fixtures/portability');

type Described = { tensor: { dtype: string; shape: number[]; values: number[] } } | { js: string; value: unknown }
  | { array: Described[] } | { object: Record<string, Described> };
interface ProgramResult { eager: Described[]; staged: Described[]; traces: number }
interface RunOutput {
  results: Record<string, ProgramResult>; random: { differ: boolean } | { error: string };
  carried: { same: boolean } | { error: string }; after: number; tensors: number;
}

/** A project folder compiled by tspc: `type` of its package.json decides CommonJS or ES module output. */
function writeProject(dir: string, type: 'commonjs' | 'module'): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  for (const file of fs.readdirSync(FIXTURE)) fs.copyFileSync(path.join(FIXTURE, file), path.join(dir, 'src', file));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type }));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, skipLibCheck: true, sourceMap: true,
      types: ['node'], rootDir: 'src', outDir: 'out', plugins: [{ transform: 'autograph-ts/transformer' }],
    },
    include: ['src'],
  }));
}

/** `staged` equals `eager`: same structure and JS types, same dtypes and shapes, values to float32 rounding. */
function expectSame(staged: Described, eager: Described, where: string): void {
  if ('tensor' in eager) {
    expect(staged, where).to.have.property('tensor');
    const s = (staged as { tensor: { dtype: string; shape: number[]; values: number[] } }).tensor;
    expect(s.dtype, `${where} dtype`).to.equal(eager.tensor.dtype);
    expect(s.shape, `${where} shape`).to.deep.equal(eager.tensor.shape);
    s.values.forEach((v, k) => expect(Math.abs(v - eager.tensor.values[k]), `${where}[${k}]: ${v} vs ${eager.tensor.values[k]}`)
      .to.be.at.most(1e-5 * (1 + Math.abs(eager.tensor.values[k]))));
  } else if ('array' in eager) {
    expect(staged, where).to.have.property('array').with.length(eager.array.length);
    eager.array.forEach((e, k) => expectSame((staged as { array: Described[] }).array[k], e, `${where}[${k}]`));
  } else if ('object' in eager) {
    expect(staged, where).to.have.property('object');
    const s = (staged as { object: Record<string, Described> }).object;
    expect(Object.keys(s), `${where} keys`).to.deep.equal(Object.keys(eager.object));
    for (const k of Object.keys(eager.object)) expectSame(s[k], eager.object[k], `${where}.${k}`);
  } else {
    expect(staged, where).to.deep.equal(eager);
  }
}

describe('portability: the same staging under CommonJS, Node ESM and a single esbuild bundle', function () {
  this.timeout(180_000);
  let dir: string;
  let reference: RunOutput | undefined;

  before(async function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-formats-'));
    samples.copySamples(dir, []); // node_modules: autograph-ts -> this checkout, the rest -> its node_modules
    writeProject(path.join(dir, 'cjs'), 'commonjs');
    writeProject(path.join(dir, 'esm'), 'module');
    await samples.compileSamples(['cjs', 'esm'], { cwd: dir }); // one `tspc -b` for both
  });

  after(() => {
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = async (cwd: string, args: string[]): Promise<RunOutput> => {
    const result = await samples.runNode(args, { cwd });
    expect(result.code, `node ${args.join(' ')} in ${cwd}:\n${result.stdout}${result.stderr}`).to.equal(0);
    const line = result.stdout.split('\n').find((l) => l.startsWith('{"results"'));
    expect(line, result.stdout).to.not.equal(undefined);
    return JSON.parse(line!) as RunOutput;
  };

  const check = (output: RunOutput, format: string): void => {
    expect(Object.keys(output.results)).to.deep.equal(['decode', 'rnn', 'collatz', 'runningSum', 'power', 'cell']);
    for (const [name, r] of Object.entries(output.results)) {
      r.eager.forEach((e, k) => expectSame(r.staged[k], e, `${format}: ${name} call ${k}`));
    }
    expect(output.results.collatz.staged.map((d) => d)).to.deep.equal([
      { js: 'number', value: 111 }, { js: 'number', value: 118 }, { js: 'number', value: 0 }]);
    expect(output.carried, `${format}: tf.tensor1d([i, 2]) of a carried counter is eager's or refused, never another tensor`)
      .to.not.deep.equal({ same: false });
    expect(output.after, `${format}: eager tfjs after the staged calls`).to.equal(3);
    if (reference !== undefined) {
      for (const name of Object.keys(reference.results)) {
        expect(output.results[name].traces, `${format}: traces of ${name}, as under CommonJS`).to.equal(reference.results[name].traces);
      }
      expect(output.tensors, `${format}: live tensors at the end, as under CommonJS`).to.equal(reference.tensors);
    }
  };

  /**
   * Where tfjs's exports are an ES module namespace (or a snapshot of them, or getters), its random
   * ops cannot be wrapped: a draw inside a trace is refused, never baked into the graph as one value.
   */
  const expectRandomRefused = (output: RunOutput): void => {
    expect(output.random).to.have.property('error').that.matches(/tf\.randomUniform was called while stage\(\) traces .*cannot be wrapped/);
    // tfjs's tensor1d drops a carried value it cannot read (eager [3, 2], staged [2] before the check): refused.
    expect(output.carried).to.have.property('error').that.matches(/made from 1 value\(s\) while stage\(\) traces .*staged loop or conditional carries/);
  };

  it('CommonJS (tspc, module node16, "type": "commonjs"): staged == eager', async () => {
    expect(fs.readFileSync(path.join(dir, 'cjs/out/programs.js'), 'utf8')).to.contain('require("autograph-ts/runtime")');
    reference = await run(path.join(dir, 'cjs'), ['out/main.js']);
    check(reference, 'CommonJS');
    expect(reference.random, 'a random op is a Random node, drawn anew per call').to.deep.equal({ differ: true });
    expect(reference.carried, 'tf.tensor1d of a carried counter is built with recorded ops').to.deep.equal({ same: true });
    // 5 lengths of runningSum share a relaxed graph (a trace and its check), not one per length.
    expect(reference.results.runningSum.traces).to.be.below(5);
  });

  it('Node ESM ("type": "module", importing tfjs and autograph-ts from ES modules), with source maps: staged == eager', async () => {
    expect(fs.readFileSync(path.join(dir, 'esm/out/programs.js'), 'utf8')).to.match(/^import \* as ag__ from "autograph-ts\/runtime"/m);
    const output = await run(path.join(dir, 'esm'), ['--enable-source-maps', 'out/main.js']);
    check(output, 'Node ESM');
    expectRandomRefused(output);
  });

  for (const minify of [false, true]) {
    it(`one esbuild bundle (platform node, tfjs's ES module build)${minify ? ', minified, with a source map' : ''}: staged == eager`, async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const esbuild = require('esbuild') as typeof import('esbuild');
      const outfile = path.join(dir, 'bundle', minify ? 'main.min.js' : 'main.js');
      await esbuild.build({
        entryPoints: [path.join(dir, 'esm/out/main.js')], bundle: true, platform: 'node', format: 'cjs', minify,
        sourcemap: minify, mainFields: ['module', 'main'], outfile, logLevel: 'silent',
        // Node-only and compile-time packages the staged code never loads here.
        external: ['onnxruntime-node', 'typescript'],
      });
      const bundled = fs.readFileSync(outfile, 'utf8');
      expect(bundled).to.not.match(/require\("@tensorflow\/|require\("autograph-ts/); // one file: tfjs and autograph-ts inside
      const output = await run(path.dirname(outfile), [...(minify ? ['--enable-source-maps'] : []), path.basename(outfile)]);
      check(output, minify ? 'bundle (minified)' : 'bundle');
      expectRandomRefused(output);
    });
  }
});
