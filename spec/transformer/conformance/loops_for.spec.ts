/**
 * Conformance (test262 language/statements/for): init/test/update order, per-iteration `let`
 * bindings (copied before the update, visible to closures), var vs let, break/continue/labels.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'for: evaluation order of init, test, body, update': `
    export function run() {
      const log: string[] = [];
      let i: number;
      for (log.push('init'), i = 0; (log.push('test' + i), i < 2); log.push('upd' + i), i++) log.push('body' + i);
      return log;
    }`,
  'for: closures capture a fresh binding per iteration': `
    export function run() {
      const fns: (() => number)[] = [];
      for (let i = 0; i < 4; i++) fns.push(() => i);
      return fns.map((f) => f());
    }`,
  'for: closure mutates the per-iteration binding': `
    export function run() {
      const log: number[] = [];
      const bumps: (() => void)[] = [];
      for (let i = 0; i < 6; i++) {
        bumps.push(() => { i += 10; });
        if (i === 1) bumps[0]();
        log.push(i);
      }
      return log;
    }`,
  'for: two let bindings, both per-iteration': `
    export function run() {
      const fns: (() => string)[] = [];
      for (let i = 0, j = 10; i < 3; i++, j--) { if (i !== 1) fns.push(() => i + '/' + j); }
      return fns.map((f) => f());
    }`,
  'for: var loop variable is shared by closures': `
    export function run() {
      const fns: (() => number)[] = [];
      for (var i = 0; i < 3; i++) fns.push(() => i);
      return [fns.map((f) => f()), i];
    }`,
  'for: const in init with break': `
    export function run() {
      const log: number[] = [];
      for (const k = 5; ; ) { log.push(k); if (log.length > 2) break; }
      return log;
    }`,
  'for: no init, no test, no update': `
    export function run() { let i = 0; for (;;) { if (++i > 4) break; } return i; }`,
  'for: continue runs the update': `
    export function run() {
      const log: string[] = [];
      for (let i = 0; i < 5; log.push('u' + i), i++) { if (i % 2) continue; log.push('b' + i); }
      return log;
    }`,
  'for: break does not run the update': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      for (; i < 5; log.push('u' + i), i++) { if (i === 2) break; }
      return [log, i];
    }`,
  'for: labeled continue of outer for from inner for with closures': `
    export function run() {
      const fns: (() => string)[] = [];
      outer: for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          if (j > i) continue outer;
          fns.push(() => i + ',' + j);
        }
      }
      return fns.map((f) => f());
    }`,
  'for: nested for with labeled break out of both': `
    export function run() {
      let count = 0;
      found: for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) { count++; if (i * j === 12) break found; }
      return count;
    }`,
  'for: loop variable shadowed in body': `
    export function run() {
      const log: number[] = [];
      for (let i = 0; i < 3; i++) { let i2 = i; { let i = i2 * 10; log.push(i); } log.push(i); }
      return log;
    }`,
  'for: test throws after a few iterations (helper call)': `
    export function run() {
      const log: unknown[] = [];
      const check = (i: number) => { if (i === 2) throw new Error('test' + i); return true; };
      try { for (let i = 0; check(i); i++) log.push(i); }
      catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'for: update throws': `
    export function run() {
      const log: unknown[] = [];
      try { for (let i = 0; i < 5; i = (i === 1 ? (() => { throw new Error('upd'); })() : i + 1)) log.push(i); }
      catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'for: TDZ in the init expression referencing itself': `
    export function run() {
      try { for (let i: number = (i as any) + 1; i < 3; i++) {} return 'no error'; }
      catch (e: any) { return e.constructor.name; }
    }`,
  'for: return from body inside nested for with closure': `
    function f() {
      const fns: (() => number)[] = [];
      for (let i = 0; i < 10; i++) { fns.push(() => i * i); if (i === 3) return fns.map((g) => g()); }
      return [];
    }
    export function run() { return f(); }`,
  'for: modifying the array being iterated by index': `
    export function run() {
      const a = [1, 2, 3];
      const log: number[] = [];
      for (let i = 0; i < a.length; i++) { if (a[i] === 2) a.push(9); log.push(a[i]); if (a.length > 5) break; }
      return log;
    }`,
  'for: loop counter captured by async-like callback queue': `
    export function run() {
      const queue: (() => void)[] = [];
      const out: number[] = [];
      for (let i = 0; i < 3; i++) { queue.push(() => out.push(i)); i++; queue.push(() => out.push(i)); }
      queue.forEach((f) => f());
      return out;
    }`,
  'for: var and let mixed in nested loops with closures': `
    export function run() {
      const fns: (() => string)[] = [];
      for (var a = 0; a < 2; a++) for (let b = 0; b < 2; b++) fns.push(() => a + '-' + b);
      return fns.map((f) => f());
    }`,
  'for: destructuring in init': `
    export function run() {
      const log: unknown[] = [];
      for (let [i, j] = [0, 10]; i < 3; i++, j -= 2) log.push([i, j]);
      for (let { a, b } = { a: 1, b: 2 }; a < 4; a += b) log.push(a);
      return log;
    }`,
  'for: test throws after a few iterations': `
    export function run() {
      const log: unknown[] = [];
      try { for (let i = 0; (() => { if (i === 2) throw new Error('test' + i); return true; })(); i++) log.push(i); }
      catch (e: any) { log.push(e.message); }
      return log;
    }`,
};

equivalenceSuite('conformance: for loops', programs);
