/**
 * A jump inside `finally` that leaves it replaces the completion that was pending when the finally
 * block started (`try { break a; } finally { break b; }` leaves by b only; a `break` in finally
 * cancels a pending `return`, and swallows a pending exception). Lowered jumps are flags, and a
 * flag set in the try block would stay set through the finally block — where guards and loop
 * tests would read it as if the finally block itself had jumped. So the finally block runs with
 * the pending flags saved and cleared (as JS runs it: from a normal completion), and they are
 * restored afterwards unless it jumped; since a lowered jump only sets a flag, the exception is
 * caught, kept and rethrown the same way:
 *   try { A } catch (e) { B } finally { F }   →
 *   { let threw_ = false, error_, finally_jumped_ = false;
 *     try { try { A } catch (e) { B } } catch (error) { threw_ = true; error_ = error; }
 *     const pending_flag = flag; flag = false;        // for each flag A or B may set
 *     { F }   // each setter in F of a jump that leaves F also sets finally_jumped_
 *     if (!finally_jumped_) { flag = pending_flag; }  // a guard: finally_jumped_ may be a tensor
 *     if (threw_ && !finally_jumped_) throw error_; }
 * A jump whose target (a loop, a switch, a labeled block) is inside F is ordinary control flow
 * there and changes nothing. Runs after all jumps are lowered, when every setter is known.
 */
import type * as TS from 'typescript';
import { assignStatement, constStatement, id, operatorCall, withOrigin, withPosition } from '../emit';
import { ts } from '../typescript';
import { LoweringState } from './guards';

export function resolveFinallyOverrides(body: TS.Block, state: LoweringState, context: TS.TransformationContext): TS.Block {
  // `caught`: an enclosing try block of this function catches (a catch clause, or a finally block
  // that jumps, lowered to a catch), so code runs after an exception thrown by a finally block and
  // must not see the flags that exception cancelled.
  const visitor = (caught: boolean) => (original: TS.Node): TS.Node => {
    if (ts.isFunctionLike(original) || ts.isClassLike(original)) return original;
    // The jumps leaving a finally block are marked BEFORE the try statements inside it are
    // rewritten: a marker is then a setter like any other, so an inner finally that cancels such a
    // jump (`finally { break; }` after `return` in its try) also cancels the mark.
    let node = original;
    let jumped: string | undefined;
    if (ts.isTryStatement(node) && node.finallyBlock !== undefined) {
      const escapingNow = escapingFrom(state, node.finallyBlock);
      if (escapingNow.size > 0) {
        jumped = state.emit.fresh('finally_jumped_');
        state.flagNames.add(jumped);
        node = ts.factory.updateTryStatement(node, node.tryBlock, node.catchClause,
          markJumps(state, node.finallyBlock, escapingNow, jumped, context));
        ts.setOriginalNode(node, original);
      }
    }
    const catches = ts.isTryStatement(node) && (node.catchClause !== undefined || jumped !== undefined);
    const visited = ts.isTryStatement(node)
      ? ts.factory.updateTryStatement(node, ts.visitNode(node.tryBlock, visitor(caught || catches), ts.isBlock),
        ts.visitNode(node.catchClause, visitor(caught), ts.isCatchClause), ts.visitNode(node.finallyBlock, visitor(caught), ts.isBlock))
      : ts.visitEachChild(node, visitor(caught), context);
    if (!ts.isTryStatement(visited) || visited.finallyBlock === undefined) return visited;
    // Pending: flags of jumps that leave the try or catch block (the others are declared inside).
    const local = new Set([...flagsDeclaredIn(state, visited.tryBlock), ...(visited.catchClause ? flagsDeclaredIn(state, visited.catchClause) : [])]);
    const pending = [...new Set([...settersIn(state, visited.tryBlock), ...settersIn(state, visited.catchClause)])]
      .filter((flag) => !local.has(flag));
    if (jumped === undefined) {
      const cancels = caught || leavesNatively(visited.finallyBlock);
      return cancels && pending.length > 0 ? withOrigin(clearDuringFinally(state, visited, pending), visited) : visited;
    }
    return withOrigin(catchForFinally(state, visited, visited.finallyBlock, pending, jumped), visited);
  };
  return ts.visitEachChild(body, visitor(false), context);
}

/** Flags of the jumps in a finally block that leave it. */
function escapingFrom(state: LoweringState, finallyBlock: TS.Block | undefined): Set<string> {
  if (finallyBlock === undefined) return new Set();
  // A flag of a jump whose target is inside F is declared inside F, before its target.
  const inner = flagsDeclaredIn(state, finallyBlock);
  return new Set([...settersIn(state, finallyBlock)].filter((flag) => !inner.has(flag)));
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

/** The jump flags declared (`let flag = false;`) inside `root`, outside nested functions. */
function flagsDeclaredIn(state: LoweringState, root: TS.Node): Set<string> {
  const flags = new Set<string>();
  const visit = (node: TS.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && state.flagNames.has(node.name.text)) flags.add(node.name.text);
    if (!ts.isFunctionLike(node) && !ts.isClassLike(node)) ts.forEachChild(node, visit);
  };
  visit(root);
  return flags;
}

