/**
 * Hand-made tricky programs: interactions between the lowering passes (per-iteration copies,
 * flags, hoisting, guards) and unusual but valid JS.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'tricky: var redeclaring a parameter inside a converted branch': `
    function f(x: number) { if (x > 0) { var x = x * 10; } return x; }
    function g(a: number, b = () => a) { if (a) { var a = 5; } return [a, b()]; }
    export function run() { return [f(2), f(-1), g(1), g(0)]; }`,
  'tricky: var and function declaration with the same name': `
    function f(c: boolean) { const before = typeof h; if (c) { var h: any = 1; } return [before, typeof h]; function h() {} }
    export function run() { return [f(true), f(false)]; }`,
  'tricky: per-iteration copy with continue and closures': `
    export function run() {
      const fns: (() => number)[] = [];
      for (let i = 0; i < 6; i++) { if (i % 2) { fns.push(() => i); continue; } i += 0; fns.push(() => -i); }
      return fns.map((f) => f());
    }`,
  'tricky: per-iteration copy with labeled continue from inner loop': `
    export function run() {
      const fns: (() => string)[] = [];
      outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { fns.push(() => i + '' + j); if (j === i) continue outer; } }
      return fns.map((f) => f());
    }`,
  'tricky: returning a closure over the loop variable from inside the loop': `
    function f() { for (let i = 0; i < 5; i++) { if (i === 3) return () => i; } return () => -1; }
    export function run() { return f()(); }`,
  'tricky: closure captured in body called from the test of the next iteration': `
    export function run() {
      let last: (() => number) | undefined;
      const seen: number[] = [];
      for (let i = 0; (last ? seen.push(last()) : 0, i < 3); i++) { last = () => i * 100; }
      return seen;
    }`,
  'tricky: loop var shadowed in an update arrow parameter': `
    export function run() {
      const fns: (() => number)[] = [];
      const inc = (i: number) => i + 1;
      for (let i = 0; i < 3; i = inc(i)) fns.push(() => i);
      return fns.map((f) => f());
    }`,
  'tricky: two loops reuse the same variable name with captures': `
    export function run() {
      const fns: (() => number)[] = [];
      for (let i = 0; i < 2; i++) fns.push(() => i);
      for (let i = 5; i < 7; i++) { if (i) fns.push(() => i); }
      return fns.map((f) => f());
    }`,
  'tricky: while loop body declares let captured and modified later': `
    export function run() {
      const fns: (() => number)[] = [];
      let n = 0;
      while (n < 3) { let v = n; fns.push(() => v++); n++; }
      return [fns.map((f) => f()), fns.map((f) => f())];
    }`,
  'tricky: break in a labeled block inside a for with per-iteration copy': `
    export function run() {
      const fns: (() => number)[] = [];
      for (let i = 0; i < 4; i++) { b: { if (i === 1) break b; fns.push(() => i); } i += 0; }
      return fns.map((f) => f());
    }`,
  'tricky: function declared in a converted block called before the block ends': `
    export function run() {
      const out: unknown[] = [];
      let k = 0;
      while (k < 2) { out.push(twice(k)); function twice(x: number) { return x * 2 + k; } k++; }
      return out;
    }`,
  'tricky: name collisions with generated identifiers in nested functions': `
    export function run() {
      const if_body = 'user if_body'; const loop_test = 'user loop_test'; const loop_body = 'user loop_body'; const i_outer = 'user i_outer';
      const fns: (() => unknown)[] = [];
      for (let i = 0; i < 2; i++) { if (i === 0) fns.push(() => [i, if_body, loop_test, loop_body, i_outer]); }
      return fns.map((f) => f());
    }`,
  'tricky: arguments.length inside converted if in function with defaults': `
    function f(a = 1, b = 2) { const out: unknown[] = []; if (arguments.length > 0) out.push('args', arguments.length, a, b); else out.push('none', a, b); return out; }
    export function run() { return [f(), f(5), f(undefined, 7)]; }`,
  'tricky: deeply nested lowering: return inside switch inside for-of inside while': `
    function f(rows: string[][]) {
      let r = 0;
      while (r < rows.length) {
        for (const cell of rows[r]) { switch (cell) { case 'stop': return 'stopped at ' + r; case 'skip': break; default: if (cell === 'next') { r++; continue; } } }
        r++;
      }
      return 'end';
    }
    export function run() { return [f([['a', 'skip'], ['stop']]), f([['a'], ['b']])]; }`,
  'tricky: continue in a while whose body has try/finally with return': `
    function f() {
      const log: string[] = [];
      let i = 0;
      while (i < 5) { i++; try { if (i === 2) continue; if (i === 4) return log; log.push('b' + i); } finally { log.push('f' + i); } }
      return ['unreached'];
    }
    export function run() { return f(); }`,
  'tricky: getter on loop bound counted': `
    export function run() {
      let reads = 0;
      const box = { get n() { reads++; return 3; } };
      const out: number[] = [];
      for (let i = 0; i < box.n; i++) { if (i === 1) continue; out.push(i); }
      return [out, reads];
    }`,
  'tricky: self-modifying iteration with splice and break': `
    export function run() {
      const a = [1, 2, 3, 4, 5];
      const out: number[] = [];
      for (let i = 0; i < a.length; i++) { if (a[i] % 2 === 0) { a.splice(i, 1); i--; continue; } out.push(a[i]); if (out.length === 3) break; }
      return [out, a];
    }`,
  'tricky: conditional expression in a for-of head and in a computed member': `
    export function run() {
      const out: unknown[] = [];
      for (const flag of [true, false]) for (const x of flag ? [1, 2] : 'ab') out.push(x);
      const o: any = { a: 1, b: 2 };
      for (const k of [0, 1]) out.push(o[k ? 'a' : 'b']);
      return out;
    }`,
  'tricky: logical operators as statements (side-effect only)': `
    export function run() { const log: string[] = []; for (let i = 0; i < 3; i++) { i % 2 && log.push('odd' + i); i % 2 || log.push('even' + i); i > 1 ? log.push('big') : void 0; } return log; }`,
  'tricky: nested ternaries with assignments and increments': `
    export function run() { let a = 0, b = 0; const out: unknown[] = []; for (let i = 0; i < 5; i++) out.push(i % 2 ? (a += i) : i % 3 ? b++ : (a = b = i)); return [out, a, b]; }`,
  'tricky: recursion through converted code with closures': `
    function perms(xs: number[]): number[][] { if (xs.length <= 1) return [xs]; const out: number[][] = []; for (let i = 0; i < xs.length; i++) { const rest = xs.filter((_, j) => j !== i); for (const p of perms(rest)) { if (p[0] === xs[i] + 1) continue; out.push([xs[i], ...p]); } } return out; }
    export function run() { return perms([1, 2, 3]); }`,
  'tricky: labeled continue in do-while with side effects in the test': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      L: do { i++; for (const x of [1, 2]) { if (x === 2 && i < 3) continue L; log.push(i + ':' + x); } } while ((log.push('t' + i), i < 4));
      return log;
    }`,
  'tricky: return inside for-in inside try with finally that mutates the result': `
    function f(o: any) { const res = { k: '', fin: false }; try { for (const k in o) { if (o[k]) { res.k = k; return res; } } } finally { res.fin = true; } return null; }
    export function run() { return [f({ a: 0, b: 1 }), f({})]; }`,
  'tricky: closures over a catch binding in a loop': `
    export function run() {
      const fns: (() => unknown)[] = [];
      for (let i = 0; i < 3; i++) { try { if (i !== 1) throw i; } catch (e) { fns.push(() => e); continue; } fns.push(() => 'ok' + i); }
      return fns.map((f) => f());
    }`,
  'tricky: var captured by closures in converted loop sees final value': `
    export function run() { const fns: (() => number)[] = []; let i = 0; while (i < 3) { var v = i; fns.push(() => v); i++; } return fns.map((f) => f()); }`,
  'tricky: iterator next returning non-object throws TypeError': `
    export function run() {
      const it: any = { [Symbol.iterator]() { return { next() { return 5; } }; } };
      try { for (const x of it) { void x; } return 'no'; } catch (e: any) { return [e.constructor.name, e.message]; }
    }`,
  'tricky: done getter and value getter order': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      const it: any = { [Symbol.iterator]() { return { next() { const n = i++; return { get done() { log.push('done' + n); return n >= 2; }, get value() { log.push('value' + n); return n; } }; } }; } };
      for (const x of it) { if (x === 0) continue; log.push('body' + x); }
      return log;
    }`,
  'tricky: shorthand property of the loop variable in the head': `
    export function run() {
      const fns: (() => number)[] = [];
      const rec: unknown[] = [];
      for (let i = 0; rec.push({ i }) && i < 2; i++) fns.push(() => i);
      return [rec, fns.map((f) => f())];
    }`,
  'tricky: property assignment named like the loop variable in the head': `
    export function run() {
      const fns: (() => number)[] = [];
      for (let i = 0; ({ i: 3 }).i > i; i++) fns.push(() => i);
      return fns.map((f) => f());
    }`,
};

equivalenceSuite('conformance: tricky programs', programs);
