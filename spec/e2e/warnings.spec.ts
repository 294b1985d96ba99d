/**
 * Warnings do not fail a build: `tsc` (so `tspc`) exits with status 2 as soon as its emit reports
 * any diagnostic, whatever its category, so the plugin prints warnings itself unless the plugin
 * option `"warnings"` says "error" (reported to the compiler, exit 2) or "off" (silent). Checked
 * with the real `tspc` on a tiny project, as a user's `npm run build` would run it.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

interface NodeResult { code: number; stdout: string; stderr: string }
const ROOT = path.resolve(__dirname, '../../..');
const samples = require(path.join(ROOT, 'scripts/samples.js')) as {
  copySamples(dir: string, names?: string[]): void;
  tspcPath(): string;
  runNode(args: string[], options: { cwd: string }): Promise<NodeResult>;
};

const SOURCE = `import * as tf from '@tensorflow/tfjs';
export function nonPositive(t: tf.Tensor): boolean {
  'use autograph';
  return !t.greater(0);   // a Tensor typed boolean: warning TS99101
}
`;

describe('e2e: plugin warnings and the exit status of tspc', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-warnings-'));
    samples.copySamples(dir, []);   // node_modules only
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const build = async (policy: string | undefined): Promise<NodeResult> => {
    const project = path.join(dir, policy ?? 'default');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.writeFileSync(path.join(project, 'src/main.ts'), SOURCE);
    const plugin = { transform: 'autograph-ts/transformer', ...(policy ? { warnings: policy } : {}) };
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, skipLibCheck: true,
        types: [], rootDir: 'src', outDir: 'out', pretty: false, plugins: [plugin] },
      include: ['src'],
    }));
    return samples.runNode([samples.tspcPath(), '-p', '.'], { cwd: project });
  };

  it('by default a warning is printed, the output written, and the exit status is 0', async () => {
    const result = await build(undefined);
    expect(result.stdout).to.match(/src\/main\.ts\(4,10\): warning TS99101: autograph-ts: /);
    expect(result.code, result.stdout + result.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(dir, 'default/out/main.js'), 'utf8')).to.contain('.not(t.greater(0)');
  });

  it('"warnings": "error" reports it as an error: exit status 2', async () => {
    const result = await build('error');
    expect(result.stdout).to.match(/src\/main\.ts\(4,10\): error TS99101: /);
    expect(result.code).to.equal(2);
  });

  it('"warnings": "off" prints nothing: exit status 0', async () => {
    const result = await build('off');
    expect(result.stdout).to.equal('');
    expect(result.code).to.equal(0);
  });
});
