/**
 * `autograph-ts show` prints every converted function of a file with each control-flow statement
 * classified, and the converted code the build emits.
 */
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { showFile } from '../../transformer/show';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist/transformer/cli.js');

describe('autograph-ts show', () => {
  it('annotates each statement of a sample and prints its converted code', () => {
    const text = showFile(path.join(ROOT, 'samples/collatz/src/collatz.ts'));
    expect(text).to.match(/^\/\/ collatzSteps \(\d+:1\)/);
    expect(text).to.match(/\/\/ +\d+:3 +while \(n\.greater\(1\)\) +→ staged \(condition type: Tensor<Rank>\)/);
    expect(text).to.match(/\/\/ +\d+:5 +if \(n\.mod\(2\)\.equal\(0\)\) +→ staged/);
    expect(text).to.contain('ag__.whileStmt(loop_test, loop_body');
    expect(text).to.contain('ag__.ifStmt(n.mod(2).equal(0), if_body, else_body');
  });

  it('says static for conditions the checker types as plain values, and dynamic for any', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ag-show-'));
    const file = path.join(dir, 'mixed.ts');
    fs.writeFileSync(file, `export function mixed(n: number, flag: any, xs: string[]) {
  'use autograph';
  let s = 0;
  for (const x of xs) s += x.length;
  while (n > 0) { if (flag) s++; n--; }
  return s;
}
export function other(a: number) { return a > 0 ? 1 : 2; }
`);
    const text = showFile(file);
    expect(text).to.match(/for \(… of xs\) +→ static \(iterable type: string\[\]\)/);
    expect(text).to.match(/while \(n > 0\) +→ static \(condition type: boolean\)/);
    expect(text).to.match(/if \(flag\) +→ dynamic \(condition type: any\)/);
    expect(text).not.to.contain('// other');
    expect(() => showFile(file, { functionName: 'nope' })).to.throw(/no converted function named 'nope'/);
  });

  it('works on every sample, runs as a command, and reports a bad file with exit status 1', () => {
    for (const sample of fs.readdirSync(path.join(ROOT, 'samples')).filter((d) => fs.existsSync(path.join(ROOT, 'samples', d, 'src')))) {
      const src = path.join(ROOT, 'samples', sample, 'src');
      // Files with converted functions (samples/mnist/src/data.ts, a data loader, has none).
      const files = fs.readdirSync(src).filter((f) => f.endsWith('.ts') && f !== 'main.ts' &&
        fs.readFileSync(path.join(src, f), 'utf8').includes("'use autograph'"));
      for (const f of files) {
        expect(showFile(path.join(src, f)), `${sample}/${f}`).to.match(/^\/\/ \S+ \(\d+:\d+\)/);
      }
    }
    const out = execFileSync(process.execPath, [CLI, 'show', path.join(ROOT, 'samples/rnn/src/rnn.ts'), '--function', 'rnn'], { encoding: 'utf8' });
    expect(out).to.match(/^\/\/ rnn \(/);
    expect(out).not.to.contain('greedyDecode');
    const bad = spawnSync(process.execPath, [CLI, 'show', path.join(ROOT, 'samples/collatz/src/main.ts')], { encoding: 'utf8' });
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.contain("has no function marked 'use autograph'");
  });
});
