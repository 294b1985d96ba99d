/**
 * A jump inside `finally` replaces the completion that was pending when the finally block
 * started (`try { break a; } finally { break b; }` leaves by b only; a `break` in finally cancels
 * a pending `return`). Lowered jumps are flags, and a flag set in the try block stays set — so a
 * flag setter inside a finally block first clears the flags the try and catch blocks may have set.
 * A jump inside `finally` also swallows a pending exception; since the lowered jump only sets a
 * flag, such a try statement is rewritten to catch the exception itself, run the finally block,
 * and rethrow unless the finally block jumped:
 *   try { A } catch (e) { B } finally { F }   →
 *   { let threw_ = false, error_, finally_jumped_ = false;
 *     try { try { A } catch (e) { B } } catch (error) { threw_ = true; error_ = error; }
 *     { F }   // each flag setter in F also sets finally_jumped_
 *     if (threw_ && !finally_jumped_) throw error_; }
 * Runs after all jumps are lowered, when every setter is known.
 */
import type * as TS from 'typescript';
import { assignStatement, id, withOrigin } from '../emit';
import { ts } from '../typescript';
import { LoweringState } from './guards';

export function resolveFinallyOverrides(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  const visit = (node: TS.Node): TS.Node => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    const visited = ts.visitEachChild(node, visit, context);
    if (!ts.isTryStatement(visited) || visited.finallyBlock === undefined) return visited;
    const pending = new Set([...settersIn(state, visited.tryBlock), ...settersIn(state, visited.catchClause)]);
    if (settersIn(state, visited.finallyBlock).size === 0) return visited;
    const jumped = state.emit.fresh('finally_jumped_');
    state.flagNames.add(jumped);
    const finallyBlock = clearBeforeSetters(state, visited.finallyBlock, pending, jumped, context);
    return withOrigin(catchForFinally(state, visited, finallyBlock, jumped), visited);
  };
  return ts.visitEachChild(body, visit, context);
}

function settersIn(state: LoweringState, root: TS.Node | undefined): Set<string> {
  const flags = new Set<string>();
  const visit = (node: TS.Node): void => {
    const flag = state.flagSetters.get(node);
    if (flag !== undefined) flags.add(flag);
    if (!ts.isFunctionLike(node) && !ts.isClassLike(node)) ts.forEachChild(node, visit);
  };
  if (root) visit(root);
  return flags;
}

function catchForFinally(state: LoweringState, node: TS.TryStatement, finallyBlock: TS.Block, jumped: string): TS.Block {
  const f = ts.factory;
  const threw = state.emit.fresh('threw_');
  const error = state.emit.fresh('error_');
  const caught = state.emit.fresh('error');
  const guarded = node.catchClause
    ? f.createBlock([f.createTryStatement(node.tryBlock, node.catchClause, undefined)], true)
    : node.tryBlock;
  return f.createBlock([
    f.createVariableStatement(undefined, f.createVariableDeclarationList([
      f.createVariableDeclaration(threw, undefined, undefined, f.createFalse()),
      f.createVariableDeclaration(error),
      f.createVariableDeclaration(jumped, undefined, undefined, f.createFalse()),
    ], ts.NodeFlags.Let)),
    f.createTryStatement(guarded, f.createCatchClause(caught, f.createBlock([
      assignStatement(id(threw), f.createTrue()), assignStatement(id(error), id(caught)),
    ], false)), undefined),
    finallyBlock,
    f.createIfStatement(f.createLogicalAnd(id(threw), f.createLogicalNot(id(jumped))), f.createThrowStatement(id(error))),
  ], true);
}

function clearBeforeSetters(state: LoweringState, block: TS.Block, pending: Set<string>, jumped: string,
                            context: TS.TransformationContext): TS.Block {
  const visit = (node: TS.Node): TS.VisitResult<TS.Node> => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    const flag = state.flagSetters.get(node);
    if (flag === undefined) return ts.visitEachChild(node, visit, context);
    const clears = [...pending].filter((f) => f !== flag).map((f) => assignStatement(id(f), ts.factory.createFalse()));
    return [...clears, assignStatement(id(jumped), ts.factory.createTrue()), node];
  };
  return ts.visitEachChild(block, visit, context);
}
