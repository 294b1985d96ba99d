/**
 * Conformance (test262 language/statements/for-in): enumeration order, prototype chain,
 * shadowing, deletion and addition during enumeration, null/undefined, assignment targets.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'for-in: integer keys first, then insertion order, then prototype keys': `
    export function run() {
      const proto: any = { p1: 1, 2: 'x' };
      const o: any = Object.create(proto);
      o.b = 1; o[10] = 1; o.a = 1; o[1] = 1;
      const keys: string[] = [];
      for (const k in o) keys.push(k);
      return keys;
    }`,
  'for-in: shadowed prototype keys enumerated once, non-enumerable shadow hides': `
    export function run() {
      const proto: any = { a: 1, b: 2, c: 3 };
      const o: any = Object.create(proto);
      o.a = 10;
      Object.defineProperty(o, 'b', { value: 20, enumerable: false });
      const keys: string[] = [];
      for (const k in o) keys.push(k + '=' + o[k]);
      return keys;
    }`,
  'for-in: deleted keys not yet visited are skipped': `
    export function run() {
      const o: any = { a: 1, b: 2, c: 3, d: 4 };
      const keys: string[] = [];
      for (const k in o) { keys.push(k); if (k === 'a') { delete o.c; } }
      return keys;
    }`,
  'for-in: null and undefined enumerate nothing': `
    export function run() {
      let n = 0;
      for (const k in (null as any)) n++;
      for (const k in (undefined as any)) n++;
      return n;
    }`,
  'for-in: string and array sources': `
    export function run() {
      const keys: string[] = [];
      for (const k in ('abc' as any)) keys.push(k);
      const arr: any = [5, , 7]; arr.extra = 1;
      for (const k in arr) keys.push('a' + k);
      return keys;
    }`,
  'for-in: break, continue, labeled continue': `
    export function run() {
      const log: string[] = [];
      const outerObj = { x: 1, y: 2, z: 3 };
      outer: for (const a in outerObj) {
        for (const b in { p: 1, q: 2, r: 3 }) {
          if (b === 'q' && a === 'x') continue outer;
          if (b === 'r') continue;
          if (a === 'z') break outer;
          log.push(a + b);
        }
      }
      return log;
    }`,
  'for-in: var key and member-expression key targets': `
    export function run() {
      const rec: any = {};
      const seen: string[] = [];
      for (rec.last in { a: 1, b: 2 }) seen.push(rec.last);
      for (var vk in { z: 1 }) {}
      return [seen, rec.last, vk];
    }`,
  'for-in: closures capture per-iteration key': `
    export function run() {
      const fns: (() => string)[] = [];
      for (const k in { a: 1, b: 2, c: 3 }) { if (k !== 'b') fns.push(() => k); }
      return fns.map((f) => f());
    }`,
  'for-in: object expression evaluated once, proxy ownKeys traced': `
    export function run() {
      const log: string[] = [];
      const target = { a: 1, b: 2 };
      const p = new Proxy(target, {
        ownKeys(t) { log.push('ownKeys'); return Reflect.ownKeys(t); },
        getOwnPropertyDescriptor(t, k) { log.push('gopd:' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
        getPrototypeOf(t) { log.push('getProto'); return Reflect.getPrototypeOf(t); },
      });
      const src = () => { log.push('src'); return p; };
      for (const k in src()) { log.push('k:' + k); if (k === 'a') continue; }
      return log;
    }`,
  'for-in: return from inside for-in in function': `
    function firstOver(o: Record<string, number>, n: number) { for (const k in o) { if (o[k] > n) return k; } return null; }
    export function run() { return [firstOver({ a: 1, b: 5, c: 9 }, 3), firstOver({ a: 1 }, 3)]; }`,
  'for-in: class instance with methods on prototype not enumerated': `
    class P { x = 1; m() { return 1; } }
    export function run() { const keys: string[] = []; const p: any = new P(); p.y = 2; for (const k in p) keys.push(k); return keys; }`,
  'for-in: symbol keys are not enumerated': `
    export function run() { const o: any = { a: 1, [Symbol('s')]: 2 }; const ks: string[] = []; for (const k in o) ks.push(k); return ks; }`,
};

equivalenceSuite('conformance: for-in', programs);
