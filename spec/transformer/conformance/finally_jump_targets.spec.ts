/**
 * A jump inside `finally` overrides the pending completion only when it LEAVES the finally block
 * (issue 6, item 2): a loop or a switch inside finally has its own jumps, which must leave a
 * pending exception, return, break or continue alone. Matrix: what the try block does × what the
 * finally block does (a jump out, a jump to a loop or switch inside it) × static / `any` conditions.
 */
import { equivalenceSuite } from '../../harness/conformance';

const tries: Record<string, string> = {
  throws: `throw new Error('e' + i);`,
  returns: `if (c(i)) return 'ret' + i;`,
  breaks: `if (c(i)) break;`,
  continues: `if (c(i)) continue;`,
  falls: `log.push('t' + i);`,
};
const finals: Record<string, string> = {
  'do/continue inside': `let n = 0; do { log.push('d' + n); if (c(n)) continue; log.push('e' + n); } while (++n < 2);`,
  'for/break inside': `for (let k = 0; k < 3; k++) { if (c(k + 1)) break; log.push('k' + k); }`,
  'switch/continue inside a loop inside': `for (let k = 0; k < 3; k++) { switch (k) { case 0: log.push('s0'); continue; case 1: if (c(k)) break; log.push('s1'); default: log.push('sd'); } log.push('after' + k); }`,
  'labeled block inside': `blk: { if (c(i)) break blk; log.push('blk'); }`,
  'continue out': `if (c(i + 1)) continue; log.push('f' + i);`,
  'break out': `if (c(i + 1)) break; log.push('f' + i);`,
  'return out': `if (c(i + 1)) return 'fin' + i;`,
  'nothing': `log.push('f' + i);`,
};

const programs: Record<string, string> = {};
for (const [tryName, tryCode] of Object.entries(tries)) {
  for (const [finName, finCode] of Object.entries(finals)) {
    for (const dynamic of [false, true]) {
      programs[`try ${tryName}, finally ${finName}, conditions ${dynamic ? 'any' : 'static'}`] = `
        export function run() {
          const log: unknown[] = [];
          const c = (k: number)${dynamic ? ': any' : ''} => k % 2 === 1;
          const f = (): unknown => {
            for (let i = 0; i < 4; i++) {
              try { ${tryCode} log.push('try' + i); } finally { ${finCode} }
              log.push('end' + i);
            }
            return 'done';
          };
          try { log.push(f()); } catch (e: any) { log.push('caught ' + e.message); }
          return log;
        }`;
    }
  }
}

// A native jump (static condition) out of the try or catch block, a converted jump out of finally:
// the finally block is no longer a native finally, so the try block's jump is lowered too.
const nativeJumps: Record<string, string> = {
  'return in try': `try { if (i > 0) return 'try' + i; log.push('t' + i); } finally { FINALLY }`,
  'break in try': `try { if (i > 1) break; log.push('t' + i); } finally { FINALLY }`,
  'labeled continue in try': `try { for (const k of [0, 1]) { if (k > 0) continue outer; log.push('k' + k); } } finally { FINALLY }`,
  'return in catch': `try { throw new Error('e' + i); } catch (e: any) { return e.message; } finally { FINALLY }`,
};
const convertedFinallyJumps: Record<string, string> = {
  'continue out': `if (d(i)) continue; log.push('f' + i);`,
  'break out': `if (d(i)) break; log.push('f' + i);`,
  'return out': `if (d(i)) return 'fin' + i; log.push('f' + i);`,
};
for (const [tryName, tryCode] of Object.entries(nativeJumps)) {
  for (const [finName, finCode] of Object.entries(convertedFinallyJumps)) {
    programs[`${tryName} (native), finally ${finName} (any condition)`] = `
      export function run() {
        const log: unknown[] = [];
        const d = (k: number): any => k % 2 === 1;
        const f = (): unknown => {
          outer: for (const i of [0, 1, 2, 3]) { ${tryCode.replace('FINALLY', finCode)} log.push('end' + i); }
          return 'done';
        };
        log.push(f());
        return log;
      }`;
  }
}
programs['a native break out of finally (switch, labeled block) cancels a converted return'] = `
  const f = (x: any, k: number) => {
    const log: unknown[] = [];
    switch (k) { case 0: try { if (x) return 'ret0'; } finally { log.push('fin0'); break; } default: log.push('default'); }
    b: { try { if (x) return 'ret1'; } finally { log.push('fin1'); if (k > 0) break b; } log.push('in b'); }
    log.push('end');
    return log;
  };
  export function run() { return [f(0, 0), f(1, 0), f(1, 1), f(0, 1)]; }`;
programs['a return out of a native switch, through a finally that breaks under an any condition'] = `
  const f = (a: any, k: number) => {
    const log: unknown[] = [];
    switch (k % 2) {
      case 0: b: { try { return 'ret' + k; } finally { log.push('fin'); if (a) break b; } } log.push('after b');
      default: log.push('default');
    }
    return log;
  };
  export function run() { return [f(0, 0), f(1, 0), f(1, 1)]; }`;
programs['issue 6: continue in finally cancels an unconditional return in a for...of'] = `
  const g = (x: any) => { for (const k of [1, 2]) { try { return 'try' + k; } finally { if (x(k)) continue; } } return 'end'; };
  export function run() { return [g((k: number) => k === 1), g(() => true), g(() => false)]; }`;

programs['issue 6: a continue to a do-while inside finally does not swallow the exception'] = `
  export function run() {
    const log: unknown[] = [];
    let n = 0;
    const cond = () => { log.push('cond' + n); return ++n < 3; };
    try {
      try { throw new Error('e3'); } finally { do { log.push('body'); continue; } while (cond()); }
    } catch (e: any) { log.push('caught ' + e.message); }
    return log;
  }`;

programs['a break in finally cancels the pending return and its value'] = `
  export function run() {
    const log: unknown[] = [];
    const f = (x: any): unknown => {
      let w = 0;
      while ((w++ < 3) as any) { try { if (x) return 'r' + w; } catch (e) { log.push(e); } finally { if (w > 1 || x) break; } }
      log.push('after');
    };
    log.push(f(1), f(0));
    return log;
  }`;

programs['a jump whose target is inside the try block is not pending in finally (its flag is out of scope there)'] = `
  export function run() {
    const log: unknown[] = [];
    const f = (x: any, y: any): unknown => {
      try { for (let i = 0; i < 3; i++) { log.push(i); if (x) break; } if (y) return 'try'; }
      finally { log.push('fin'); B: { if (x) break B; if (y) return 'fin'; } }
      return 'end';
    };
    log.push(f(true, false), f(false, true), f(true, true), f(0, 0));
    return log;
  }`;

equivalenceSuite('jumps to targets inside finally (typed conditions)', programs, { typed: true });
equivalenceSuite('jumps to targets inside finally (forced dynamic)', {
  'issue 6: continue in try, switch/continue in a loop inside finally': `
    export function run() {
      const log: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        try { if (i === 1) continue; log.push('try' + i); }
        finally {
          for (let k = 0; k < 3; k++) {
            switch (k) { case 0: log.push('k0'); continue; case 1: log.push('k1'); break; default: log.push('kd'); }
            log.push('after switch' + k);
          }
        }
        log.push('end' + i);
      }
      return log;
    }`,
  ...programs,
});
