#!/usr/bin/env node
'use strict';
/**
 * `npm run demo`: compiles every sample project with ts-patch's `tspc` (the autograph transformer
 * is in each sample's tsconfig.json) and runs it on the default wasm backend. Each sample prints
 * its own results; see samples/<name>/src for the code that produced them.
 */
const { SAMPLES, linkPackage, compileSamples, runSample } = require('./samples');

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
    console.log(`== samples/${name}`);
    const { code, stdout, stderr } = await runSample(name);
    process.stdout.write(stdout.replace(/^/gm, '   ').replace(/ +$/, ''));
    if (code !== 0) {
      failed++;
      process.stdout.write(stderr);
      console.log(`   (exit code ${code})`);
    }
    console.log();
  }
  if (failed > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error.message);
  process.exitCode = 1;
});
