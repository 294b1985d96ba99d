/**
 * Realistic, fully typed, tensor-free programs. Nothing in them can be a Tensor, so the transformer
 * must leave them exactly as `tsc` emits them, even with `convert: 'all'`. Lines holding only
 * `'use autograph';` are directives: with them the output must equal tsc's output of the program
 * without those lines.
 */
export const staticCorpus: Record<string, string> = {
  'numbers and booleans: loops, early returns, labels': `
export function primes(limit: number): number[] {
  'use autograph';
  const out: number[] = [];
  outer: for (let n = 2; n < limit; n++) {
    for (let d = 2; d * d <= n; d++) {
      if (n % d === 0) continue outer;
    }
    out.push(n);
  }
  return out;
}
export function gcd(a: number, b: number): number {
  'use autograph';
  while (b !== 0) {
    const t = b;
    b = a % b;
    a = t;
  }
  return a;
}
export function collatz(n: number): number {
  let steps = 0;
  do {
    if (n === 1) break;
    n = n % 2 === 0 ? n / 2 : 3 * n + 1;
    steps++;
  } while (true);
  return steps;
}
export function flags(a: boolean, b: boolean, c?: boolean): string {
  if (!a && (b || c)) return 'x';
  return a ? (b ? 'ab' : 'a') : c ?? false ? 'c' : 'none';
}
`,
  'strings, template literals, switch, string unions': `
type Dir = 'up' | 'down' | 'left' | 'right';
type Key = \`key-\${string}\`;
export function move(d: Dir, x: number, y: number): [number, number] {
  'use autograph';
  switch (d) {
    case 'up': y--; break;
    case 'down': y++; break;
    default:
      if (d === 'left') x--;
      else x++;
  }
  return [x, y];
}
export function parseKey(k: Key | string): string | undefined {
  'use autograph';
  if (k.startsWith('key-') && k.length > 4) return k.slice(4);
  for (const ch of k) {
    if (ch === ' ') return undefined;
  }
  return k || undefined;
}
export function words(s: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of s.split(/\\s+/)) {
    if (!w) continue;
    counts[w] = (counts[w] ?? 0) + 1;
  }
  return counts;
}
`,
  'arrays, tuples, for-in over records, index signatures read by key': `
export function stats(xs: readonly number[]): { min: number; max: number; mean: number } | null {
  'use autograph';
  if (xs.length === 0) return null;
  let min = Infinity, max = -Infinity, sum = 0;
  for (const x of xs) {
    if (x < min) min = x;
    if (x > max) max = x;
    sum += x;
  }
  return { min, max, mean: sum / xs.length };
}
export function pairs(t: [number, string][]): string[] {
  const out: string[] = [];
  for (const [n, s] of t) {
    if (n > 0 && s) out.push(s.repeat(n));
  }
  return out;
}
export function keysAbove(o: Record<string, number>, limit: number): string[] {
  'use autograph';
  const out: string[] = [];
  for (const k in o) {
    if (o[k] > limit) out.push(k);
  }
  return out;
}
`,
  'classes: fields, getters, static members, this, inheritance, private fields': `
export class Counter {
  static instances = 0;
  #count = 0;
  private readonly step: number;
  constructor(step = 1) {
    'use autograph';
    if (step <= 0) throw new RangeError('step');
    this.step = step;
    Counter.instances++;
  }
  get count(): number {
    return this.#count;
  }
  tick(times: number): this {
    'use autograph';
    for (let i = 0; i < times; i++) {
      if (this.#count > 1000) break;
      this.#count += this.step;
    }
    return this;
  }
  static { if (Counter.instances < 0) Counter.instances = 0; }
}
export class Bounded extends Counter {
  constructor(private readonly limit: number) {
    super(2);
  }
  override tick(times: number): this {
    'use autograph';
    while (times-- > 0 && this.count < this.limit) super.tick(1);
    return this;
  }
  isFull(): boolean {
    return this.count >= this.limit ? true : false;
  }
}
`,
  'generics with non-tensor constraints': `
export interface Named { name: string }
export function longest<T extends { length: number }>(items: T[]): T | undefined {
  'use autograph';
  let best: T | undefined;
  for (const item of items) {
    if (!best || item.length > best.length) best = item;
  }
  return best;
}
export function byName<T extends Named>(items: T[], name: string): T | null {
  'use autograph';
  for (const item of items) if (item.name === name) return item;
  return null;
}
export function clampAll<N extends number>(xs: N[], hi: N): number[] {
  return xs.map((x) => (x > hi ? hi : x));
}
export function firstKey<K extends string, V>(m: Map<K, V>): K | undefined {
  for (const [k] of m) {
    if (k) return k;
  }
  return undefined;
}
export function orDefault<T extends string | number>(x: T | undefined, d: T): T {
  return x !== undefined && x ? x : d;
}
`,
  'enums, const enums, optional chaining and nullish coalescing': `
export enum Level { Debug, Info, Warn, Error }
const enum Color { Red = 'red', Green = 'green' }
export interface Config { level?: Level; output?: { path?: string; color?: boolean } }
export function describe(c: Config | undefined): string {
  'use autograph';
  const level = c?.level ?? Level.Info;
  if (level >= Level.Warn) return 'loud';
  if (c?.output?.color) return Color.Green;
  while (c?.output?.path?.endsWith('/')) c.output.path = c.output.path.slice(0, -1);
  return c?.output?.path ?? (level === Level.Debug ? Color.Red : 'quiet');
}
`,
  'functions, callbacks, closures, higher-order code': `
type Pred<T> = (x: T) => boolean;
export function filterMap<T, U>(xs: T[], keep: Pred<T>, f: (x: T) => U): U[] {
  'use autograph';
  const out: U[] = [];
  xs.forEach((x, i) => {
    if (!keep(x) || i > 100) return;
    out.push(f(x));
  });
  return out;
}
export function memo(fn: (n: number) => number): (n: number) => number {
  const cache = new Map<number, number>();
  return (n) => {
    if (cache.has(n)) return cache.get(n)!;
    const v = fn(n);
    cache.set(n, v);
    return v;
  };
}
export function compose(...fs: Array<(x: number) => number>): (x: number) => number {
  return (x) => {
    for (let i = fs.length - 1; i >= 0; i--) x = fs[i](x);
    return x;
  };
}
`,
  'async functions and generators on plain values': `
export async function retry(task: () => Promise<number>, times: number): Promise<number> {
  'use autograph';
  let lastError: Error | undefined;
  for (let i = 0; i < times; i++) {
    try {
      const v = await task();
      if (v >= 0) return v;
    } catch (e) {
      if (e instanceof Error) lastError = e;
    }
  }
  throw lastError ?? new Error('failed');
}
export function* fib(limit: number): Generator<number> {
  'use autograph';
  let [a, b] = [0, 1];
  while (a < limit) {
    yield a;
    [a, b] = [b, a + b];
  }
}
export async function firstPositive(xs: AsyncIterable<number>): Promise<number | undefined> {
  for await (const x of xs) if (x > 0) return x;
  return undefined;
}
`,
  'Maps, Sets, Dates, RegExps, errors and bigint': `
export function schedule(dates: Date[], skip: Set<number>, re: RegExp, big: bigint): string[] {
  'use autograph';
  const out: string[] = [];
  for (const d of dates) {
    if (skip.has(d.getDay())) continue;
    const s = d.toISOString();
    if (re.test(s) && big > 0n) out.push(s);
  }
  const m = new Map<string, Error>();
  for (const [k, e] of m) if (e.message) out.push(k);
  return out;
}
export function parse(s: string): number {
  'use autograph';
  try {
    const n = Number(s);
    if (Number.isNaN(n)) throw new TypeError('nan');
    return n;
  } catch (e) {
    return e instanceof TypeError ? -1 : -2;
  } finally {
    if (s === 'log') s = s.toUpperCase();
  }
}
`,
  'discriminated unions, never, type guards, assertion functions': `
type Shape = { kind: 'circle'; r: number } | { kind: 'rect'; w: number; h: number } | { kind: 'none' };
function assertNever(x: never): never {
  throw new Error('unexpected ' + String(x));
}
function isRect(s: Shape): s is Extract<Shape, { kind: 'rect' }> {
  return s.kind === 'rect';
}
export function area(s: Shape): number {
  'use autograph';
  if (s.kind === 'circle') return Math.PI * s.r ** 2;
  if (isRect(s)) return s.w * s.h;
  if (s.kind === 'none') return 0;
  return assertNever(s);
}
export function check(cond: boolean, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}
export function total(shapes: Shape[]): number {
  'use autograph';
  let t = 0;
  for (const s of shapes) {
    check(s !== null, 'null shape');
    t += s.kind !== 'none' ? area(s) : 0;
  }
  return t;
}
`,
  'objects with known shapes, interfaces, readonly, optional members': `
export interface Point { readonly x: number; readonly y: number; label?: string }
export interface Graph { nodes: Point[]; edges: Array<[number, number]>; meta?: { directed: boolean } }
export function degree(g: Graph, i: number): number {
  'use autograph';
  let d = 0;
  for (const [a, b] of g.edges) {
    if (a === i || (!g.meta?.directed && b === i)) d++;
  }
  return d;
}
export function nearest(g: Graph, p: Point): Point | undefined {
  'use autograph';
  let best: Point | undefined;
  let bestD = Infinity;
  for (const q of g.nodes) {
    const d = (q.x - p.x) ** 2 + (q.y - p.y) ** 2;
    if (d < bestD && q.label !== p.label) {
      best = q;
      bestD = d;
    }
  }
  return best && bestD < 100 ? best : undefined;
}
`,
  'destructuring, spread, default parameters, arguments and rest': `
interface Settings { depth: number; name: string; tags: string[] }
export function merge(...parts: Array<Partial<Settings> | undefined>): Partial<Settings> {
  'use autograph';
  const out: Partial<Settings> = {};
  for (const p of parts) {
    if (p) Object.assign(out, p);
  }
  return out;
}
export function opts({ a = 1, b = 'x' }: { a?: number; b?: string } = {}, ...rest: number[]): string {
  'use autograph';
  let s = b;
  for (let i = 0, [first] = rest; i < a; i++) {
    s += first !== undefined ? first : '-';
  }
  return rest.length ? s : s.toUpperCase();
}
`,
  'comments, blank lines, odd formatting kept': `
// leading comment
export function fmt(xs: number[]): string {
  'use autograph';
  /* block */ let s = '';
  for (const x of xs) { if (x) { s += x; } else { s += '0'; } } // trailing
  if (s.length > 3)
    // between
    s = s.slice(0, 3);
  else s = s.padEnd(3, '.');

  return s; /* end */
}
`,
  'this types and fluent builders': `
export class Builder {
  protected parts: string[] = [];
  add(p: string): this {
    'use autograph';
    if (p && !this.parts.includes(p)) this.parts.push(p);
    return this;
  }
  when(cond: boolean, f: (b: this) => this): this {
    return cond ? f(this) : this;
  }
  build(): string {
    'use autograph';
    let s = '';
    for (let i = 0; i < this.parts.length; i++) s += (i ? ',' : '') + this.parts[i];
    return s;
  }
}
export class Html extends Builder {
  tag(t: string): this {
    return this.when(t.length > 0, (b) => b.add('<' + t + '>'));
  }
}
`,
};
