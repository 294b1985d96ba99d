/**
 * Shared machinery of the jump-lowering converters (break, continue, return): flag assignments
 * that remember which flag they set, and guards that skip "the rest of the block" once a flag may
 * be set — AutoGraph's canonicalization, which leaves only structured code for the control-flow
 * converters.
 */
import type * as TS from 'typescript';
import type { ConversionPlan } from '../analysis/plan';
import { EmitContext, id, operatorCall, optionsObject, closure, withOrigin, withPosition } from '../emit';
import { ts } from '../typescript';

export interface LoweringState {
  readonly plan: ConversionPlan;
  readonly emit: EmitContext;
  /** Synthesized statements that set a flag, with the flag's name. */
  readonly flagSetters: WeakMap<TS.Node, string>;
  /** Synthesized `if` guards: always converted (their flag may be a tensor). */
  readonly guards: WeakSet<TS.Node>;
  /** A guard's jump (the first that sets its flag) and the user's condition it is under: errors about the guard name them. */
  readonly guardJumps: WeakMap<TS.Node, GuardJump>;
  /** Flags a converted loop's test must check, keyed by the original loop. */
  readonly loopFlags: Map<TS.Node, string[]>;
  /** Every flag name introduced in this function (passed to operators as opts.flags). */
  readonly flagNames: Set<string>;
  /** The `do_return` flag and the `retval_` variable, once returns are lowered. */
  returns?: { flag: string; value: string };
}

export interface GuardJump {
  kind: 'break' | 'continue' | 'return';
  /** The condition of the user's `if` the jump is under, else the jump itself. */
  at: TS.Node;
}

export function createLoweringState(plan: ConversionPlan, emit: EmitContext): LoweringState {
  return { plan, emit, flagSetters: new WeakMap(), guards: new WeakSet(), guardJumps: new WeakMap(), loopFlags: new Map(),
    flagNames: new Set() };
}

/** `flag = true;` remembered as a setter of `flag`. */
export function setFlag(state: LoweringState, flag: string, original: TS.Node): TS.Statement {
  const statement = withOrigin(ts.factory.createExpressionStatement(
    ts.factory.createAssignment(id(flag), ts.factory.createTrue())), original);
  state.flagSetters.set(statement, flag);
  return statement;
}

export function addLoopFlag(state: LoweringState, loop: TS.Node, flag: string): void {
  const original = ts.getOriginalNode(loop);
  const flags = state.loopFlags.get(original) ?? [];
  if (!flags.includes(flag)) flags.push(flag);
  state.loopFlags.set(original, flags);
}

/** The jump a guard (or a converted copy of one) stands for, if it is a guard. */
export function guardJumpOf(state: LoweringState, node: TS.Node): GuardJump | undefined {
  for (let n: TS.Node | undefined = node; n !== undefined; n = (n as { original?: TS.Node }).original) {
    const jump = state.guardJumps.get(n);
    if (jump !== undefined) return jump;
  }
  return undefined;
}

/** Whether `node` may set `flag` (it holds a setter, outside nested functions). */
export function maySet(state: LoweringState, node: TS.Node, flag: string): boolean {
  if (state.flagSetters.get(node) === flag) return true;
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  return ts.forEachChild(node, (child) => maySet(state, child, flag) || undefined) ?? false;
}

/** The condition "no flag is set": `ag__.not(f)`, or a lazy conjunction of them (whose staged
 * If nodes name `origin`, the user's statement the flags belong to). */
export function noFlagSet(state: LoweringState, flags: string[], origin: TS.Node): TS.Expression {
  const negations = flags.map((f) => operatorCall(state.emit, 'not', [id(f)]));
  return negations.reduceRight((rest, negation) =>
    operatorCall(state.emit, 'and', [closure(negation), closure(rest), optionsObject(state.emit.origin(origin))]));
}

/**
 * Rewrites every statement list under `root` (not inside nested functions) so that the
 * statements after one that may set `flag` run only when it is not set.
 */
export function guardLists<T extends TS.Node>(state: LoweringState, root: T, flag: string,
                                              context: TS.TransformationContext): T {
  const visit = (node: TS.Node): TS.Node => {
    // Inside a native switch every flag setter is followed by a native break (plan.switchExits).
    if (ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isSwitchStatement(node)) return node;
    const visited = ts.visitEachChild(node, visit, context);
    if (ts.isBlock(visited)) return ts.factory.updateBlock(visited, guardList(state, visited.statements, flag, false));
    if (ts.isCaseClause(visited)) {
      return ts.factory.updateCaseClause(visited, visited.expression, guardList(state, visited.statements, flag, true));
    }
    if (ts.isDefaultClause(visited)) return ts.factory.updateDefaultClause(visited, guardList(state, visited.statements, flag, true));
    return visited;
  };
  return visit(root) as T;
}

function guardList(state: LoweringState, statements: readonly TS.Statement[], flag: string,
                   caseClause: boolean): TS.Statement[] {
  const out: TS.Statement[] = [];
  for (let i = 0; i < statements.length; i++) {
    const statement = statements[i];
    out.push(statement);
    const rest = statements.slice(i + 1);
    if (rest.length === 0 || !maySet(state, statement, flag)) continue;
    if (rest.every((s) => isInert(s, caseClause))) {
      out.push(...rest);
      break;
    }
    const guard = ts.factory.createIfStatement(noFlagSet(state, [flag], rest[0]),
      ts.factory.createBlock(guardList(state, rest, flag, caseClause), true));
    state.guards.add(withPosition(guard, rest[0]));
    const jump = jumpSetting(state, statement, flag);
    if (jump !== undefined) state.guardJumps.set(guard, jump);
    out.push(guard);
    break;
  }
  return out;
}

/**
 * The user's jump behind the first setter of `flag` in `node` (its original node: a break, continue
 * or return), and the condition of the nearest `if` of the user's code around it.
 */
function jumpSetting(state: LoweringState, node: TS.Node, flag: string): GuardJump | undefined {
  const setter = findSetter(state, node, flag);
  const jump = setter === undefined ? undefined : ts.getOriginalNode(setter);
  if (jump === undefined) return undefined;
  const kind = ts.isBreakStatement(jump) ? 'break' : ts.isContinueStatement(jump) ? 'continue' : ts.isReturnStatement(jump) ? 'return' : undefined;
  if (kind === undefined) return undefined;
  for (let n: TS.Node | undefined = jump.parent; n !== undefined && !ts.isFunctionLike(n); n = n.parent) {
    if (ts.isIfStatement(n)) return { kind, at: n.expression };
    if (ts.isIterationStatement(n, false)) break;
  }
  return { kind, at: jump };
}

function findSetter(state: LoweringState, node: TS.Node, flag: string): TS.Node | undefined {
  if (state.flagSetters.get(node) === flag) return node;
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return undefined;
  return ts.forEachChild(node, (child) => findSetter(state, child, flag));
}

/** Statements with no effect to skip (a trailing `break;` of a switch clause must stay native; in
 * any other list it leaves a loop, and is guarded like any statement). */
function isInert(statement: TS.Statement, caseClause: boolean): boolean {
  return ts.isEmptyStatement(statement) || (caseClause && ts.isBreakStatement(statement) && statement.label === undefined);
}
