/**
 * Plain-JS equivalence (every condition forced dynamic) on exotic objects: Proxy traps, coercion
 * hooks, hostile iterators, for...in over odd objects, labeled jumps through try/finally, async
 * functions without awaits, private fields, static blocks, super, defineProperty accessors,
 * closures in do/while bodies, conditions that throw mid-loop.
 */
import { equivalenceSuite } from '../../harness/conformance';

const proxyLog = `
  function logged<T extends object>(target: T, log: string[]): T {
    return new Proxy(target, {
      get(t, k, r) { log.push('get:' + String(k)); return Reflect.get(t, k, r); },
      has(t, k) { log.push('has:' + String(k)); return Reflect.has(t, k); },
      set(t, k, v, r) { log.push('set:' + String(k)); return Reflect.set(t, k, v, r); },
      ownKeys(t) { log.push('ownKeys'); return Reflect.ownKeys(t); },
      getOwnPropertyDescriptor(t, k) { log.push('gopd:' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
      getPrototypeOf(t) { log.push('getProto'); return Reflect.getPrototypeOf(t); },
      deleteProperty(t, k) { log.push('delete:' + String(k)); return Reflect.deleteProperty(t, k); },
    });
  }`;

export const programs: Record<string, string> = {
  'proxy: member reads in if/while/?:/&& conditions are logged once each': `${proxyLog}
    export function run() {
      const log: string[] = [];
      const p = logged({ a: 1, b: 0, n: 3 } as any, log);
      if (p.b) log.push('b'); else if (p.a) log.push('a');
      while (p.n > 0) { p.n--; if (p.n === 1) continue; log.push('n' + p.n); }
      const v = p.a ? p.b || p.a : p.n && p.b;
      log.push(!p.b ? 'not-b' : 'b', String(v));
      return log;
    }`,
  'proxy: ToBoolean of a proxy and a for...of over a proxied array run only the original traps': `${proxyLog}
    export function run() {
      const log: string[] = [];
      const p = logged([10, 20, 30, 40], log);
      if (p) log.push('truthy');
      const q = p && !p ? 'no' : p || 'never';
      let s = 0;
      for (const x of p) { if (x === 20) continue; if (x === 40) break; s += x; }
      return [s, q === p, log];
    }`,
  'tensor detection: data getters and duck-typed fields of plain objects in conditions': `
    export function run() {
      const log: string[] = [];
      const lazy = { get data(): unknown { log.push('data getter ran'); return null; } };
      if (lazy) log.push('then');
      const broken = { get data(): unknown { throw new Error('not loaded'); } };
      try { if (broken) log.push('then2'); } catch (e: any) { log.push('threw: ' + e.message); }
      const duck: any = { data: [], dataSync: () => [0], throwIfDisposed: () => {}, shape: [2], size: 2 };
      if (duck) log.push('duck truthy');
      log.push(String(!duck), String(duck && 'and'));
      for (const x of [duck]) if (x) log.push('duck in for-of');
      return log;
    }`,
  'proxy: in-operator conditions and deletes in a loop head': `${proxyLog}
    export function run() {
      const log: string[] = [];
      const p = logged({ x: 1, y: 2, z: 3 } as any, log);
      let rounds = 0;
      while ('x' in p || 'z' in p) {
        rounds++;
        if ('y' in p) delete p.y; else if ('x' in p) delete p.x; else delete p.z;
      }
      do { rounds += 10; } while ('q' in p);
      return [rounds, log];
    }`,
  'proxy: for...in over a proxy (ownKeys, descriptors, prototype walk) with a converted body': `${proxyLog}
    export function run() {
      const log: string[] = [];
      const proto = { inherited: 1 };
      const target = Object.create(proto);
      target.a = 1; target.b = 2;
      Object.defineProperty(target, 'hidden', { value: 3, enumerable: false });
      target[Symbol('s')] = 4;
      const p = logged(target, log);
      const keys: string[] = [];
      for (const k in p) { if (k === 'b') continue; keys.push(k); if (keys.length > 5) break; }
      return [keys, log];
    }`,
  'proxy: a for over a proxied array logs length and index reads': `${proxyLog}
    export function run() {
      const log: string[] = [];
      const p = logged([10, 20, 30, 40], log);
      let s = 0;
      for (let i = 0; i < p.length; i++) { if (p[i] === 20) continue; if (p[i] > 25) { s += i; break; } s += p[i]; }
      for (const x of [...p]) { if (x === 20) continue; if (x === 40) break; s += x; }
      return [s, log];
    }`,
  'proxy: a revoked proxy in a condition chain throws at the same point': `
    export function run() {
      const log: string[] = [];
      const { proxy, revoke } = Proxy.revocable({ a: 1 } as any, {});
      let i = 0;
      try {
        while (i < 5) { if (i === 2) revoke(); if (proxy.a) log.push('a' + i); i++; }
      } catch (e: any) { log.push(e.constructor.name); }
      return [i, log];
    }`,
  'coercion: valueOf and Symbol.toPrimitive called by conditions, counted': `
    export function run() {
      const log: string[] = [];
      let n = 0;
      const counter = { valueOf() { log.push('valueOf'); return n; } };
      const prim = { [Symbol.toPrimitive](hint: string) { log.push('prim:' + hint); return n * 2; } };
      while ((counter as any) < 3) { n++; if ((prim as any) > 3) log.push('big'); }
      if (counter) log.push('object truthy, no call');
      const r = (prim as any) == 6 ? 'eq' : 'ne';
      do { n--; } while ((counter as any) >= 1 && (prim as any) % 4);
      const s = \`\${prim as any}\` && !((counter as any) - 0);
      return [n, r, s, log];
    }`,
  'coercion: a throwing valueOf inside a loop test leaves state as assigned before': `
    export function run() {
      let calls = 0, i = 0;
      const last: number[] = [];
      const bomb = { valueOf() { if (++calls === 4) throw new RangeError('boom at ' + i); return 10; } };
      try {
        for (i = 0; i < (bomb as any); i++) { last.push(i); if (i % 2) continue; last.push(-i); }
      } catch (e: any) { last.push(e.message as any); }
      return [i, calls, last];
    }`,
  'iterators: return() that throws on break, and the body error winning on throw': `
    function it(log: string[], mode: 'throw' | 'nonobject' | 'getter') {
      let i = 0;
      return {
        [Symbol.iterator]() { return this; },
        next() { i++; log.push('next' + i); return { value: i, done: i > 5 }; },
        return(): any {
          log.push('return');
          if (mode === 'throw') throw new Error('return threw');
          if (mode === 'nonobject') return 42;
          return { get done() { log.push('done read'); return true; } };
        },
      } as any;
    }
    export function run() {
      const log: string[] = [];
      for (const mode of ['throw', 'nonobject', 'getter'] as const) {
        try { for (const x of it(log, mode)) { if (x === 2) break; } log.push('after break'); } catch (e: any) { log.push(mode + ' break: ' + e.constructor.name + ' ' + e.message); }
        try { for (const x of it(log, mode)) { if (x === 2) throw new Error('body'); } } catch (e: any) { log.push(mode + ' throw: ' + e.message); }
        const f = () => { for (const x of it(log, mode)) { if (x === 3) return 'ret' + x; } return 'none'; };
        try { log.push(f()); } catch (e: any) { log.push(mode + ' return: ' + e.constructor.name); }
        try { outer: for (const y of [1, 2]) { for (const x of it(log, mode)) { if (x === 1) continue outer; } } log.push('after continue outer'); } catch (e: any) { log.push(mode + ' continue outer: ' + e.constructor.name); }
      }
      return log;
    }`,
  'iterators: next() results whose done/value are getters, reads counted': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      const iterable = { [Symbol.iterator]() { return { next() { i++; const k = i;
        return { get done() { log.push('done' + k); return k > 3; }, get value() { log.push('value' + k); return k * 10; } }; } }; } };
      let s = 0;
      for (const v of iterable as Iterable<number>) { if (v === 20) continue; s += v; }
      i = 0;
      for (const v of iterable as Iterable<number>) { if (v === 20) break; }
      i = 0;
      for (const _ of iterable as Iterable<number>) { s++; }
      return [s, log];
    }`,
  'iterators: an iterator without return() and one whose next throws mid-loop': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      const noReturn = { [Symbol.iterator]() { return { next: () => ({ value: ++i, done: false }) }; } };
      for (const v of noReturn as Iterable<number>) { if (v > 2) break; log.push('v' + v); }
      const throwing = { [Symbol.iterator]() { let j = 0; return { next() { if (++j === 3) throw new Error('next ' + j); return { value: j, done: false }; }, return() { log.push('never'); return {}; } }; } };
      let last = 0;
      try { for (const v of throwing as Iterable<number>) { last = v; if (v < 0) break; } } catch (e: any) { log.push(e.message); }
      return [i, last, log];
    }`,
  'for-in: symbols, non-enumerables, prototype chain, shadowing, mutation during the loop': `
    export function run() {
      const proto: any = { p1: 1, shadowed: 'proto', p2: 2 };
      const o: any = Object.create(proto);
      o.a = 1; o.b = 2; o.c = 3; o[Symbol('sym')] = 's'; o[2] = 'two'; o[1] = 'one';
      Object.defineProperty(o, 'shadowed', { value: 'own', enumerable: false });
      Object.defineProperty(o, 'ne', { value: 1, enumerable: false });
      const seen: string[] = [];
      for (const k in o) {
        if (k === 'a') { delete o.c; o.d = 4; delete proto.p2; }
        if (k === '1') continue;
        seen.push(k + '=' + String(o[k]));
      }
      let count = 0;
      for (const k in o) if (k) count++;
      return [seen, count];
    }`,
  'for-in: over a string, an array with holes and extra props, null and undefined': `
    export function run() {
      const out: string[] = [];
      for (const k in 'abc' as any) if (k !== '1') out.push('s' + k);
      const arr: any = [1, , 3]; arr.extra = true;
      for (const k in arr) { if (arr[k] === undefined) continue; out.push('a' + k); }
      for (const k in null as any) out.push('never' + k);
      for (const k in undefined as any) { if (k) out.push('never'); }
      let n = 0;
      for (const k in 42 as any) { n++; out.push(k); }
      return [out, n];
    }`,
  'labels: labeled continue from try/finally inside nested loops; finally counts': `
    export function run() {
      const log: string[] = [];
      let fin = 0;
      outer: for (let i = 0; i < 3; i++) {
        let j = 0;
        middle: while (j < 3) {
          j++;
          for (const k of [0, 1, 2]) {
            try {
              try {
                if (k === 1 && j === 2) continue middle;
                if (k === 2 && i === 1) continue outer;
                if (i === 2 && j === 3) break outer;
                log.push(\`\${i}\${j}\${k}\`);
              } finally { fin++; if (k === 0 && j === 1 && i === 0) log.push('f'); }
            } finally { fin += 100; }
          }
        }
      }
      return [fin, log];
    }`,
  'labels: continue in finally overriding a break, inside a labeled do-while': `
    export function run() {
      const log: unknown[] = [];
      let n = 0;
      loop: do {
        n++;
        inner: for (let i = 0; i < 3; i++) {
          try { if (i === 1) break loop; log.push('b' + n + i); } finally { if (n < 3) continue inner; }
        }
      } while (n < 5);
      return [n, log];
    }`,
  'classes: private fields, #x in, private methods and a static block inside converted methods': `
    export function run() {
      class Acc {
        static made = 0;
        static { let k = 0; while (k < 3) { k++; if (k === 2) continue; Acc.made += k; } }
        #total = 0;
        #hits: number[] = [];
        static isAcc(o: unknown) { return typeof o === 'object' && o !== null && #total in o ? 'yes' : 'no'; }
        #ok(x: number) { return x % 3 !== 0; }
        add(xs: number[]) {
          for (const x of xs) {
            if (!this.#ok(x)) continue;
            if (this.#total > 20) break;
            this.#total += x; this.#hits.push(x);
          }
          return this.#total && this.#hits.length ? [this.#total, this.#hits] : null;
        }
        make() {
          let i = 0;
          const classes: string[] = [];
          while (i < 2) {
            class Inner { static tag = ''; static { Inner.tag = i ? 'odd' : 'even'; } }
            classes.push(Inner.tag);
            i++;
          }
          return classes;
        }
      }
      const a = new Acc();
      return [Acc.made, a.add([1, 3, 4, 5, 6, 7, 8, 9]), Acc.isAcc(a), Acc.isAcc({}), Acc.isAcc(null), a.make()];
    }`,
  'classes: super.method() and super property writes inside converted statements': `
    export function run() {
      class Base { log: string[] = []; step(n: number) { this.log.push('base' + n); return n % 2 === 0; } get tag() { return 'B'; } }
      class Derived extends Base {
        override step(n: number) {
          let i = 0;
          while (super.step(i) || i < n) { i++; if (i > 5) break; }
          const r = super.step(n) ? super.tag + 'even' : super.tag + 'odd';
          for (const k of [1, 2]) { if (k === 2) (super.log as string[]).push('via super ' + k); }
          return r === 'Beven';
        }
        run() { const out: unknown[] = []; for (let i = 0; i < 3; i++) { const f = () => (i % 2 ? super.step(i) : 'skip'); out.push(f()); } return out; }
      }
      const d = new Derived();
      return [d.step(3), d.step(2), d.run(), d.log];
    }`,
  'accessors: Object.defineProperty getters/setters in loop heads and branches, counted': `
    export function run() {
      const log: string[] = [];
      let v = 0;
      const o: any = {};
      Object.defineProperty(o, 'v', { get() { log.push('get'); return v; }, set(x) { log.push('set' + x); v = x; }, configurable: true });
      for (o.v = 0; o.v < 3; o.v++) { if (o.v === 1) continue; log.push('body'); }
      while (o.v) { o.v = o.v - 2 < 0 ? 0 : o.v - 2; }
      Object.defineProperty(o, 'v', { value: 'fixed', writable: false });
      if (o.v) { try { 'use strict'; o.v = 1; } catch (e: any) { log.push(e.constructor.name); } }
      return [v, o.v, log];
    }`,
  'closures: capture of per-body lets in while and do-while bodies, called after the loop': `
    export function run() {
      const fns: Array<() => string> = [];
      let i = 0;
      while (i < 3) { const j = i; let k = i * 10; fns.push(() => j + ':' + k); k++; i++; if (i === 2) continue; }
      do { let m = i; fns.push(() => 'd' + m); m += 100; i--; } while (i > 1);
      let shared = 0;
      do { fns.push(() => 's' + shared); shared++; } while (shared < 2);
      return fns.map((f) => f());
    }`,
  'exceptions: a condition throwing mid-loop; variables keep what the loop assigned': `
    export function run() {
      let i = 0, sum = 0, flag = false;
      const check = (x: number) => { if (x === 4) throw new Error('cond ' + x); return x < 10; };
      try {
        while (check(i)) { sum += i; i++; if (i === 2) { flag = true; continue; } }
      } catch (e: any) { flag = !flag; }
      let j = 0;
      try { do { j++; } while (j < 3 ? true : (null as any).x); } catch (e: any) { j += 100; }
      let k = 0;
      try { for (const v of [1, 2, 3]) { k += v; if ((v === 2 && (undefined as any)()) || false) break; } } catch (e: any) { k = -k; }
      return [i, sum, flag, j, k];
    }`,
  'exceptions: throwing inside && / ?: operands in a loop test keeps the iteration count': `
    export function run() {
      const log: string[] = [];
      let n = 0;
      const boom = (): boolean => { throw new TypeError('op'); };
      try { while (n < 5 && (n !== 3 || boom())) { n++; log.push('n' + n); } } catch (e: any) { log.push(e.message + n); }
      try { for (let m = 0; m < 3 ? true : boom(); m++) log.push('m' + m); } catch (e: any) { log.push('m:' + e.message); }
      return log;
    }`,
  'long chains: a 50-branch else-if chain': `
    function classify(x: number): string {
      ${Array.from({ length: 50 }, (_, i) => `${i ? 'else ' : ''}if (x === ${i * 3}) return 'b${i}';`).join('\n      ')}
      else if (x < 0) return 'neg';
      return 'other';
    }
    export function run() { const out: string[] = []; for (let x = -1; x < 160; x += 7) out.push(classify(x)); return out; }`,
  'long chains: a 50-branch else-if chain assigning (no returns)': `
    export function run() {
      const out: number[] = [];
      for (let x = 0; x < 60; x += 4) {
        let r = -1;
        ${Array.from({ length: 50 }, (_, i) => `${i ? 'else ' : ''}if (x === ${i}) { r = ${i * i}; if (r > 100) break; }`).join('\n        ')}
        out.push(r);
      }
      return out;
    }`,
  'deep nesting: 8 nested loops of mixed kinds with jumps at several levels': `
    export function run() {
      let count = 0;
      const trace: string[] = [];
      l1: for (let a = 0; a < 2; a++) {
        let b = 0;
        l2: while (b < 2) {
          b++;
          let c = 0;
          l3: do {
            c++;
            l4: for (const d of [0, 1]) {
              l5: for (const e in { x: 1, y: 2 }) {
                let f = 0;
                l6: while (f < 2) {
                  f++;
                  l7: for (let g = 0; g < 2; g++) {
                    let h = 0;
                    l8: do {
                      h++;
                      count++;
                      if (h === 2 && g === 1) continue l6;
                      if (e === 'y' && d === 1 && f === 2) continue l4;
                      if (a === 1 && b === 2 && c === 2 && count % 7 === 0) break l1;
                      if (count % 13 === 0) { trace.push(\`\${a}\${b}\${c}\${d}\${e}\${f}\${g}\${h}\`); continue l2; }
                    } while (h < 2);
                  }
                }
              }
            }
          } while (c < 2);
        }
      }
      return [count, trace];
    }`,
};

