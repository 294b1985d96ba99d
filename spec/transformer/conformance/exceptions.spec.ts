/**
 * Conformance (test262 language/statements/throw, try): exceptions from every position of
 * converted statements — tests, bodies, updates, iterators, getters — and their interplay with
 * catch/finally, error identity and types.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'exc: error identity preserved through converted code': `
    export function run() {
      const err = new Error('same');
      let caught: any;
      try { for (let i = 0; i < 3; i++) { if (i === 2) throw err; } } catch (e) { caught = e; }
      return caught === err;
    }`,
  'exc: native TypeError from calling undefined inside a branch': `
    export function run() {
      const o: any = {};
      try { if (o) o.missing(); return 'no'; } catch (e: any) { return [e.constructor.name, e.message]; }
    }`,
  'exc: ReferenceError message for undeclared name': `
    export function run() {
      try { if (true) { (undeclaredThing as any); } return 'no'; } catch (e: any) { return [e.constructor.name, e.message]; }
    }
    declare const undeclaredThing: unknown;`,
  'exc: throw in a nested loop unwinds through finallies in order': `
    export function run() {
      const log: string[] = [];
      try {
        for (let i = 0; i < 2; i++) {
          try { for (let j = 0; j < 2; j++) { try { if (i === 1 && j === 1) throw new Error('deep'); log.push('' + i + j); } finally { log.push('f3'); } } } finally { log.push('f2-' + i); }
        }
      } catch (e: any) { log.push('caught ' + e.message); } finally { log.push('f1'); }
      return log;
    }`,
  'exc: catch variable reassigned inside converted code': `
    export function run() {
      const out: unknown[] = [];
      try { throw 1; } catch (e: any) { while (e < 4) { e++; if (e === 3) out.push('three'); } out.push(e); }
      return out;
    }`,
  'exc: exception from getter in a while test stops the loop': `
    export function run() {
      let n = 0;
      const o = { get ok() { if (n > 2) throw new RangeError('getter ' + n); return true; } };
      const log: unknown[] = [];
      try { while (o.ok) { log.push(n++); } } catch (e: any) { log.push(e.message); }
      return log;
    }`,
  'exc: stack overflow caught as RangeError inside converted recursion': `
    function deep(n: number): number { if (n < 0) return 0; return deep(n + 1) + 1; }
    export function run() { try { return deep(0); } catch (e: any) { return e.constructor.name; } }`,
  'exc: finally runs for break, continue, return and throw in one loop': `
    function f(mode: string) {
      const log: string[] = [];
      for (let i = 0; i < 3; i++) {
        try {
          if (i === 1) { if (mode === 'break') break; if (mode === 'continue') continue; if (mode === 'return') return log.concat('ret'); if (mode === 'throw') throw new Error('thr'); }
          log.push('body' + i);
        } finally { log.push('fin' + i); }
      }
      return log;
    }
    export function run() { const out: unknown[] = []; for (const m of ['break', 'continue', 'return', 'throw', 'none']) { try { out.push(f(m)); } catch (e: any) { out.push(e.message); } } return out; }`,
  'exc: throw from a logical operand and a conditional branch': `
    export function run() {
      const boom = (m: string): any => { throw new Error(m); };
      const out: unknown[] = [];
      for (const v of [0, 1]) { try { out.push(v && boom('and' + v)); } catch (e: any) { out.push(e.message); } try { out.push(v || boom('or' + v)); } catch (e: any) { out.push(e.message); } }
      return out;
    }`,
  'exc: error thrown in catch replaces the original, finally still runs': `
    export function run() {
      const log: string[] = [];
      try { try { if (log) throw new Error('first'); } catch (e: any) { log.push('c1 ' + e.message); if (e) throw new Error('second'); } finally { log.push('finally'); } }
      catch (e: any) { log.push('outer ' + e.message); }
      return log;
    }`,
  'exc: AggregateError and custom error subclass': `
    class MyErr extends Error { constructor(public code: number) { super('code ' + code); } }
    export function run() {
      const out: unknown[] = [];
      for (const c of [1, 2]) { try { if (c === 1) throw new MyErr(c); throw new AggregateError([new Error('a')], 'agg'); } catch (e: any) { out.push(e instanceof MyErr ? 'mine ' + e.code : e.constructor.name + e.errors.length); } }
      return out;
    }`,
};

equivalenceSuite('conformance: exceptions', programs);
