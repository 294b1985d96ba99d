/**
 * Conformance (test262 language/expressions/assignment/destructuring, statements/variable
 * dstr): destructuring declarations and assignments inside converted statements — iterator
 * closing, default evaluation order, getters, rest elements.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'dstr: array pattern closes the iterator when not exhausted': `
    export function run() {
      const log: string[] = [];
      const it: any = { [Symbol.iterator]() { let i = 0; return { next() { log.push('next'); return { value: i++, done: false }; }, return() { log.push('return'); return {}; } }; } };
      for (let k = 0; k < 2; k++) { if (k) { const [a, b] = it; log.push('got' + a + b); } else { const [, ...rest] = [1, 2, 3]; log.push(rest.join()); } }
      return log;
    }`,
  'dstr: assignment pattern to outer variables inside a converted branch': `
    export function run() {
      let a = 1, b = 2, c: any;
      const out: unknown[] = [];
      for (let i = 0; i < 3; i++) { if (i % 2) [a, b] = [b, a]; else ({ x: c = 'dflt' } = i ? { x: i } : {} as any); out.push([a, b, c]); }
      return out;
    }`,
  'dstr: defaults evaluated left to right and only when undefined': `
    export function run() {
      const log: string[] = [];
      const d = (s: string) => { log.push(s); return s; };
      for (const src of [[], [1], [undefined, 2], [null, null]] as any[]) { if (src) { const [p = d('p'), q = d('q' + p)] = src; log.push(String(p) + '/' + String(q)); } }
      return log;
    }`,
  'dstr: object pattern getter order and rest excludes taken keys': `
    export function run() {
      const log: string[] = [];
      const src = { get a() { log.push('a'); return 1; }, get b() { log.push('b'); return 2; }, get c() { log.push('c'); return 3; } };
      let out: any;
      if (log.length === 0) { const { b, ...rest } = src; out = [b, rest]; }
      return [log, out];
    }`,
  'dstr: computed keys evaluated in order': `
    export function run() {
      const log: string[] = [];
      const k = (s: string) => { log.push('key ' + s); return s; };
      const o: any = { x: 1, y: 2 };
      let x2: any, y2: any;
      while (log.length === 0) { ({ [k('x')]: x2, [k('y')]: y2 } = o); }
      return [log, x2, y2];
    }`,
  'dstr: destructuring null throws TypeError in a loop': `
    export function run() {
      const out: unknown[] = [];
      for (const v of [{ a: 1 }, null, undefined] as any[]) { try { if (true) { const { a } = v; out.push(a); } } catch (e: any) { out.push(e.constructor.name); } }
      return out;
    }`,
  'dstr: swap via destructuring in a while loop (bubble pass)': `
    export function run() {
      const a = [5, 3, 8, 1];
      let swapped = true;
      while (swapped) { swapped = false; for (let i = 0; i + 1 < a.length; i++) { if (a[i] > a[i + 1]) { [a[i], a[i + 1]] = [a[i + 1], a[i]]; swapped = true; } } }
      return a;
    }`,
  'dstr: nested patterns in parameters with defaults referencing earlier params': `
    function f({ a, b: [c, d = c * 2] = [1] }: any = {}, e = a ?? c) { if (d > 5) return [a, c, d, e, 'big']; return [a, c, d, e]; }
    export function run() { return [f(), f({ a: 1, b: [4] }), f({ b: [2, 3] }, 'E')].map((x) => JSON.stringify(x)); }`,
  'dstr: default parameter expressions with side effects and closures': `
    let calls = 0;
    function f(a = ++calls, b = () => a, c = a > 1 ? 'gt' : 'le') { a = 100; return [b(), c, calls]; }
    export function run() { return [f(), f(), f(5)]; }`,
  'dstr: for-of with nested array/object pattern and holes': `
    export function run() {
      const out: unknown[] = [];
      for (const [, { n = 0 } = {}, ...tail] of [[1, { n: 2 }, 3, 4], [1], [1, undefined, 5]] as any[]) { if (n) out.push(n, tail.length); else out.push('none', tail.length); }
      return out;
    }`,
  'dstr: assignment destructuring returns the right-hand side': `
    export function run() { let a: any, b: any; const rhs = [1, 2]; const r = ([a, b] = rhs); let x: any; const r2 = (a ? ({ x } = { x: 9 }) : null); return [r === rhs, a, b, x, r2]; }`,
  'dstr: string and Map destructuring': `
    export function run() { const out: unknown[] = []; for (let i = 0; i < 2; i++) { if (i) { const [[k, v]] = new Map([['mk', 'mv']]); out.push(k, v); } else { const [c1, c2, ...cs] = 'hello'; out.push(c1, c2, cs.length); } } return out; }`,
};

equivalenceSuite('conformance: destructuring', programs);
