/**
 * Conformance (test262 language/statements/try, return): completion of try/catch/finally with
 * returns inside converted control flow; finally overriding; returns from nested loops/blocks.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'return: return in finally overrides return in try': `
    function f(x: number) { try { if (x) return 'try'; } finally { if (x > 1) return 'finally'; } return 'end'; }
    export function run() { return [f(0), f(1), f(2)]; }`,
  'return: return value evaluated before finally runs': `
    function f() { let x = 1; try { if (x) return x; } finally { x = 2; } return -1; }
    function g(log: string[]) { try { if (log) return log.push('ret') && log.length; } finally { log.push('fin'); } return 0; }
    export function run() { const log: string[] = []; return [f(), g(log), log]; }`,
  'return: throw in finally overrides return': `
    function f() { for (let i = 0; i < 3; i++) { try { if (i === 1) return 'r'; } finally { if (i === 1) throw new Error('fin'); } } return 'end'; }
    export function run() { try { return f(); } catch (e: any) { return e.message; } }`,
  'return: nested try/finally, all finallies run innermost first': `
    function f(log: string[]) {
      try {
        for (let i = 0; i < 3; i++) {
          try { try { if (i === 1) return 'r' + i; } finally { log.push('in' + i); } } finally { log.push('mid' + i); }
        }
      } finally { log.push('out'); }
      return 'end';
    }
    export function run() { const log: string[] = []; const r = f(log); return [r, log]; }`,
  'return: catch returns, finally observes': `
    function f(log: string[], x: number) {
      try { if (x) throw new Error('e' + x); log.push('no throw'); } catch (e: any) { if (x > 1) return e.message; log.push('caught'); } finally { log.push('fin'); }
      return 'end';
    }
    export function run() { const log: string[] = []; return [f(log, 0), f(log, 1), f(log, 2), log]; }`,
  'return: return without value in loop yields undefined': `
    function f(n: number) { let s = 0; while (true) { s++; if (s > n) return; } }
    export function run() { return [typeof f(2), 'x']; }`,
  'return: return inside labeled block inside loop': `
    function f(n: number) {
      let r = 0;
      for (let i = 0; i < 10; i++) { blk: { if (i === n) return 'at' + i; if (i % 2) break blk; r += i; } }
      return r;
    }
    export function run() { return [f(3), f(20)]; }`,
  'return: returns an object built from loop state': `
    function f(a: number[]) { let min = Infinity, max = -Infinity; for (const x of a) { if (x < min) min = x; if (x > max) max = x; if (x === 0) return { min, max, early: true }; } return { min, max, early: false }; }
    export function run() { return [f([3, 1, 4]), f([5, 0, 9])]; }`,
  'return: catch parameter shadowing and destructuring': `
    export function run() {
      const log: unknown[] = [];
      const e = 'outer';
      for (let i = 0; i < 2; i++) {
        try { if (i) throw { code: i, msg: 'm' + i }; log.push('ok'); } catch ({ code, msg }: any) { if (code) log.push(code, msg); }
        try { throw new Error('x'); } catch (e) { log.push(typeof e); } finally { log.push(e); }
      }
      return log;
    }`,
  'return: optional catch binding': `
    export function run() { const log: string[] = []; for (const x of [0, 1]) { try { if (x) throw 1; log.push('t'); } catch { log.push('c'); } } return log; }`,
  'return: rethrow from catch after loop partial work': `
    export function run() {
      const log: unknown[] = [];
      try {
        for (let i = 0; i < 5; i++) {
          try { if (i === 2) throw new Error('inner' + i); log.push(i); } catch (e: any) { log.push('caught ' + e.message); if (i === 2) throw new TypeError('rethrow'); }
        }
      } catch (e: any) { log.push(e.constructor.name + e.message); }
      return log;
    }`,
  'return: returning from try in a for-of over a generator runs generator finally after try finally': `
    function f(log: string[]) {
      function* g() { try { yield 1; yield 2; } finally { log.push('gen fin'); } }
      for (const v of g()) { try { if (v === 1) return 'r'; } finally { log.push('loop fin'); } }
      return 'end';
    }
    export function run() { const log: string[] = []; const r = f(log); return [r, log]; }`,
  'return: throw non-Error values': `
    export function run() {
      const out: unknown[] = [];
      for (const v of [1, 'str', null, undefined, { a: 1 }]) {
        try { if (true) throw v; } catch (e) { out.push(e === undefined ? 'undef' : e); }
      }
      return out;
    }`,
  'return: early return skips later side effects but runs finally of outer try': `
    function f(log: string[], n: number) {
      try { for (let i = 0; ; i++) { if (i === n) { log.push('returning'); return i; } log.push('i' + i); } }
      finally { log.push('finally'); }
    }
    export function run() { const log: string[] = []; const r = f(log, 2); return [r, log]; }`,
  'return: recursion with returns in loops': `
    function flatten(x: any): number[] { if (!Array.isArray(x)) return [x]; const out: number[] = []; for (const y of x) { if (y === null) return out; out.push(...flatten(y)); } return out; }
    function ack(m: number, n: number): number { if (m === 0) return n + 1; if (n === 0) return ack(m - 1, 1); return ack(m - 1, ack(m, n - 1)); }
    export function run() { return [flatten([1, [2, [3, null, 9], 4], 5]), ack(2, 3)]; }`,
  'return: return in finally overrides a throw': `
    function f(x: number) { try { if (x) throw new Error('t'); return 'ok'; } finally { if (x === 2) return 'swallowed'; } }
    export function run() { const out: unknown[] = []; for (const x of [0, 1, 2]) { try { out.push(f(x)); } catch (e: any) { out.push('threw ' + e.message); } } return out; }`,
  'return: finally with break inside while(true) swallows exception': `
    export function run() {
      const log: string[] = [];
      while (true) { try { throw new Error('lost'); } finally { log.push('fin'); break; } }
      log.push('after');
      return log;
    }`,
};

equivalenceSuite('conformance: return, try, catch, finally', programs);
