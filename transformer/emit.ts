/**
 * Small factories for the code the converters emit: operator calls, named closures, state
 * accessors. Every synthesized statement is given the original node's position and origin
 * (`withOrigin`), so source maps and stack traces point at the user's TypeScript.
 */
import type * as TS from 'typescript';
import type { OperatorName } from '../runtime/names';
import type { OperatorOptions } from '../runtime/options';
import { transparentFunctions } from './analysis/references';
import { ts } from './typescript';

/** What every converter needs while emitting into one source file. */
export interface EmitContext {
  /** The identifier the runtime is imported as (`ag__`). */
  readonly runtime: TS.Identifier;
  fresh(base: string): string;
  /** `file.ts:line:col` of an original node, for run-time messages. */
  origin(node: TS.Node): string;
}

export function withOrigin<T extends TS.Node>(node: T, original: TS.Node): T {
  const source = ts.getOriginalNode(original);
  ts.setOriginalNode(node, source);
  copyRange(node, positions.get(source) ?? source);
  return node;
}

/** The text range of `at` (from its first token for a node of the source file). */
function copyRange(node: TS.Node, at: TS.Node): void {
  if (at.pos < 0) return;
  const parsed = (at.flags & ts.NodeFlags.Synthesized) === 0;
  ts.setTextRange(node, { pos: parsed ? at.getStart() : at.pos, end: at.end });
}

/**
 * For a synthesized statement that stands for no single original node (a guard around "the rest
 * of the block"): the source position of `at`, for source maps and run-time origins, WITHOUT
 * making `at` its original node — passes look decisions up by original node, and a guard must
 * not pass for the statement it guards.
 */
export function withPosition<T extends TS.Node>(node: T, at: TS.Node): T {
  const source = positionOf(at);
  positions.set(node, source);
  copyRange(node, source);
  return node;
}

const positions = new WeakMap<TS.Node, TS.Node>();

/** The original node whose position a node carries (see withPosition), else its original node. */
export function positionOf(node: TS.Node): TS.Node {
  const original = ts.getOriginalNode(node);
  return positions.get(original) ?? original;
}

export function id(name: string): TS.Identifier {
  return ts.factory.createIdentifier(name);
}

/** `ag__.name(args)` */
export function operatorCall(ctx: EmitContext, name: OperatorName, args: TS.Expression[]): TS.CallExpression {
  return ts.factory.createCallExpression(
    ts.factory.createPropertyAccessExpression(ctx.runtime, name), undefined, args);
}

/** `() => body` (or `(p) => body`): a closure analyses look through. */
export function closure(body: TS.ConciseBody, params: TS.ParameterDeclaration[] = []): TS.ArrowFunction {
  const fn = ts.factory.createArrowFunction(undefined, undefined, params, undefined,
    ts.factory.createToken(ts.SyntaxKind.EqualsGreaterThanToken), body);
  transparentFunctions.add(fn);
  return fn;
}

export function param(name: string | TS.BindingName): TS.ParameterDeclaration {
  return ts.factory.createParameterDeclaration(undefined, undefined, name);
}

/** `const name = init;` */
export function constStatement(name: string, init: TS.Expression): TS.VariableStatement {
  return ts.factory.createVariableStatement(undefined, ts.factory.createVariableDeclarationList(
    [ts.factory.createVariableDeclaration(name, undefined, undefined, init)], ts.NodeFlags.Const));
}

/** `let name = init;` */
export function letStatement(name: string, init: TS.Expression): TS.VariableStatement {
  return ts.factory.createVariableStatement(undefined, ts.factory.createVariableDeclarationList(
    [ts.factory.createVariableDeclaration(name, undefined, undefined, init)], ts.NodeFlags.Let));
}

/** `name = value;` */
export function assignStatement(target: TS.Expression, value: TS.Expression): TS.ExpressionStatement {
  return ts.factory.createExpressionStatement(ts.factory.createAssignment(target, value));
}

export function stringArray(values: string[]): TS.ArrayLiteralExpression {
  return ts.factory.createArrayLiteralExpression(values.map((v) => ts.factory.createStringLiteral(v)));
}

/** `() => [a, this.b, cur?.end]`: a field of an object that may be null at the statement reads as undefined. */
export function getStateClosure(names: string[]): TS.ArrowFunction {
  return closure(ts.factory.createArrayLiteralExpression(names.map(nullSafeRead)));
}

/** `(vars_) => { [a, this.b, (cur ?? {}).end] = vars_; }`: a field of a null object is written nowhere. */
export function setStateClosure(ctx: EmitContext, names: string[]): TS.ArrowFunction {
  if (names.length === 0) return closure(ts.factory.createBlock([]));
  const values = ctx.fresh('vars_');
  const target = ts.factory.createArrayLiteralExpression(names.map(nullSafeTarget));
  return closure(ts.factory.createBlock([assignStatement(target, id(values))], false), [param(values)]);
}

/** `cur?.end`, `this.a?.b`: a qualified name read without throwing where an object on its way is null or undefined. */
function nullSafeRead(name: string): TS.Expression {
  const [root, ...rest] = name.split('.');
  let expr: TS.Expression = root === 'this' ? ts.factory.createThis() : id(root);
  for (const part of rest) {
    expr = expr.kind === ts.SyntaxKind.ThisKeyword ? ts.factory.createPropertyAccessExpression(expr, part)
      : ts.factory.createPropertyAccessChain(expr, ts.factory.createToken(ts.SyntaxKind.QuestionDotToken), part);
  }
  return expr;
}

