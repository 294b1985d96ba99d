/**
 * Conformance (test262 language/statements/for-of): the iterator protocol (next/return calls,
 * counts and order), early exits closing the iterator, Map/Set/string/generator sources,
 * destructuring heads, per-iteration bindings.
 */
import { equivalenceSuite } from '../../harness/conformance';

const tracing = `
  function traced(log: unknown[], n: number, opts: { throwAt?: number; noReturn?: boolean } = {}) {
    let i = 0;
    const it: any = {
      [Symbol.iterator]() { log.push('iter'); return it; },
      next(...args: unknown[]) {
        log.push('next' + i + (args.length ? '+args' : ''));
        if (opts.throwAt === i) throw new Error('next threw');
        return i < n ? { value: i++, done: false } : { value: 'ret', done: true };
      },
    };
    if (!opts.noReturn) it.return = (...args: unknown[]) => { log.push('return' + (args.length ? '+args' : '')); return {}; };
    return it;
  }`;

export const programs: Record<string, string> = {
  'for-of: full iteration calls next n+1 times, never return': `${tracing}
    export function run() { const log: unknown[] = []; for (const x of traced(log, 3)) log.push('v' + x); return log; }`,
  'for-of: break calls return once': `${tracing}
    export function run() { const log: unknown[] = []; for (const x of traced(log, 5)) { log.push('v' + x); if (x === 1) break; } log.push('after'); return log; }`,
  'for-of: continue does not call return': `${tracing}
    export function run() { const log: unknown[] = []; for (const x of traced(log, 4)) { if (x % 2) continue; log.push('v' + x); } return log; }`,
  'for-of: return from body calls return': `${tracing}
    function f(log: unknown[]) { for (const x of traced(log, 5)) { if (x === 2) return 'found' + x; log.push('v' + x); } return 'none'; }
    export function run() { const log: unknown[] = []; log.push(f(log)); return log; }`,
  'for-of: throw in body calls return, error propagates': `${tracing}
    export function run() {
      const log: unknown[] = [];
      try { for (const x of traced(log, 5)) { if (x === 1) throw new Error('body' + x); } } catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'for-of: next throwing does not call return': `${tracing}
    export function run() {
      const log: unknown[] = [];
      try { for (const x of traced(log, 5, { throwAt: 2 })) log.push('v' + x); } catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'for-of: break with no return method': `${tracing}
    export function run() { const log: unknown[] = []; for (const x of traced(log, 5, { noReturn: true })) { if (x === 2) break; log.push(x); } return log; }`,
  'for-of: labeled continue of outer loop closes the inner iterator': `${tracing}
    export function run() {
      const log: unknown[] = [];
      outer: for (const a of [1, 2]) {
        for (const b of traced(log, 3)) { if (b === 1) continue outer; log.push(a + ':' + b); }
        log.push('never');
      }
      return log;
    }`,
  'for-of: labeled break out of two iterators closes both, inner first': `${tracing}
    export function run() {
      const log: unknown[] = [];
      const l1: unknown[] = []; const l2: unknown[] = [];
      outer: for (const a of traced(l1, 3)) { for (const b of traced(l2, 3)) { if (a + b === 2) break outer; log.push([a, b]); } }
      return [log, l1, l2];
    }`,
  'for-of: Map entries with destructuring, mutation during iteration': `
    export function run() {
      const m = new Map<string, number>([['a', 1], ['b', 2]]);
      const log: unknown[] = [];
      for (const [k, v] of m) { log.push(k + v); if (k === 'a') { m.set('c', 3); m.delete('b'); } }
      return log;
    }`,
  'for-of: Set with additions during iteration': `
    export function run() {
      const s = new Set([1, 2]);
      const log: number[] = [];
      for (const x of s) { log.push(x); if (x < 5) s.add(x + 2); }
      return log;
    }`,
  'for-of: string iterates code points': `
    export function run() {
      const log: string[] = [];
      for (const ch of 'a\\u{1F600}b') { if (ch === 'b') break; log.push(ch.length + ''); }
      return log;
    }`,
  'for-of: generator closed early runs its finally': `
    export function run() {
      const log: unknown[] = [];
      function* g() { try { for (let i = 0; ; i++) { log.push('yield' + i); yield i; } } finally { log.push('gen finally'); } }
      for (const v of g()) { if (v === 2) break; log.push('got' + v); }
      log.push('after');
      return log;
    }`,
  'for-of: array mutated during iteration sees pushes': `
    export function run() {
      const a = [1, 2, 3];
      const log: number[] = [];
      for (const x of a) { log.push(x); if (x === 1) a.push(4); if (x === 2) a.shift(); }
      return log;
    }`,
  'for-of: closures capture each iteration binding': `
    export function run() {
      const fns: (() => number)[] = [];
      for (const x of [10, 20, 30]) { if (x !== 20) fns.push(() => x); }
      let y: number;
      const gs: (() => number)[] = [];
      for (y of [1, 2, 3]) gs.push(() => y);
      return [fns.map((f) => f()), gs.map((f) => f())];
    }`,
  'for-of: assignment target is a member expression': `
    export function run() {
      const o: any = { log: [] as unknown[] };
      const target: any = { set v(x: number) { o.log.push('set' + x); } };
      for (target.v of [1, 2]) { o.log.push('body'); }
      const arr: number[] = [];
      let i = 0;
      for (arr[i++] of [7, 8, 9]) {}
      return [o.log, arr, i];
    }`,
  'for-of: destructuring with defaults calls default only when undefined': `
    export function run() {
      const log: unknown[] = [];
      let calls = 0;
      const d = () => { calls++; return 'd'; };
      for (const { a = d(), b: [c, ...rest] = [0] } of [{ a: 1, b: [2, 3, 4] }, {}, { a: undefined, b: undefined }] as any[]) log.push([a, c, rest]);
      return [log, calls];
    }`,
  'for-of: iterable evaluated once, before the first next': `
    export function run() {
      const log: string[] = [];
      const src = () => { log.push('src'); return [1, 2]; };
      for (const x of src()) log.push('x' + x);
      return log;
    }`,
  'for-of: non-iterable throws TypeError': `
    export function run() {
      try { for (const x of (42 as any)) { void x; } return 'no'; } catch (e: any) { return e.constructor.name; }
    }`,
  'for-of: return inside try/finally inside for-of closes after finally': `${tracing}
    function f(log: unknown[]) {
      for (const x of traced(log, 5)) { try { if (x === 1) return 'r' + x; } finally { log.push('fin' + x); } }
      return 'none';
    }
    export function run() { const log: unknown[] = []; log.push(f(log)); return log; }`,
  'for-of: break inside switch inside for-of only leaves switch': `
    export function run() {
      const log: string[] = [];
      for (const x of [1, 2, 3]) {
        switch (x) { case 2: log.push('two'); break; default: log.push('d' + x); }
        log.push('after' + x);
      }
      return log;
    }`,
  'for-of: entries() and keys() of arrays with holes': `
    export function run() {
      const a = [1, , 3];
      const log: unknown[] = [];
      for (const [i, v] of a.entries()) log.push(i, v === undefined ? 'hole' : v);
      for (const k of a.keys()) { if (k === 1) continue; log.push('k' + k); }
      return log;
    }`,
  'for-of: nested generator delegation with early return': `
    export function run() {
      const log: string[] = [];
      function* inner() { try { yield 1; yield 2; } finally { log.push('inner fin'); } }
      function* outer() { try { yield* inner(); yield 3; } finally { log.push('outer fin'); } }
      for (const v of outer()) { log.push('v' + v); if (v === 2) break; }
      return log;
    }`,
  'for-of: return() throwing during break propagates': `
    export function run() {
      const log: string[] = [];
      const it: any = { [Symbol.iterator]() { return it; }, next() { return { value: 1, done: false }; }, return() { log.push('ret'); throw new Error('from return'); } };
      try { for (const x of it) { void x; break; } } catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'for-of: return() error suppressed by body throw': `
    export function run() {
      const log: string[] = [];
      const it: any = { [Symbol.iterator]() { return it; }, next() { return { value: 1, done: false }; }, return() { log.push('ret'); throw new Error('from return'); } };
      try { for (const x of it) { void x; throw new Error('body'); } } catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'for-of / for-in: the head names are in TDZ while the iterable is evaluated (issue 6, item 3)': `
    export function run() {
      const log: unknown[] = [];
      const x = [1, 2];
      const attempt = (f: () => void) => { try { f(); } catch (e: any) { log.push(e.constructor.name + ': ' + e.message); } };
      // @ts-ignore
      attempt(() => { for (const x of x) { if (x) log.push(x); } });
      // @ts-ignore
      attempt(() => { for (const [x] of [x]) { if (x) break; } });
      const later: (() => unknown)[] = [];
      // @ts-ignore
      attempt(() => { for (const y of (later.push(() => y), [1])) { if (y) log.push('y' + y); } });
      attempt(() => later[0]());
      // @ts-ignore
      attempt(() => { for (let x in x) { if (x) break; } });
      attempt(() => { for (const z of x) { if (z > 1) break; log.push(z); } });
      return log;
    }`,
};

equivalenceSuite('conformance: for-of and iterators', programs);
