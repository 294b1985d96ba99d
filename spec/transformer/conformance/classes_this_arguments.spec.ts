/**
 * Conformance (test262 language/expressions/class, this, arguments, new.target, super):
 * converted bodies of methods, constructors, accessors, static blocks keep `this`, `arguments`,
 * `new.target` and `super` of the enclosing function.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'class: this in converted loops of a method': `
    class Acc { total = 0; items: number[] = []; add(xs: number[]) { for (const x of xs) { if (x < 0) continue; this.total += x; this.items.push(x); } return this; } }
    export function run() { const a = new Acc().add([1, -2, 3]); return [a.total, a.items]; }`,
  'class: this in a plain function called as method and with call': `
    function describe(this: any, n: number) { const out: unknown[] = []; let i = 0; while (i < n) { if (this && this.tag) out.push(this.tag + i); else out.push('none'); i++; } return out; }
    export function run() { const o = { tag: 't', describe }; return [o.describe(2), describe.call(undefined, 1), describe.call({ tag: 'c' }, 1)]; }`,
  'class: arguments object read inside converted statements': `
    function f(a?: number, b?: number) { const out: unknown[] = []; for (let i = 0; i < arguments.length; i++) { if (arguments[i] === undefined) out.push('u'); else out.push(arguments[i]); } return [out, arguments.length]; }
    export function run() { return [f(), f(1), f(1, 2), (f as any)(1, undefined, 3)]; }`,
  'class: arguments mutation (strict: unmapped) inside branches': `
    function f(a: number) { if (a > 0) { arguments[0] = 99; } const r = [a, arguments[0]]; if (r) a = 7; return [...r, arguments[0], a]; }
    export function run() { return [f(1), f(-1)]; }`,
  'class: new.target inside converted code': `
    function F(this: any) { if (new.target) { this.how = 'new'; } else { return 'call'; } }
    class Base { kind: string; constructor() { if (new.target === Base) this.kind = 'base'; else this.kind = 'derived'; } }
    class Derived extends Base {}
    export function run() { return [(F as any)(), new (F as any)().how, new Base().kind, new Derived().kind]; }`,
  'class: super property access and super calls in converted code': `
    class A { greet(x: number) { return 'A' + x; } get v() { return 1; } }
    class B extends A {
      override greet(x: number) { let s = ''; for (let i = 0; i < x; i++) { if (i % 2) s += super.greet(i); else s += '-'; } return s; }
      override get v() { return super.v ? super.v + 10 : 0; }
    }
    export function run() { const b = new B(); return [b.greet(4), b.v]; }`,
  'class: super() call inside a converted branch in constructor': `
    class A { tag: string; constructor(t: string) { this.tag = t; } }
    class B extends A { extra: number; constructor(n: number) { if (n > 0) { super('pos'); } else { super('nonpos'); } this.extra = n; } }
    export function run() { return [new B(1), new B(-1)].map((b) => b.tag + b.extra); }`,
  'class: this access before super() throws ReferenceError': `
    class A { }
    class B extends A { x: any; constructor(flag: boolean) { if (flag) { try { (this as any).y = 1; } catch (e: any) { super(); this.x = e.constructor.name; return; } } super(); this.x = 'fine'; } }
    export function run() { return [new B(true).x, new B(false).x]; }`,
  'class: class fields initializers with conditionals and static blocks': `
    let counter = 0;
    class C {
      static log: string[] = [];
      static { for (let i = 0; i < 3; i++) { if (i === 1) continue; C.log.push('static' + i); } }
      a = counter++ > 0 ? 'later' : 'first';
      b = this.a === 'first' && 'b-first' || 'b-later';
      #p = 5;
      getP() { return this.#p > 3 ? this.#p : -1; }
    }
    export function run() { const x = new C(); const y = new C(); return [C.log, x.a, x.b, y.a, y.b, x.getP()]; }`,
  'class: private methods and #x in obj in conditions': `
    class C { #secret = 1; static has(o: any) { if (#secret in o) return 'has'; return 'not'; } #m() { return 'm'; } call(n: number) { let s = ''; while (n-- > 0) { if (n % 2) s += this.#m(); } return s; } }
    export function run() { return [C.has(new C()), C.has({}), new C().call(5)]; }`,
  'class: getters and setters with converted bodies': `
    class T { _v = 0; log: string[] = []; get v() { if (this._v > 2) return 'big'; return this._v; } set v(x: any) { if (typeof x !== 'number') { this.log.push('rej'); return; } this._v = x; } }
    export function run() { const t = new T(); const out: unknown[] = [t.v]; t.v = 'no'; t.v = 5; out.push(t.v, t.log); return out; }`,
  'class: arrow functions capture this and arguments of the outer method': `
    class C { n = 3; m(..._xs: number[]) { const out: unknown[] = []; for (let i = 0; i < this.n; i++) { const f = () => (i < arguments.length ? arguments[i] : this.n); out.push(f()); } return out; } }
    export function run() { return new C().m(10, 20); }`,
  'class: static methods, this is the constructor': `
    class S { static count = 0; static bump(n: number) { while (n > 0) { if (n % 2) this.count++; n--; } return this.count; } }
    class S2 extends S {}
    export function run() { return [S.bump(5), S2.bump(3), S.count, S2.count]; }`,
  'class: object literal methods with super': `
    const proto = { hi() { return 'proto hi'; } };
    const obj = { __proto__: proto, hi() { let r = ''; for (const k of [1, 2]) { if (k === 2) r += super.hi(); else r += 'x'; } return r; } };
    export function run() { return obj.hi(); }`,
  'class: accessor side effects counted in a loop test': `
    class Q { items = [1, 2, 3]; reads = 0; get size() { this.reads++; return this.items.length; } }
    export function run() { const q = new Q(); const out: number[] = []; while (q.size > 0) { const x = q.items.shift()!; if (x === 2) continue; out.push(x); } return [out, q.reads]; }`,
  'class: instanceof and constructor checks with Symbol.hasInstance': `
    class Even { static [Symbol.hasInstance](n: any) { return n % 2 === 0; } }
    export function run() { const out: string[] = []; for (const n of [1, 2, 3, 4]) { if ((n as any) instanceof Even) out.push('even' + n); else out.push('odd' + n); } return out; }`,
  'class: methods returning this for chaining inside conditional expressions': `
    class B { parts: string[] = []; add(p: string) { this.parts.push(p); return this; } }
    export function run() { const b = new B(); for (let i = 0; i < 4; i++) (i % 2 ? b.add('odd') : b.add('even')).add('|'); return b.parts.join(''); }`,
};

equivalenceSuite('conformance: classes, this, arguments, super', programs);
