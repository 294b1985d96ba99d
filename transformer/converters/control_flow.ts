/**
 * The control-flow pass: visits a lowered function body and hands every converted statement to
 * its converter (if, while, do-while, for, for...of, for...in). Converters compute the statement's
 * state from the analyses (activity ∩ liveness, on the lowered tree) and emit an operator call
 * with named closures; they recurse through `visit` into the bodies they move.
 */
import type * as TS from 'typescript';
import { activityOf, compositeTargetsOf, observedObjectsOf } from '../analysis/activity';
import { Liveness } from '../analysis/liveness';
import { visitReferences } from '../analysis/references';
import { ts } from '../typescript';
import { LoweringState } from '../lowering/guards';
import type { ControlFlowContext } from './control_flow_context';
import { convertIf } from './if_statements';
import { convertWhile, convertDoWhile } from './while_statements';
import { convertFor } from './for_statements';
import { convertForOf } from './for_of_statements';
import { convertForIn } from './for_in_statements';

export function convertControlFlow(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  const liveness = Liveness.ofFunctionBody(body);
  // A closure may run after a converted statement (and read what it assigned) wherever it was
  // created, so a name that some nested function reads is live after every converted statement.
  const readByClosures = new Set<string>();
  visitReferences(body, { name(name, kind, nested) { if (nested && kind !== 'declare') readByClosures.add(name); } });
  // A name this function does not declare (a nested function's enclosing variable, a module's) outlives
  // every statement here: an assignment to it is seen after the function returns.
  const declaredHere = declaredIn(body);
  const isConverted = (node: TS.Node): boolean =>
    state.plan.converted.has(ts.getOriginalNode(node)) || isGuard(state, node);

  const visit = (node: TS.Node): TS.VisitResult<TS.Node> => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    // Every jump to a converted loop was lowered (it sat in the loop's closure), so its label
    // names nothing any more: drop it rather than leave it on a block.
    if (ts.isLabeledStatement(node) && isConverted(labeledLoop(node))) return visit(labeledLoop(node));
    if (isConverted(node)) {
      if (ts.isIfStatement(node)) return convertIf(node, cf);
      if (ts.isWhileStatement(node)) return convertWhile(node, cf);
      if (ts.isDoStatement(node)) return convertDoWhile(node, cf);
      if (ts.isForStatement(node)) return convertFor(node, cf);
      if (ts.isForOfStatement(node)) return convertForOf(node, cf);
      if (ts.isForInStatement(node)) return convertForIn(node, cf);
    }
    return ts.visitEachChild(node, visit, context);
  };

  const cf: ControlFlowContext = {
    state,
    emit: state.emit,
    liveness,
    context,
    visit: (statement) => ts.visitNode(statement, visit, ts.isStatement, liftToBlock) as TS.Statement,
    stateOf(parts, live) {
      return activityOf(...parts).modified.filter((name) =>
        live.has(name) || readByClosures.has(name) || state.flagNames.has(name) || name.includes('.') || !declaredHere.has(name));
    },
    compositesOf(node, parts) {
      return compositeTargetsOf(activityOf(node).declared, state.plan.mayBeArray, ...parts);
    },
    observedOf(node, parts) {
      // Asked of the user's statement: its names resolve in the checker (the lowered one is partly synthesized).
      const original = ts.getOriginalNode(node);
      const user = original.pos >= 0 && original.parent !== undefined ? [original] : parts;
      return observedObjectsOf(activityOf(...user).declared, state.plan.mayHaveFields, ...user);
    },
    loopFlags(loop) {
      return state.loopFlags.get(ts.getOriginalNode(loop)) ?? [];
    },
    flagsIn(names) {
      return names.filter((name) => state.flagNames.has(name));
    },
    promotedIn(names) {
      // (And variables holding objects whose JS numbers are promoted: PromotionPlan.records.)
      const { names: promoted, records } = state.plan.promotion;
      return names.filter((name) => promoted.has(name) || records.has(name));
    },
    isConverted,
  };
  return ts.visitEachChild(body, visit, context);
}

function labeledLoop(node: TS.LabeledStatement): TS.Statement {
  let inner: TS.Statement = node;
  while (ts.isLabeledStatement(inner)) inner = inner.statement;
  return inner;
}

function liftToBlock(nodes: readonly TS.Node[]): TS.Statement {
  return nodes.length === 1 ? nodes[0] as TS.Statement : ts.factory.createBlock(nodes as TS.Statement[], true);
}

function isGuard(state: LoweringState, node: TS.Node): boolean {
  for (let n: TS.Node | undefined = node; n !== undefined; n = (n as { original?: TS.Node }).original) {
    if (state.guards.has(n)) return true;
  }
  return false;
}

/** The names a function body declares, with its parameters' (of the user's function, where the body is its own). */
function declaredIn(body: TS.Block): Set<string> {
  const declared = new Set(activityOf(body).declared);
  const fn = ts.getOriginalNode(body).parent;
  if (fn !== undefined && ts.isFunctionLike(fn)) visitReferences(fn, { name(name, kind, nested) { if (kind === 'declare' && nested) declared.add(name); } });
  return declared;
}
