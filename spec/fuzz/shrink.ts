/**
 * Greedy shrinking on the generator's tree: from a failing program, try every one-step reduction
 * (delete a statement, replace a compound statement by one of its blocks, drop an else / case /
 * catch / finally / label, simplify a condition), keep the smallest candidate that still fails in
 * the same category, and repeat until no reduction does. Candidates are run in batches, smallest
 * first, so that one compilation checks many of them. Candidates that plain tsc rejects (a `break`
 * hoisted out of its loop) are classified 'generator' and so never kept.
 */
import { Compound, Program, size, Stmt, Text } from './program';
import { Verdict } from './runner';

const CHUNK = 40;
const MAX_ROUNDS = 60;
/** Shrinking stops here and returns the smallest program found so far (staged candidates are slow). */
const TIME_BUDGET_MS = 60_000;

/** Conditions a shrunk program may use instead of the generated one, per dialect shape. */
const SIMPLE_CONDITIONS: Text[] = ['a', 'v0 > 1', ['x.greater(0)', 'x > 0']];

export function shrink(program: Program, category: string, run: (programs: readonly Program[]) => Verdict[]):
    { program: Program; verdict: Verdict } {
  let best = program;
  let verdict: Verdict = run([program])[0];
  if (verdict.category !== category) return { program, verdict };
  const deadline = Date.now() + TIME_BUDGET_MS;
  for (let round = 0; round < MAX_ROUNDS && Date.now() < deadline; round++) {
    const candidates = reductions(best.body)
      .map((body) => ({ ...best, body }))
      .sort((x, y) => size(x.body) - size(y.body));
    let found = false;
    for (let k = 0; k < candidates.length && !found && Date.now() < deadline; k += CHUNK) {
      const chunk = candidates.slice(k, k + CHUNK);
      const verdicts = run(chunk);
      const hit = verdicts.findIndex((v) => v.category === category);
      if (hit >= 0) {
        best = chunk[hit];
        verdict = verdicts[hit];
        found = true;
      }
    }
    if (!found) break;
  }
  return { program: best, verdict };
}

/** Every block obtained from `stmts` by one reduction somewhere inside it. */
function reductions(stmts: readonly Stmt[]): Stmt[][] {
  const out: Stmt[][] = [];
  const replace = (i: number, by: Stmt[]) => out.push([...stmts.slice(0, i), ...by, ...stmts.slice(i + 1)]);
  stmts.forEach((stmt, i) => {
    replace(i, []);
    if (stmt.kind === 'line') return;
    const first = stmt.type === 'switch' ? 1 : 0;
    stmt.parts.forEach((part, j) => { if (j >= first) replace(i, part.body); });
    for (const c of withoutPart(stmt)) replace(i, [c]);
    if (stmt.label) replace(i, [{ ...stmt, label: undefined }]);
    stmt.parts.forEach((part, j) => {
      const withPart = (p: typeof part): Compound => ({ ...stmt, parts: stmt.parts.map((q, k) => (k === j ? p : q)) });
      if (part.cond !== undefined) {
        for (const cond of SIMPLE_CONDITIONS) {
          if (typeof cond === typeof part.cond && JSON.stringify(cond) !== JSON.stringify(part.cond)) replace(i, [withPart({ ...part, cond })]);
        }
      }
      for (const body of reductions(part.body)) replace(i, [withPart({ ...part, body })]);
    });
  });
  return out;
}

/** The statement without one of its optional parts (an else-if / else, a case, a catch or finally). */
function withoutPart(stmt: Compound): Compound[] {
  const drop = (j: number): Compound => ({ ...stmt, parts: stmt.parts.filter((_, k) => k !== j) });
  switch (stmt.type) {
    case 'if': return stmt.parts.slice(1).map((_, k) => drop(k + 1));
    case 'switch': return stmt.parts.slice(1).map((_, k) => drop(k + 1));
    case 'try': return stmt.parts.length === 3 ? [drop(1), drop(2)] : [];
    default: return [];
  }
}
