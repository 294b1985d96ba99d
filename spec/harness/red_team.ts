/**
 * What the red-team specs (real code by others, ported as written) check with: results compared with
 * the `dataSync` original (`<name>Original` in the fixture), and refusals on both engines.
 */
import { expect } from 'chai';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import type { Fixture } from './fixtures';
import { typed } from './typed_results';

/** Typed results with tensors replaced by their values: comparable with a dataSync original. */
export const values = (x: unknown): unknown =>
  JSON.parse(JSON.stringify(typed(x), (_k, v) => (v && typeof v === 'object' && 'tensor' in v && 'dtype' in v ? v.tensor : v)));
/** An original's result through JSON as `values` does (-Infinity and NaN become null on both sides). */
export const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
const engines = ['tfjs', 'auto'] as const;

export function redTeam(fixture: Fixture) {
  return {
    /** Eager == staged on both engines (agree), and equal to the original, for each argument list. */
    withOriginal: (name: string, ...argLists: (() => unknown[])[]): void =>
      fixture.agree(name, ...argLists).forEach((eager, k) =>
        expect(values(eager), name).to.deep.equal(plain(fixture.m[`${name}Original`](...argLists[k]())))),
    /** Eager equals the original; staged on each engine throws a StagingError matching `message`. */
    refused: (name: string, args: () => unknown[], message: RegExp): void => {
      expect(values(fixture.m[name](...args()))).to.deep.equal(plain(fixture.m[`${name}Original`](...args())));
      for (const engine of engines) expect(() => stage(fixture.m[name], { engine })(...args()), engine).to.throw(StagingError, message);
    },
    /** A regexp source for `main.ts:<line of text>:<col>`. */
    at: (text: string): string => `main\\.ts:${fixture.lineOf(text)}:\\d+`,
  };
}
