/**
 * `for (init; test; update) body` that must be converted becomes, in a block that scopes init:
 *   init;
 *   const loop_test = () => test;
 *   const loop_body = () => { body; update };     // update skipped once a lowered jump's flag is set
 *   ag__.whileStmt(loop_test, loop_body, ...);
 * A `let` loop variable that a closure in the loop captures gets JS's per-iteration binding back:
 * the loop runs on an outer copy and the body works on its own (`let i = i_outer; ...;
 * i_outer = i;`), so each iteration's closures see that iteration's value, exactly as in the
 * original loop (ES2015 CreatePerIterationEnvironment); when the test or update captures it too,
 * each of them gets its own scope (convertForWithIterationScopes). The outer copy is the loop's
 * state under the user's name (symbolNames, `promote`): errors and promotion speak of `i`, never of
 * `i_outer`.
 */
import type * as TS from 'typescript';
import { activityOf } from '../analysis/activity';
import { visitReferences } from '../analysis/references';
import {
  closure, constStatement, getStateClosure, id, letStatement, operatorCall, optionsObject,
  setStateClosure, statementsOf, stringArray, withOrigin, assignStatement, optionProperty,
} from '../emit';
import { countedLoopCounters } from '../analysis/counted_loops';
import { ts } from '../typescript';
import { union } from '../analysis/liveness';
import { ControlFlowContext, testWithFlags } from './control_flow_context';
import { noFlagSet } from '../lowering/guards';

export function convertFor(node: TS.ForStatement, cf: ControlFlowContext): TS.Statement {
  const { emit } = cf;
  const live = union(cf.liveness.inOf(node), cf.liveness.outOf(node));
  const flags = cf.loopFlags(node);
  let { initializer, condition, incrementor } = node;
  let body = cf.visit(node.statement);

  const copies = perIterationCopies(node, cf);
  if (copies.size > 0 && capturesIn([node.condition, node.incrementor], new Set(copies.keys()))) {
    return convertForWithIterationScopes(node, copies, body, live, cf);
  }
  if (copies.size > 0) {
    // The initializer keeps the original names (closures in it capture the first copy, as in
    // JS); the loop then runs on the outer copies.
    const rename = renamer(copies, cf.context);
    condition = condition && rename(condition);
    incrementor = incrementor && rename(incrementor);
    const copyIn = [...copies].map(([name, outer]) => letStatement(name, id(outer)));
    const copyOut = [...copies].map(([name, outer]) => assignStatement(id(outer), id(name)));
    body = ts.factory.createBlock([...copyIn, body, ...copyOut], true);
  }
  // Head variables are state too (declared outside the closures); renamed copies go by their outer name.
  const names = cf.stateOf([node.condition, node.statement, node.incrementor], live);
  const uniqueNames = [...new Set(names.map((n) => copies.get(n) ?? n))];
  const userNames = userNamesOf(uniqueNames, copies);

  const statements: TS.Statement[] = [];
  if (initializer !== undefined) {
    statements.push(withOrigin(ts.isVariableDeclarationList(initializer)
      ? ts.factory.createVariableStatement(undefined, initializer)
      : ts.factory.createExpressionStatement(initializer), initializer));
  }
  for (const [name, outer] of copies) statements.push(letStatement(outer, id(name)));
  const bodyStatements = statementsOf(body);
  if (incrementor !== undefined) bodyStatements.push(...updateStatements(incrementor, flags, copies, cf));
  const testName = emit.fresh('loop_test');
  const bodyName = emit.fresh('loop_body');
  const test = condition ?? ts.factory.createTrue();
  statements.push(
    withOrigin(constStatement(testName, closure(testWithFlags(test, flags, condition ?? node, cf))), condition ?? node),
    withOrigin(constStatement(bodyName, closure(ts.factory.createBlock(bodyStatements, true))), node.statement),
    withOrigin(ts.factory.createExpressionStatement(operatorCall(emit, 'whileStmt', [
      id(testName), id(bodyName), getStateClosure(uniqueNames), setStateClosure(emit, uniqueNames),
      stringArray(userNames), withCounted(optionsObject(emit.origin(node), cf.flagsIn(uniqueNames),
        cf.compositesOf(node, [node.condition, node.statement, node.incrementor]), cf.promotedIn(userNames),
        cf.observedOf(node, [node.condition, node.statement, node.incrementor])), node, test, incrementor, flags, cf),
    ])), node),
  );
  return ts.factory.createBlock(statements, true);
}

