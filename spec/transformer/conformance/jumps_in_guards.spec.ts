/**
 * Jumps that end up inside a synthesized guard (issue 6, item 1). Lowering a jump wraps the rest
 * of each block on its way to the target in `if (!flag) { ... }`, a converted if (a closure): a
 * second jump or a return in that rest must be lowered like any jump inside a converted statement,
 * or it returns from the closure (a lost `return`) or is a SyntaxError (`continue L` in an arrow).
 * The matrix: first jump × second jump (break / continue / return / labeled, to the inner or the
 * outer loop) × each guard's condition static or `any` × loop test static or `any` × loop kind ×
 * nesting, compiled by the conditions' types (static and converted side by side).
 */
import { equivalenceSuite } from '../../harness/conformance';

const dyn = (cond: string, dynamic: boolean): string => (dynamic ? `(${cond}) as any` : cond);

type Loop = 'while' | 'for' | 'do' | 'for-of';
function loop(kind: Loop, label: string, v: string, limit: number, dynamic: boolean, body: string): string {
  const test = dyn(`${v} < ${limit}`, dynamic);
  switch (kind) {
    case 'while': return `let ${v} = 0; ${label}: while (${test}) { ${v}++; ${body} }`;
    case 'do': return `let ${v} = 0; ${label}: do { ${v}++; ${body} } while (${test});`;
    case 'for': return `let ${v}n = 0; ${label}: for (let ${v} = 1; ${dyn(`${v} <= ${limit}`, dynamic)}; ${v}++) { ${v}n = ${v}; ${body} }`;
    case 'for-of': return `${label}: for (const ${v} of [1, 2, 3, 4, 5].slice(0, ${limit}) as any[]) { ${body} }`;
  }
}

const jumps = (nested: boolean): string[] => nested
  ? ['break', 'continue', 'return i * 100 + j', 'break Outer', 'continue Outer', 'continue Inner']
  : ['break', 'continue', 'return i * 100', 'break Outer', 'continue Outer'];
const kinds: Loop[] = ['while', 'for', 'do', 'for-of'];

const programs: Record<string, string> = {};
let n = 0;
for (const nested of [false, true]) {
  for (const first of jumps(nested)) {
    for (const second of jumps(nested)) {
      for (const [g1, g2, loopDynamic] of [[false, true, false], [true, false, false], [true, true, false], [true, true, true], [false, true, true]]) {
        const kind = kinds[n++ % kinds.length];
        const v = nested ? 'j' : 'i';
        const inner = `if (${dyn(`p(${v}, 'g1') % 2 === 0`, g1)}) ${first}; log.push('a' + i + ${v}); ` +
          `if (${dyn(`p(${v}, 'g2') % 3 === 0`, g2)}) ${second}; log.push('b' + i + ${v});`;
        const body = nested
          ? loop(kind, 'Outer', 'i', 4, false, `${loop(kinds[(n + 1) % 4], 'Inner', 'j', 4, loopDynamic, inner)} log.push('after inner' + i);`)
          : loop(kind, 'Outer', 'i', 5, loopDynamic, inner.replace(/\bj\b/g, 'i'));
        const name = `${nested ? 'nested' : 'flat'} ${kind}: ${first} (${g1 ? 'any' : 'static'}) then ${second} (${g2 ? 'any' : 'static'}), loop test ${loopDynamic ? 'any' : 'static'}`;
        programs[name] = `
          export function run() {
            const log: unknown[] = [];
            const f = (shift: number): unknown => {
              const p = (x: number, tag: string) => { log.push(tag + x); return x + shift; };
              ${body}
              return 'end';
            };
            log.push(f(0), f(1), f(2));
            return log;
          }`.replace(/\breturn i \* 100( \+ j)?/g, 'return i * 100$1');
      }
    }
  }
}

programs['issue 6: return after a continue guarded by an any condition, in a static loop'] = `
  function f(pd: any): number {
    let w = 1;
    while (w < 4) { w++; if (!pd) continue; return 4; }
    return 0;
  }
  export function run() { return [f({}), f(0), f('')]; }`;
programs['issue 6: labeled continue of the outer loop after a lowered continue of the inner one'] = `
  export function run() {
    const log: string[] = [];
    const c: any = (k: number) => k % 2;
    L7: for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) { if (c(j)) continue; log.push(i + ':' + j); continue L7; }
      log.push('never');
    }
    return log;
  }`;
programs['a trailing break after a lowered continue leaves the loop only when the continue was not taken'] = `
  function f(a: any) {
    let v = 0;
    for (let i = 0; ; i++) { if (i >= 3) break; v = 10 + i; if (a) { continue; } break; }
    let w = 0;
    while (w < 5) { w++; if (a) continue; break; }
    const log: unknown[] = [];
    for (const k of [1, 2, 3]) { switch (k) { case 1: if (a) continue; break; default: log.push('k' + k); } log.push('after' + k); }
    return [v, w, log];
  }
  export function run() { return [f(true), f(false)]; }`;

equivalenceSuite('jumps inside synthesized guards (typed conditions)', programs, { typed: true });
