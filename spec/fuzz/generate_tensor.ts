/**
 * Random tensor programs, printed in two dialects from one tree: over tf scalars (compiled with
 * the plugin, run eagerly and staged) and over JS numbers (compiled with plain tsc: the
 * reference). Scalars only; if/else chains, while / do-while / for-of over range() with tensor
 * conditions, static JS loops around and inside them, break / continue / early return, `&&` /
 * `||` / `!` / truthiness in conditions (a lazy operand calling `ctr.tick()`, which counts), `[a, b].some((e) => e.greater(c))` (and every), conditional
 * expressions, and plain aliasing assignments
 * (`v0 = v1`). Values stay small integers, exact in float32.
 * JS state as real code keeps it (issue 17): a number `n0`, a plain object's field `st.c`, a
 * helper object's field `ctr.n` (bumped by its converted method) and an array's elements `ar[0]`,
 * `ar[1]` change under tensor conditions
 * and in staged loops, feed tfjs ops (`v0.add(n0)`, `tf.scalar(st.c)`) and conditions (`n0 > 1`),
 * and are returned: the staged call must give them back as the JS numbers eager code returns;
 * they index a tensor too, as slice's begin (`t.slice([k], [1])`, `[...][k]` in JS).
 * They also go through local functions that change `n0` or `ar[1]` where they are called (`bump(k)`), a
 * function of the project taking them as arguments (`twice(st.c)`; `sumOf([n0 + 1, st.c])` through a variable), `Math.max(...ar)`, a JS table
 * they index (`tb[...]`), and a forEach callback counting into `n0` under its own tensor condition.
 * Stress mode (`--mode stress`) adds what real programs keep besides: a list `ls` pushed under
 * tensor conditions and in staged loops, its `length` read in conditions and returned, the list
 * itself returned (a JS array of tensors, as eagerly), iterated by forEach (a callback summing and counting) and spread (`[...ls, v0]`); a JS-number array `ns` (number[] in both
 * dialects) pushed under tensor conditions and in staged loops and returned (a JS array of JS
 * numbers, as eagerly: a list of promoted scalars when staged), both shifted (`ls.shift()` when not
 * empty) and `ns` written at an index its length gives (`ns[ns.length - 1] = n0`, promoted when it
 * is a list); a converted helper `grow(a, k)` whose number[] result (a list when its loop staged) the
 * caller walks by index up to its length; and a field array `lg.seen` its method
 * `lg.note(k)` pushes to (or pushed to directly); values a loop creates — a `const` of the
 * body, and a variable with no value before the loop that the body assigns first (read after a
 * do-while, which runs at least once); and an object a loop body builds (`{ a, n }`).
 * Half the programs call a recursive helper `rec(a, k)` in expressions, which a tensor ends
 * (staged recursion as a function graph that calls itself).
 */
import { Compound, Program, ProgramGenerator, Random, Stmt, Text } from './program';

type Dual = readonly [string, string];

interface Scope {
  loops: number;
  /** Loop variables readable here: tensors (range) in the tensor dialect, or JS numbers. */
  locals: { name: string; tensor: boolean }[];
  depth: number;
}

const VARS = ['v0', 'v1', 'v2'];
/** The tensors stacked, then the JS numbers (each checked to come back as a number). */
const RETURN: Dual = ['return [tf.stack([v0, v1, v2]), n0, st.c, ctr.n, ar[0], ar[1]];',
  'return [[v0, v1, v2], n0, st.c, ctr.n, ar[0], ar[1]];'];
const NUMBERS = ['n0', 'st.c', 'ctr.n', 'ar[0]', 'ar[1]'];
/** Stress mode returns the list's length and the list too (a JS array of tensors / of numbers). */
/** (`n0 / 3`: JS arithmetic on a maybe-promoted value, returned: computed in JS after the call, js_recipes.ts; a `return`
 * under a tensor condition merges it, which no recipe crosses: refused.) */
const STRESS_RETURN: Dual = ['return [tf.stack([v0, v1, v2]), n0, st.c, ctr.n, ar[0], ar[1], n0 / 3, ls.length, ls, ns, lg.seen];',
  'return [[v0, v1, v2], n0, st.c, ctr.n, ar[0], ar[1], n0 / 3, ls.length, ls, ns, lg.seen];'];