/**
 * With a lowered jump in the body and counters that may stay JS (analysis/counted_loops.ts), the options get
 * `counted: { counters, test: () => TEST, update: () => { UPDATE; }, running: () => no flag set }`.
 */
function withCounted(options: TS.ObjectLiteralExpression, node: TS.ForStatement, test: TS.Expression,
                     update: TS.Expression | undefined, flags: string[], cf: ControlFlowContext): TS.ObjectLiteralExpression {
  const counters = flags.length > 0 && update !== undefined ? countedLoopCounters(node) : undefined;
  if (counters === undefined) return options;
  const f = ts.factory;
  const counted = f.createObjectLiteralExpression([
    f.createPropertyAssignment('counters', stringArray(counters)),
    f.createPropertyAssignment('test', closure(test)),
    f.createPropertyAssignment('update', closure(f.createBlock([withOrigin(f.createExpressionStatement(update!), update!)], false))),
    f.createPropertyAssignment('running', closure(noFlagSet(cf.state, flags, node))),
  ], false);
  return f.updateObjectLiteralExpression(options, [...options.properties, optionProperty('counted', counted)]);
}

/**
 * A closure in the test (or update) captures a head variable: the test must run in the same
 * per-iteration scope as the body that follows it. Each test call makes the iteration's scope and
 * leaves the body to run in it:
 *   const iteration_test = () => { let i = i_outer; const holds = TEST; i_outer = i;
 *                                  iteration_body = () => { BODY; i_outer = i; }; return holds; };
 *   loop_body = () => { iteration_body(); { let i = i_outer; UPDATE; i_outer = i; } };
 * (The update gets a scope of its own: closures in it see the next test's starting values.)
 */
function convertForWithIterationScopes(node: TS.ForStatement, copies: Map<string, string>, body: TS.Statement,
                                       live: Set<string>, cf: ControlFlowContext): TS.Statement {
  const { emit } = cf;
  const f = ts.factory;
  const flags = cf.loopFlags(node);
  const copyIn = (): TS.Statement[] => [...copies].map(([name, outer]) => letStatement(name, id(outer)));
  const copyOut = (): TS.Statement[] => [...copies].map(([name, outer]) => assignStatement(id(outer), id(name)));
  const names = [...new Set(cf.stateOf([node.condition, node.statement, node.incrementor], live).map((n) => copies.get(n) ?? n))];
  const iterationBody = emit.fresh('iteration_body');
  const iterationTest = emit.fresh('iteration_test');
  const holds = emit.fresh('holds');
  const statements: TS.Statement[] = [];
  if (node.initializer !== undefined) {
    statements.push(withOrigin(f.createVariableStatement(undefined, node.initializer as TS.VariableDeclarationList), node.initializer));
  }
  statements.push(...[...copies].map(([name, outer]) => letStatement(outer, id(name))));
  statements.push(f.createVariableStatement(undefined, f.createVariableDeclarationList(
    [f.createVariableDeclaration(iterationBody)], ts.NodeFlags.Let)));
  statements.push(withOrigin(constStatement(iterationTest, closure(f.createBlock([
    ...copyIn(),
    constStatement(holds, node.condition ?? f.createTrue()),
    ...copyOut(),
    assignStatement(id(iterationBody), closure(f.createBlock([...statementsOf(body), ...copyOut()], true))),
    f.createReturnStatement(id(holds)),
  ], true))), node.condition ?? node));
  const loopBody: TS.Statement[] = [f.createExpressionStatement(f.createCallExpression(id(iterationBody), undefined, []))];
  if (node.incrementor !== undefined) {
    const update = f.createBlock([...copyIn(), withOrigin(f.createExpressionStatement(node.incrementor), node.incrementor), ...copyOut()], true);
    loopBody.push(...guardedUpdate(update, node.incrementor, flags, copies, cf));
  }
  const testName = emit.fresh('loop_test');
  const bodyName = emit.fresh('loop_body');
  statements.push(
    withOrigin(constStatement(testName, closure(testWithFlags(f.createCallExpression(id(iterationTest), undefined, []), flags, node.condition ?? node, cf))), node.condition ?? node),
    withOrigin(constStatement(bodyName, closure(f.createBlock(loopBody, true))), node.statement),
    withOrigin(f.createExpressionStatement(operatorCall(emit, 'whileStmt', [
      id(testName), id(bodyName), getStateClosure(names), setStateClosure(emit, names),
      stringArray(userNamesOf(names, copies)), optionsObject(emit.origin(node), cf.flagsIn(names),
        cf.compositesOf(node, [node.condition, node.statement, node.incrementor]), cf.promotedIn(userNamesOf(names, copies)),
        cf.observedOf(node, [node.condition, node.statement, node.incrementor])),
    ])), node),
  );
  return f.createBlock(statements, true);
}

