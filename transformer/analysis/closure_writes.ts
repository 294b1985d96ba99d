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

/** What local functions change: variables they assign, and arrays and objects they change in place
 * (`counts[c]++`, `seen.push(x)`: the identifier of each, by function name). */
export interface ClosureEffects {
  writes: ClosureWrites;
  composites: ClosureWrites;
}

let current: ClosureEffects = { writes: new Map(), composites: new Map() };

/** The closure writes of the body being converted (empty outside a conversion). */
export function closureWrites(): ClosureWrites {
  return current.writes;
}

/** The arrays and objects that the local functions of the body being converted change in place. */
export function closureComposites(): ClosureWrites {
  return current.composites;
}

export function withClosureWrites<T>(effects: ClosureEffects, run: () => T): T {
  const outer = current;
  current = effects;
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
export function closureWritesOf(body: TS.Node): ClosureEffects {
  const bodies: TS.Node[] = [body];
  const fn = ts.getOriginalNode(body).parent;
  for (let outer = fn?.parent; outer !== undefined; outer = outer.parent) {
    const outerBody = ts.isFunctionLike(outer) ? (outer as TS.FunctionLikeDeclaration).body : undefined;
    if (outerBody !== undefined) bodies.push(outerBody);
  }
  const writes = new Map<string, readonly TS.Identifier[]>();
  const composites = new Map<string, readonly TS.Identifier[]>();
  for (const b of bodies) {
    const own = ownClosureWrites(b);
    for (const [name, ids] of own.writes) if (!writes.has(name)) writes.set(name, ids);
    for (const [name, ids] of own.composites) if (!composites.has(name)) composites.set(name, ids);
  }
  return { writes, composites };
}

/** The local functions of one function body (declared directly in it, or as a `const f = () => ...`) and what they change. */
function ownClosureWrites(body: TS.Node): ClosureEffects {
  const direct = new Map<string, Effects>();
  const visit = (node: TS.Node): void => {
    const local = localFunction(node);
    if (local !== undefined) direct.set(local.name, effectsOf(local.fn));
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  const writesOf = new Map<string, TS.Identifier[]>();
  const compositesOf = new Map<string, TS.Identifier[]>();
  for (const [name] of direct) {
    const seen = new Set<string>([name]);
    const writes: TS.Identifier[] = [];
    const composites: TS.Identifier[] = [];
    const add = (f: string): void => {
      const effects = direct.get(f)!;
      writes.push(...effects.writes);
      composites.push(...effects.composites);
      for (const called of effects.names) if (direct.has(called) && !seen.has(called)) add((seen.add(called), called));
    };
    add(name);
    if (writes.length > 0) writesOf.set(name, writes);
    if (composites.length > 0) compositesOf.set(name, composites);
  }
  return { writes: writesOf, composites: compositesOf };
}

interface Effects {
  writes: TS.Identifier[];
  composites: TS.Identifier[];
  names: Set<string>;
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

/** The enclosing names a function assigns and changes in place (not its own parameters or locals), and the names it reads. */
function effectsOf(fn: TS.FunctionLikeDeclaration): Effects {
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
  const changed = inPlaceTargets(fn.body!);
  return { writes: written.filter((id) => !declared.has(id.text)), composites: changed.filter((id) => !declared.has(id.text)), names };
}

/** The arrays and objects a body changes in place, by the identifier at the root: `xs[i] = v`, `xs[i]++`, `o.a.b = v`, `xs.push(v)`. */
function inPlaceTargets(body: TS.Node): TS.Identifier[] {
  const found: TS.Identifier[] = [];
  const root = (e: TS.Expression): void => {
    while (ts.isElementAccessExpression(e) || ts.isPropertyAccessExpression(e) || ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) {
      e = e.expression;
    }
    if (ts.isIdentifier(e)) found.push(e);
  };
  const isTarget = (e: TS.Expression): boolean => ts.isElementAccessExpression(e) || ts.isPropertyAccessExpression(e);
  const visit = (node: TS.Node): void => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        node.operatorToken.kind <= ts.SyntaxKind.LastAssignment && isTarget(node.left)) root(node.left);
    if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && isTarget(node.operand) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) root(node.operand);
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && IN_PLACE.has(node.expression.name.text)) {
      root(node.expression.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

/** Array methods that change their receiver (activity.ts's MUTATORS). */
const IN_PLACE = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);