export class TensorGenerator extends ProgramGenerator<Scope> {
  constructor(random: Random, private readonly stress = false) {
    super(random);
  }

  private get result(): Dual {
    return this.stress ? STRESS_RETURN : RETURN;
  }

  /** Whether the program has a recursive helper `rec` (half of them), called in expressions. */
  private recursive = false;
  /** Whether the condition being generated is a loop's test. */
  private inLoopTest = false;

  program(): Program {
    this.budget = 6 + this.random.int(10);
    this.recursive = this.random.chance(0.5);
    return {
      preamble: [
        ["import * as tf from '@tensorflow/tfjs';", ''],
        "import { range } from 'autograph-ts';",
        "class Ctr { n = 0; bump(): void { 'use autograph'; this.n = this.n + 1; } tick(): number { this.n = this.n + 1; return this.n; } }",
        // A function of the project that a staged value reaches as an argument (a promoted parameter).
        'function twice(k: number): number { return k * 2; }',
        // Objects whose method a JS loop counter picks (`lyr[j].apply(v0)`: a counted loop keeps j a JS number).
        ['class Lyr { constructor(readonly k: number) {} apply(a: tf.Tensor): tf.Tensor { return a.add(this.k); } }',
          'class Lyr { constructor(readonly k: number) {} apply(a: number): number { return a + this.k; } }'],
        // ...and one that gets an array of them, as tfjs values.
        ['function sumOf(a: number[]): tf.Tensor { return tf.tensor1d(a).sum(); }', 'function sumOf(a: number[]): number { return a[0] + a[1]; }'],
        // A field array grown by a method the staged code calls (a callback's `this.epochs.push(epoch)`).
        ...(this.stress ? ['class Log { seen: number[] = []; note(k: number): void { this.seen.push(k); } }',
          // A converted helper returning an array that its staged loop grows (a list in the caller).
          ["function grow(a: tf.Tensor, k: number): number[] { 'use autograph'; const out: number[] = []; " +
            'for (let i = 0; i < k; i++) if (a.greater(i)) out.push(i); return out; }',
          'function grow(a: number, k: number): number[] { const out: number[] = []; for (let i = 0; i < k; i++) if (a > i) out.push(i); return out; }'] as Dual] : []),
        ...(this.recursive ? [recursiveHelper(this.random.int(4), this.random.int(3) - 1)] : []),
      ],
      signature: ['export function run(x: tf.Tensor, y: tf.Tensor): unknown[] {', 'export function run(x: number, y: number): unknown[] {'],
      declarations: [
        { name: 'v0', text: ['let v0: tf.Tensor = x;', 'let v0: number = x;'] },
        { name: 'v1', text: ['let v1: tf.Tensor = y;', 'let v1: number = y;'] },
        { name: 'v2', text: ['let v2: tf.Tensor = tf.scalar(1);', 'let v2: number = 1;'] },
        { name: 'n0', text: 'let n0 = 0;' },
        { name: 'st', text: 'const st = { c: 0 };' },
        { name: 'ctr', text: 'const ctr = new Ctr();' },
        { name: 'ar', text: 'const ar = [0, 0];' },
        // A local function that changes n0 where it is called (closure writes).
        { name: 'bump', text: 'const bump = (k: number): void => { n0 = n0 + k; };' },
        // ...and one that changes an array in place.
        { name: 'addAr', text: 'const addAr = (k: number): void => { ar[1] = ar[1] + k; };' },
        // A JS table of numbers, indexed by the JS state numbers (a gather when they are promoted).
        { name: 'tb', text: 'const tb = [3, 1, 2, 0];' },
        // Records and objects indexed by a JS loop counter (early-exit heads, cascade stages).
        { name: 'hs', text: 'const hs = [{ w: 1, b: 2 }, { w: -1, b: 0 }, { w: 1, b: -1 }, { w: -1, b: 3 }];' },
        { name: 'lyr', text: 'const lyr = [new Lyr(1), new Lyr(-2), new Lyr(3)];' },
        { name: 'ls', text: ['const ls: tf.Tensor[] = [];', 'const ls: number[] = [];'] },
        ...(this.stress ? [{ name: 'ns', text: 'const ns: number[] = [];' }, { name: 'lg', text: 'const lg = new Log();' }] : []),
      ],
      body: this.block({ loops: 0, locals: [], depth: 0 }, 2 + this.random.int(3)),
      result: this.result,
    };
  }

