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
  'generator: yield inside if/while/for with break and continue': `
    function* g(n: number) {
      let i = 0;
      while (true) {
        i++;
        if (i % 3 === 0) continue;
        if (i > n) break;
        for (let j = 0; j < 2; j++) { if (j && i % 2) yield -i; else yield i * 10 + j; }
      }
      return 'end';
    }
    export function run() { const it = g(5); const out: unknown[] = []; let r; while (!(r = it.next()).done) out.push(r.value); out.push(r.value); return out; }`,
  'generator: values sent via next() flow into conditions': `
    function* g() { let total = 0; while (true) { const v: any = yield total; if (v === undefined) return total; if (v < 0) continue; total += v; } }
    export function run() { const it = g(); return [it.next().value, it.next(5).value, it.next(-3).value, it.next(2).value, it.next().value, it.next().done]; }`,
  'generator: throw() into a try/catch inside a loop': `
    function* g() { let errs = 0; for (let i = 0; i < 5; i++) { try { yield i; } catch (e) { errs++; if (errs > 1) return 'too many'; } } return 'done'; }
    export function run() { const it = g(); const out: unknown[] = [it.next().value, it.throw('x').value, it.next().value, it.throw('y').value]; return out; }`,
  'generator: yield* delegation inside a converted loop': `
    function* inner(n: number) { for (let i = 0; i < n; i++) yield i; return n; }
    function* outer() { const rs: number[] = []; for (let k = 1; k < 4; k++) { if (k === 2) continue; rs.push(yield* inner(k)); } return rs; }
    export function run() { const out: unknown[] = []; const it = outer(); let r; while (!(r = it.next()).done) out.push(r.value); out.push(r.value); return out; }`,
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
  'async: for await over async generator with early break calls return': `
    export async function run() {
      const log: string[] = [];
      async function* ag() { try { for (let i = 0; ; i++) { log.push('y' + i); yield i; } } finally { log.push('closed'); } }
      for await (const x of ag()) { if (x === 2) break; log.push('got' + x); }
      return log;
    }`,
};

equivalenceSuite('conformance: generators', programs);
equivalenceSuite('conformance: async functions', asyncPrograms, { async: true });
