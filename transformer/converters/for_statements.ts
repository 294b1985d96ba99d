/**
 * `for (init; test; update) body` that must be converted becomes, in a block that scopes init:
 *   init;
 *   const loop_test = () => test;
 *   const loop_body = () => { body; update };     // update skipped once a lowered jump's flag is set
 *   ag__.whileStmt(loop_test, loop_body, ...);
 * A `let` loop variable that a closure in the loop captures gets JS's per-iteration binding back:
 * the body works on its own copy (`let i = i_1; ...; i_1 = i;`), so each iteration's closures
 * see that iteration's value, exactly as in the original loop (ES2015 CreatePerIterationEnvironment).
 */
import type * as TS from 'typescript';
import { activityOf } from '../analysis/activity';
import { visitReferences } from '../analysis/references';
import {
  closure, constStatement, getStateClosure, id, letStatement, operatorCall, optionsObject,
  setStateClosure, statementsOf, stringArray, withOrigin, assignStatement,
} from '../emit';
import { ts } from '../typescript';
import { ControlFlowContext, union } from './control_flow';
import { noFlagSet } from './guards';
import { testWithFlags } from './while_statements';

export function convertFor(node: TS.ForStatement, cf: ControlFlowContext): TS.Statement {
  const { emit } = cf;
  const live = union(cf.liveness.inOf(node), cf.liveness.outOf(node));
  const flags = cf.loopFlags(node);
  let { initializer, condition, incrementor } = node;
  let body = cf.visit(node.statement);

  const copies = perIterationCopies(node, cf);
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

  const statements: TS.Statement[] = [];
  if (initializer !== undefined) {
    statements.push(withOrigin(ts.isVariableDeclarationList(initializer)
      ? ts.factory.createVariableStatement(undefined, initializer)
      : ts.factory.createExpressionStatement(initializer), initializer));
  }
  for (const [name, outer] of copies) statements.push(letStatement(outer, id(name)));
  const bodyStatements = statementsOf(body);
  if (incrementor !== undefined) bodyStatements.push(...updateStatements(incrementor, flags, cf));
  const testName = emit.fresh('loop_test');
  const bodyName = emit.fresh('loop_body');
  const test = condition ?? ts.factory.createTrue();
  statements.push(
    withOrigin(constStatement(testName, closure(testWithFlags(test, flags, cf))), condition ?? node),
    withOrigin(constStatement(bodyName, closure(ts.factory.createBlock(bodyStatements, true))), node.statement),
    withOrigin(ts.factory.createExpressionStatement(operatorCall(emit, 'whileStmt', [
      id(testName), id(bodyName), getStateClosure(uniqueNames), setStateClosure(emit, uniqueNames),
      stringArray(uniqueNames), optionsObject(emit.origin(node), cf.flagsIn(uniqueNames)),
    ])), node),
  );
  return ts.factory.createBlock(statements, true);
}

/** The update runs after the body unless a lowered break or return has set its flag. */
function updateStatements(update: TS.Expression, flags: string[], cf: ControlFlowContext): TS.Statement[] {
  const statement = withOrigin(ts.factory.createExpressionStatement(update), update);
  if (flags.length === 0) return [statement];
  const names = activityOf(update).modified;
  return [withOrigin(ts.factory.createExpressionStatement(operatorCall(cf.emit, 'ifStmt', [
    noFlagSet(cf.state, flags), closure(ts.factory.createBlock([statement], false)),
    ts.factory.createIdentifier('undefined'), getStateClosure(names), setStateClosure(cf.emit, names),
    stringArray(names), ts.factory.createNumericLiteral(names.length), optionsObject(cf.emit.origin(update)),
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