const asyncPrograms: Record<string, string> = {
  'async: converted statements in an async function without awaits': `
    async function f(xs: number[]) {
      let s = 0;
      for (const x of xs) { if (x < 0) continue; if (x > 100) return 'big'; s += x; }
      while (s > 10) s -= 10;
      return s ? s : 'zero';
    }
    export async function run() { return [await f([1, 2, -3, 4]), await f([200]), await f([10]), await f([])]; }`,
  'async: a throw from a converted branch is a rejection, not a synchronous throw': `
    async function f(x: number) { if (x > 1) throw new Error('big ' + x); else return x; }
    export async function run() {
      const log: string[] = [];
      const p = f(5);
      log.push('sync continued');
      try { await p; } catch (e: any) { log.push(e.message); }
      log.push(String(await f(1)));
      return log;
    }`,
  'async: awaits outside the converted statements, ordering preserved': `
    async function f(log: string[], n: number) {
      const v = await Promise.resolve(n);
      let i = 0;
      while (i < v) { i++; if (i % 2) continue; log.push('even' + i); }
      log.push('loop done ' + n);
      return i;
    }
    export async function run() {
      const log: string[] = [];
      const a = f(log, 3), b = f(log, 4);
      log.push('both started');
      return [await a, await b, log];
    }`,
  'async: async arrow and async method without awaits, with this and arguments': `
    class C { n = 2; async m(...xs: number[]) { let s = 0; for (let i = 0; i < arguments.length; i++) { if (i >= this.n) break; s += arguments[i]; } return s; } }
    export async function run() {
      const g = async (x: number) => { if (x) { return x * 2; } return -1; };
      return [await new C().m(5, 6, 7), await g(0), await g(4)];
    }`,
};

equivalenceSuite('adversarial: exotic plain-JS equivalence', programs);
equivalenceSuite('adversarial: async functions without awaits in converted statements', asyncPrograms, { async: true });
