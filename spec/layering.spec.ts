/**
 * The structure rules (issues 7 and 16), checked on the sources so that they stay true:
 * - no import cycle anywhere in the tree (type-only imports included: a cycle of any kind keeps
 *   a file from being read alone);
 * - each subsystem (a top-level folder, a folder of backends/, backends/stage.ts) imports only
 *   the subsystems ALLOWED names for it: the layering of docs/architecture.md;
 * - runtime/ (what emitted code imports) imports nothing from backends/ or transformer/;
 * - the staging modules stage.ts, staged_if.ts and staged_loop.ts do not import each other;
 * - one owner for a trace: only backends/staging/trace_context.ts installs the trace patches, switches
 *   to the recording backend and sets the staging hooks.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(rel);
    return /\.m?ts$/.test(e.name) && !/\.d\.m?ts$/.test(e.name) ? [rel] : [];
  });
}

/** The relative imports of a file (import, export ... from, import type, require), as root-relative paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles.map((i) => i.fileName).filter((name) => name.startsWith('.')).map((name) => {
    // (ES-module files, bundler/*.mts, name their imports as emitted: './project.mjs', '../transformer/x.js'.)
    const target = path.join(path.dirname(file), name).replace(/\.(m?)js$/, '.$1ts');
    if (/\.m?ts$/.test(target)) return target;
    return fs.existsSync(path.join(ROOT, `${target}.ts`)) ? `${target}.ts` : path.join(target, 'index.ts');
  }).filter((target) => target !== file); // (runtime/operators.ts checks its own exports' types)
}

/** Every elementary cycle found by a depth-first search, as `a -> b -> a`. */
export function findCycles(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (v: string): void => {
    state.set(v, 'open');
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (state.get(w) === 'open') cycles.push([...stack.slice(stack.indexOf(w)), w].join(' -> '));
      else if (state.get(w) === undefined) visit(w);
    }
    stack.pop();
    state.set(v, 'done');
  };
  for (const v of graph.keys()) if (state.get(v) === undefined) visit(v);
  return cycles;
}

/** Every source file of the tree (specs and benchmarks too: they must not close a cycle either). */
const TREE = ['index.ts', ...['transformer', 'runtime', 'backends', 'bundler', 'spec', 'bench'].flatMap((d) => sourcesUnder(d))]
  .filter((f) => !/^spec[\\/](fixtures|baselines|reference[\\/]fixtures)[\\/]/.test(f));

/**
 * Which subsystems each one may import, bottom-up (a subsystem may always import itself). A new
 * engine goes in backends/engines/, a new exporter in backends/export/: no row changes.
 */
const ALLOWED: Record<string, string[]> = {
  'runtime': [],
  'transformer': ['runtime'],
  'bundler': ['transformer'],
  'backends/common': ['runtime'],
  'backends/graph': ['backends/common'],
  'backends/kernels': ['backends/common', 'backends/graph'],
  'backends/optimize': ['backends/common', 'backends/graph', 'backends/kernels'],
  'backends/staging': ['runtime', 'backends/common', 'backends/graph', 'backends/kernels'],
  'backends/gradients': ['backends/common', 'backends/graph', 'backends/kernels', 'backends/optimize', 'backends/staging'],
  'backends/onnx_model': ['backends/common', 'backends/graph'],
  'backends/engines': ['runtime', 'backends/common', 'backends/graph', 'backends/kernels', 'backends/optimize',
    'backends/staging', 'backends/gradients', 'backends/onnx_model'],
  'backends/cache': ['runtime', 'backends/common', 'backends/graph', 'backends/optimize', 'backends/staging',
    'backends/gradients', 'backends/engines'],
  'backends/stage.ts': ['runtime', 'backends/common', 'backends/graph', 'backends/optimize', 'backends/staging',
    'backends/engines', 'backends/cache'],
  'backends/export': ['backends/common', 'backends/graph', 'backends/onnx_model', 'backends/stage.ts'],
  'index': ['runtime', 'backends/common', 'backends/cache', 'backends/engines', 'backends/export', 'backends/stage.ts'],
};

