/**
 * Completion records through `finally` (test262 language/statements/try S12.14 cases,
 * cptn-*): jumps inside finally override pending break/continue/return/throw; finally blocks that
 * do not jump leave them pending; generators' return() runs finally blocks.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'finally: conditional jump not taken leaves the exception pending': `
    export function run() {
      const log: string[] = [];
      for (let i = 0; i < 3; i++) {
        try { try { throw new Error('e' + i); } finally { if (i === 1) continue; log.push('fin' + i); } } catch (e: any) { log.push('caught ' + e.message); }
      }
      return log;
    }`,
  'finally: continue in finally keeps a for-of iterating (iterator not closed)': `
    export function run() {
      const log: string[] = [];
      const it: any = { i: 0, [Symbol.iterator]() { return this; }, next() { return this.i < 3 ? { value: this.i++, done: false } : { value: undefined, done: true }; }, return() { log.push('closed'); return {}; } };
      for (const x of it) { try { if (x < 5) throw new Error('x' + x); } finally { if (x >= 0) continue; } }
      log.push('end');
      return log;
    }`,
  'finally: break in finally cancels a pending return': `
    function f() { const log: string[] = []; for (let i = 0; i < 3; i++) { try { if (i === 1) return 'returned'; log.push('t' + i); } finally { if (i === 1) break; } } return log.concat('after loop'); }
    export function run() { return f(); }`,
  'finally: return in finally overrides return in try (value)': `
    function f(x: number) { for (let i = 0; i < 2; i++) { try { if (x) return 'try' + i; } finally { if (x > 1) return 'fin' + i; } } return 'end'; }
    export function run() { return [f(0), f(1), f(2)]; }`,
  'finally: nested finallies, inner jump overridden by outer finally jump': `
    export function run() {
      const log: string[] = [];
      a: for (let i = 0; i < 3; i++) {
        b: for (let j = 0; j < 3; j++) {
          try { try { if (j === 1) break b; } finally { log.push('in' + i + j); if (j === 1 && i === 1) continue a; } } finally { log.push('out' + i + j); if (i === 2 && j === 1) break a; }
        }
        log.push('endb' + i);
      }
      return log;
    }`,
  'finally: try/catch/finally where catch rethrows and finally jumps': `
    export function run() {
      const log: string[] = [];
      for (let i = 0; i < 2; i++) {
        try { throw new Error('a'); } catch (e: any) { log.push('catch' + i); throw new Error('b'); } finally { log.push('fin' + i); if (i >= 0) continue; }
      }
      return log;
    }`,
  'finally: finally without jump after lowered return runs and keeps the value': `
    function f(log: string[]) { let i = 0; while (i < 5) { try { if (i === 2) return 'r' + i; } finally { log.push('f' + i); } i++; } return 'end'; }
    export function run() { const log: string[] = []; return [f(log), log]; }`,
  'finally: generator return() runs a finally whose body can jump': `
    function* g(log: string[]) { for (let i = 0; i < 3; i++) { try { yield i; } finally { log.push('fin' + i); if (i === 99) break; } } log.push('after loop'); }
    export function run() { const log: string[] = []; const it = g(log); const a = it.next().value; const r = it.return(undefined); return [a, r.done, log]; }`,
  'finally: return value expression side effects happen before finally': `
    function f(log: string[]) { for (const x of [1, 2]) { try { if (x === 2) return (log.push('eval ret'), 'v'); } finally { log.push('fin' + x); } } return 'none'; }
    export function run() { const log: string[] = []; return [f(log), log]; }`,
  'finally: exception in finally replaces a pending break': `
    export function run() {
      const log: string[] = [];
      try { for (let i = 0; i < 3; i++) { try { if (i === 1) break; } finally { if (i === 1) throw new Error('from finally'); } log.push('i' + i); } } catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'finally: exception in finally cancels a pending return, code after the catch runs': `
    function f(a: number) { const log: string[] = []; try { try { if (a) return 'try'; } finally { throw new Error('fin'); } } catch (e: any) { log.push(e.message); } log.push('after'); return log; }
    function g(a: number): any { try { try { if (a) return 'try'; } finally { throw new Error('fin'); } } catch (e: any) { } }
    export function run() { return [f(0), f(1), g(1)]; }`,
  'finally: exception in an inner finally cancels the return, an outer finally that jumps catches it': `
    function f(a: number) {
      const log: string[] = [];
      for (let i = 0; i < 2; i++) {
        try { try { if (a) return 'try' + i; } finally { log.push('inner' + i); if (a > 1) throw new Error('fin'); } } finally { log.push('outer' + i); if (i === 0) continue; }
        log.push('end' + i);
      }
      return log;
    }
    export function run() { return [f(0), f(1), f(2)]; }`,
  'finally: exception in finally cancels a pending continue inside a loop': `
    export function run() {
      const log: string[] = [];
      for (let i = 0; i < 3; i++) { try { try { if (i === 1) continue; } finally { if (i === 1) throw new Error('fin' + i); } } catch (e: any) { log.push(e.message); } log.push('i' + i); }
      return log;
    }`,
  'finally: a native break out of finally cancels a lowered return and its value': `
    function f(a: number) { const log: string[] = []; b: { try { if (a) return 'try'; } finally { log.push('fin'); break b; } } log.push('after'); return log; }
    function g(a: number): any { b: { try { if (a) return 'try'; } finally { break b; } } }
    export function run() { return [f(0), f(1), g(1)]; }`,
  'finally: labeled block break in finally swallows a throw': `
    export function run() {
      const log: string[] = [];
      for (const v of [0, 1]) { blk: { try { if (v) throw new Error('boom'); log.push('no throw'); } finally { if (v) break blk; } log.push('after try' + v); } log.push('after blk' + v); }
      return log;
    }`,
  'finally: async function, finally jump swallows rejection': `
    export async function run() {
      const log: string[] = [];
      for (let i = 0; i < 2; i++) { try { await Promise.reject(new Error('r' + i)); } finally { log.push('fin' + i); if (i === 0) continue; } }
      return log;
    }`,
  // Fuzzer seed 99 #5764: the inner finally's break cancels the inner return, and with it the
  // outer finally's "jumped" mark, so the outer pending return (107) completes.
  'finally: a return inside an outer finally cancelled by an inner finally break': `
    function f(a: any) {
      try { return 107; } finally {
        let i = 0;
        do { try { return 105; } finally { break; } } while (i++ < 2 && a);
      }
    }
    export function run() { return [f(true), f(false), f(0)]; }`,
  'finally: the same return, not cancelled, overrides the outer one': `
    function f(a: any) {
      try { return 107; } finally {
        let i = 0;
        do { try { if (a) return 105; } finally { if (!a) break; } } while (i++ < 2 && a);
      }
    }
    export function run() { return [f(true), f(false), f(0)]; }`,
};

equivalenceSuite('conformance: completions through finally', programs, { async: true });
