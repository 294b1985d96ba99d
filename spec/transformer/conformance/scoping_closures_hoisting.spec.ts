/**
 * Conformance (test262 language/statements/variable, let, const, function, block-scope):
 * var hoisting out of converted blocks, function declarations in blocks (strict), TDZ, shadowing,
 * closures over loop variables, redeclaration, const assignment errors.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'scope: var hoisted from a converted if is undefined before assignment': `
    export function run() {
      const log: unknown[] = [];
      log.push(typeof v);
      if (log.length > 5) { var v = 1; }
      log.push(typeof v);
      if (log.length) { var v = 2; }
      log.push(v);
      return log;
    }`,
  'scope: var redeclared in loops and branches': `
    export function run() {
      var x = 1;
      for (var x = 10; x < 12; x++) { if (x) { var x = x + 0; } }
      while (x < 15) { var x = x + 2; }
      return x;
    }`,
  'scope: function declaration in block is block-scoped (strict)': `
    export function run() {
      const log: unknown[] = [];
      if (log.length === 0) { function f() { return 'inner'; } log.push(f()); }
      log.push(typeof (globalThis as any).f);
      return log;
    }`,
  'scope: function declarations in blocks hoisted within the block': `
    export function run() {
      const log: unknown[] = [];
      for (let i = 0; i < 2; i++) {
        log.push(g());
        function g() { return 'g' + i; }
      }
      return log;
    }`,
  'scope: top-level function declaration hoisting in converted function': `
    export function run() {
      const log: unknown[] = [];
      if (log.length === 0) log.push(h());
      function h() { return 'hoisted'; }
      return log;
    }`,
  'scope: TDZ error inside a converted branch': `
    export function run() {
      const out: unknown[] = [];
      for (const v of [0, 1]) {
        try { if (v) { out.push((z as any)); } let z = 5; out.push(z); } catch (e: any) { out.push(e.constructor.name); }
      }
      return out;
    }`,
  'scope: const reassignment throws TypeError inside a loop': `
    export function run() {
      const c = 1;
      try { for (let i = 0; i < 2; i++) { if (i === 1) (c as any) = 2; } return 'no'; } catch (e: any) { return [e.constructor.name, c]; }
    }`,
  'scope: let in block shadows outer and outer unchanged': `
    export function run() {
      let x = 'outer';
      const log: string[] = [];
      for (let i = 0; i < 2; i++) { if (i === 0) { let x = 'inner'; log.push(x); } else { x = 'changed'; } }
      log.push(x);
      return log;
    }`,
  'scope: closure over a variable assigned in a converted branch after creation': `
    export function run() {
      let v = 'a';
      const read = () => v;
      const log: string[] = [];
      for (let i = 0; i < 3; i++) { if (i === 1) v = 'b'; log.push(read()); }
      return log;
    }`,
  'scope: nested functions using outer loop variables': `
    export function run() {
      const log: string[] = [];
      for (let i = 0; i < 3; i++) {
        function describe() { return 'i=' + i; }
        const arrow = () => describe() + '!';
        if (i !== 1) log.push(arrow());
      }
      return log;
    }`,
  'scope: counter closure modified inside converted loop body': `
    export function run() {
      function makeCounter() { let n = 0; return { inc() { return ++n; }, get() { return n; } }; }
      const c = makeCounter();
      let i = 0;
      while (c.get() < 5) { if (i++ % 2) c.inc(); else c.inc(); }
      return [c.get(), i];
    }`,
  'scope: variable named like generated helpers': `
    export function run() {
      let retval_ = 'mine', do_return = 'mine2', loop_body = 1, if_body = 2, ag__ = 3, vars_ = 4, continue_ = 5, break_ = 6;
      const log: unknown[] = [];
      for (let i = 0; i < 3; i++) { if (i === 1) continue; if (i === 2) break; log.push(retval_, do_return, loop_body, if_body, ag__, vars_, continue_, break_); }
      return log;
    }`,
  'scope: helper-like names returned through lowered returns': `
    function f(x: number) { let retval_ = x * 2; let i_outer = 1; for (let i = 0; i < 3; i++) { if (i === x) return retval_ + i_outer; } return -1; }
    export function run() { return [f(1), f(5)]; }`,
  'scope: eval-free indirect name resolution through globalThis': `
    export function run() { const g: any = globalThis; g.__agTmp = 1; let r = 0; if (g.__agTmp) r = 2; delete g.__agTmp; return r; }`,
  'scope: block-level const captured, loop re-entry creates new bindings': `
    export function run() {
      const fns: (() => number)[] = [];
      let i = 0;
      do { const sq = i * i; if (sq % 2 === 0) fns.push(() => sq); i++; } while (i < 5);
      return fns.map((f) => f());
    }`,
  'scope: var in for-in/for-of heads hoisted': `
    export function run() { for (var k in { a: 1, b: 2 }) { if (k === 'a') continue; } for (var v of [1, 2, 3]) { if (v > 5) break; } return [k, v]; }`,
  'scope: let declared in loop body without initializer resets each iteration': `
    export function run() { const out: unknown[] = []; for (let i = 0; i < 3; i++) { let u: any; if (i === 1) u = 'set'; out.push(String(u)); } return out; }`,
  'scope: function expression name binding is read-only inside': `
    export function run() {
      const f = function fact(n: number): number { if (n <= 1) return 1; return n * fact(n - 1); };
      return f(5);
    }`,
  'scope: class declarations in blocks and TDZ of class': `
    export function run() {
      const out: unknown[] = [];
      for (let i = 0; i < 2; i++) {
        if (i === 0) { class K { v = i; } out.push(new K().v); }
        else { try { new (L as any)(); } catch (e: any) { out.push(e.constructor.name); } class L {} void L; }
      }
      return out;
    }`,
};

equivalenceSuite('conformance: scoping, closures, hoisting', programs);
