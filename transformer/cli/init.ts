/**
 * `autograph-ts init [--force]`: the files a project needs to compile with the transformer, written
 * into the current directory — tsconfig.json with the plugin entry, .npmrc, a sample
 * src/main.ts, and package.json's build/start scripts and allowScripts entry merged in. An
 * existing file is kept unless --force; the command says what it wrote and what it kept.
 */
import * as fs from 'fs';
import * as path from 'path';
import { TRANSFORM } from './doctor';
import { readJson } from './project';

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": true,
    "skipLibCheck": true,
    "sourceMap": true,
    "rootDir": "src",
    "outDir": "dist",
    "plugins": [{ "transform": "${TRANSFORM}" }]
  },
  "include": ["src"]
}
`;

const NPMRC = `# autograph-ts: a local checkout installed with \`npm install /path/to/autograph-ts\` stays a copy
# on every later install (a symlink would bring the checkout's own second copy of tfjs).
install-links=true
`;

const SAMPLE = `import * as tf from '@tensorflow/tfjs';
import { stage } from 'autograph-ts';

/** Steps of the Collatz sequence from n to 1: a while loop and an if on tensor conditions. */
function collatzSteps(n: tf.Tensor): tf.Tensor {
  'use autograph';
  let steps = tf.scalar(0);
  while (n.greater(1)) {
    if (n.mod(2).equal(0)) n = n.div(2).floor();
    else n = n.mul(3).add(1);
    steps = steps.add(1);
  }
  return steps;
}

collatzSteps(tf.scalar(27)).print();          // eager: the conditions are read by value
const staged = stage(collatzSteps);           // traced once per input signature
staged(tf.scalar(27)).print();                // runs the recorded graph
console.log(staged.inspect(tf.scalar(27)).engine);
`;

/** The package.json entries init merges in. */
const SCRIPTS: Record<string, string> = { build: 'tspc -p .', start: 'node --enable-source-maps dist/main.js' };

export function initProject(dir: string, force = false): string[] {
  const report: string[] = [];
  const writeFile = (relative: string, content: string, why: string): void => {
    const file = path.join(dir, relative);
    if (fs.existsSync(file) && !force) {
      report.push(`kept     ${relative} (it exists; --force overwrites it)`);
      return;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    report.push(`wrote    ${relative}: ${why}`);
  };
  writeFile('tsconfig.json', TSCONFIG, `the plugin entry { "transform": "${TRANSFORM}" }, src/ -> dist/`);
  writeFile('.npmrc', NPMRC, 'install-links=true (a local autograph-ts checkout stays one copy on later installs)');
  writeFile(path.join('src', 'main.ts'), SAMPLE, 'a sample \'use autograph\' function, eager and staged');
  report.push(...mergePackageJson(dir, force));
  report.push('', 'next: `npm run build && npm start`; `npx autograph-ts doctor` checks the installed packages.');
  return report;
}

/** Adds the build/start scripts and the onnxruntime-node allowScripts denial to package.json (made if absent). */
function mergePackageJson(dir: string, force: boolean): string[] {
  const file = path.join(dir, 'package.json');
  const exists = fs.existsSync(file);
  const manifest = exists ? readJson(file) : { name: path.basename(dir).toLowerCase().replace(/[^a-z0-9._-]/g, '-'), version: '0.1.0', private: true };
  if (manifest === undefined) return ['kept     package.json (it is not valid JSON: add the scripts by hand)'];
  const report: string[] = [];
  const changed: string[] = [];
  const scripts = { ...(manifest.scripts as Record<string, string> | undefined) };
  for (const [name, command] of Object.entries(SCRIPTS)) {
    if (scripts[name] === command) continue;
    if (scripts[name] !== undefined && !force) {
      report.push(`kept     package.json script '${name}': ${scripts[name]} (--force sets \`${command}\`)`);
      continue;
    }
    scripts[name] = command;
    changed.push(`script '${name}': ${command}`);
  }
  manifest.scripts = scripts;
  // onnxruntime-node's install script downloads CUDA libraries from outside the npm registry; the
  // CPU build is in the package. npm 11.19+ skips a denied package's scripts (older npm ignores the field).
  const allowScripts = { ...(manifest.allowScripts as Record<string, boolean> | undefined) };
  if (allowScripts['onnxruntime-node'] === undefined || (force && allowScripts['onnxruntime-node'] !== false)) {
    allowScripts['onnxruntime-node'] = false;
    manifest.allowScripts = allowScripts;
    changed.push('allowScripts { "onnxruntime-node": false } (npm skips its download of CUDA libraries)');
  } else if (allowScripts['onnxruntime-node'] !== false) {
    report.push('kept     package.json allowScripts onnxruntime-node: true (its install script downloads from outside the npm registry)');
  }
  if (changed.length > 0 || !exists) {
    fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    report.unshift(`${exists ? 'updated ' : 'wrote   '} package.json: ${changed.join(', ')}`);
  }
  return report;
}

/** `autograph-ts init [--force]`. */
export function initCommand(args: string[], dir = process.cwd()): number {
  const unknown = args.filter((a) => a !== '--force');
  if (unknown.length > 0) {
    console.error(`autograph-ts init: unknown argument '${unknown[0]}' (usage: autograph-ts init [--force])`);
    return 2;
  }
  console.log(initProject(dir, args.includes('--force')).join('\n'));
  return 0;
}
