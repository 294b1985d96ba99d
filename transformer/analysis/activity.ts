/**
 * Activity: which names a statement modifies that outlive it. A name declared anywhere inside the
 * statement is local to it (its block, a loop head, a nested function) and excluded — a
 * deliberate simplification: shadowing a modified outer name inside the same statement is rare.
 * Writes inside nested functions count (a callback run in a branch, like `xs.forEach(...)`, does
 * modify the variable there), and so do the writes of a local function the statement names
 * (`bump()`, closure_writes.ts); AutoGraph ignores them, which silently drops such state.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript';
import { closureComposites, closureWrites, escapingCompositesAt, escapingWritesAt } from './closure_writes';
import { isCompoundAssignment, qualifiedName, transparentFunctions, visitReferences } from './references';

export interface Activity {
  /** Names (and `this.x`-style chains) assigned inside, in source order. */
  modified: string[];
  /** Names declared inside (block-scoped or nested). */
  declared: Set<string>;
  /** Names read inside. */
  read: Set<string>;
}

export function activityOf(...nodes: (TS.Node | undefined)[]): Activity {
  const written: string[] = [];
  const members: string[] = [];
  const declared = new Set<string>();
  const read = new Set<string>();
  const closures = closureWrites();
  for (const node of nodes) {
    if (node === undefined) continue;
    visitReferences(node, {
      name(name, kind) {
        if (kind === 'declare') declared.add(name);
        if (kind === 'read' || kind === 'readwrite') read.add(name);
        if (kind === 'write' || kind === 'readwrite') written.push(name);
        // A local function named here may run here: what it assigns is modified too (closure_writes.ts).
        if (kind === 'read') written.push(...(closures.get(name) ?? []).map((id) => id.text));
      },
      member(qualifiedName) {
        members.push(qualifiedName);
      },
    });
    // A call here may run an escaping function of the body, and so assign what it assigns (closure_writes.ts).
    written.push(...escapingWritesAt(node).map((id) => id.text));
  }
  const modified = unique([...written, ...members]).filter((name) => !declared.has(rootOf(name)));
  return { modified, declared, read };
}

export function rootOf(qualifiedName: string): string {
  const dot = qualifiedName.indexOf('.');
  return dot < 0 ? qualifiedName : qualifiedName.slice(0, dot);
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/** Array methods that change their receiver in place. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

/** Operator calls that stand for an element write `x[i] = v` (ag__.setListItem), with their array `x`: a composite target too. */
export const elementWriteCalls = new WeakMap<TS.Node, TS.Expression>();

/** Calls (by original node) to a function of the project that changes the contents of some of its arguments
 * (`swap(array, i, j)`): the indices of those arguments, composite targets of the call (callee_writes.ts). */
export const calleeWrittenArguments = new WeakMap<TS.Node, readonly number[]>();

/**
 * Composite targets: the objects and arrays whose contents `nodes` change in place without
 * assigning a name — `x[i] = v` (x), `a.b[0] += v` (a.b), `xs.push(v)` (xs, when the checker
 * says xs may be an array: `tf.fill(...)` changes nothing) — outside nested
 * functions, as qualified names whose root is not declared inside. A staging engine snapshots them
 * around a staged branch or loop body (AutoGraph's composite symbols, for subscripts and pushes).
 */
export function compositeTargetsOf(declared: Set<string>, mayBeArray: (receiver: TS.Expression) => boolean,
                                   ...nodes: (TS.Node | undefined)[]): string[] {
  const found: string[] = [];
  const add = (target: TS.Expression): void => {
    let e: TS.Expression = target;
    while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) e = e.expression;
    // The longest prefix that is a qualified name: `a.b[i].c` → a.b.
    let name = qualifiedName(e);
    while (name === undefined && (ts.isElementAccessExpression(e) || ts.isPropertyAccessExpression(e))) {
      e = e.expression;
      name = qualifiedName(e);
    }
    if (name !== undefined && name !== 'this' && !declared.has(rootOf(name))) found.push(name);
  };
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) && !transparentFunctions.has(node)) return;
    if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.EqualsToken ||
        isCompoundAssignment(node.operatorToken.kind)) && ts.isElementAccessExpression(node.left)) {
      add(node.left.expression);
    }
    if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && ts.isElementAccessExpression(node.operand) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) {
      add(node.operand.expression);
    }
    const written = elementWriteCalls.get(node);
    if (written !== undefined) add(written);
    const writtenArguments = ts.isCallExpression(node) ? calleeWrittenArguments.get(ts.getOriginalNode(node)) : undefined;
    for (const k of writtenArguments ?? []) {
      const argument = argumentsOf(node as TS.CallExpression)[k];
      if (argument !== undefined && !ts.isSpreadElement(argument)) add(argument);
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
        MUTATORS.has(node.expression.name.text) && mayBeArray(node.expression.expression)) {
      add(node.expression.expression);
    }
    // A local function named here changes what it changes in place here (closure_writes.ts).
    if (ts.isIdentifier(node)) for (const target of closureComposites().get(node.text) ?? []) add(target);
    // A call here may run an escaping function of the body (a callback it stored: `e.emit(f)`), and so change what it changes.
    for (const target of escapingCompositesAt(node)) add(target);
    ts.forEachChild(node, visit);
  };
  for (const node of nodes) if (node !== undefined) visit(node);
  return unique(found);
}

