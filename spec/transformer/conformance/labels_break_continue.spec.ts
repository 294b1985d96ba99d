/**
 * Conformance (test262 language/statements/labeled, break, continue): labeled blocks, nested
 * labels, label on a loop reached from nested loops/switch/try, jumps crossing finally.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'labels: break out of a labeled block from nested ifs': `
    export function run() {
      const log: string[] = [];
      for (const v of [0, 1, 2]) {
        blk: {
          log.push('s' + v);
          if (v > 0) { if (v > 1) break blk; log.push('mid' + v); }
          log.push('e' + v);
        }
        log.push('after' + v);
      }
      return log;
    }`,
  'labels: nested labeled blocks, break to the outer': `
    export function run() {
      const log: string[] = [];
      for (const v of [1, 2, 3]) {
        a: { b: { log.push('in' + v); if (v === 1) break b; if (v === 2) break a; log.push('end b'); } log.push('end a' + v); }
      }
      return log;
    }`,
  'labels: two labels on the same loop': `
    export function run() {
      const log: number[] = [];
      l1: l2: for (let i = 0; i < 5; i++) { if (i === 1) continue l1; if (i === 3) break l2; log.push(i); }
      return log;
    }`,
  'labels: labeled if statement break': `
    export function run() {
      const log: string[] = [];
      let x = 0;
      lbl: if (x === 0) { log.push('a'); if (log.length) break lbl; log.push('b'); }
      log.push('c');
      return log;
    }`,
  'labels: break out of loop from a switch inside it': `
    export function run() {
      const log: string[] = [];
      loop: for (let i = 0; i < 5; i++) {
        switch (i) { case 1: continue loop; case 3: break loop; default: log.push('d' + i); }
        log.push('after' + i);
      }
      return log;
    }`,
  'labels: continue in do-while through try/finally': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      do { try { i++; if (i === 2) continue; log.push('b' + i); } finally { log.push('f' + i); } } while (i < 3);
      return log;
    }`,
  'labels: break inside try-finally inside loop runs finally once': `
    export function run() {
      const log: string[] = [];
      for (let i = 0; i < 5; i++) {
        try { if (i === 2) break; log.push('t' + i); } finally { log.push('f' + i); }
      }
      return log;
    }`,
  'labels: break out of a labeled block inside a loop body with continue after': `
    export function run() {
      const log: string[] = [];
      for (let i = 0; i < 4; i++) {
        check: { if (i % 2) break check; log.push('even' + i); continue; }
        log.push('odd' + i);
      }
      return log;
    }`,
  'labels: label reused in sibling statements': `
    export function run() {
      const log: number[] = [];
      L: for (let i = 0; i < 3; i++) { if (i === 1) break L; log.push(i); }
      L: for (let i = 10; i < 13; i++) { if (i === 11) continue L; log.push(i); }
      return log;
    }`,
  'labels: deep nesting, continue the middle loop': `
    export function run() {
      const log: string[] = [];
      a: for (let i = 0; i < 2; i++) {
        b: for (let j = 0; j < 3; j++) {
          for (let k = 0; k < 3; k++) {
            if (k === 1 && j === 1) continue b;
            if (k === 2 && j === 2) continue a;
            log.push('' + i + j + k);
          }
          log.push('endj' + j);
        }
        log.push('endi' + i);
      }
      return log;
    }`,
  'labels: break from a while inside a labeled block to the block': `
    export function run() {
      const log: number[] = [];
      let i = 0;
      done: { while (true) { i++; if (i > 3) break done; log.push(i); } log.push(-1); }
      log.push(100);
      return log;
    }`,
  'labels: break in nested function does not cross (own loop)': `
    export function run() {
      const log: string[] = [];
      outer: for (let i = 0; i < 2; i++) {
        const f = () => { inner: for (let j = 0; j < 5; j++) { if (j === 2) break inner; log.push(i + '' + j); } };
        f();
        if (i === 0) continue outer;
        log.push('end');
      }
      return log;
    }`,
  'labels: labeled block inside try with break and finally': `
    export function run() {
      const log: string[] = [];
      blk: try { log.push('try'); break blk; } finally { log.push('finally'); }
      log.push('after');
      return log;
    }`,
  'labels: while with label, break from inner do-while with side-effecting test': `
    export function run() {
      const log: string[] = [];
      let i = 0;
      top: while (i < 3) {
        i++;
        let j = 0;
        do { j++; if (i === 2 && j === 2) break top; log.push(i + '.' + j); } while ((log.push('t'), j < 3));
      }
      return log;
    }`,
  'labels: break overridden by break in finally to a different label': `
    export function run() {
      const log: string[] = [];
      outer: for (let i = 0; i < 3; i++) {
        inner: for (let j = 0; j < 3; j++) {
          try { if (j === 1) break outer; log.push(i + '' + j); } finally { if (i === 0 && j === 1) { log.push('redirect'); break inner; } }
        }
        log.push('after inner' + i);
        if (i === 1) break;
      }
      return log;
    }`,
  'labels: continue in finally cancels a return': `
    function f() {
      const log: string[] = [];
      for (let i = 0; i < 3; i++) { try { return log.concat('ret'); } finally { log.push('fin' + i); if (i < 2) continue; } }
      return log.concat('end');
    }
    export function run() { return f(); }`,
};

equivalenceSuite('conformance: labels, break, continue', programs);
