/**
 * Random control-flow programs over plain JS values. Conditions are a mix of `any`-typed ones
 * (converted by the transformer: `a`, `dyn(v0 > 2)`) and statically typed ones (boolean, number:
 * left native), so converted and native statements nest in each other. Every loop has a bounded
 * trip count (a counter in its test, or a fixed iterable), so every program terminates.
 * The program logs what it does through `log` (supplied by the runner) and returns its state.
 */
import { Compound, Program, ProgramGenerator, Random, Stmt } from './program';

const PREAMBLE = [
  'declare function log(...values: unknown[]): void;',
  'function dyn(x: unknown): any { return x; }',
  'function* gen(tag: string, n: number) {',
  '  try { for (let i = 0; i < n; i++) { log(tag, i); yield i; } } finally { log(tag, "closed"); }',
  '}',
];

const DECLARATIONS = [
  { name: 'v0', text: 'let v0 = 0;' },
  { name: 'v1', text: 'let v1 = 1;' },
  { name: 'v2', text: 'let v2 = 2;' },
  { name: 'o', text: 'const o = { q: 0, get p() { log("get p", this.q); return this.q; }, set p(x: number) { log("set p", x); this.q = x; } };' },
  { name: 'fns', text: 'const fns: (() => unknown)[] = [];' },
];

interface Scope {
  /** Enclosing loops and labeled statements, innermost last. */
  targets: { label?: string; loop: boolean; switch?: boolean }[];
  /** Variables readable here besides v0..v2 (loop variables). */
  locals: string[];
  depth: number;
}

export class PlainGenerator extends ProgramGenerator<Scope> {

  program(): Program {
    this.budget = 12 + this.random.int(18);
    const body = this.block({ targets: [], locals: [], depth: 0 }, 3 + this.random.int(4));
    return {
      preamble: PREAMBLE,
      signature: 'export function run(a: any, b: any): unknown {',
      declarations: DECLARATIONS,
      body,
      result: 'return [v0, v1, v2, o.q, fns.map((f) => f())];',
    };
  }

  private body(scope: Scope): Stmt[] {
    return this.block({ ...scope, depth: scope.depth + 1 }, 1 + this.random.int(3));
  }

  protected statement(scope: Scope): Stmt[] {
    this.budget--;
    const r = this.random;
    const nested = scope.depth < 3;
    const choice = r.int(nested ? 20 : 8);
    if (choice < 4) return [line(this.simple(scope))];
    if (choice < 6) return [this.jumpOrReturn(scope, r.chance(0.7))];
    if (choice < 8) return [line(this.closureOrLog(scope))];
    if (choice < 11) return [this.ifChain(scope)];
    if (choice < 15) return this.loop(scope);
    if (choice < 17) return [this.switchStmt(scope)];
    if (choice < 19) return [this.tryStmt(scope)];
    return [this.labeledBlock(scope)];
  }

  private value(scope: Scope): string {
    const r = this.random;
    const names = ['v0', 'v1', 'v2', ...scope.locals];
    return r.chance(0.7) ? r.pick(names) : String(r.int(5));
  }

  private simple(scope: Scope): string {
    const r = this.random;
    const target = r.pick(['v0', 'v1', 'v2']);
    switch (r.int(8)) {
      case 0: return `${target} = (${this.value(scope)} + ${this.value(scope)} * ${1 + r.int(3)}) % 97;`;
      case 1: return `${target} += ${1 + r.int(3)};`;
      case 2: return `${target} = ${this.condition(scope)} ? ${this.value(scope)} : ${this.value(scope)};`;
      case 3: return `${target} = ${r.chance(0.5) ? 'dyn(' + this.value(scope) + ')' : 'a'} ${r.pick(['&&', '||'])} ${this.value(scope)};`;
      case 4: return `o.p = ${this.value(scope)};`;
      case 5: return `${target} = o.p + ${this.value(scope)};`;
      case 6: return `${target}++;`;
      default: return `log("s${this.id()}", ${this.value(scope)});`;
    }
  }