  protected statement(scope: Scope): Stmt[] {
    this.budget--;
    const r = this.random;
    const choice = r.int(scope.depth < 3 ? 12 : 5);
    if (choice < 3 && this.stress && r.chance(0.35)) return [line(this.listStatement(scope))];
    if (choice < 3) return [line(r.chance(0.35) ? this.jsState(scope) : this.assignment(scope))];
    if (choice < 5) return scope.loops > 0 || r.chance(0.3) ? [this.jumpOrReturn(scope)] : [line(this.assignment(scope))];
    if (choice < 8) return [this.ifChain(scope)];
    return this.loop(scope);
  }

  /** A tensor-valued operand: a variable, x / y, a range variable. */
  private operand(scope: Scope): string {
    const tensors = [...VARS, 'x', 'y', ...scope.locals.filter((l) => l.tensor).map((l) => l.name)];
    return this.random.pick(tensors);
  }

  /** A right operand: also a JS loop counter or a small constant. */
  private rightOperand(scope: Scope): string {
    const r = this.random;
    if (r.chance(0.3)) return String(r.int(4));
    return r.chance(0.2) && scope.locals.length > 0 ? r.pick(scope.locals).name : this.operand(scope);
  }

  private expression(scope: Scope, depth = 0): Dual {
    const r = this.random;
    const base = this.operand(scope);
    if (depth > 1 || r.chance(0.3)) return [base, base];
    const right = this.rightOperand(scope);
    const inner = this.expression(scope, depth + 1);
    switch (r.int(this.recursive && depth === 0 ? 6 : 5)) {
      case 5: {
        // A call of the recursive helper, its depth a small whole number (staged recursion, issue 17).
        const k = this.operand(scope);
        return [`rec(${inner[0]}, tf.minimum(tf.abs(${k}), 3))`, `rec(${inner[1]}, Math.min(Math.abs(${k}), 3))`];
      }
      case 0: return [`${inner[0]}.add(${right})`, `(${inner[1]} + ${right})`];
      case 1: return [`${inner[0]}.sub(${right})`, `(${inner[1]} - ${right})`];
      case 2: { const k = r.pick([-1, 2]); return [`${inner[0]}.mul(${k})`, `(${inner[1]} * ${k})`]; }
      case 3: {
        const c = this.condition(scope);
        const other = this.operand(scope);
        return [`(${c[0]} ? ${inner[0]} : ${other})`, `(${c[1]} ? ${inner[1]} : ${other})`];
      }
      default: {
        if (r.chance(0.5)) {
          // A JS number (promoted in staged loops) as slice's begin: ag__.tensorMethodCall stages it.
          const k = `Math.min(Math.max(Math.floor(${r.pick(NUMBERS)}), 0), 3)`;
          return [`tf.tensor1d([3, -1, 2, 0]).slice([${k}], [1]).reshape([])`, `[3, -1, 2, 0][${k}]`];
        }
        const c = r.int(5) - 1;
        return [`tf.scalar(${c})`, String(c)];
      }
    }
  }

  condition(scope: Scope, depth = 0): Dual {
    const r = this.random;
    const a = this.operand(scope);
    const b = this.rightOperand(scope);
    switch (r.int(depth > 0 ? 5 : 10)) {
      case 0: case 1: return [`${a}.greater(${b})`, `(${a} > ${b})`];
      case 9: {
        // An array predicate whose callback returns a tensor (ag__.arrayPredicate).
        const m = r.pick(['some', 'every']);
        const items = `[${a}, ${this.operand(scope)}]`;
        return [`${items}.${m}((e) => e.greater(${b}))`, `${items}.${m}((e) => e > ${b})`];
      }
      case 4: {
        const n = this.stress && r.chance(0.3) ? r.pick(['ls.length', 'ns.length']) : r.pick(NUMBERS);
        const k = r.int(3);
        return [`(${n} > ${k})`, `(${n} > ${k})`];
      }
      case 2: return [`${a}.less(${b})`, `(${a} < ${b})`];
      case 3: return [`${a}.equal(${b})`, `(${a} === ${b})`];
      case 5: return [`${a}.add(0)`, `(${a} + 0)`];
      case 6: { const c = this.condition(scope, 1); return [`!${c[0]}`, `!${c[1]}`]; }
      default: {
        const op = r.pick(['&&', '||']);
        const c1 = this.condition(scope, 1);
        // A method changing JS state in the lazy operand (`ctr.tick()`): eagerly it runs only when the left one says so.
        const tick = !this.inLoopTest && r.chance(0.25) ? `(ctr.tick() > ${r.int(3)})` : undefined;
        const c2 = tick !== undefined ? [tick, tick] as const : this.condition(scope, 1);
        return [`(${c1[0]} ${op} ${c2[0]})`, `(${c1[1]} ${op} ${c2[1]})`];
      }
    }
  }