function capturesIn(parts: (TS.Node | undefined)[], names: Set<string>): boolean {
  let found = false;
  for (const part of parts) {
    if (part !== undefined) visitReferences(part, { name(name, _kind, nested) { if (nested && names.has(name)) found = true; } });
  }
  return found;
}

/** The user's names of state variables: an outer copy (`i_outer`) is the head variable `i`. */
function userNamesOf(names: string[], copies: Map<string, string>): string[] {
  const users = new Map([...copies].map(([name, outer]) => [outer, name]));
  return names.map((name) => users.get(name) ?? name);
}

/** The update runs after the body unless a lowered break or return has set its flag. */
function updateStatements(update: TS.Expression, flags: string[], copies: Map<string, string>,
                          cf: ControlFlowContext): TS.Statement[] {
  return guardedUpdate(withOrigin(ts.factory.createExpressionStatement(update), update), update, flags, copies, cf);
}

function guardedUpdate(statement: TS.Statement, update: TS.Expression, flags: string[], copies: Map<string, string>,
                       cf: ControlFlowContext): TS.Statement[] {
  if (flags.length === 0) return [statement];
  const names = activityOf(statement).modified;
  const userNames = userNamesOf(names, copies);
  return [withOrigin(ts.factory.createExpressionStatement(operatorCall(cf.emit, 'ifStmt', [
    noFlagSet(cf.state, flags, update), closure(ts.factory.createBlock([statement], false)),
    ts.factory.createIdentifier('undefined'), getStateClosure(names), setStateClosure(cf.emit, names),
    stringArray(userNames), ts.factory.createNumericLiteral(names.length),
    optionsObject(cf.emit.origin(update), [], [], cf.promotedIn(userNames)),
  ])), update)];
}

/** `let` names of the head that a closure inside the loop references: name → outer copy name. */
function perIterationCopies(node: TS.ForStatement, cf: ControlFlowContext): Map<string, string> {
  const copies = new Map<string, string>();
  const init = node.initializer;
  if (init === undefined || !ts.isVariableDeclarationList(init) || !(init.flags & ts.NodeFlags.BlockScoped)) return copies;
  const declared = activityOf(init).declared;
  const captured = new Set<string>();
  // A closure in the initializer holds the first binding; the copies keep updates off it.
  for (const part of [init.declarations.map((d) => d.initializer), node.condition, node.incrementor, node.statement].flat()) {
    if (part === undefined) continue;
    visitReferences(part, { name(name, _kind, nested) { if (nested && declared.has(name)) captured.add(name); } });
  }
  for (const name of captured) copies.set(name, cf.emit.fresh(`${name}_outer`));
  return copies;
}

/** Renames the references (found by the reference walker: not property names, labels, member
 * names or declarations) to the copied names; `{ i }` becomes `{ i: i_outer }`. */
function renamer(copies: Map<string, string>, context: TS.TransformationContext) {
  return <T extends TS.Node>(root: T): T => {
    const references = new Set<TS.Node>();
    visitReferences(root, { name(name, kind, _nested, node) { if (kind !== 'declare' && copies.has(name)) references.add(node); } });
    const rename = (name: string): TS.Identifier => ts.factory.createIdentifier(copies.get(name)!);
    const visit = (node: TS.Node): TS.Node => {
      if (ts.isIdentifier(node)) return references.has(node) ? rename(node.text) : node;
      if (ts.isShorthandPropertyAssignment(node) && references.has(node.name)) {
        return ts.factory.createPropertyAssignment(node.name.text, rename(node.name.text));
      }
      return ts.visitEachChild(node, visit, context);
    };
    return visit(root) as T;
  };
}
