/**
 * Golden baselines: each spec/baselines/<name>.ts beside the JavaScript it must compile to
 * (<name>.js), reviewed as text like TypeScript's own baselines. Regenerate after an intended
 * change with `UPDATE_BASELINES=1 npm test` and review the diff. One file per converter and lowering
 * (its name says which); `// @types: node` at the top adds type packages.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { baselineTypes } from '../harness/baselines';
import { compile, formatDiagnostics } from '../harness/compile';

const dir = path.resolve(__dirname, '../../../spec/baselines');

describe('emitted code baselines', () => {
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
    it(file, () => {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      const result = compile({ [file]: source }, { runtimeModule: 'autograph-ts/runtime' },
        { module: ts.ModuleKind.ES2022, sourceMap: false, types: baselineTypes(source) });
      expect(formatDiagnostics(result.diagnostics)).to.equal('');
      const emitted = result.js[file];
      const expectedPath = path.join(dir, file.replace(/\.ts$/, '.js'));
      if (process.env.UPDATE_BASELINES || !fs.existsSync(expectedPath)) fs.writeFileSync(expectedPath, emitted);
      expect(emitted).to.equal(fs.readFileSync(expectedPath, 'utf8'));
    });
  }
});
