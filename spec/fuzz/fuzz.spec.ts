/**
 * The differential fuzzer on a fixed batch (see cli.ts for `npm run fuzz`): plain programs must
 * behave identically compiled with and without the plugin, and tensor programs must give the
 * reference values eagerly and staged. Seeds are fixed so that a failure here reproduces with
 * `npm run fuzz -- --mode <mode> --seed <seed> --n 1 --from <index> --shrink`.
 */
import { expect } from 'chai';
import { describeFailure, fuzz, Mode } from './fuzz';

const BATCHES: { mode: Mode; n: number; seed: number }[] = [
  { mode: 'plain', n: 300, seed: 20261123 },
  { mode: 'tensor', n: 60, seed: 20261123 },
  { mode: 'stress', n: 40, seed: 20261126 },
];

describe('differential fuzzer (fixed batch)', () => {
  for (const { mode, n, seed } of BATCHES) {
    it(`${mode}: ${n} programs from seed ${seed} behave as in JavaScript`, function () {
      this.timeout(120000);
      const summary = fuzz({ mode, n, seed });
      const failures = summary.failures.filter((f) => f.category !== 'refused staged');
      expect(failures.length, `${summary.line}\n\n${failures.map(describeFailure).join('\n\n')}`).to.equal(0);
    });
  }
});
