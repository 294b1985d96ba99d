#!/usr/bin/env node
'use strict';
/**
 * `npm run demo`: compiles every sample project with ts-patch's `tspc` (the autograph transformer
 * is in each sample's tsconfig.json) and runs it on the default wasm backend. For each sample it
 * shows what the transformer converted (the operators in the emitted JavaScript), then the
 * sample's own output as it comes: eager and staged results side by side, and the speed-up.
 */
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { SAMPLES, sampleDir, entryOf, linkPackage, compileSamples } = require('./samples');

/** Emitted operator -> the statement or operator it replaced. */
const IDIOMS = {
  whileStmt: 'while', doWhileStmt: 'do-while', forStmt: 'for', ifStmt: 'if', ifExp: '?:', and: '&&', or: '||', not: '!',
};

/** What the transformer converted in a compiled sample: per file, the converted statements and operators. */
function converted(name) {
  const out = path.join(sampleDir(name), 'out');
  return fs.readdirSync(out).filter((f) => f.endsWith('.js')).sort().flatMap((file) => {
    const counts = new Map();
    for (const [, op] of fs.readFileSync(path.join(out, file), 'utf8').matchAll(/\bag__\.(\w+)\(/g)) {
      if (IDIOMS[op] !== undefined) counts.set(IDIOMS[op], (counts.get(IDIOMS[op]) ?? 0) + 1);
    }
    const source = fs.existsSync(path.join(sampleDir(name), 'src', file)) ? file : file.replace(/\.js$/, '.ts');
    return counts.size === 0 ? [] : [`${source}: ${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}`];
  });
}

/** Runs a compiled sample, printing its output indented as it comes; resolves with the exit code. */
function run(name, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entryOf(name)], { cwd: sampleDir(name), env: { ...process.env, ...env } });
    let pending = '';
    child.stdout.on('data', (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const line of lines) console.log(`   ${line}`);
    });
    child.stderr.pipe(process.stderr);
    child.on('close', (code) => {
      if (pending !== '') console.log(`   ${pending}`);
      resolve(code ?? 1);
    });
  });
}

/** Per sample: environment that keeps the demo short (the samples' defaults are the paper's sizes). */
const DEMO_ENV = { mnist: { MNIST_STEPS: '200' } };

async function main() {
  linkPackage();
  const only = process.argv.slice(2);
  const names = only.length > 0 ? SAMPLES.filter((n) => only.includes(n)) : SAMPLES;
  process.stdout.write(`Compiling samples/{${names.join(',')}} with tspc ... `);
  const started = Date.now();
  await compileSamples(names);
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log('Each sample runs its functions eagerly and staged (stage(fn)) on the tfjs wasm backend.\n');

  let failed = 0;
  for (const name of names) {
    const env = DEMO_ENV[name] ?? {};
    const settings = Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ');
    console.log(`== samples/${name}${settings ? ` (${settings})` : ''}`);
    const idioms = converted(name);
    console.log(`   converted: ${idioms.length > 0 ? idioms.join('; ') : 'nothing'}`);
    const sampleStarted = Date.now();
    const code = await run(name, env);
    if (code !== 0) {
      failed++;
      console.log(`   (exit code ${code})`);
    }
    console.log(`   (${((Date.now() - sampleStarted) / 1000).toFixed(1)} s)\n`);
  }
  console.log(`demo took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error.message);
  process.exitCode = 1;
});
