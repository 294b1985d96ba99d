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
import type { Classifier } from '../classify';
import { ts } from '../typescript';
import { visitReferences } from './references';

/** Local function name → the identifiers of enclosing variables it (or what it names) assigns. */
export type ClosureWrites = ReadonlyMap<string, readonly TS.Identifier[]>;

/** What local functions change: variables they assign, and arrays and objects they change in place
 * (`counts[c]++`, `seen.push(x)`: the identifier of each, by function name). */
export interface ClosureEffects {
  writes: ClosureWrites;
  composites: ClosureWrites;
  /** The variables that the body's escaping functions assign (escapingWritesOf): any call may run them. */
  escaping?: EscapingWrites;
}

/** What the escaping functions of a body assign, and which calls may run them. */
export interface EscapingWrites {
  writes: readonly TS.Identifier[];
  /** The arrays and objects they change in place (`events.push(f)` in a callback stored by `e.on(...)`). */
  composites: readonly TS.Identifier[];
  /** Whether a call may run a function of the user's (not a tfjs function or Math's). */
  mayRun(call: TS.CallExpression | TS.NewExpression): boolean;
}

let current: ClosureEffects = { writes: new Map(), composites: new Map() };

/**
 * The enclosing variables that a call (or `new`) in `node` may assign by running an escaping
 * function of the body being converted (escapingWritesOf), as the identifiers that the function
 * assigns; none where the body has no such function.
 */
export function escapingWritesAt(node: TS.Node): readonly TS.Identifier[] {
  const escaping = current.escaping;
  if (escaping === undefined) return [];
  let found = false;
  const visit = (n: TS.Node): void => {
    if (found) return;
    if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && escaping.mayRun(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return found ? escaping.writes : [];
}

/** The arrays and objects an escaping function of the body being converted changes in place, if `node` is a call that may run one. */
export function escapingCompositesAt(node: TS.Node): readonly TS.Identifier[] {
  return mayRunEscaping(node) ? current.escaping!.composites : [];
}

/** Whether `node` itself is a call that may run an escaping function of the body being converted. */
export function mayRunEscaping(node: TS.Node): boolean {
  const escaping = current.escaping;
  return escaping !== undefined && (ts.isCallExpression(node) || ts.isNewExpression(node)) && escaping.mayRun(node);
}

/** The identifiers that the escaping functions of the body being converted assign. */
export function escapingWrites(): readonly TS.Identifier[] {
  return current.escaping?.writes ?? [];
}

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
export function closureWritesOf(body: TS.Node, classifier?: Classifier): ClosureEffects {
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
  const escaping = classifier === undefined ? undefined : escapingWritesOf(body, classifier);
  return escaping === undefined ? { writes, composites } : { writes, composites, escaping };
}

/**
 * Escaping functions: functions written in the body (outside other nested functions) that assign
 * variables around them and that are not only called by name there — stored in an object, an array
 * or a field, passed as an argument (other than to an array method that calls it then, or to tfjs),
 * returned (`new CustomCallback({ onEpochEnd: (e, loss) => { if (loss.greater(t)) bad++; } })`).
 * Such a function may run at any call of the user's code in the body, so each converted statement
 * with such a call modifies what it assigns. Only variables in scope all through the body count:
 * the body's own top-level declarations and parameters, and those of the code around it.
 * Undefined where the body has none (its conversion is as before).
 */
function escapingWritesOf(body: TS.Node, classifier: Classifier): EscapingWrites | undefined {
  const original = ts.getOriginalNode(body);
  if (original.pos < 0 || original.parent === undefined || original.getSourceFile() === undefined) return undefined;
  const fn = original.parent;
  const written: TS.Identifier[] = [];
  const changed: TS.Identifier[] = [];
  const consider = (f: TS.FunctionLikeDeclaration): void => {
    if (f.body === undefined) return;
    const effects = effectsOf(f);
    for (const id of effects.writes) if (inScopeThroughout(id)) written.push(id);
    for (const id of effects.composites) if (inScopeThroughout(id)) changed.push(id);
  };
  const inScopeThroughout = (id: TS.Identifier): boolean => {
    const decl = classifier.variableDeclarationOf(id);
    if (decl === undefined) return false;
    if (decl.getSourceFile() !== original.getSourceFile() || decl.pos < original.pos || decl.end > original.end) {
      return decl.pos < fn.pos || decl.end > fn.end || decl.parent === fn;
    }
    // Declared in the body: at its top level (a `let`/`const`/`var` statement directly in it).
    return ts.isVariableDeclaration(decl) && ts.isVariableDeclarationList(decl.parent) &&
      ts.isVariableStatement(decl.parent.parent) && decl.parent.parent.parent === original && ts.isIdentifier(decl.name);
  };
  const locals = new Map<string, TS.FunctionLikeDeclaration>();
  const visit = (node: TS.Node): void => {
    if (ts.isClassLike(node)) return;
    if (ts.isFunctionLike(node)) {
      const f = node as TS.FunctionLikeDeclaration;
      const local = localFunction(node.parent) ?? localFunction(node);
      if (local !== undefined && local.fn === f) locals.set(local.name, f);
      else if (!callsInPlace(f)) consider(f);
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(original, visit);
  if (locals.size > 0) {
    // A local function escapes where its name is used other than as the callee of a call.
    const escaped = new Set<string>();
    const uses = (node: TS.Node): void => {
      if (ts.isIdentifier(node) && locals.has(node.text) && isUse(node) && !callsInPlace(node)) escaped.add(node.text);
      ts.forEachChild(node, uses);
    };
    ts.forEachChild(original, uses);
    for (const name of escaped) consider(locals.get(name)!);
  }
  if (written.length === 0 && changed.length === 0) return undefined;
  const mayRun = (call: TS.CallExpression | TS.NewExpression): boolean => {
    const callee = call.expression;
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'Math') return false;
    // (A call the conversion made — the runtime's operators — has no user's call as its original.)
    const node = ts.getOriginalNode(call);
    if (!(ts.isCallExpression(node) || ts.isNewExpression(node)) || node.pos < 0 || node.parent === undefined) return false;
    return !classifier.callsTfjs(node);
  };
  return { writes: written, composites: changed, mayRun };
}

/** Array methods that call their callback while they run (and keep no reference to it). */
const CALLS_IN_PLACE = new Set(['forEach', 'map', 'filter', 'reduce', 'reduceRight', 'some', 'every', 'find', 'findIndex',
  'findLast', 'findLastIndex', 'flatMap', 'sort', 'toSorted']);

/** A function written as the callee of a call (`(() => ...)()`), or as the callback of an array
 * method or of a tfjs function (`tf.tidy(() => ...)`, which runs it then). */
function callsInPlace(f: TS.Node): boolean {
  let node = f;
  while (node.parent !== undefined && ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (parent === undefined || !ts.isCallExpression(parent)) return false;
  if (parent.expression === node) return true;
  const callee = parent.expression;
  if (ts.isPropertyAccessExpression(callee) && CALLS_IN_PLACE.has(callee.name.text)) return true;
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'tf';
}

/** An identifier that is a reference to a name (not a property name or a declared name). */
function isUse(id: TS.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === id) return false;
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionLike(parent) || ts.isBindingElement(parent)) &&
      (parent as { name?: TS.Node }).name === id) return false;
  return true;
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
