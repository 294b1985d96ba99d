/**
 * Converted functions behave exactly like the originals on plain JS values: results, side
 * effects (order and count), exceptions. Each program logs what it does; `run` returns the log.
 */
import { expectEquivalent } from '../harness/equivalence';

const programs: Record<string, string> = {
  'if / else if / else chains': `
    export function run() {
      const log: unknown[] = [];
      for (const x of [0, 1, 2, 3, '', 'a', null, NaN]) {
        if (x === 1) log.push('one'); else if (x) log.push('truthy', x); else log.push('falsy');
      }
      return log;
    }`,
  'while with break and continue': `
    export function run() {
      const log: number[] = [];
      let i = 0;
      while (i < 20) {
        i++;
        if (i % 3 === 0) continue;
        if (i > 14) break;
        log.push(i);
      }
      log.push(i);
      return log;
    }`,
  'do-while with continue evaluates the test': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      do {
        i++;
        if (i === 2) continue;
        log.push('body' + i);
      } while ((log.push('test' + i), i < 4));
      return log;
    }`,
  'early return from nested loops': `
    function find(grid: number[][], target: number) {
      for (let r = 0; r < grid.length; r++) {
        for (let c = 0; c < grid[r].length; c++) {
          if (grid[r][c] === target) return [r, c];
        }
      }
      return null;
    }
    export function run() {
      return [find([[1, 2], [3, 4]], 3), find([[1]], 9), find([], 1)];
    }`,
  'labeled break and continue': `
    export function run() {
      const log: string[] = [];
      outer: for (let i = 0; i < 4; i++) {
        inner: for (let j = 0; j < 4; j++) {
          if (j === i) continue outer;
          if (i + j > 4) break outer;
          if (j === 3) break inner;
          log.push(i + ':' + j);
        }
        log.push('end' + i);
      }
      return log;
    }`,
  'closures capture per-iteration let bindings': `
    export function run() {
      const fns: (() => number)[] = [];
      for (let i = 0; i < 3; i++) {
        if (i !== 1) fns.push(() => i);
      }
      const more: (() => number)[] = [];
      let k = 0;
      while (k < 3) { const j = k; more.push(() => j * 10); k++; }
      return [...fns, ...more].map((f) => f());
    }`,
  'var declarations inside converted blocks stay function-scoped': `
    export function run() {
      if (Math.random() >= 0) { var a = 1; } else { var b = 2; }
      for (var i = 0; i < 3; i++) { var last = i; }
      for (var k in { p: 1, q: 2 }) { var key = k; }
      return [a, typeof b, i, last, k, key];
    }`,
  'function declarations are hoisted above guards': `
    function f(x: number): number {
      if (x > 1) return g(x);
      return g(-x);
      function g(y: number) { return y * 2; }
    }
    export function run() { return [f(3), f(0)]; }`,
  'iterator protocol: next, return on break, on throw': `
    function makeIterable(log: string[], n: number) {
      return {
        [Symbol.iterator]() {
          let i = 0;
          return {
            next() { log.push('next'); return { value: i, done: i++ >= n }; },
            return() { log.push('return'); return { value: undefined, done: true }; },
          };
        },
      };
    }
    export function run() {
      const log: string[] = [];
      for (const v of makeIterable(log, 5)) { if (v === 2) break; log.push('v' + v); }
      for (const v of makeIterable(log, 2)) { log.push('w' + v); }
      try { for (const v of makeIterable(log, 5)) { if (v === 1) throw new Error('boom'); } } catch (e) { log.push((e as Error).message); }
      return log;
    }`,
  'getters and setters run the same number of times': `
    export function run() {
      const log: string[] = [];
      let value = 0;
      const obj = { get v() { log.push('get'); return value; }, set v(x) { log.push('set' + x); value = x; } };
      while (obj.v < 3) { obj.v = obj.v + 1; }
      if (obj.v) { log.push('then'); }
      return log;
    }`,
  'try / catch / finally with return and break inside': `
    function f(n: number) {
      const log: string[] = [];
      for (let i = 0; i < n; i++) {
        try {
          if (i === 1) continue;
          if (i === 3) break;
          if (i === 5) return log.concat('ret');
          log.push('try' + i);
        } finally {
          log.push('finally' + i);
        }
      }
      return log;
    }
    export function run() { return [f(2), f(10)]; }`,
  'finally runs when returning from inside a loop': `
    function f() {
      const log: string[] = [];
      try {
        for (const x of [1, 2, 3]) { if (x === 2) return log; log.push('x' + x); }
      } finally { log.push('finally'); }
      return null;
    }
    export function run() { return f(); }`,
  'logical operators return operand values and short-circuit': `
    export function run() {
      const log: unknown[] = [];
      const t = (v: unknown) => { log.push(v); return v; };
      log.push(t(0) && t(1), t(2) && t(3), t('') || t('x'), t('y') || t('z'), !t(0), !!t('q'));
      let a: unknown = 1; a &&= t(5); let b: unknown = 0; b ||= t(6); let c: unknown = 0; c &&= t(7);
      log.push(a, b, c);
      const arr: unknown[] = [0, 1, 'k']; const o: { p: unknown; q: { r: unknown } } = { p: 0, q: { r: 2 } }; const k = 2;
      arr[0] ||= t(8); arr[1] &&= t(9); arr[k] ||= t(10); o.p ||= t(11); o.q.r &&= t(12); o.q.r ||= t(13);
      log.push(arr, o);
      return log;
    }`,
  'conditional expressions evaluate one branch': `
    export function run() {
      const log: unknown[] = [];
      const t = (v: unknown) => { log.push(v); return v; };
      for (const c of [true, false, 0, 'a']) log.push(c ? t('yes') : t('no'));
      return log;
    }`,
  'switch with fallthrough inside a converted loop': `
    export function run() {
      const log: string[] = [];
      for (let i = 0; i < 5; i++) {
        switch (i) {
          case 0: log.push('zero');
          case 1: log.push('one-or-fall'); break;
          case 3: continue;
          default: log.push('default' + i);
        }
        log.push('after' + i);
      }
      return log;
    }`,
  'return inside switch': `
    function f(k: number) {
      for (let i = 0; i < 3; i++) {
        switch (k) { case 1: return 'one'; case 2: if (i === 1) return 'two@1'; break; default: break; }
      }
      return 'none';
    }
    export function run() { return [f(1), f(2), f(3)]; }`,
  'exceptions propagate from conditions and bodies': `
    export function run() {
      let i = 0;
      while (true) { if (i++ > 2) throw new RangeError('stop at ' + i); }
    }`,
  'for-in sees deletions made during the loop': `
    export function run() {
      const o: Record<string, number> = { a: 1, b: 2, c: 3 };
      const seen: string[] = [];
      for (const k in o) { seen.push(k); if (k === 'a') delete o.c; }
      return seen;
    }`,
  'this and arguments inside converted statements': `
    class Counter {
      n = 0;
      bump(...xs: number[]) { for (const x of xs) { if (x > 0) this.n += x; } return this.n; }
    }
    function args(a: number, b: number) { if (a) { return arguments.length + b; } return -1; }
    export function run() { return [new Counter().bump(1, -2, 3), args(1, 2), args(0, 2)]; }`,
  'destructuring in for-of heads and existing targets': `
    export function run() {
      const log: unknown[] = [];
      for (const [k, { v = 9 }] of [['a', { v: 1 }], ['b', {}]] as [string, { v?: number }][]) log.push(k, v);
      let x = 0; const o = { p: 0 };
      for (x of [1, 2]) log.push(x);
      for (o.p of [3, 4]) log.push(o.p);
      log.push(x, o.p);
      return log;
    }`,
  'generator functions with static control flow': `
    function* gen(n: number) { let i = 0; while (i < n) { if (i % 2) yield i; i++; } return 'done'; }
    export function run() { return [...gen(6)]; }`,
  'nested functions and recursion': `
    function fib(n: number): number { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
    export function run() {
      const inner = (k: number) => { let s = 0; for (let i = 0; i < k; i++) { if (i % 2 === 0) s += i; else continue; } return s; };
      return [fib(10), inner(10)];
    }`,
  'labeled block break': `
    export function run() {
      const log: string[] = [];
      for (const flag of [true, false]) {
        block: { log.push('start'); if (flag) break block; log.push('middle'); }
        log.push('end');
      }
      return log;
    }`,
  'loop variable modified in body of for(;;)': `
    export function run() {
      const log: number[] = [];
      for (let i = 0; i < 10; i++) { if (i % 2) { i += 2; continue; } log.push(i); }
      return log;
    }`,
  'closure in for(;;) sees body updates, not the increment': `
    export function run() {
      const fns: (() => number)[] = [];
      for (let i = 0; i < 6; i++) { if (i % 2) { i++; } fns.push(() => i); }
      return fns.map((f) => f());
    }`,
  'a closure in a for(;;) initializer keeps the first binding': `
    export function run() { let probe: any; for (let i = (probe = () => i, 0); i < 3; i++) {} return probe(); }`,
  'a long else-if chain (emitted flat) evaluates conditions in order, until one holds': `
    export function run() {
      const out: unknown[] = [];
      for (const x of [0, 3, 19, 25, 'a']) {
        if ((out.push('t0'), x === 0)) out.push(0);
        else if ((out.push('t1'), x === 1)) out.push(1);
        else if ((out.push('t2'), x === 2)) out.push(2);
        else if ((out.push('t3'), x === 3)) out.push(3);
        else if ((out.push('t4'), x === 4)) out.push(4);
        else if ((out.push('t5'), x === 5)) out.push(5);
        else if ((out.push('t6'), x === 6)) out.push(6);
        else if ((out.push('t7'), x === 7)) out.push(7);
        else if ((out.push('t8'), x === 8)) out.push(8);
        else if ((out.push('t9'), x === 9)) out.push(9);
        else if ((out.push('t10'), x === 10)) out.push(10);
        else if ((out.push('t11'), x === 11)) out.push(11);
        else if ((out.push('t12'), x === 12)) out.push(12);
        else if ((out.push('t13'), x === 13)) out.push(13);
        else if ((out.push('t14'), x === 14)) out.push(14);
        else if ((out.push('t15'), x === 15)) out.push(15);
        else if ((out.push('t16'), x === 16)) out.push(16);
        else if ((out.push('t17'), x === 17)) out.push(17);
        else if ((out.push('t18'), x === 18)) out.push(18);
        else if ((out.push('t19'), x === 19)) out.push(19);
        else out.push('else');
      }
      return out;
    }`,
  'closures in a for(;;) test and update capture per-iteration bindings': `
    export function run() {
      const tests: (() => number)[] = [], upds: (() => number)[] = [];
      for (let i = 0; tests.push(() => i), i < 3; upds.push(() => i), i++) {}
      const fns: (() => number)[] = []; const log: number[] = [];
      for (let i = 0; (fns.push(() => i), i < 6); i++) { if (i === 1) continue; if (i === 4) break; fns.push(() => i * 10); log.push(i); }
      return [tests.map((f) => f()), upds.map((f) => f()), fns.map((f) => f()), log];
    }`,
  'return value undefined vs no return': `
    function f(x: number) { if (x > 0) return; if (x < 0) return undefined; }
    function g(x: number) { while (x > 0) { x--; if (x === 2) return x; } }
    export function run() { return [f(1), f(-1), f(0), g(5), g(1), 'end'].map(String); }`,
};

describe('converted code on plain values behaves like the original', () => {
  for (const [name, source] of Object.entries(programs)) {
    it(name, () => expectEquivalent(source));
  }
});