  private assignment(scope: Scope): Dual {
    const target = this.random.pick(VARS);
    const counters = scope.locals.filter((l) => !l.tensor).map((l) => l.name);
    if (counters.length > 0 && this.random.chance(0.3)) {
      // A record or an object the counter picks: the counter must stay a JS number (analysis/counted_loops.ts).
      const j = this.random.pick(counters);
      return this.random.chance(0.5)
        ? [`${target} = ${target}.mul(hs[${j}].w).add(hs[${j}].b);`, `${target} = ${target} * hs[${j}].w + hs[${j}].b;`]
        : [`${target} = lyr[${j}].apply(${target});`, `${target} = lyr[${j}].apply(${target});`];
    }
    if (this.recursive && this.random.chance(0.25)) {
      const [a, k] = [this.operand(scope), this.operand(scope)];
      return [`${target} = rec(${a}, tf.minimum(tf.abs(${k}), 3));`, `${target} = rec(${a}, Math.min(Math.abs(${k}), 3));`];
    }
    if (this.random.chance(0.3)) {
      const source = this.operand(scope);
      return [`${target} = ${source};`, `${target} = ${source};`];
    }
    const e = this.expression(scope);
    return [`${target} = ${e[0]};`, `${target} = ${e[1]};`];
  }

  /** A change of the JS numbers, or a tensor computed from one. */
  private jsState(scope: Scope): Dual {
    const r = this.random;
    const n = r.pick(NUMBERS.filter((v) => v !== 'ctr.n'));
    switch (r.int(13)) {
      case 11: {
        // An array literal of JS state numbers bound to a variable, given to tfjs directly or by a function of the project.
        const [v, id, m, k] = [r.pick(VARS), this.id(), r.pick(NUMBERS), r.pick(NUMBERS)];
        const use: Dual = r.chance(0.5) ? [`tf.tensor1d(in${id}).sum()`, `(in${id}[0] + in${id}[1])`] : [`sumOf(in${id})`, `sumOf(in${id})`];
        return [`{ const in${id} = [${m} + 1, ${k}]; ${v} = ${v}.add(${use[0]}); }`, `{ const in${id} = [${m} + 1, ${k}]; ${v} = ${v} + ${use[1]}; }`];
      }
      case 9: { const m = r.pick(NUMBERS); return [`${n} = tb[Math.min(Math.abs(${m}), 3)];`, `${n} = tb[Math.min(Math.abs(${m}), 3)];`]; }
      case 12: {
        // A compound write at an index a JS state number gives (a promoted one: ag__.atIndex).
        const [m, k] = [r.pick(NUMBERS), r.int(3) + 1];
        const text = r.chance(0.5) ? `ar[Math.min(Math.abs(${m}), 1)] += ${k};` : `ar[Math.min(Math.abs(${m}), 1)]++;`;
        return [text, text];
      }
      case 10: {
        // A callback counting under its own tensor condition.
        const [a, b, c] = [this.operand(scope), this.operand(scope), r.int(3)];
        return [`[${a}, ${b}].forEach((e) => { if (e.greater(${c})) n0 = n0 + 1; });`, `[${a}, ${b}].forEach((e) => { if (e > ${c}) n0 = n0 + 1; });`];
      }
      case 6: {
        const [f, m] = [r.pick(['bump', 'addAr']), r.chance(0.5) ? r.pick(NUMBERS) : String(r.int(3))];
        return [`${f}(${m});`, `${f}(${m});`];
      }
      case 7: { const m = r.pick(NUMBERS); return [`${n} = twice(${m});`, `${n} = twice(${m});`]; }
      case 8: return [`${n} = Math.max(...ar);`, `${n} = Math.max(...ar);`];
      case 0: return r.chance(0.5) ? [`${n} = ${n} + 1;`, `${n} = ${n} + 1;`] : [`${n} += 2;`, `${n} += 2;`];
      case 1: { const k = r.int(3); return [`${n} = ${k};`, `${n} = ${k};`]; }
      case 2: return ['ctr.bump();', 'ctr.bump();'];
      case 3: { const v = r.pick(VARS); const m = r.pick(NUMBERS); return [`${v} = ${v}.add(${m});`, `${v} = ${v} + ${m};`]; }
      case 4: {
        const [v, m, o] = [r.pick(VARS), r.pick(NUMBERS), this.operand(scope)];
        return [`${v} = tf.scalar(${m}).sub(${o});`, `${v} = ${m} - ${o};`];
      }
      default: { const m = r.pick(NUMBERS); return [`${n} = ${m};`, `${n} = ${m};`]; }
    }
  }

