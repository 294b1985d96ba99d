/**
 * A large real program on plain values: the transformer itself. Compiled by itself with every
 * condition treated as dynamic (all of its if/while/for/&&/||/?: go through the operators), it
 * must still produce byte-identical baselines.
 */
import { baselineFileTypes } from '../harness/baselines';
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import autographTransformer from '../../transformer/index';
import { defaultOptions } from '../harness/compile';

const ROOT = path.resolve(__dirname, '../../..');

describe('self-hosting: the transformer converted by itself', () => {
  let outDir: string;
  let converted: typeof autographTransformer;
  before(function () {
    this.timeout(120000);
    // Inside the package, so that the converted transformer resolves 'typescript' as the original does.
    outDir = fs.mkdtempSync(path.join(ROOT, 'dist', 'self-hosting-'));
    const program = ts.createProgram([path.join(ROOT, 'transformer/index.ts')], {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16,
      strict: true, skipLibCheck: true, esModuleInterop: true, rootDir: ROOT, outDir, types: ['node'],
    });
    const diagnostics: ts.Diagnostic[] = [];
    const result = program.emit(undefined, undefined, undefined, false, {
      before: [autographTransformer(program, {
        convert: 'all', forceDynamic: true, runtimeModule: path.join(ROOT, 'dist/runtime/operators.js'),
      }, { ts, addDiagnostic: (d) => diagnostics.push(d) })],
    });
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))).to.deep.equal([]);
    expect(result.emitSkipped).to.equal(false);
    const emitted = fs.readFileSync(path.join(outDir, 'transformer/pipeline.js'), 'utf8');
    expect(emitted).to.contain('.ifStmt(');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    converted = require(path.join(outDir, 'transformer/index.js')).default;
  });
  after(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it('emits the same baselines as the original transformer', function () {
    this.timeout(60000);
    const dir = path.join(ROOT, 'spec/baselines');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
    const options = { ...defaultOptions, module: ts.ModuleKind.ES2022, sourceMap: false, outDir: path.join(outDir, 'out'),
      types: baselineFileTypes(files) };
    const host = ts.createCompilerHost(options);
    host.getCurrentDirectory = () => dir;
    const program = ts.createProgram(files, options, host);
    const emitted = new Map<string, string>();
    program.emit(undefined, (name, text) => emitted.set(path.basename(name), text), undefined, false, {
      before: [converted(program, { runtimeModule: 'autograph-ts/runtime' }, { ts, addDiagnostic: () => 0 })],
    });
    for (const file of files) {
      const expected = fs.readFileSync(file.replace(/\.ts$/, '.js'), 'utf8');
      expect(emitted.get(path.basename(file).replace(/\.ts$/, '.js')), path.basename(file)).to.equal(expected);
    }
  });
});
