/**
 * Which conditions may be a Tensor, by type. The reference is assignability: a type a Tensor is
 * assignable to (object, {}, unknown, an empty interface, an unconstrained type parameter, ...)
 * must be converted (dynamic: read by value at run time); a type no Tensor is assignable to must be
 * left exactly as tsc emits it, in every condition position (if, while, for, ?:, !, &&, ||).
 * The assignability of the non-generic types is checked here with the checker itself.
 */
import { expect } from 'chai';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { compile, load } from '../../harness/compile';
import { plainEmit } from './plain_emit';

interface Probe { type: string; decls?: string; generics?: string }

const probeSource = ({ type, decls = '', generics = '' }: Probe): string => `${decls}
export function probe${generics}(x: ${type}): number[] {
  const out: number[] = [];
  if (x) {
    out.push(1);
  }
  while (x) {
    out.push(2);
    break;
  }
  for (let i = 0; x && i < 1; i++) out.push(3);
  out.push(x ? 4 : 5, !x ? 6 : 7, x || 8 ? 9 : 10);
  return out;
}
`;

/** Types no Tensor is assignable to. */
const staticTypes: Probe[] = [
  'boolean', 'number', 'string', 'number[]', '{ a: number }', 'never', 'null | undefined', '{ a: number } & { b: string }',
  '(() => void) | undefined', 'Function', 'Map<string, number>', 'Set<number>', 'WeakMap<object, number>', "'a' | 'b'", '1 | 2 | 0',
  '`x-${string}`', 'symbol', 'bigint', 'Partial<{ a: number }>', '{ a?: number }', 'Readonly<{ a: number }>',
  'readonly number[]', '[number, string]', 'Date', 'RegExp', 'Error', 'ArrayBuffer', 'Float32Array', 'Iterable<number>',
  'IterableIterator<number>', 'Generator<number>', 'ArrayLike<number>', '{ length: number }', '{ a: number } | null',
  '{ a: number } | undefined | 0 | ""', 'Pick<{ a: number; b: string }, "a">', '{ [K in "a" | "b"]: number }',
  'Exclude<string | number, string>', 'NonNullable<{ a: number } | null>', 'ReturnType<() => string>', 'InstanceType<typeof Date>',
  'new () => object', 'typeof Math', 'Uppercase<string>', 'keyof { a: 1 }', 'WeakRef<object>', 'Awaited<Promise<number>>',
  '{ then(): void }', '{ [Symbol.iterator](): Iterator<number> }', '{ (): void; a: number } | null', 'Boolean', 'Number', 'String',
  'undefined', 'null', 'true', 'false', '{ a: number } & {}',
].map((type) => ({ type } as Probe)).concat([
  { type: 'E', decls: 'enum E { A, B }' },
  { type: 'E', decls: 'const enum E { A = "a", B = "b" }' },
  { type: 'Priv', decls: 'class Priv { private x = 1; }' },
  { type: 'Opt', decls: 'interface Opt { a?: number; b?: string }' },
  { type: 'LinkedNode', decls: 'interface LinkedNode { next: LinkedNode | null; value: number }' },
  { type: 'Rec', decls: 'type Rec = { a: Rec[] };' },
  { type: 'S', decls: 'declare const s: unique symbol; type S = typeof s;' },
  { type: 'T', generics: '<T extends number>' },
  { type: 'T', generics: '<T extends string | number>' },
  { type: 'T', generics: '<T extends { a: number }>' },
  { type: 'T', generics: '<T extends number[]>' },
  { type: 'K', generics: '<K extends keyof { a: 1 }>' },
  { type: 'T', generics: '<T extends boolean>' },
  { type: 'T | undefined', generics: '<T extends () => void>' },
  { type: 'T[]', generics: '<T>' },
  { type: 'T | null', generics: '<T extends { a: number }>' },
  { type: 'T', generics: '<T extends Map<string, number>>' },
  { type: 'U', generics: '<T extends Date, U extends T>' },
  { type: 'Partial<T>', generics: '<T extends { a: number }>' },
  { type: 'NonNullable<T>', generics: '<T extends number>' },
  { type: 'T & {}', generics: '<T extends number>' },
  { type: 'Readonly<T>', generics: '<T extends { a: number }>' },
  { type: 'Pick<T, "a">', generics: '<T extends { a: number; b: number }>' },
  { type: 'Required<T>', generics: '<T extends { a: number }>' },
  { type: 'keyof T', generics: '<T>' },
  { type: '`a${T}`', generics: '<T extends string>' },
  { type: 'Uppercase<T>', generics: '<T extends string>' },
  { type: 'Extract<T, string>', generics: '<T>' },
]);

