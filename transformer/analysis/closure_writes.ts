/**
 * Closure writes: the enclosing variables that the function's own local functions assign
 * (`const bump = () => { n++; }`, `function reset() { best = -1; }`). A statement that names such a
 * function — calls it, or passes it as a callback — may run it, so it modifies those variables too:
 * they are its outputs (a staged if's, a staged loop's state) and, where they are numbers, promotable.
 * Without this a staged loop calling `bump()` kept the trace's one increment (silently wrong).
 *
 * Keyed by name within one function body, like the rest of activity (activity.ts); transitive (a
 * local function calling another that writes). Set for the conversion of one body (pipeline.ts).
 */
import type * as TS from 'typescript';
import { ts } from '../typescript';
import { visitReferences } from './references';

/** Local function name → the identifiers of enclosing variables it (or what it names) assigns. */
export type ClosureWrites = ReadonlyMap<string, readonly TS.Identifier[]>;

let current: ClosureWrites = new Map();

/** The closure writes of the body being converted (empty outside a conversion). */
export function closureWrites(): ClosureWrites {
  return current;
}

export function withClosureWrites<T>(writes: ClosureWrites, run: () => T): T {
  const outer = current;
  current = writes;
  try {
    return run();
  } finally {
    current = outer;
  }
}

/**
 * The local functions visible in a function body — its own and those of the functions around it
 * (a nested `step` calling its sibling `extend`), the nearest of a name first — and what they assign.
 */
export function closureWritesOf(body: TS.Node): ClosureWrites {
  const bodies: TS.Node[] = [body];
  const fn = ts.getOriginalNode(body).parent;
  for (let outer = fn?.parent; outer !== undefined; outer = outer.parent) {
    const outerBody = ts.isFunctionLike(outer) ? (outer as TS.FunctionLikeDeclaration).body : undefined;
    if (outerBody !== undefined) bodies.push(outerBody);
  }
  const result = new Map<string, readonly TS.Identifier[]>();
  for (const b of bodies) for (const [name, writes] of ownClosureWrites(b)) if (!result.has(name)) result.set(name, writes);
  return result;
}

/** The local functions of one function body (declared directly in it, or as a `const f = () => ...`) and what they assign. */
function ownClosureWrites(body: TS.Node): ClosureWrites {
  const direct = new Map<string, { writes: TS.Identifier[]; names: Set<string> }>();
  const visit = (node: TS.Node): void => {
    const local = localFunction(node);
    if (local !== undefined) direct.set(local.name, effectsOf(local.fn));
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  const result = new Map<string, TS.Identifier[]>();
  for (const [name] of direct) {
    const seen = new Set<string>([name]);
    const writes: TS.Identifier[] = [];
    const add = (f: string): void => {
      const effects = direct.get(f)!;
      writes.push(...effects.writes);
      for (const called of effects.names) if (direct.has(called) && !seen.has(called)) add((seen.add(called), called));
    };
    add(name);
    if (writes.length > 0) result.set(name, writes);
  }
  return result;
}

function localFunction(node: TS.Node): { name: string; fn: TS.FunctionLikeDeclaration } | undefined {
  if (ts.isFunctionDeclaration(node) && node.name !== undefined && node.body !== undefined) return { name: node.name.text, fn: node };
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
    let init = node.initializer;
    while (ts.isParenthesizedExpression(init)) init = init.expression;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return { name: node.name.text, fn: init };
  }
  return undefined;
}

/** The enclosing names a function assigns (not its own parameters or locals), and the names it reads. */
function effectsOf(fn: TS.FunctionLikeDeclaration): { writes: TS.Identifier[]; names: Set<string> } {
  const declared = new Set<string>();
  const written: TS.Identifier[] = [];
  const names = new Set<string>();
  // (The function itself: its parameters are declarations of its own.)
  visitReferences(fn, {
    name(name, kind, _nested, node) {
      if (kind === 'declare') declared.add(name);
      if (kind === 'read' || kind === 'readwrite') names.add(name);
      if ((kind === 'write' || kind === 'readwrite') && ts.isIdentifier(node)) written.push(node);
    },
  });
  return { writes: written.filter((id) => !declared.has(id.text)), names };
}
