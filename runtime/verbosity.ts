/**
 * AUTOGRAPH_VERBOSITY (0–3, default 0): what autograph-ts logs about its decisions, to stderr.
 *   1 – each conversion (tspc) and each trace of a staged function, with the reason for a retrace;
 *   2 – also each statement's classification (tspc) and every cache hit;
 *   3 – also each staged graph's listing after optimization.
 * Read once when the module loads: when it is 0, a log call costs one comparison.
 */
export const VERBOSITY: number = ((): number => {
  const raw = typeof process !== 'undefined' ? process.env?.AUTOGRAPH_VERBOSITY : undefined;
  const level = raw === undefined || raw === '' ? 0 : Number(raw);
  return Number.isInteger(level) && level >= 0 ? Math.min(level, 3) : 0;
})();

export function verboseLog(level: number, message: () => string): void {
  if (VERBOSITY >= level) console.error(`autograph-ts: ${message()}`);
}