/** `(cur ?? {}).end`: a qualified name as an assignment target that drops the write where its object is null or undefined. */
function nullSafeTarget(name: string): TS.Expression {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return id(name);
  const owner = nullSafeRead(name.slice(0, dot));
  const field = name.slice(dot + 1);
  if (owner.kind === ts.SyntaxKind.ThisKeyword) return ts.factory.createPropertyAccessExpression(owner, field);
  const orThrowaway = ts.factory.createBinaryExpression(owner, ts.SyntaxKind.QuestionQuestionToken, ts.factory.createObjectLiteralExpression());
  return ts.factory.createPropertyAccessExpression(ts.factory.createParenthesizedExpression(orThrowaway), field);
}

/** `key: value` in an operator's options object: the key is checked against the runtime's
 * OperatorOptions (runtime/options.ts), so the two cannot drift apart. */
export function optionProperty(key: keyof OperatorOptions, value: TS.Expression): TS.PropertyAssignment {
  return ts.factory.createPropertyAssignment(key, value);
}

/** `key: value` in the `state` option (OperatorOptions['state']). */
function stateProperty(key: keyof NonNullable<OperatorOptions['state']>, value: TS.Expression): TS.PropertyAssignment {
  return ts.factory.createPropertyAssignment(key, value);
}

/** `{ origin: 'file.ts:3:5', flags: ['break_'], promote: ['t'] }` */
/** The module-level objects of the function being converted (ConversionPlan.moduleObjects), for optionsObject. */
let moduleObjects: ReadonlySet<string> = new Set();

/** Runs `convert` with `names` as the module-level objects that optionsObject marks `outlives`. */
export function withModuleObjects<T>(names: ReadonlySet<string>, convert: () => T): T {
  const outer = moduleObjects;
  moduleObjects = names;
  try {
    return convert();
  } finally {
    moduleObjects = outer;
  }
}

export function optionsObject(origin: string, flags: string[] = [], composites: string[] = [],
                              promote: string[] = [], observed: string[] = []): TS.ObjectLiteralExpression {
  const props = [optionProperty('origin', ts.factory.createStringLiteral(origin))];
  if (flags.length > 0) props.push(optionProperty('flags', stringArray(flags)));
  if (promote.length > 0) props.push(optionProperty('promote', stringArray(promote)));
  if (composites.length > 0) {
    // `composites: () => ({ xs, "this.items": this.items })`: the objects the body changes in place.
    const entries = composites.map((name) => (name.includes('.')
      ? ts.factory.createPropertyAssignment(ts.factory.createStringLiteral(name), nullSafeRead(name))
      : ts.factory.createShorthandPropertyAssignment(name)));
    props.push(optionProperty('composites',
      closure(ts.factory.createParenthesizedExpression(ts.factory.createObjectLiteralExpression(entries, false)))));
  }
  if (observed.length > 0) {
    // `observed: () => ({ c, this: this })`: objects whose fields code the statement calls may change.
    const entries = observed.map((name) => (name === 'this'
      ? ts.factory.createPropertyAssignment('this', ts.factory.createThis()) : ts.factory.createShorthandPropertyAssignment(name)));
    props.push(optionProperty('observed',
      closure(ts.factory.createParenthesizedExpression(ts.factory.createObjectLiteralExpression(entries, false)))));
    // (Those held by module-level variables outlive the call: their fields are a staged call's state.)
    const outlives = observed.filter((name) => moduleObjects.has(name));
    if (outlives.length > 0) props.push(optionProperty('outlives', stringArray(outlives)));
  }
  return ts.factory.createObjectLiteralExpression(props, false);
}

/**
 * `options` with `state: { names: ['x'], get: () => [x], set: (vars_) => { [x] = vars_; } }` when
 * `names` is not empty: the variables a converted expression's operands assign.
 */
export function withExpressionState(ctx: EmitContext, options: TS.ObjectLiteralExpression,
                                    names: string[]): TS.ObjectLiteralExpression {
  if (names.length === 0) return options;
  const state = ts.factory.createObjectLiteralExpression([
    stateProperty('names', stringArray(names)),
    stateProperty('get', getStateClosure(names)),
    stateProperty('set', setStateClosure(ctx, names)),
  ], false);
  return ts.factory.createObjectLiteralExpression([...options.properties, optionProperty('state', state)], false);
}

/** A block from a statement (keeping a block as it is). */
export function asBlock(statement: TS.Statement): TS.Block {
  // Always multi-line: a closure body holds one statement per line, even where the user's block
  // was written on one line (`{ return x; }` becomes `retval_ = x; do_return = true;`).
  const block = ts.factory.createBlock(ts.isBlock(statement) ? statement.statements : [statement], true);
  return ts.isBlock(statement) ? ts.setTextRange(ts.setOriginalNode(block, statement), statement) : block;
}

/** The statements of a statement (a block's list, or the statement alone). */
export function statementsOf(statement: TS.Statement): TS.Statement[] {
  return ts.isBlock(statement) ? [...statement.statements] : [statement];
}
