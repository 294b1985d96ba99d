/**
 * Conformance (test262 language/statements/switch): case evaluation order and count, strict
 * equality, fall-through, default in the middle, break/continue/return inside converted code.
 */
import { equivalenceSuite } from '../../harness/conformance';

export const programs: Record<string, string> = {
  'switch: case expressions evaluated lazily in order until a match': `
    export function run() {
      const out: unknown[] = [];
      for (const v of [1, 2, 3, 4]) {
        const log: string[] = [];
        const c = (x: number) => { log.push('c' + x); return x; };
        switch (v) { case c(1): log.push('one'); case c(2): log.push('two'); break; case c(3): log.push('three'); break; default: log.push('def'); }
        out.push(log);
      }
      return out;
    }`,
  'switch: default in the middle, fall-through from default': `
    export function run() {
      const out: string[] = [];
      for (const v of [0, 1, 2, 3]) {
        switch (v) { case 1: out.push('1'); default: out.push('d'); case 2: out.push('2'); break; case 3: out.push('3'); }
        out.push('|');
      }
      return out;
    }`,
  'switch: strict equality (no coercion, NaN never matches, -0 matches 0)': `
    export function run() {
      const out: string[] = [];
      for (const v of ['1', 1, NaN, -0, null, undefined] as any[]) {
        switch (v) { case 1: out.push('num1'); break; case NaN: out.push('nan'); break; case 0: out.push('zero'); break; case undefined: out.push('undef'); break; default: out.push('other'); }
      }
      return out;
    }`,
  'switch: discriminant evaluated once': `
    export function run() { let n = 0; const d = () => ++n; switch (d()) { case 0: break; case 2: break; default: } return n; }`,
  'switch: continue in switch inside loop': `
    export function run() {
      const out: string[] = [];
      for (let i = 0; i < 4; i++) { switch (i % 2) { case 0: continue; case 1: out.push('odd' + i); } out.push('after' + i); }
      return out;
    }`,
  'switch: return inside switch inside loop': `
    function f(a: string[]) { for (const s of a) { switch (s) { case 'x': return 'found x'; case 'y': break; default: continue; } return 'y first'; } return 'none'; }
    export function run() { return [f(['a', 'x']), f(['y', 'x']), f([])]; }`,
  'switch: lexical declarations scoped to the whole case block': `
    export function run() {
      const out: unknown[] = [];
      for (const v of [1, 2]) {
        switch (v) { case 1: { let a = 'one'; out.push(a); break; } case 2: let b = 'two'; out.push(b); break; }
      }
      return out;
    }`,
  'switch: TDZ across cases': `
    export function run() {
      try { switch (2) { case 1: let x = 1; case 2: (x as any) = 5; } return 'no'; } catch (e: any) { return e.constructor.name; }
    }`,
  'switch: labeled break out of the switch from a nested loop': `
    export function run() {
      const out: number[] = [];
      sw: switch (1) { case 1: for (let i = 0; i < 10; i++) { if (i === 3) break sw; out.push(i); } out.push(99); }
      out.push(100);
      return out;
    }`,
  'switch: no matching case and no default': `
    export function run() { const out: string[] = []; switch (5 as number) { case 1: out.push('1'); } out.push('end'); return out; }`,
  'switch: empty switch still evaluates the discriminant': `
    export function run() { let n = 0; switch (n++) {} return n; }`,
  'switch: if inside case with break in one branch': `
    export function run() {
      const out: string[] = [];
      for (const v of [1, 2, 3]) {
        switch (v) { case 1: case 2: if (v === 1) { out.push('first'); break; } out.push('second'); case 3: out.push('three-ish'); }
      }
      return out;
    }`,
};

equivalenceSuite('conformance: switch', programs);
