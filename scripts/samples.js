'use strict';
/**
 * Shared by `npm run demo`, the e2e spec and compile-stats: the sample projects, how they find
 * `autograph-ts`, and how they are compiled (with ts-patch's `tspc`, as a user would) and run.
 *
 * The samples are user projects that depend on the package by name. They live inside this
 * checkout, so `samples/node_modules/autograph-ts` links back to the checkout's root: Node (for the
 * compiled code) and ts-patch (for the "transform" entry, resolved with require.resolve from the
 * project directory) both find it through ordinary node_modules lookup, and TypeScript finds its
 * types the same way. Everything else (@tensorflow/tfjs, typescript) resolves to the checkout's
 * own node_modules, so the samples and the runtime share one copy of tfjs.
 */
const fs = require('fs');
const path = require('path');
const { execFile } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const SAMPLES_DIR = path.join(ROOT, 'samples');
/** In the order the demo shows them. */
const SAMPLES = ['collatz', 'rnn', 'control', 'training', 'newton', 'seq2seq', 'mnist', 'bptt', 'script'];

function sampleDir(name) {
  return path.join(SAMPLES_DIR, name);
}

/** Creates samples/node_modules/autograph-ts -> the checkout (idempotent). */
function linkPackage() {
  const modules = path.join(SAMPLES_DIR, 'node_modules');
  const link = path.join(modules, 'autograph-ts');
  fs.mkdirSync(modules, { recursive: true });
  try {
    if (fs.realpathSync(link) === fs.realpathSync(ROOT)) return;
    fs.rmSync(link, { recursive: true, force: true });
  } catch {
    // no link yet
  }
  // A junction needs no privileges on Windows; elsewhere the type is ignored.
  fs.symlinkSync(process.platform === 'win32' ? ROOT : path.relative(modules, ROOT), link, 'junction');
}

function tspcPath() {
  return require.resolve('ts-patch/bin/tspc.js', { paths: [ROOT] });
}

function tscPath() {
  return require.resolve('typescript/bin/tsc', { paths: [ROOT] });
}

/** Runs a node script; resolves with { code, stdout, stderr, ms } (never rejects on exit code). */
function runNode(args, options = {}) {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    execFile(process.execPath, args, { maxBuffer: 16 << 20, ...options }, (error, stdout, stderr) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr, ms });
    });
  });
}

/**
 * Compiles samples with `tspc -b --force <dirs>` from samples/: build mode type-checks all of them
 * in one process, sharing the parsed libraries (several times faster than one tspc per sample);
 * --force because the transformer may have changed while the sources did not. Diagnostics and
 * the origins in the emitted code read `<sample>/src/file.ts:line:col`.
 * `plugin: false` compiles with plain `tsc` instead (same options, no transformer); `cwd` is a
 * directory holding copies of the samples (see copySamples).
 */
async function compileSamples(names = SAMPLES, { plugin = true, cwd = SAMPLES_DIR } = {}) {
  const result = await runNode([plugin ? tspcPath() : tscPath(), '-b', '--force', ...names], { cwd });
  if (result.code !== 0) {
    const error = new Error(`${plugin ? 'tspc' : 'tsc'} -b ${names.join(' ')} failed (exit ${result.code}):\n${result.stdout}${result.stderr}`);
    error.result = result;
    throw error;
  }
  return result;
}

/** Compiles one sample with `tspc -p .` in its directory, as a user would. */
async function compileSample(name, { plugin = true, outDir } = {}) {
  const args = [plugin ? tspcPath() : tscPath(), '-p', '.'];
  if (outDir !== undefined) args.push('--outDir', outDir);
  const result = await runNode(args, { cwd: sampleDir(name) });
  if (result.code !== 0) {
    const error = new Error(`tspc -p samples/${name} failed (exit ${result.code}):\n${result.stdout}${result.stderr}`);
    error.result = result;
    throw error;
  }
  return result;
}

/** Runs tasks with at most `limit` in flight (the machine has few cores; tspc is CPU-bound). */
async function inParallel(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The file `node` runs for a sample. */
function entryOf(name) {
  return path.join('out', name === 'script' ? 'script.js' : 'main.js');
}

function runSample(name, nodeArgs = [], dir = sampleDir(name), env = {}) {
  return runNode([...nodeArgs, entryOf(name)], { cwd: dir, env: { ...process.env, ...env } });
}

/**
 * Copies the samples' sources into `dir` (a scratch directory outside the checkout) with a
 * node_modules there that links autograph-ts to the checkout and everything else to the
 * checkout's node_modules: a user project layout, and builds that cannot race with `npm run demo`
 * or another test run writing samples/<name>/out.
 */
function copySamples(dir, names = SAMPLES) {
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  const type = process.platform === 'win32' ? 'junction' : 'dir';
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry), type);
  }
  fs.symlinkSync(ROOT, path.join(modules, 'autograph-ts'), type);
  for (const name of names) {
    fs.cpSync(sampleDir(name), path.join(dir, name), {
      recursive: true,
      filter: (source) => !/[\\/](out|node_modules)$|\.tsbuildinfo$/.test(source),
    });
  }
}

module.exports = { ROOT, SAMPLES, SAMPLES_DIR, sampleDir, linkPackage, tspcPath, tscPath, runNode, compileSample, compileSamples, inParallel, runSample, entryOf, copySamples };