/** Types a Tensor is assignable to: converted, and read by value at run time. */
const dynamicTypes: Probe[] = [
  'object', '{}', 'Object', 'unknown', 'any', 'Omit<{ a: number }, "a">', 'Pick<{ a: number }, never>',
  '{ a: number } | object', 'number | {}',
].map((type) => ({ type } as Probe)).concat([
  { type: 'Empty', decls: 'interface Empty {}' },
  { type: 'EmptyClass', decls: 'class EmptyClass {}' },
  { type: 'T', generics: '<T>' },
  { type: 'T', generics: '<T extends unknown>' },
  { type: 'T', generics: '<T extends object>' },
  { type: 'T', generics: '<T extends {}>' },
  { type: 'T', generics: '<T extends number | object>' },
  { type: 'Partial<T>', generics: '<T extends object>' },
  { type: 'Readonly<T>', generics: '<T>' },
  { type: 'NoInfer<T>', generics: '<T>' },
  { type: 'NonNullable<T>', generics: '<T>' },
  { type: 'T | number', generics: '<T>' },
  { type: 'T & { id: number }', generics: '<T>' },
  // No Tensor is assignable to Exclude<T, object>, but conditional types are classified by their
  // base constraint (here: unknown), a safe over-approximation: converted, exact on plain values.
  { type: 'Exclude<T, object>', generics: '<T>' },
  { type: '{ [K in keyof T]: T[K] }', generics: '<T>' },
]);

const label = (p: Probe) => `${p.generics ?? ''}${p.type}${p.decls ? `  (${p.decls})` : ''}`;

describe('adversarial: condition classification by type', () => {
  const all = [...staticTypes, ...dynamicTypes];
  const files: Record<string, string> = {};
  all.forEach((p, i) => { files[`c${i}.ts`] = probeSource(p); });
  let converted: ReturnType<typeof compile>;
  let plain: Record<string, string>;
  let assignable: Set<string>;
  before(function () {
    this.timeout(30000);
    converted = compile(files, { convert: 'all' }, { sourceMap: false });
    plain = plainEmit(files);
    // The oracle for non-generic types: does `const y: T = tensor` type-check?
    const oracle: Record<string, string> = {};
    all.forEach((p, i) => {
      if (p.generics) return;
      oracle[`o${i}.ts`] = `import type * as tf from '@tensorflow/tfjs';\n${p.decls ?? ''}\ndeclare const t: tf.Tensor;\nexport const y: ${p.type} = t;\n`;
    });
    const rejected = new Set(compile(oracle, {}, { sourceMap: false }).typeErrors.map((d) => path.basename(d.file!.fileName)));
    assignable = new Set(Object.keys(oracle).filter((f) => !rejected.has(f)));
  });

  it('every probe type-checks', () => {
    expect(converted.typeErrors.map((d) => `${path.basename(d.file!.fileName)}: ${d.messageText}`)).to.deep.equal([]);
  });
  staticTypes.forEach((p, i) => {
    it(`static, emitted unchanged: ${label(p)}`, () => {
      if (!p.generics) expect(assignable.has(`o${i}.ts`), 'a Tensor is not assignable').to.equal(false);
      expect(converted.js[`c${i}.ts`]).to.equal(plain[`c${i}.ts`]);
    });
  });
  dynamicTypes.forEach((p, j) => {
    const i = staticTypes.length + j;
    it(`dynamic, read by value: ${label(p)}`, () => {
      if (!p.generics) expect(assignable.has(`o${i}.ts`), 'a Tensor is assignable').to.equal(true);
      const js = converted.js[`c${i}.ts`];
      for (const op of ['ifStmt(', 'whileStmt(', 'ifExp(', 'not(', 'and(', 'or(']) expect(js).to.contain(`ag__.${op}`);
      const { probe } = load(js);
      // A zero scalar is falsy by value; !x is a bool tensor (truthy by value 1 → 6).
      expect(probe(tf.scalar(0))).to.deep.equal([5, 6, 9]);
      expect(probe(tf.scalar(2))).to.deep.equal([1, 2, 3, 4, 7, 9]);
      expect(probe(0)).to.deep.equal([5, 6, 9]);
      expect(probe({})).to.deep.equal([1, 2, 3, 4, 7, 9]);
    });
  });
});
