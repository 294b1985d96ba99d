/**
 * Conformance (test262 language/expressions/logical-and, logical-or, conditional,
 * logical-not, logical-assignment, coalesce): values (not booleans) returned, short-circuit,
 * evaluation counts, precedence mixes, `this` of calls in operands.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'logical: && and || return operand values': `
    export function run() {
      const vals: any[] = [0, 1, '', 'a', null, undefined, NaN, [], {}];
      const out: unknown[] = [];
      for (const a of vals) for (const b of [0, 'b']) out.push(String(a && b), String(a || b));
      return out;
    }`,
  'logical: short-circuit skips the right side': `
    export function run() {
      const log: string[] = [];
      const t = (s: string, v: any) => { log.push(s); return v; };
      t('a', 0) && t('b', 1);
      t('c', 1) && t('d', 0);
      t('e', 1) || t('f', 0);
      t('g', 0) || t('h', 0);
      return log;
    }`,
  'logical: a && b || c ? d : e precedence': `
    export function run() {
      const out: unknown[] = [];
      for (const a of [0, 1]) for (const b of [0, 1]) for (const c of [0, 1]) out.push(a && b || c ? 'd' : 'e');
      return out;
    }`,
  'logical: a || b && c and (a || b) && c': `
    export function run() {
      const out: unknown[] = [];
      for (const a of [0, 2]) for (const b of [0, 3]) for (const c of [0, 4]) out.push(a || b && c, (a || b) && c);
      return out;
    }`,
  'logical: nested conditionals, right-associative': `
    export function run() {
      const cls = (n: number) => n < 0 ? 'neg' : n === 0 ? 'zero' : n < 10 ? 'small' : 'big';
      const weird = (a: any, b: any) => a ? b ? 1 : 2 : b ? 3 : 4;
      return [cls(-1), cls(0), cls(5), cls(50), weird(0, 0), weird(0, 1), weird(1, 0), weird(1, 1)];
    }`,
  'logical: conditional only evaluates the taken branch': `
    export function run() {
      const log: string[] = [];
      const t = (s: string) => { log.push(s); return s; };
      const a = [true, false].map((c) => c ? t('yes') : t('no'));
      return [a, log];
    }`,
  'logical: not of every kind, double not': `
    export function run() { const vals: any[] = [0, 1, '', 'x', null, undefined, NaN, [], 0n]; return vals.map((v) => [!v, !!v]); }`,
  'logical: not applied to a call with side effects': `
    export function run() { let n = 0; const f = () => ++n; const r = [!f(), !!f(), !(f() - 3)]; return [r, n]; }`,
  'logical: logical assignment operators short-circuit (no setter call)': `
    export function run() {
      const log: string[] = [];
      const o: any = { _a: 1, _b: 0, _c: null,
        get a() { log.push('get a'); return this._a; }, set a(v) { log.push('set a ' + v); this._a = v; },
        get b() { log.push('get b'); return this._b; }, set b(v) { log.push('set b ' + v); this._b = v; },
        get c() { log.push('get c'); return this._c; }, set c(v) { log.push('set c ' + v); this._c = v; } };
      o.a ||= 10; o.a &&= 20; o.b ||= 30; o.b &&= 40; o.c ??= 50; o.c ??= 60;
      return [log, o._a, o._b, o._c];
    }`,
  'logical: logical assignment on variables and computed members': `
    export function run() {
      let x: any = 0; let y: any = 1; let z: any = undefined;
      x ||= 'x'; y &&= 'y'; z ??= 'z';
      const arr: any[] = [0, 1, null];
      let k = 0;
      arr[k++] ||= 'a'; arr[k++] &&= 'b'; arr[k++] ??= 'c';
      return [x, y, z, arr, k];
    }`,
  'logical: nullish with && and || parenthesized': `
    export function run() {
      const out: unknown[] = [];
      for (const a of [null, 0, 'v'] as any[]) out.push((a ?? 'd') || 'e', (a && 'x') ?? 'y', (a || null) ?? 'z');
      return out;
    }`,
  'logical: method calls keep this through && and ?:': `
    export function run() {
      const o = { v: 5, get() { return this.v; } };
      const r1 = o && o.get();
      const r2 = (o ? o.get : null)!.call(o);
      const r3 = o.v > 1 ? o.get() : 0;
      return [r1, r2, r3];
    }`,
  'logical: optional chaining inside conditions and operands': `
    export function run() {
      const out: unknown[] = [];
      const data: any[] = [null, { f: null }, { f: () => 0 }, { f: () => 7 }];
      for (const d of data) out.push(d?.f?.() || 'none', d?.f?.() ?? 'nullish', d?.f ? 'has' : 'no');
      return out;
    }`,
  'logical: getters in conditions counted': `
    export function run() {
      let reads = 0;
      const o = { get v() { reads++; return reads % 3; } };
      const out: unknown[] = [];
      for (let i = 0; i < 4; i++) out.push(o.v && o.v || o.v ? o.v : -1);
      return [out, reads];
    }`,
  'logical: comma and assignment expressions as operands': `
    export function run() {
      let a = 0, b = 0;
      const r = ((a = 1), b = 2, a) && (b += 3, b) || (a = 99);
      const s = (a = 0) || (b = 0) || 'both falsy';
      return [r, s, a, b];
    }`,
  'logical: conditional with throw in a branch': `
    export function run() {
      const f = (x: number) => x > 0 ? x : (() => { throw new RangeError('neg ' + x); })();
      const out: unknown[] = [];
      for (const x of [1, -1]) { try { out.push(f(x)); } catch (e: any) { out.push(e.message); } }
      return out;
    }`,
  'logical: deeply nested mix used as if/while condition': `
    export function run() {
      const out: string[] = [];
      let i = 0;
      while ((i < 10 && !(i % 7 === 6)) || (i === 6 ? false : i < 3)) {
        if (i % 2 === 0 && i !== 4 || i === 5 ? true : !i) out.push('a' + i); else out.push('b' + i);
        i++;
      }
      return out;
    }`,
  'logical: typeof / delete / void in operands': `
    export function run() {
      const o: any = { a: 1 };
      let undeclaredCheck = typeof (globalThis as any).__nope__ === 'undefined' && 'ok';
      const r = [delete o.a && 'deleted', void 0 || 'void', typeof o.a === 'undefined' ? 'gone' : 'here', undeclaredCheck];
      return r;
    }`,
  'logical: in arrow concise bodies and default parameters': `
    const pick = (a: any, b: any = a || 'dflt') => a && b;
    const tern = (x: number, y = x > 0 ? 'pos' : 'nonpos') => y;
    export function run() { return [pick(0), pick(1), pick(2, 3), tern(1), tern(-1), tern(1, 'given')]; }`,
  'logical: in template literals and tagged templates': `
    function tag(strings: TemplateStringsArray, ...vals: unknown[]) { return strings.raw.join('|') + '#' + vals.join(','); }
    export function run() {
      const out: unknown[] = [];
      for (const v of [0, 1]) out.push(\`v=\${v ? 'one' : 'zero'}/\${v && 'and'}/\${v || 'or'}\`, tag\`a\${v ? 1 : 2}b\${!v}c\`);
      return out;
    }`,
  'logical: tagged template object identity is per call site': `
    const seen: any[] = [];
    function tag(s: TemplateStringsArray) { seen.push(s); return s; }
    export function run() {
      for (let i = 0; i < 3; i++) { if (i < 2 || i) tag\`x\`; }
      const other = tag\`x\`;
      return [seen[0] === seen[1], seen[1] === seen[2], seen[0] === other];
    }`,
};

equivalenceSuite('conformance: logical and conditional expressions', programs);
