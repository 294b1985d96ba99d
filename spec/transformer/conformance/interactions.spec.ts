/**
 * Per-iteration copies of `for (let ...)` bindings under lowered jumps, lowered returns with
 * this/arguments, and converted expressions in unusual positions (callees, heads, fields).
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'copies: closure in body mutates the loop binding, loop sees it': `
    export function run() {
      const log: number[] = [];
      for (let i = 0; i < 10; i++) { const bump = () => { i += 3; }; if (i % 2 === 0) bump(); log.push(i); }
      return log;
    }`,
  'copies: closure called after the iteration does not affect the loop': `
    export function run() {
      const fns: (() => number)[] = [];
      const log: number[] = [];
      for (let i = 0; i < 4; i++) { fns.push(() => (i += 100)); if (i > 0) fns[i - 1](); log.push(i); }
      return [log, fns.map((f) => f())];
    }`,
  'copies: lowered break skips update, closure sees final body value': `
    export function run() {
      const fns: (() => number)[] = [];
      let k = 0;
      for (let i = 0; i < 10; i++) { fns.push(() => i); if (i === 3) { i = 50; break; } k = i; }
      return [fns.map((f) => f()), k];
    }`,
  'copies: return inside loop after closure creation, closure sees the returned iteration': `
    function f() { const fns: (() => number)[] = []; for (let i = 0, j = 5; i < j; i++, j--) { fns.push(() => i * 10 + j); if (i === 1) { i = 7; return fns; } } return fns; }
    export function run() { return f().map((g) => g()); }`,
  'copies: body is a single statement with a closure': `
    export function run() { const fns: (() => number)[] = []; for (let i = 0; i < 3; i++) if (i !== 1) fns.push(() => i); return fns.map((f) => f()); }`,
  'copies: hoisted function declaration in body refers to the iteration binding': `
    export function run() { const fns: (() => number)[] = []; for (let i = 0; i < 3; i++) { fns.push(get); if (i) continue; function get() { return i; } } return fns.map((f) => f()); }`,
  'copies: exception in body after closure creation': `
    export function run() {
      const fns: (() => number)[] = [];
      try { for (let i = 0; i < 5; i++) { fns.push(() => i); if (i === 2) { i = 42; throw new Error('x'); } } } catch { }
      return fns.map((f) => f());
    }`,
  'copies: nested for loops both captured': `
    export function run() { const fns: (() => string)[] = []; for (let i = 0; i < 2; i++) { for (let j = i; j < 3; j++) { if ((i + j) % 2) fns.push(() => i + '' + j); } } return fns.map((f) => f()); }`,
  'copies: switch with continue inside captured loop': `
    export function run() {
      const fns: (() => number)[] = [];
      for (let i = 0; i < 5; i++) { switch (i) { case 1: continue; case 3: fns.push(() => -i); break; default: fns.push(() => i); } }
      return fns.map((f) => f());
    }`,
  'lowered return: this and arguments in the returned expression': `
    const o = { tag: 'T', m(...xs: number[]) { for (const x of xs) { if (x > 1) return this.tag + arguments.length + x; } return 'none'; } };
    export function run() { return [o.m(1, 2, 3), o.m(), o.m(0)]; }`,
  'lowered return: returning undefined explicitly vs falling off': `
    function f(x: number): any { for (let i = 0; i < 3; i++) { if (i === x) return undefined; if (i === x + 10) return; } }
    export function run() { return [f(1), f(9), 'arity', f.length].map((v) => v === undefined ? 'u' : v); }`,
  'lowered return: return inside nested arrow is not lowered': `
    function f(xs: number[]) { let found = -1; for (const x of xs) { const ok = ((y: number) => { if (y > 2) return true; return false; })(x); if (ok) { found = x; break; } } return found; }
    export function run() { return [f([1, 3, 5]), f([])]; }`,
  'lowered return: returning a promise-like / thenable unchanged in sync function': `
    function f(x: number) { if (x) { for (;;) { return { then: 'not a function' }; } } return null; }
    export function run() { return [f(1), f(0)]; }`,
  'expr: conditional and logical with super/arguments inside class methods': `
    class A { v() { return 'A'; } }
    class B extends A { override v(): string { return arguments.length ? super.v() + arguments[0] : arguments.length === 0 && super.v() || 'x'; } }
    export function run() { const b: any = new B(); return [b.v(), b.v('!')]; }`,
  'expr: logical expressions in class field initializers and static blocks use this': `
    class C { a = 1; b = this.a && this.a + 1; c = this.b > 1 ? this.b * 10 : 0; static s = 5; static t = this.s || 0; }
    export function run() { const c = new C(); return [c.a, c.b, c.c, C.t]; }`,
  'expr: conditional chain as call callee and as assignment target base': `
    export function run() {
      const o1: any = { x: 0, f() { return 'f1'; } }, o2: any = { x: 0, f() { return 'f2'; } };
      const out: unknown[] = [];
      for (let i = 0; i < 2; i++) { (i ? o1 : o2).x = i + 1; out.push((i ? o1 : o2).f()); (i && o1 || o2).x += 10; }
      return [out, o1.x, o2.x];
    }`,
  'expr: && in a for-of head iterable and in for-in head': `
    export function run() { const out: unknown[] = []; const arr = [1, 2]; for (const x of arr.length > 1 && arr || []) out.push(x); for (const k in arr && { a: 1 }) out.push(k); return out; }`,
  'expr: short-circuit inside a default parameter reads earlier params and arguments': `
    function f(a: any, b: any = a || arguments.length) { return [a, b]; }
    export function run() { return [f(0), f(5), f(0, 'b')]; }`,
  'expr: getters counted across nested conditional/logical operands': `
    export function run() {
      const log: string[] = [];
      const o = { get a() { log.push('a'); return 0; }, get b() { log.push('b'); return 1; }, get c() { log.push('c'); return 2; } };
      const r = [o.a || o.b && o.c, o.a ? o.b : o.c, !o.a && (o.b ? o.c : o.a), o.a ?? o.b];
      return [r, log];
    }`,
};

equivalenceSuite('conformance: copies, lowered returns, expression positions', programs);