/** The subsystem a file belongs to (spec/ and bench/ are their own and may import anything). */
function subsystemOf(file: string): string {
  const parts = file.split(/[\\/]/);
  if (file === 'index.ts') return 'index';
  if (parts[0] !== 'backends') return parts[0];
  return parts.length === 2 ? file.replace(/\\/g, '/') : `backends/${parts[1]}`;
}

/** Imports that cross subsystems against ALLOWED, as `file -> import`. */
export function layeringViolations(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, imports]) => {
    const from = subsystemOf(file);
    if (from === 'spec' || from === 'bench') return [];
    const allowed = ALLOWED[from];
    return imports.filter((i) => {
      const to = subsystemOf(i);
      return to !== from && (allowed === undefined || !allowed.includes(to));
    }).map((i) => `${file} -> ${i}${allowed === undefined ? ` (${from} has no row in ALLOWED)` : ''}`);
  });
}

describe('layering: the structure rules (issues 7 and 16)', () => {
  const graph = new Map(TREE.map((f) => [f, importsOf(f)]));

  it('no import cycle anywhere in the tree', () => {
    expect(TREE.length).to.be.greaterThan(200);
    expect(findCycles(graph)).to.deep.equal([]);
  });

  it('every subsystem imports only what ALLOWED lets it', () => {
    expect(layeringViolations(graph)).to.deep.equal([]);
  });

  it('the layering check finds a planted up-import and a folder without a row', () => {
    const planted = new Map(graph);
    const low = path.join('backends', 'graph', 'graph.ts');
    planted.set(low, [...graph.get(low)!, path.join('backends', 'stage.ts')]);
    const newFolder = path.join('backends', 'toy_engine', 'engine.ts');
    planted.set(newFolder, [path.join('backends', 'graph', 'graph.ts')]);
    expect(layeringViolations(planted)).to.deep.equal([
      `${low} -> ${path.join('backends', 'stage.ts')}`,
      `${newFolder} -> ${path.join('backends', 'graph', 'graph.ts')} (backends/toy_engine has no row in ALLOWED)`,
    ]);
    planted.set(path.join('backends', 'stage.ts'), [...graph.get(path.join('backends', 'stage.ts'))!, low]);
    expect(findCycles(planted)).to.have.length.greaterThan(0);
  });

  it('the cycle finder finds a cycle, and none in a DAG', () => {
    expect(findCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).to.deep.equal(['a -> b -> c -> a']);
    expect(findCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).to.deep.equal([]);
  });

  it('runtime/ imports nothing from backends/ or transformer/', () => {
    const upward = sourcesUnder('runtime').flatMap((f) => importsOf(f)
      .filter((i) => i.startsWith(`backends${path.sep}`) || i.startsWith(`transformer${path.sep}`))
      .map((i) => `${f} -> ${i}`));
    expect(upward).to.deep.equal([]);
  });

  it('stage.ts, staged_if.ts and staged_loop.ts do not import each other', () => {
    const staging = ['backends/stage.ts', 'backends/staging/staged_if.ts', 'backends/staging/staged_loop.ts'].map((f) => path.normalize(f));
    const sibling = staging.flatMap((f) => importsOf(f).filter((i) => staging.includes(i)).map((i) => `${f} -> ${i}`));
    expect(sibling).to.deep.equal([]);
  });

  it('only backends/staging/trace_context.ts starts a trace (patches, recording backend, staging hooks)', () => {
    const owner = path.normalize('backends/staging/trace_context.ts');
    const starts = /\b(installTracePatches|withRecording|withStaging)\(/;
    const others = [...sourcesUnder('backends'), ...sourcesUnder('runtime'), 'index.ts'].filter((f) => {
      if (f === owner) return false;
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      // Calls, not the definitions (`function withStaging(`).
      return text.split('\n').some((line) => starts.test(line) && !/\bfunction\s+\w+\(/.test(line));
    });
    expect(others).to.deep.equal([]);
  });
});
