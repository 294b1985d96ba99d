/**
 * Conformance (test262 language/statements/while, do-while): test evaluation count and order,
 * break/continue (labeled and not), throwing tests, closures over body bindings.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'while: test evaluated n+1 times': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      while ((log.push('t' + i), i < 3)) { log.push('b' + i); i++; }
      return log;
    }`,
  'while: false test never runs the body': `
    export function run() { let n = 0; while (false) { n++; } while (n) { n = 99; } return n; }`,
  'while: break from nested if inside else-if': `
    export function run() {
      const log: number[] = [];
      let i = 0;
      while (true) {
        i++;
        if (i < 3) log.push(i); else if (i === 5) { log.push(-i); break; } else { log.push(i * 10); }
      }
      return log;
    }`,
  'while: continue skips rest, test re-evaluated': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      while ((log.push('test'), ++i <= 5)) {
        if (i % 2 === 0) continue;
        log.push('odd' + i);
        if (i === 5) continue;
        log.push('after' + i);
      }
      return log;
    }`,
  'while: test throws on third evaluation': `
    export function run() {
      const log: unknown[] = [];
      let i = 0;
      try {
        while ((() => { if (i === 2) throw new TypeError('t' + i); return true; })()) { log.push(i); i++; }
      } catch (e: any) { log.push(e.message); }
      log.push(i);
      return log;
    }`,
  'while: body throws mid-way, loop state preserved': `
    export function run() {
      let i = 0; let s = 0;
      try { while (i < 10) { s += i; if (i === 4) throw new Error('stop'); i++; } } catch (e: any) { s = s * 100 + i; }
      return s;
    }`,
  'while: closures capture per-iteration const and shared let': `
    export function run() {
      const fns: (() => string)[] = [];
      let i = 0;
      while (i < 3) { const c = i; let d = i * 2; fns.push(() => c + ':' + d + ':' + i); d++; i++; }
      return fns.map((f) => f());
    }`,
  'do-while: body runs once even with false test': `
    export function run() { const log: string[] = []; do { log.push('body'); } while ((log.push('test'), false)); return log; }`,
  'do-while: continue goes to the test': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      do {
        i++;
        if (i % 2) continue;
        log.push('even' + i);
      } while ((log.push('t' + i), i < 6));
      return log;
    }`,
  'do-while: break skips the test': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      do { i++; log.push('b' + i); if (i === 3) break; } while ((log.push('t'), true));
      return log;
    }`,
  'do-while: labeled continue of outer do-while from inner while': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      outer: do {
        i++;
        let j = 0;
        while (j < 5) {
          j++;
          if (j === i) continue outer;
          log.push(i + '.' + j);
        }
        log.push('inner done');
      } while (i < 3);
      return log;
    }`,
  'do-while: return from inside': `
    function f(n: number) { let i = 0; do { if (i * i > n) return i; i++; } while (i < 100); return -1; }
    export function run() { return [f(0), f(10), f(99), f(100000)]; }`,
  'do-while: nested do-while with break to label': `
    export function run() {
      const log: number[] = [];
      let a = 0;
      top: do {
        let b = 0;
        do { b++; if (a * b === 6) break top; log.push(a * 10 + b); } while (b < 3);
        a++;
      } while (a < 10);
      log.push(a);
      return log;
    }`,
  'while: test with assignment and short-circuit': `
    export function run() {
      const q = [3, 1, 0, 4, 5];
      const log: number[] = [];
      let x: number | undefined;
      while ((x = q.shift()) !== undefined && x !== 0) log.push(x);
      log.push(q.length);
      return log;
    }`,
  'while: nested loops with continue in inner and break in outer': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      while (i < 4) {
        i++;
        let j = 0;
        while (j < 4) { j++; if (j === 2) continue; if (j === 4) break; log.push(i + '' + j); }
        if (i === 3) break;
        log.push('o' + i);
      }
      return log;
    }`,
  'while: loop with no braces and side-effect body': `
    export function run() { const log: number[] = []; let i = 5; while (i--) log.push(i); return [log, i]; }`,
  'do-while: no braces': `
    export function run() { let i = 0; do i += 3; while (i < 10); return i; }`,
  'while: var declared inside body visible after the loop': `
    export function run() { let i = 0; while (i < 3) { var last = i * 2; i++; } return [last, i]; }`,
  'while: variable used before set in loop (undefined first)': `
    export function run() {
      const log: unknown[] = [];
      let prev: number | undefined;
      let i = 0;
      while (i < 3) { log.push(String(prev)); prev = i; i++; }
      return log;
    }`,
  'while: infinite loop exited by return inside try/finally': `
    function f() {
      const log: string[] = [];
      let i = 0;
      while (true) {
        try { i++; if (i === 3) return log.concat('ret' + i); } finally { log.push('fin' + i); }
      }
    }
    export function run() { return f(); }`,
};

equivalenceSuite('conformance: while and do-while loops', programs);