/** Whether a native (not lowered) break or continue leaves `block`. */
function leavesNatively(block: TS.Block): boolean {
  const visit = (node: TS.Node, loop: boolean, breakable: boolean, labels: ReadonlySet<string>): boolean => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
    if (ts.isBreakStatement(node) || ts.isContinueStatement(node)) {
      if (node.label) return !labels.has(node.label.text);
      return ts.isBreakStatement(node) ? !breakable : !loop;
    }
    if (ts.isLabeledStatement(node)) return visit(node.statement, loop, breakable, new Set([...labels, node.label.text]));
    const isLoop = ts.isIterationStatement(node, false);
    const isSwitch = ts.isSwitchStatement(node);
    return ts.forEachChild(node, (child) => visit(child, loop || isLoop, breakable || isLoop || isSwitch, labels) || undefined) ?? false;
  };
  return visit(block, false, false, new Set());
}

/**
 * A finally block that leaves by a native break or continue, or by an exception that an enclosing
 * catch clause handles, cancels the pending jump too (`try { return 1; } finally { throw e; }`
 * throws e), and the code that runs next must read the flags as cancelled. A finally block without
 * lowered jumps keeps its native form and runs with the pending flags cleared:
 *   try { A } finally { const pending_flag = flag; flag = false; F; flag = pending_flag; }
 */
function clearDuringFinally(state: LoweringState, node: TS.TryStatement, pending: string[]): TS.TryStatement {
  const saved = savedPending(state, pending);
  const finallyBlock = ts.factory.updateBlock(node.finallyBlock!, [
    ...saved.flatMap(([name, copy, cleared]) => [constStatement(copy, id(name)), assignStatement(id(name), cleared)]),
    ...node.finallyBlock!.statements,
    ...saved.map(([name, copy]) => assignStatement(id(name), id(copy))),
  ]);
  return ts.factory.updateTryStatement(node, node.tryBlock, node.catchClause, finallyBlock);
}

/** Each pending flag (and a pending return's value) with the name of its saved copy and its cleared value. */
function savedPending(state: LoweringState, pending: string[]): [string, string, TS.Expression][] {
  // A pending return also has its value: a finally block that jumps cancels it (the function
  // then returns what a later return says, or undefined), so the value is saved and cleared too.
  const returns = state.returns;
  const pendingValues = returns !== undefined && pending.includes(returns.flag) ? [returns.value] : [];
  const cleared = (name: string): TS.Expression => (name === returns?.value
    ? ts.factory.createPropertyAccessExpression(ts.factory.createPropertyAccessExpression(state.emit.runtime, 'UndefinedReturnValue'), 'instance')
    : ts.factory.createFalse());
  return [...pending, ...pendingValues].map((name) => [name, state.emit.fresh(`pending_${name}`), cleared(name)]);
}

function catchForFinally(state: LoweringState, node: TS.TryStatement, finallyBlock: TS.Block, pending: string[],
                         jumped: string): TS.Block {
  const f = ts.factory;
  const threw = state.emit.fresh('threw_');
  const error = state.emit.fresh('error_');
  const caught = state.emit.fresh('error');
  const saved = savedPending(state, pending);
  // A converted if (a guard), since the finally block may have jumped under a tensor condition.
  const restore = ts.factory.createIfStatement(operatorCall(state.emit, 'not', [id(jumped)]),
    ts.factory.createBlock(saved.map(([flag, copy]) => assignStatement(id(flag), id(copy))), true));
  state.guards.add(withPosition(restore, finallyBlock));
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
    ...saved.flatMap(([name, copy, cleared]) => [constStatement(copy, id(name)), assignStatement(id(name), cleared)]),
    finallyBlock,
    ...(saved.length > 0 ? [restore] : []),
    f.createIfStatement(f.createLogicalAnd(id(threw), f.createLogicalNot(id(jumped))), f.createThrowStatement(id(error))),
  ], true);
}

/** Each setter of a flag in `escaping` also records that the finally block jumped. */
function markJumps(state: LoweringState, block: TS.Block, escaping: Set<string>, jumped: string,
                   context: TS.TransformationContext): TS.Block {
  const visit = (node: TS.Node): TS.VisitResult<TS.Node> => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return node;
    const flag = state.flagSetters.get(node);
    if (flag === undefined || !escaping.has(flag)) return ts.visitEachChild(node, visit, context);
    const mark = assignStatement(id(jumped), ts.factory.createTrue());
    state.flagSetters.set(mark, jumped);
    return [mark, node];
  };
  return ts.visitEachChild(block, visit, context);
}