  private closureOrLog(scope: Scope): string {
    if (this.random.chance(0.5)) return `fns.push(() => ${this.value(scope)});`;
    return `log("at${this.id()}", ${this.value(scope)}, ${this.value(scope)});`;
  }

  condition(scope: Scope): string {
    const r = this.random;
    const v = () => this.value(scope);
    const n = r.int(4);
    if (r.chance(0.55)) {
      // Typed `any`: converted by the transformer.
      return r.pick([
        'a', 'b', '!a', `dyn(${v()} > ${n})`, `dyn(${v()} % 3)`, `dyn(${v()}) && b`, `a || dyn(${v()} < ${n})`,
        `(${v()} > ${n}) as any`, `dyn(o.p % 2)`, `!dyn(${v()} === ${n} + 0)`,
      ]);
    }
    // Typed boolean or number: left native.
    const x = () => r.pick(['v0', 'v1', 'v2', ...scope.locals]);
    return r.pick([`${x()} > ${n}`, `${x()} % 3`, `${x()} === ${x()}`, `!${x()}`, `o.p < ${n}`, `${x()} < ${n} && ${v()} > 0`]);
  }

  private jump(scope: Scope): string | undefined {
    const r = this.random;
    const options: string[] = [];
    const innermost = scope.targets[scope.targets.length - 1];
    if (innermost && (innermost.loop || innermost.switch)) options.push('break;');
    if (scope.targets.some((t) => t.loop)) options.push('continue;');
    for (const t of scope.targets) {
      if (t.label) options.push(`break ${t.label};`);
      if (t.label && t.loop) options.push(`continue ${t.label};`);
    }
    return options.length > 0 ? r.pick(options) : undefined;
  }

  /** A jump, return or throw; guarded by a condition (`if (c) break;`) or bare. */
  private jumpOrReturn(scope: Scope, guarded: boolean): Stmt {
    const r = this.random;
    const jump = this.jump(scope);
    const text = jump !== undefined && r.chance(0.65) ? jump
      : r.chance(0.6) ? `return ${this.value(scope)} + ${100 + this.id()};`
        : `throw new Error("E${this.id()}");`;
    if (!guarded) return line(text);
    return { kind: 'compound', type: 'if', parts: [{ head: 'if (%c)', cond: this.condition(scope), body: [line(text)] }] };
  }

  private ifChain(scope: Scope): Compound {
    const r = this.random;
    const parts = [{ head: 'if (%c)', cond: this.condition(scope), body: this.body(scope) }];
    while (r.chance(0.35)) parts.push({ head: 'else if (%c)', cond: this.condition(scope), body: this.body(scope) });
    if (r.chance(0.5)) parts.push({ head: 'else', cond: undefined as unknown as string, body: this.body(scope) });
    return { kind: 'compound', type: 'if', parts: parts.map((p) => p.cond === undefined ? { head: p.head, body: p.body } : p) };
  }

  private maybeLabel(): string | undefined {
    return this.random.chance(0.3) ? `L${this.id()}` : undefined;
  }

