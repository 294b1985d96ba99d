/**
 * Compile time and behaviour on large control flow: long else-if chains and deep loop nests
 * with labeled jumps at every level, compiled with every condition dynamic. Each must convert
 * within a generous time bound and behave as the plain program.
 */
import { expect } from 'chai';
import * as ts from 'typescript';
import { compile, defaultOptions, formatDiagnostics, load } from '../../harness/compile';

function chain(n: number): string {
  const branches = Array.from({ length: n }, (_, i) => `  ${i ? 'else ' : ''}if (x === ${i * 2}) return 'b${i}';`).join('\n');
  return `function classify(x: number): string {\n${branches}\n  else if (x < 0) return 'neg';\n  return 'other';\n}
export function run() { const out: string[] = []; for (let x = -1; x < ${2 * n + 4}; x += 3) out.push(classify(x)); return out; }\n`;
}

function nest(depth: number): string {
  let s = 'export function run() {\n  let c = 0;\n  const trace: number[] = [];\n';
  for (let d = 0; d < depth; d++) s += `  l${d}: for (let i${d} = 0; i${d} < 2; i${d}++) {\n`;
  s += '    c++;\n';
  for (let d = 0; d < depth; d++) {
    s += `    if (c % ${d + 5} === 0) { trace.push(${d}); continue l${d}; }\n`;
    s += `    if (c === ${100 + d * 3}) break l${d};\n`;
    s += `    if (c === ${170 + d}) return [c, trace.length, 'returned'];\n`;
  }
  for (let d = 0; d < depth; d++) s += '  }\n';
  return `${s}  return [c, trace.length, trace.slice(0, 40)];\n}\n`;
}

const cases: Array<[string, string, number]> = [
  ['a 50-branch else-if chain of returns', chain(50), 3000],
  ['a 120-branch else-if chain of returns', chain(120), 5000],
  ['8 nested for loops with labeled continue / break / return at every level', nest(8), 5000],
];

describe('adversarial: compile time of large control flow', () => {
  for (const [name, source, limitMs] of cases) {
    it(`${name} (limit ${limitMs} ms)`, function () {
      this.timeout(limitMs * 3);
      const start = process.hrtime.bigint();
      const result = compile({ 'main.ts': source }, { convert: 'all', forceDynamic: true }, { sourceMap: false });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      expect(formatDiagnostics(result.diagnostics)).to.equal('');
      expect(ms, 'compile time in ms').to.be.below(limitMs);
      const js = result.js['main.ts'];
      expect(js).to.contain('ag__.ifStmt(');
      const plain = load(ts.transpileModule(source, { compilerOptions: { ...defaultOptions, sourceMap: false } }).outputText).run();
      expect(load(js).run()).to.deep.equal(plain);
    });
  }
});
