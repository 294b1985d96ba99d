/**
 * Switches lowered to if chains (issue 6, item 4): a `break` out of a switch, or a jump through
 * it, from inside a converted statement (a condition typed `any`). The chain must keep the
 * switch's semantics exactly: discriminant once, case expressions lazily in order with ===,
 * default anywhere, fall-through, and every kind of jump out of a clause. Programs are generated
 * from a fixed seed (layouts × clause bodies) and compiled by the conditions' types, so that
 * native and lowered switches, static and converted statements sit side by side.
 */
import { equivalenceSuite } from '../../harness/conformance';

function prng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

const bodies = [
  (k: number) => `log.push('c${k}');`,
  (k: number) => `log.push('c${k}'); if (a(v + ${k})) break; log.push('c${k}b');`,
  (k: number) => `if (a(v * ${k})) { log.push('brk${k}'); break; } else { log.push('nob${k}'); }`,
  (k: number) => `if (a(v + ${k})) continue; log.push('c${k}');`,
  (k: number) => `if (a(v - ${k})) return 'ret${k}:' + v; log.push('c${k}');`,
  (k: number) => `if (a(v)) break Outer; log.push('c${k}');`,
  (k: number) => `if (a(v + ${k})) break Sw; log.push('c${k}');`,
  (k: number) => `switch (v % 2) { case 0: if (a(v + ${k})) break; log.push('in0'); case 1: log.push('in1'); } log.push('c${k}');`,
  (k: number) => `for (let j = 0; j < 2; j++) { if (a(j + ${k})) break; log.push('j' + j); } log.push('c${k}');`,
  (k: number) => `log.push('c${k}'); break;`,
  (k: number) => ``,
  (k: number) => `{ let local = ${k}; if (a(local + v)) break; log.push('l' + local); }`,
];

const programs: Record<string, string> = {};
const random = prng(6);
for (let p = 0; p < 160; p++) {
  const count = 1 + Math.floor(random() * 4);
  const defaultAt = Math.floor(random() * (count + 2)) - 1;   // -1 or beyond: no default
  const clauses: string[] = [];
  for (let k = 0; k < count; k++) {
    const body = bodies[Math.floor(random() * bodies.length)](k);
    if (k === defaultAt) clauses.push(`default: ${body}`);
    else clauses.push(`case cs(${k}): ${body}`);
  }
  const labeled = random() < 0.3;
  const sw = `${labeled ? 'Sw: ' : ''}switch (d(v)) { ${clauses.join(' ')} }`;
  if (!labeled && sw.includes('break Sw')) continue;
  programs[`program ${p}: ${sw}`] = `
    export function run() {
      const log: unknown[] = [];
      const a = (x: number): any => { log.push('a' + x); return x % 3 === 1; };
      const d = (x: number) => { log.push('d' + x); return x % 4; };
      const cs = (k: number) => { log.push('cs' + k); return k; };
      const f = (): unknown => {
        Outer: for (let v = 0; v < 6; v++) {
          ${sw}
          log.push('after' + v);
        }
        return 'end';
      };
      log.push(f());
      return log;
    }`;
}

programs['strict equality: no coercion, NaN never matches, -0 matches 0'] = `
  export function run() {
    const out: string[] = [];
    const a = (x: unknown): any => x !== 'never';
    for (const v of ['1', 1, NaN, -0, null, undefined] as any[]) {
      switch (v) { case 1: if (a(v)) { out.push('num1'); break; } case NaN: out.push('nan'); break; case 0: if (a(v)) break; out.push('zero'); default: out.push('other'); case undefined: out.push('undef'); }
    }
    return out;
  }`;
programs['the discriminant is evaluated before the clauses, once; a function declared in a clause is hoisted within it'] = `
  export function run() {
    const out: unknown[] = [];
    const a: any = true;
    let n = 0;
    const g = () => 'outer g';
    switch ((out.push(g()), ++n)) {
      case 1: function g() { return 'clause g'; } out.push(g()); if (a) break; out.push('no');
      default: out.push('default');
    }
    out.push(n, g());
    return out;
  }`;
programs['lexical declarations used only in their own clause'] = `
  export function run() {
    const out: unknown[] = [];
    const a: any = (x: number) => x > 1;
    for (const v of [1, 2, 3]) {
      switch (v) {
        case 1: const x = 'one'; out.push(x);
        case 2: let y = v * 10; if (a(v)) break; out.push(y); class C { m() { return 'c' + v; } } out.push(new C().m());
        default: out.push('d');
      }
    }
    return out;
  }`;

equivalenceSuite('switch lowered to an if chain (typed conditions)', programs, { typed: true });
