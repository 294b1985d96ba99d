/**
 * The transformer works with the compiler that runs it (ts-patch hands it `extras.ts`): the
 * baselines come out byte-identical under TypeScript 5.9, the oldest version we support.
 */
import { baselineFileTypes } from '../harness/baselines';
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import type * as TS from 'typescript';
import autographTransformer from '../../transformer/index';

const ROOT = path.resolve(__dirname, '../../..');

describe('TypeScript 5.9', () => {
  it('emits the same baselines as TypeScript 6', function () {
    this.timeout(60000);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ts59: typeof TS = require('typescript59');
    expect(ts59.version).to.match(/^5\.9\./);
    const dir = path.join(ROOT, 'spec/baselines');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
    const options: TS.CompilerOptions = {
      target: ts59.ScriptTarget.ES2022, module: ts59.ModuleKind.ES2022, moduleResolution: ts59.ModuleResolutionKind.Node10,
      strict: true, esModuleInterop: true, skipLibCheck: true, types: baselineFileTypes(files), lib: ['lib.es2022.d.ts'],
      outDir: path.join(ROOT, 'dist', 'ts59-out'),
    };
    const host = ts59.createCompilerHost(options);
    host.getCurrentDirectory = () => dir;
    const program = ts59.createProgram(files, options, host);
    const emitted = new Map<string, string>();
    const diagnostics: TS.Diagnostic[] = [];
    program.emit(undefined, (name, text) => emitted.set(path.basename(name), text), undefined, false, {
      before: [autographTransformer(program, { runtimeModule: 'autograph-ts/runtime' },
        { ts: ts59, addDiagnostic: (d) => diagnostics.push(d) })],
    });
    expect(diagnostics).to.have.length(0);
    for (const file of files) {
      const js = path.basename(file).replace(/\.ts$/, '.js');
      expect(emitted.get(js), js).to.equal(fs.readFileSync(path.join(dir, js), 'utf8'));
    }
  });
});