  private loop(scope: Scope): Stmt[] {
    const r = this.random;
    const id = this.id();
    const label = this.maybeLabel();
    const trips = 1 + r.int(3);
    const inner = (local?: string): Scope => ({
      targets: [...scope.targets, { label, loop: true }],
      locals: local ? [...scope.locals, local] : scope.locals,
      depth: scope.depth + 1,
    });
    const loopBody = (local?: string) => this.block(inner(local), 1 + r.int(3));
    const counter = `i${id}`;
    switch (r.int(7)) {
      case 0: return [line(`let ${counter} = 0;`), {
        kind: 'compound', type: 'while', label,
        parts: [{ head: `while (${counter}++ < ${trips} && (%c))`, cond: this.condition(scope), body: loopBody() }],
      }];
      case 1: return [line(`let ${counter} = 0;`), {
        kind: 'compound', type: 'do', label, tail: `while (${counter}++ < ${trips} && (%c));`,
        parts: [{ head: 'do', cond: this.condition(scope), body: loopBody() }],
      }];
      case 2: return [{
        kind: 'compound', type: 'for', label,
        parts: [{ head: `for (let ${counter} = 0; ${counter} < ${trips} && (%c); ${counter}++)`, cond: this.condition(scope), body: loopBody(counter) }],
      }];
      case 3: return [line(`let ${counter} = 0;`), {
        kind: 'compound', type: 'while', label,
        parts: [{ head: 'while (%c)', cond: this.condition(scope), body: [line(`if (${counter}++ >= ${trips}) break;`), ...loopBody()] }],
      }];
      case 4: {
        const x = `x${id}`;
        const items = r.pick([`[1, 2, 3].slice(0, ${trips})`, `gen("g${id}", ${trips})`, `dyn([0, 1, 2])`, `dyn(gen("g${id}", ${trips}))`]);
        return [{ kind: 'compound', type: 'for', label, parts: [{ head: `for (const ${x} of ${items})`, body: loopBody(x) }] }];
      }
      case 5: {
        const k = `k${id}`;
        const object = r.pick(['{ p: 1, q: 2, r: 3 }', 'dyn({ p: 1, q: 2 })']);
        return [{ kind: 'compound', type: 'for', label, parts: [{ head: `for (const ${k} in ${object})`, body: [line(`log("key", ${k});`), ...loopBody()] }] }];
      }
      default: return [{
        kind: 'compound', type: 'for', label,
        parts: [{ head: `for (let ${counter} = 0; ; ${counter}++)`, body: [line(`if (${counter} >= ${trips}) break;`), ...loopBody(counter)] }],
      }];
    }
  }

  private switchStmt(scope: Scope): Compound {
    const r = this.random;
    const label = this.maybeLabel();
    const inner: Scope = { targets: [...scope.targets, { label, loop: false, switch: true }], locals: scope.locals, depth: scope.depth + 1 };
    const typedAny = r.chance(0.5);
    const discriminant = typedAny ? r.pick([`dyn(${this.value(scope)} % 3)`, 'a', 'b']) : r.pick([`${this.value(scope)} % 4`, 'o.p % 4']);
    const labels: unknown[][] = typedAny ? [[0, 1, 2], [true, 0, 'x'], [1, false]] : [[0, 1, 2], [1, 2], [0, 3, 1, 2]];
    const cases = r.pick(labels).map((c) => `case ${JSON.stringify(c)}:`);
    cases.splice(r.int(cases.length + 1), 0, 'default:');
    const parts = cases.map((c) => {
      const body = this.block(inner, r.int(3));
      if (r.chance(0.6)) body.push(line('break;'));
      return { head: c, body };
    });
    return { kind: 'compound', type: 'switch', label, parts: [{ head: `switch (${discriminant})`, body: [] }, ...parts] };
  }

  private tryStmt(scope: Scope): Compound {
    const r = this.random;
    const id = this.id();
    const inner: Scope = { ...scope, depth: scope.depth + 1 };
    const parts = [{ head: 'try', body: this.block(inner, 1 + r.int(3)) }];
    const shape = r.int(3);
    if (shape !== 1) parts.push({ head: `catch (e${id})`, body: [line(`log("caught", String(e${id}));`), ...this.block(inner, r.int(3))] });
    if (shape !== 0) parts.push({ head: 'finally', body: this.block(inner, 1 + r.int(2)) });
    if (r.chance(0.5)) parts[r.int(parts.length)].body.push(this.jumpOrReturn(scope, r.chance(0.5)));
    return { kind: 'compound', type: 'try', parts };
  }

  private labeledBlock(scope: Scope): Compound {
    const label = `B${this.id()}`;
    const inner: Scope = { targets: [...scope.targets, { label, loop: false }], locals: scope.locals, depth: scope.depth + 1 };
    return { kind: 'compound', type: 'block', label, parts: [{ head: '', body: this.block(inner, 1 + this.random.int(3)) }] };
  }
}

function line(text: string): Stmt {
  return { kind: 'line', text };
}

export function generatePlain(seed: number): Program {
  return new PlainGenerator(new Random(seed)).program();
}