  /** Stress mode: a push onto a list, a shift or an element write, a walk over a helper's list, or a tensor computed from its length. */
  private listStatement(scope: Scope): Dual {
    const r = this.random;
    if (r.chance(0.25)) return this.listChange(scope);
    if (r.chance(0.4)) return this.numberPush(scope);
    if (r.chance(0.75)) {
      const e = this.expression(scope);
      return [`ls.push(${e[0]});`, `ls.push(${e[1]});`];
    }
    if (r.chance(0.4)) {
      // forEach over the list: a staged loop carrying what the callback assigns.
      const [v, n] = [r.pick(VARS), r.pick(['n0', 'st.c'])];
      return [`ls.forEach((e) => { ${v} = ${v}.add(e); if (e.greater(1)) ${n} = ${n} + 1; });`,
        `ls.forEach((e) => { ${v} = ${v} + e; if (e > 1) ${n} = ${n} + 1; });`];
    }
    const v = r.pick(VARS);
    if (r.chance(0.3)) {
      // The list spread into a new array, given to tfjs.
      return [`${v} = tf.stack([...ls, ${v}]).sum();`, `${v} = [...ls, ${v}].reduce((a, b) => a + b, 0);`];
    }
    return [`${v} = ${v}.add(ls.length);`, `${v} = ${v} + ls.length;`];
  }

  /** Stress mode: `ls.shift()` / `ns.shift()` when not empty; `ns[ns.length - 1 or 2] = m` (an index a list's length
   * gives: promoted); the sum of a converted helper's list (`grow(e, 3)`) added to n0 by index. */
  private listChange(scope: Scope): Dual {
    const r = this.random;
    switch (r.int(7)) {
      case 4: {
        // filter on a tensor test (a list of what it keeps) and reduce without an initial value.
        const v = r.pick(VARS);
        return r.chance(0.5) ? [`${v} = ${v}.add(ls.filter((e) => e.greater(1)).length);`, `${v} = ${v} + ls.filter((e) => e > 1).length;`]
          : [`if (ls.length > 0) ${v} = ls.reduce((a, b) => a.add(b));`, `if (ls.length > 0) ${v} = ls.reduce((a, b) => a + b);`];
      }
      case 5: {
        // A for...of over a converted helper's list.
        const e = this.expression(scope);
        return [`for (const g of grow(${e[0]}, 3)) n0 = n0 + g;`, `for (const g of grow(${e[1]}, 3)) n0 = n0 + g;`];
      }
      case 0: return ['if (ls.length > 0) ls.shift();', 'if (ls.length > 0) ls.shift();'];
      case 1: return ['if (ns.length > 1) n0 = n0 + ns.shift()!;', 'if (ns.length > 1) n0 = n0 + ns.shift()!;'];
      case 2: {
        const [back, m] = [1 + r.int(2), r.pick([...NUMBERS, String(r.int(4))])];
        const text = `if (ns.length >= ${back}) ns[ns.length - ${back}] = ${m};`;
        return [text, text];
      }
      default: {
        const e = this.expression(scope);
        const walk = (a: string): string => `{ const gl = grow(${a}, 3); for (let gi = 0; gi < gl.length; gi++) n0 = n0 + gl[gi]; }`;
        return [walk(e[0]), walk(e[1])];
      }
    }
  }

