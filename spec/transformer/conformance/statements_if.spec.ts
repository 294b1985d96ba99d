/**
 * Conformance (test262 language/statements/if): converted `if` on plain values behaves exactly
 * like the native statement — ToBoolean, evaluation order, completion values, nesting, dangling else.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'if: ToBoolean of every primitive and object kind': `
    export function run() {
      const log: unknown[] = [];
      const values: any[] = [0, -0, 1, '', ' ', '0', null, undefined, NaN, Infinity, [], {}, 0n, 1n, false, true, Symbol.iterator, () => 0, new Boolean(false)];
      for (let k = 0; k < values.length; k++) {
        if (values[k]) log.push(k, 'T'); else log.push(k, 'F');
      }
      return log;
    }`,
  'if: condition evaluated exactly once, with side effects in order': `
    export function run() {
      const log: string[] = [];
      let n = 0;
      const c = (v: boolean) => { log.push('c' + (n++)); return v; };
      if (c(true)) log.push('a'); else log.push('b');
      if (c(false)) log.push('a'); else log.push('b');
      if (c(false)) log.push('x');
      log.push(String(n));
      return log;
    }`,
  'if: getter in the condition counted': `
    export function run() {
      let count = 0;
      const o = { get flag() { count++; return count % 2 === 1; } };
      const log: unknown[] = [];
      for (let i = 0; i < 4; i++) { if (o.flag) log.push('on' + i); else log.push('off' + i); }
      log.push(count);
      return log;
    }`,
  'if: valueOf / toString are never called by ToBoolean': `
    export function run() {
      const log: string[] = [];
      const o = { valueOf() { log.push('valueOf'); return 0; }, toString() { log.push('toString'); return ''; } };
      if (o) log.push('truthy object');
      if (!o) log.push('never');
      return log;
    }`,
  'if: dangling else binds to the nearest if': `
    export function run() {
      const log: string[] = [];
      for (const [a, b] of [[true, true], [true, false], [false, true], [false, false]]) {
        if (a) if (b) log.push('ab'); else log.push('a!b');
        log.push('|');
      }
      return log;
    }`,
  'if: deeply nested else-if chain with assignments in tests': `
    export function run() {
      const out: unknown[] = [];
      for (let i = 0; i < 7; i++) {
        let t: any;
        if ((t = i) === 0) out.push('zero');
        else if ((t = t * 2) === 2) out.push('one', t);
        else if ((t = t + 1) === 5) out.push('two', t);
        else if (t > 10) { if (t % 2) out.push('odd big', t); else out.push('even big', t); }
        else out.push('other', t);
      }
      return out;
    }`,
  'if: comma expression in the condition': `
    export function run() {
      const log: unknown[] = [];
      let x = 0;
      if ((log.push('first'), x++, x > 0)) log.push('then', x);
      if ((x = 0, log.push('second'), x)) log.push('never'); else log.push('else', x);
      return log;
    }`,
  'if: condition throws before any branch runs': `
    export function run() {
      const log: string[] = [];
      try {
        if ((() => { log.push('test'); throw new RangeError('boom'); })()) log.push('then'); else log.push('else');
      } catch (e: any) { log.push(e.name + ':' + e.message); }
      return log;
    }`,
  'if: branch throws, state assigned before the throw is kept': `
    export function run() {
      let a = 0; let b = 0;
      try { if (a === 0) { a = 1; throw new Error('x'); b = 2; } } catch (e) { b = 3; }
      return [a, b];
    }`,
  'if: assignments in both branches to outer let/var/const-in-block': `
    export function run() {
      const res: unknown[] = [];
      for (const v of [1, 2, 3]) {
        let a = 'init'; var b = 'vinit';
        if (v === 1) { a = 'one'; b = 'vone'; const c = 'c1'; res.push(c); }
        else if (v === 2) { a = 'two'; }
        else { const a = 'shadow'; res.push(a); b = 'vthree'; }
        res.push(a, b);
      }
      return res;
    }`,
  'if: empty branches and empty statement': `
    export function run() {
      let n = 0;
      if (n++) ; else ;
      if (n++) {} else {}
      if (n++) {}
      if (n++);
      return n;
    }`,
  'if: optional chaining and nullish coalescing in the condition': `
    export function run() {
      const log: unknown[] = [];
      const objs: any[] = [null, undefined, {}, { a: null }, { a: { b: 0 } }, { a: { b: 5 } }];
      for (const o of objs) {
        if (o?.a?.b) log.push('b truthy'); else if (o?.a ?? false) log.push('a present'); else log.push('none');
        if ((o?.a?.b ?? 7) > 3) log.push('gt3');
      }
      return log;
    }`,
  'if: tests with instanceof, in, typeof, delete': `
    export function run() {
      const log: unknown[] = [];
      const o: any = { k: 1 };
      if ('k' in o) log.push('in');
      if (delete o.k) log.push('deleted', 'k' in o);
      if (typeof o.k === 'undefined') log.push('undef');
      if ([] instanceof Array) log.push('array');
      if (!(o instanceof Array)) log.push('not array');
      return log;
    }`,
  'if: function result depends on branch, return in both branches': `
    function sign(x: number) { if (x > 0) { return 1; } else if (x < 0) { return -1; } else { return 0; } }
    function abs(x: number) { if (x < 0) return -x; return x; }
    function onlyThen(x: number) { if (x) { return 'yes'; } }
    export function run() { return [sign(5), sign(-2), sign(0), abs(-3), abs(4), String(onlyThen(0)), onlyThen(1)]; }`,
  'if: BigInt and NaN comparisons': `
    export function run() {
      const log: unknown[] = [];
      const xs: any[] = [0n, 1n, NaN, -0];
      for (const x of xs) { if (x) log.push('t'); else log.push('f'); if (x == 0) log.push('eq0'); if (Object.is(x, -0)) log.push('negzero'); }
      return log;
    }`,
};

equivalenceSuite('conformance: if statements', programs);
