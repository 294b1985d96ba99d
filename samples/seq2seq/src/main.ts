import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage } from 'autograph-ts';
import { beamSearch, bestSequences, greedyDecode } from './decode';
import { randomModel, randomSource } from './model';

const VOCABULARY = 1000;
const HIDDEN = 256;
const BATCH = 16;
const SOURCE_LENGTH = 12;
const MAX_LEN = 64;
const BEAM = 4;
/** Chosen so that sequences end at different lengths (greedy: 5 to 46 steps), as a trained model's would. */
const EOS_BIAS = 4.5;

function time<T>(f: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = f();
  return { value, ms: performance.now() - started };
}

function lengths(sequences: number[][]): string {
  const ls = sequences.map((s) => s.length);
  return `lengths ${Math.min(...ls)}–${Math.max(...ls)}`;
}

async function main(): Promise<void> {
  await tf.setBackend('wasm');
  const m = randomModel(VOCABULARY, HIDDEN, EOS_BIAS);
  const source = randomSource(BATCH, SOURCE_LENGTH, VOCABULARY);

  // Greedy decoding.
  const stagedGreedy = stage(greedyDecode);
  const eager = time(() => greedyDecode(m, source, MAX_LEN).arraySync());
  const first = time(() => stagedGreedy(m, source, MAX_LEN).arraySync());
  const again = time(() => stagedGreedy(m, source, MAX_LEN).arraySync());
  const same = JSON.stringify(eager.value) === JSON.stringify(again.value) &&
    JSON.stringify(eager.value) === JSON.stringify(first.value);
  const columns = eager.value[0].length;
  console.log(`greedy decode (batch ${BATCH}, vocabulary ${VOCABULARY}, hidden ${HIDDEN}): ${eager.value.length - 1} steps ` +
    `for ${columns} sentences; staged == eager: ${same}`);
  console.log(`  eager ${eager.ms.toFixed(0)} ms, staged ${again.ms.toFixed(0)} ms (first call, with tracing: ` +
    `${first.ms.toFixed(0)} ms) -> ${(eager.ms / again.ms).toFixed(1)}x`);
  const greedy = stagedGreedy.inspect(m, source, MAX_LEN);
  console.log(`  staged graph: ${greedy.stats.whiles} While node(s), ${greedy.stats.lists} list op(s), ` +
    `${greedy.stats.kernels} kernels; engine: ${greedy.engine.engine}`);

  // Beam search.
  const stagedBeam = stage(beamSearch);
  const eagerBeams = time(() => bestSequences(beamSearch(m, source, MAX_LEN, BEAM)));
  stagedBeam(m, source, MAX_LEN, BEAM);
  const stagedBeams = time(() => bestSequences(stagedBeam(m, source, MAX_LEN, BEAM)));
  const sameBeams = JSON.stringify(eagerBeams.value) === JSON.stringify(stagedBeams.value);
  console.log(`beam search (beam ${BEAM}): best hypotheses ${lengths(eagerBeams.value)}; staged == eager: ${sameBeams}`);
  console.log(`  eager ${eagerBeams.ms.toFixed(0)} ms, staged ${stagedBeams.ms.toFixed(0)} ms -> ` +
    `${(eagerBeams.ms / stagedBeams.ms).toFixed(1)}x`);
  if (!same || !sameBeams) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