  /** Stress mode: a JS number pushed onto `ns` (a number[] in both dialects): a JS state number, a
   * constant, a JS loop counter, a tensor condition's `? 1 : 0`, or its own length. */
  private numberPush(scope: Scope): Dual {
    const r = this.random;
    const counters = scope.locals.filter((l) => !l.tensor).map((l) => l.name);
    const choice = r.int(6);
    if (choice === 2 && counters.length > 0) { const c = r.pick(counters); return [`ns.push(${c});`, `ns.push(${c});`]; }
    if (choice === 5) {
      // Into an array held in a field: by the object's method, or pushed directly.
      const n = r.pick([...NUMBERS, ...counters]);
      return r.chance(0.6) ? [`lg.note(${n});`, `lg.note(${n});`] : [`lg.seen.push(${n});`, `lg.seen.push(${n});`];
    }
    switch (choice) {
      case 0: { const n = r.pick(NUMBERS); return [`ns.push(${n});`, `ns.push(${n});`]; }
      case 1: { const k = r.int(4); return [`ns.push(${k});`, `ns.push(${k});`]; }
      case 4: return ['ns.push(ns.length);', 'ns.push(ns.length);'];
      default: { const c = this.condition(scope); return [`ns.push(${c[0]} ? 1 : 0);`, `ns.push(${c[1]} ? 1 : 0);`]; }
    }
  }

  private jumpOrReturn(scope: Scope): Stmt {
    const r = this.random;
    const text: Text = scope.loops > 0 && r.chance(0.85) ? r.pick(['break;', 'continue;']) : this.result;
    if (r.chance(0.2)) return line(text);
    return { kind: 'compound', type: 'if', parts: [{ head: 'if (%c)', cond: this.condition(scope), body: [line(text)] }] };
  }

  private ifChain(scope: Scope): Compound {
    const r = this.random;
    const body = () => this.block({ ...scope, depth: scope.depth + 1 }, 1 + r.int(2));
    const parts: Compound['parts'] = [{ head: 'if (%c)', cond: this.condition(scope), body: body() }];
    if (r.chance(0.25)) parts.push({ head: 'else if (%c)', cond: this.condition(scope), body: body() });
    if (r.chance(0.5)) parts.push({ head: 'else', body: body() });
    return { kind: 'compound', type: 'if', parts };
  }

  /**
   * Stress mode: values the loop body creates — a `const` of the body used by a later statement, a
   * variable `w` declared before the loop with no value and assigned first in the body, or an object
   * built in the body (`o = { a, n }`). Returns the statements before the loop, the body's first
   * statements, and what reads them after the loop (only after a do-while: it runs at least once).
   */
  private created(scope: Scope, id: number, doWhile: boolean): { before: Stmt[]; first: Stmt[]; after: Stmt[] } {
    const r = this.random;
    const v = r.pick(VARS);
    const e = this.expression(scope);
    switch (r.int(3)) {
      case 0: return { before: [], first: [line([`const t${id} = ${e[0]};`, `const t${id} = ${e[1]};`]), line([`${v} = ${v}.add(t${id});`, `${v} = ${v} + t${id};`])], after: [] };
      case 1: return {
        before: [line([`let w${id}: tf.Tensor | undefined;`, `let w${id}: number | undefined;`])],
        first: [line([`w${id} = ${e[0]};`, `w${id} = ${e[1]};`])],
        after: doWhile ? [line([`${v} = w${id}!;`, `${v} = w${id}!;`])] : [],
      };
      default: {
        const n = r.pick(NUMBERS);
        return {
          before: [line([`let o${id}: { a: tf.Tensor; n: number } | undefined;`, `let o${id}: { a: number; n: number } | undefined;`])],
          first: [line([`o${id} = { a: ${e[0]}, n: ${n} };`, `o${id} = { a: ${e[1]}, n: ${n} };`])],
          after: doWhile ? [line([`${v} = o${id}!.a.add(o${id}!.n);`, `${v} = o${id}!.a + o${id}!.n;`])] : [],
        };
      }
    }
  }

