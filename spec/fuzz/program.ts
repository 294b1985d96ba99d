/**
 * The fuzzer's program tree: what the generators build, the printer prints and the shrinker
 * reduces. A statement is either one line of code or a compound statement made of parts, each a
 * head (`if (c)`, `else`, `case 1:`, `catch (e)`, …) and a block. Texts may be given in two
 * dialects — [tensor, number] — for tensor mode, where the same program is printed over tf
 * scalars and over JS numbers; plain mode uses single strings.
 */

export type Text = string | readonly [tensor: string, number: string];

export type Stmt = Line | Compound;

export interface Line {
  kind: 'line';
  text: Text;
}

export type CompoundType = 'if' | 'while' | 'do' | 'for' | 'switch' | 'try' | 'block';

export interface Part {
  /** The head; `%c` in it stands for `cond`, kept apart so the shrinker can simplify it. */
  head: Text;
  cond?: Text;
  body: Stmt[];
}

export interface Compound {
  kind: 'compound';
  type: CompoundType;
  label?: string;
  parts: Part[];
  /** After the last block: `while (%c);` of a do-while (the cond of the first part). */
  tail?: Text;
}

export interface Program {
  /** Lines before the converted function (helpers, imports). */
  preamble: Text[];
  /** The function's head, e.g. `export function run(a: any, b: any): unknown {`. */
  signature: Text;
  /** Declarations at the top of the body; printed only where the rest of the program uses them. */
  declarations: { name: string; text: Text }[];
  body: Stmt[];
  /** The final statement, e.g. `return [v0, v1];`. */
  result: Text;
}

export type Dialect = 'tensor' | 'number';

function pick(text: Text, dialect: Dialect): string {
  return typeof text === 'string' ? text : text[dialect === 'tensor' ? 0 : 1];
}

export function printProgram(program: Program, dialect: Dialect = 'tensor'): string {
  const body: string[] = [];
  printBlock(program.body, 1, dialect, body);
  const result = pick(program.result, dialect);
  const used = body.join('\n') + '\n' + result;
  const declarations = program.declarations
    .filter((d) => new RegExp(`\\b${d.name}\\b`).test(used))
    .map((d) => '  ' + pick(d.text, dialect));
  return [
    ...program.preamble.map((t) => pick(t, dialect)),
    pick(program.signature, dialect),
    "  'use autograph';",
    ...declarations,
    ...body,
    '  ' + result,
    '}',
    '',
  ].join('\n');
}

function printBlock(stmts: readonly Stmt[], depth: number, dialect: Dialect, out: string[]): void {
  for (const s of stmts) printStmt(s, depth, dialect, out);
}

function head(part: Part, dialect: Dialect): string {
  const text = pick(part.head, dialect);
  return part.cond === undefined ? text : text.replace('%c', pick(part.cond, dialect));
}

function printStmt(stmt: Stmt, depth: number, dialect: Dialect, out: string[]): void {
  const pad = '  '.repeat(depth);
  if (stmt.kind === 'line') {
    out.push(pad + pick(stmt.text, dialect));
    return;
  }
  const label = stmt.label ? `${stmt.label}: ` : '';
  if (stmt.type === 'switch') {
    out.push(`${pad}${label}${head(stmt.parts[0], dialect)} {`);
    for (const part of stmt.parts.slice(1)) {
      out.push(`${pad}  ${head(part, dialect)} {`);
      printBlock(part.body, depth + 2, dialect, out);
      out.push(`${pad}  }`);
    }
    out.push(`${pad}}`);
    return;
  }
  stmt.parts.forEach((part, i) => {
    const opening = i === 0 ? pad + label : `${pad}} `;
    out.push(`${opening}${head(part, dialect)}${head(part, dialect) ? ' ' : ''}{`);
    printBlock(part.body, depth + 1, dialect, out);
  });
  const tail = stmt.tail === undefined ? '' : ' ' + pick(stmt.tail, dialect).replace('%c', pick(stmt.parts[0].cond ?? '', dialect));
  out.push(`${pad}}${tail}`);
}

/** Number of statements in the tree: the shrinker's measure of size. */
export function size(stmts: readonly Stmt[]): number {
  let n = 0;
  for (const s of stmts) {
    n += 1;
    if (s.kind === 'compound') for (const p of s.parts) n += size(p.body) + (p.cond ? 1 : 0);
  }
  return n;
}

/** mulberry32: a small deterministic PRNG, so that a seed names a program forever. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

/** The seed of program `index` of a run seeded `seed`: each program can be regenerated alone. */
export function programSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

/**
 * What both generators share: fresh ids, a statement budget that bounds program size, and blocks
 * of statements; each generator decides what a statement is.
 */
export abstract class ProgramGenerator<Scope> {
  protected next = 0;
  protected budget = 0;
  constructor(protected readonly random: Random) {}

  protected id(): number {
    return this.next++;
  }

  protected block(scope: Scope, count: number): Stmt[] {
    const stmts: Stmt[] = [];
    for (let i = 0; i < count && this.budget > 0; i++) stmts.push(...this.statement(scope));
    return stmts;
  }

  protected abstract statement(scope: Scope): Stmt[];
}
