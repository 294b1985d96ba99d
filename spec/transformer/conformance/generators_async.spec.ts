/**
 * Conformance (test262 language/statements/generators, async-function, for-await-of): control
 * flow around yield/await on plain values — the converter must keep yields and awaits native.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'generator: return() runs finally around a loop': `
    function* g(log: string[]) { try { for (let i = 0; i < 10; i++) { if (i % 2) yield i; } } finally { log.push('cleanup'); } }
    export function run() { const log: string[] = []; const it = g(log); const a = it.next(); const b = it.return('early' as any); return [a, b, log]; }`,
  'generator: yield in conditions and logical operands': `
    function* g() { const log: unknown[] = []; if (yield 'cond') log.push('then'); else log.push('else'); const v = (yield 'left') && (yield 'right'); log.push(v); return log; }
    export function run() {
      const out: unknown[] = [];
      for (const answers of [[1, 0], [0, 5], [1, 1, 7]]) {
        const it = g(); let r = it.next(); const seen: unknown[] = [];
        let k = 0;
        while (!r.done) { seen.push(r.value); r = it.next(answers[k++] as any); }
        out.push(seen, r.value);
      }
      return out;
    }`,
  'generator: arguments and this inside a generator method': `
    class C { base = 100; *gen(...xs: number[]) { for (const x of xs) { if (x > 1) yield this.base + x + arguments.length; } } }
    export function run() { return [...new C().gen(1, 2, 3)]; }`,
};

const asyncPrograms: Record<string, string> = {
  'async: await in conditions and loop tests': `
    export async function run() {
      const log: unknown[] = [];
      const v = (x: unknown) => Promise.resolve(x);
      let i = 0;
      while (await v(i < 3)) { if (await v(i % 2)) log.push('odd' + i); else log.push('even' + i); i++; }
      do { i--; } while (await v(i > 1));
      return [log, i];
    }`,
  'async: ordering of microtasks across converted branches': `
    export async function run() {
      const log: string[] = [];
      const p = Promise.resolve().then(() => log.push('micro1')).then(() => log.push('micro2'));
      for (let i = 0; i < 3; i++) { if (i === 1) { await null; log.push('after await ' + i); } else log.push('sync ' + i); }
      await p;
      return log;
    }`,
  'async: rejection inside a loop caught by try/finally': `
    export async function run() {
      const log: string[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          try { if (i === 1) await Promise.reject(new Error('rej' + i)); log.push('ok' + i); } finally { log.push('fin' + i); }
        }
      } catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'async: early return from async function inside loop': `
    async function find(xs: number[], t: number) { for (const x of xs) { if (await Promise.resolve(x === t)) return 'found ' + x; } return 'none'; }
    export async function run() { return [await find([1, 2, 3], 2), await find([], 1)]; }`,
  'async: async arrow in loop with closures': `
    export async function run() {
      const ps: Promise<number>[] = [];
      for (let i = 0; i < 3; i++) { if (i !== 1) ps.push((async () => { await null; return i * 10; })()); }
      return Promise.all(ps);
    }`,
  'async: thrown error becomes rejection, not sync throw': `
    async function f(x: number) { if (x) throw new TypeError('bad ' + x); return 'fine'; }
    export async function run() { const out: unknown[] = []; const p = f(1); out.push('sync continues'); try { await p; } catch (e: any) { out.push(e.message); } out.push(await f(0)); return out; }`,
  'async: await in logical and conditional operands': `
    export async function run() {
      const log: string[] = [];
      const v = async (s: string, x: unknown) => { log.push(s); return x; };
      const a = (await v('a', 0)) && (await v('b', 1));
      const b = (await v('c', 0)) || (await v('d', 2));
      const c = (await v('e', 1)) ? await v('f', 'F') : await v('g', 'G');
      return [a, b, c, log];
    }`,
};

equivalenceSuite('conformance: generators', programs);
equivalenceSuite('conformance: async functions', asyncPrograms, { async: true });