  private loop(scope: Scope): Stmt[] {
    const r = this.random;
    const id = this.id();
    const trips = 1 + r.int(3);
    const kind = r.int(4);
    const inner = (local?: { name: string; tensor: boolean }): Scope => ({
      loops: scope.loops + 1, depth: scope.depth + 1, locals: local ? [...scope.locals, local] : scope.locals,
    });
    const local = kind === 2 ? { name: `i${id}`, tensor: true } : kind === 3 ? { name: `j${id}`, tensor: false } : undefined;
    const made = this.stress && r.chance(0.4) ? this.created(inner(local), id, kind === 1) : { before: [], first: [], after: [] };
    const body = (): Stmt[] => [...made.first, ...this.block(inner(local), 1 + r.int(3))];
    const k = `k${id}`;
    const counter: Stmt = line([`let ${k}: tf.Tensor = tf.scalar(0);`, `let ${k}: number = 0;`]);
    const step = line([`${k} = ${k}.add(1);`, `${k} = ${k} + 1;`]);
    const test = (): Text => {
      const more: Dual = [`${k}.less(${trips})`, `${k} < ${trips}`];
      if (r.chance(0.5)) return more;
      // (No ctr.tick() in a loop's test: a staged loop's condition that changes state is refused, by name.)
      this.inLoopTest = true;
      const c = this.condition(scope);
      this.inLoopTest = false;
      return [`${more[0]} && (${c[0]})`, `${more[1]} && (${c[1]})`];
    };
    const loop = ((): Stmt[] => {
      switch (kind) {
        case 0: return [counter, { kind: 'compound', type: 'while', parts: [{ head: 'while (%c)', cond: test(), body: [step, ...body()] }] }];
        case 1: return [counter, { kind: 'compound', type: 'do', tail: 'while (%c);', parts: [{ head: 'do', cond: test(), body: [step, ...body()] }] }];
        case 2: {
          const head: Text = [`for (const i${id} of range(tf.scalar(${trips})))`, `for (const i${id} of range(${trips}))`];
          return [{ kind: 'compound', type: 'for', parts: [{ head, body: body() }] }];
        }
        default: {
          const head = `for (let j${id} = 0; j${id} < ${trips}; j${id}++)`;
          return [{ kind: 'compound', type: 'for', parts: [{ head, body: body() }] }];
        }
      }
    })();
    return [...made.before, ...loop, ...made.after];
  }
}

/**
 * `rec(a, k)`: a function that calls itself until the tensor k runs out (staged recursion), in one
 * of the shapes people write it: a linear recursion with work after the call, a conditional
 * expression, tree recursion (two calls), a staged loop before the call. Exact on small integers.
 */
function recursiveHelper(shape: number, c: number): Dual {
  const head: Dual = ["function rec(a: tf.Tensor, k: tf.Tensor): tf.Tensor {\n  'use autograph';", 'function rec(a: number, k: number): number {'];
  const bodies: Dual[] = [
    [`if (k.lessEqual(0)) return a;\n  return rec(a.add(${c}), k.sub(1)).mul(-1);`, `if (k <= 0) return a;\n  return rec(a + ${c}, k - 1) * -1;`],
    [`return k.lessEqual(0) ? a : rec(a.sub(${c}), k.sub(1));`, `return k <= 0 ? a : rec(a - ${c}, k - 1);`],
    [`if (k.lessEqual(1)) return a.add(${c});\n  return rec(a, k.sub(1)).add(rec(a.mul(-1), k.sub(2)));`,
      `if (k <= 1) return a + ${c};\n  return rec(a, k - 1) + rec(a * -1, k - 2);`],
    ['let b = a;\n  let j = tf.scalar(0);\n  while (j.less(k)) { b = b.add(1); j = j.add(1); }\n  if (k.lessEqual(0)) return b;\n  return rec(b.sub(k), k.sub(1));',
      'let b = a;\n  let j = 0;\n  while (j < k) { b = b + 1; j = j + 1; }\n  if (k <= 0) return b;\n  return rec(b - k, k - 1);'],
  ];
  const body = bodies[shape];
  return [`${head[0]}\n  ${body[0]}\n}`, `${head[1]}\n  ${body[1]}\n}`];
}

function line(text: Text): Stmt {
  return { kind: 'line', text };
}

export function generateTensor(seed: number): Program {
  return new TensorGenerator(new Random(seed)).program();
}

export function generateStress(seed: number): Program {
  return new TensorGenerator(new Random(seed), true).program();
}