/** A call's arguments as the user wrote them: `ag__.recursiveCall(f, [a, b], opts)` (recursive_calls.ts) passes [a, b]. */
function argumentsOf(call: TS.CallExpression): readonly TS.Expression[] {
  const rewritten = ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'recursiveCall' &&
    call.arguments.length >= 2 && ts.isArrayLiteralExpression(call.arguments[1]);
  return rewritten ? (call.arguments[1] as TS.ArrayLiteralExpression).elements : call.arguments;
}

/**
 * Observed objects: the names `nodes` read (and `this`) that may be objects whose fields code
 * they call changes (`c.bump()` assigning `this.n`), when `mayHaveFields` says so of a read, in
 * source order, not declared inside. A staging engine compares the objects' fields around a
 * staged branch or body and carries a changed one as state (backends/staging/observed_fields.ts).
 */
export function observedObjectsOf(declared: Set<string>, mayHaveFields: (name: TS.Expression) => boolean,
                                  ...nodes: (TS.Node | undefined)[]): string[] {
  const found = new Set<string>();
  const visit = (node: TS.Node, inFunction: boolean): void => {
    if (ts.isTypeNode(node)) return;
    // (`super.m()` runs a method on `this`: its fields may change there.)
    if ((node.kind === ts.SyntaxKind.ThisKeyword || node.kind === ts.SyntaxKind.SuperKeyword) && !inFunction) {
      if (node.kind === ts.SyntaxKind.SuperKeyword || mayHaveFields(node as TS.Expression)) found.add('this');
      return;
    }
    if (ts.isIdentifier(node) && isRead(node) && !declared.has(node.text) && !found.has(node.text)) {
      if (mayHaveFields(node)) found.add(node.text);
      return;
    }
    // `this` inside a function expression is its own; inside an arrow it is the statement's.
    const inner = inFunction || ((ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node) || ts.isClassLike(node)) &&
      !transparentFunctions.has(node));
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  for (const node of nodes) if (node !== undefined) visit(node, false);
  return [...found];
}

/** An identifier that is a reference (not a property name, a declared name or a label). */
function isRead(id: TS.Identifier): boolean {
  const parent = id.parent;
  if (parent === undefined) return false;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
  if (ts.isQualifiedName(parent) && parent.right === id) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === id) return false;
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionLike(parent) || ts.isClassLike(parent) ||
       ts.isBindingElement(parent)) && (parent as { name?: TS.Node }).name === id) return false;
  return !ts.isLabeledStatement(parent) && !ts.isBreakOrContinueStatement(parent);
}
