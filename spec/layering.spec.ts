/**
 * The structure rules of issue 7, checked on the sources so that they stay true:
 * - no import cycle among transformer/ files (type-only imports included: a cycle of any kind
 *   keeps a file from being read alone);
 * - runtime/ (what emitted code imports) imports nothing from backends/ or transformer/;
 * - the staging modules stage.ts, staged_if.ts and staged_loop.ts do not import each other;
 * - one owner for a trace: only backends/trace_context.ts installs the trace patches, switches
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
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** The relative imports of a file (import, export ... from, import type, require), as root-relative paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles.map((i) => i.fileName).filter((name) => name.startsWith('.')).map((name) => {
    const target = path.join(path.dirname(file), name);
    return fs.existsSync(path.join(ROOT, `${target}.ts`)) ? `${target}.ts` : path.join(target, 'index.ts');
  });
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

describe('layering: the structure rules (issue 7)', () => {
  it('the cycle finder finds a cycle, and none in a DAG', () => {
    expect(findCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).to.deep.equal(['a -> b -> c -> a']);
    expect(findCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).to.deep.equal([]);
  });

  it('no import cycle among transformer/ files', () => {
    const files = sourcesUnder('transformer');
    expect(files.length).to.be.greaterThan(20);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    expect(findCycles(graph)).to.deep.equal([]);
  });

  it('runtime/ imports nothing from backends/ or transformer/', () => {
    const upward = sourcesUnder('runtime').flatMap((f) => importsOf(f)
      .filter((i) => i.startsWith(`backends${path.sep}`) || i.startsWith(`transformer${path.sep}`))
      .map((i) => `${f} -> ${i}`));
    expect(upward).to.deep.equal([]);
  });

  it('stage.ts, staged_if.ts and staged_loop.ts do not import each other', () => {
    const staging = ['backends/stage.ts', 'backends/staged_if.ts', 'backends/staged_loop.ts'].map((f) => path.normalize(f));
    const sibling = staging.flatMap((f) => importsOf(f).filter((i) => staging.includes(i)).map((i) => `${f} -> ${i}`));
    expect(sibling).to.deep.equal([]);
  });

  it('only backends/trace_context.ts starts a trace (patches, recording backend, staging hooks)', () => {
    const owner = path.normalize('backends/trace_context.ts');
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
