/**
 * The conversion plan of one function body, decided on the ORIGINAL tree (the only one the
 * checker can type): which statements become operator calls, which jumps are lowered to flags,
 * and whether returns are lowered to a single exit. Later passes rewrite the tree and look
 * decisions up here through ts.getOriginalNode.
 *
 * Rules (AutoGraph's, adapted):
 *  - an if / while / do / for whose condition may be a Tensor is converted; so is a for...of whose
 *    iterable may be a Tensor (or TensorRange);
 *  - a break/continue is lowered when a converted statement lies between it and its target (or
 *    the target loop itself is converted: its body becomes a closure);
 *  - returns are lowered (all of them) when any return sits inside a converted statement;
 *  - a loop that a lowered jump must leave is converted, so its test can check the flag —
 *    "a static statement whose body holds a staged break/continue/return is not static".
 * The last two rules feed back into the first, so the plan is computed to a fixpoint.
 */
import type * as TS from 'typescript';
import { Classifier } from '../classify';
import { ConversionError } from '../diagnostics';
import { activityOf, calleeWrittenArguments, compositeTargetsOf } from './activity';
import { isLoop, loopOf } from './loops';
import { visitReferences } from './references';
import { indexDispatchesOf } from './index_dispatch';
import { type NumberArgumentOp, numberArgumentCalls } from './number_arguments';
import { listArgumentsOf } from './list_arguments';
import { plainReads } from './plain_reads';
import { callsPromoting, capturedCounterReads, capturedPromotableNames, isMaybePromoted, noPromotion, PromotionPlan, promotableNames, promotableRecords, recordPromotableNames } from './promotion';
import { ts } from '../typescript';
import { recordCalleeWrites } from './callee_writes';
import type { ArrayPredicate } from '../../runtime/names';

export type Jump = TS.BreakStatement | TS.ContinueStatement;

export interface ConversionPlan {
  /** Original if/loop statements that become operator calls. */
  readonly converted: Set<TS.Node>;
  /** Original break/continue statements lowered to flags. */
  readonly loweredJumps: Set<Jump>;
  /** The statement each break/continue leaves (a loop, a switch or a labeled statement). */
  readonly jumpTargets: Map<Jump, TS.Statement>;
  /** Whether the function's returns are lowered to `retval_` / `do_return` and a single exit. */
  readonly lowerReturns: boolean;
  /** Original `&&`, `||`, `!`, `?:`, `&&=`/`||=` expressions and `assert(cond, ...)` calls
   * (node:assert, console.assert) that become operator calls. */
  readonly expressions: Set<TS.Expression>;
  /** Discriminants of switches that may be a Tensor at run time (typed any, unknown, ...): read
   * by value before the cases compare with ===. */
  readonly switchDiscriminants: Set<TS.Expression>;
  /** Which assert each converted assert call is. */
  readonly asserts: Map<TS.CallExpression, 'node' | 'console'>;
  /** Switches that lowered jumps must leave from inside a closure: lowered to an if chain. */
  readonly loweredSwitches: Set<TS.SwitchStatement>;
  /** Lowered jumps and returns inside a (native) switch: their flag assignment is followed by a
   * native `break` that leaves the switch, as the original jump did. */
  readonly switchExits: Set<TS.Node>;
  /** The user's numbers and booleans that staged loops may promote to tensors, and the reads
   * that must then be plain values (analysis/promotion.ts). */
  readonly promotion: PromotionPlan;
  /** Problems worth a warning that do not prevent conversion. */
  readonly warnings: ConversionError[];
  /**
   * `let`/`const` declarations of new arrays (`= [...]`) that may hold tensors, JS numbers or booleans, or records of them (by the checker) and that a
   * converted statement changes in place (`xs.push(t)` in a loop body or a branch): their initializer becomes `ag__.newList(...)`,
   * so that a staged loop can make the array a list value of the graph (backends/staging/staged_lists.ts).
   */
  readonly newLists: Set<TS.VariableDeclaration>;
  /** The newLists typed as arrays of JS numbers or booleans (`number[]`, `boolean[]`): as a list,
   * their elements are promoted scalars, and returned they come back as JS values. */
  readonly scalarLists: Set<TS.VariableDeclaration>;
  /** Lists of JS numbers passed to tfjs where it takes values (analysis/list_arguments.ts): stacked by ag__.listValue. */
  readonly listArguments: ReadonlySet<TS.Identifier>;
  /** Whether a receiver of `push`/`fill`/... may be an array changed in place (Classifier.mayBeArray). */
  readonly mayBeArray: (receiver: TS.Expression) => boolean;
  /** Whether a name read by a converted statement is an object of the user's whose fields may change (Classifier.mayHaveFields),
   * or an array of such objects (Classifier.holdsObjectsWithFields: its elements are observed). */
  readonly mayHaveFields: (name: TS.Expression) => boolean;
  /** The names read here of module-level variables holding the user's objects (`export const state = {...}`): what they
   * hold outlives the call, so its fields are state of a staged call (opts.outlives). */
  readonly moduleObjects: ReadonlySet<string>;
  /** Statements that write through an element at an index that may be promoted (`counts[p] += 1`), with that element
   * (analysis/index_dispatch.ts): ag__.atIndex. */
  readonly indexDispatches: ReadonlyMap<TS.ExpressionStatement, TS.ElementAccessExpression>;
  /** Calls that may lead back to this function (analysis/recursion.ts): `ag__.recursiveCall(...)`. */
  readonly recursiveCalls: ReadonlySet<TS.CallExpression>;
  /** `xs.some(f)` & co. whose callback may return a Tensor (Classifier.arrayPredicate), with the
   * method: `ag__.arrayPredicate(xs, "some", f, ...)` (converters/array_predicates.ts). */
  readonly arrayPredicates: ReadonlyMap<TS.CallExpression, ArrayPredicate>;
  /** tfjs ops given a maybe-promoted number (`x.slice([i], [1])`, analysis/number_arguments.ts):
   * `ag__.tensorMethodCall(x, "slice", [[i], [1]], origin)` (converters/number_arguments.ts). */
  readonly numberArgumentCalls: ReadonlyMap<TS.CallExpression, NumberArgumentOp>;
  /** `xs.forEach(f)` with f a function written there, on an array of newLists (which a staged loop may make a
   * list): `ag__.forEachItem(xs, f, { state })` (converters/list_iteration.ts). */
  readonly listForEach: ReadonlySet<TS.CallExpression>;
  /** Array literals spreading such an array (`[...tokens, eos]`): `ag__.spreadItems([tokens, eos], [0])` (converters/list_iteration.ts). */
  readonly listSpreads: ReadonlySet<TS.ArrayLiteralExpression>;
}

interface Site<T extends TS.Node> {
  node: T;
  /** Enclosing statements inside the function, outermost first. */
  ancestors: TS.Statement[];
}

export function planFunction(body: TS.Block | TS.ConciseBody, classifier: Classifier, sloppy = false,
                             recursiveCalls: ReadonlySet<TS.CallExpression> = new Set()): ConversionPlan {
  const controls: Site<TS.Statement>[] = [];
  const jumps: Site<Jump>[] = [];
  const returns: Site<TS.ReturnStatement>[] = [];
  const jumpTargets = new Map<Jump, TS.Statement>();
  const expressions = new Set<TS.Expression>();
  const expressionSites: Site<TS.Node>[] = [];
  const arrayPredicates = new Map<TS.CallExpression, ArrayPredicate>();
  /** `!`, `&&`, `||`, `?:` that are static by type: converted when their operand may be promoted. */
  const staticLogical: Site<TS.Expression>[] = [];

  const visit = (node: TS.Node, ancestors: TS.Statement[]): void => {
    // Sloppy mode (Annex B): a function declared in a block is also a var of the function, which a
    // closure around the block would hide.
    if (sloppy && ts.isFunctionDeclaration(node) && ancestors.length > 0) expressionSites.push({ node, ancestors });
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return; // converted on their own
    if (isControlStatement(node)) controls.push({ node, ancestors });
    if (ts.isBreakStatement(node) || ts.isContinueStatement(node)) {
      const target = findTarget(node, ancestors);
      if (target !== undefined) {
        jumpTargets.set(node, target);
        jumps.push({ node, ancestors });
      }
    }
    if (ts.isReturnStatement(node)) returns.push({ node, ancestors });
    const predicate = ts.isCallExpression(node) ? classifier.arrayPredicate(node) : undefined;
    if (predicate !== undefined) {
      // A comparator typed to return a Tensor cannot be right; one typed any is checked at run time.
      if (predicate.method === 'sort' && predicate.kind === 'staged') throw new ConversionError('TensorComparator', (node as TS.CallExpression).arguments[0]);
      arrayPredicates.set(node as TS.CallExpression, predicate.method);
    }
    if (isConvertedExpression(node, classifier)) {
      expressions.add(node as TS.Expression);
      expressionSites.push({ node, ancestors });
    } else if (logicalOperand(node) !== undefined) {
      staticLogical.push({ node: node as TS.Expression, ancestors });
    }
    if (ts.isYieldExpression(node) || ts.isAwaitExpression(node) || isDirectEval(node) ||
        (ts.isForOfStatement(node) && node.awaitModifier) || ts.isWithStatement(node)) {
      expressionSites.push({ node, ancestors });
    }
    const next = ts.isStatement(node) ? [...ancestors, node] : ancestors;
    ts.forEachChild(node, (child) => visit(child, next));
  };
  if (ts.isBlock(body)) body.statements.forEach((s) => visit(s, []));
  else visit(body, []);

  // Calls to the project's functions that change their arguments' contents (`swap(array, i, j)`): composite targets.
  recordCalleeWrites(body, classifier);
  const converted = new Set<TS.Node>();
  for (const { node } of controls) if (hasTensorCondition(node, classifier)) converted.add(node);
  demoteDynamic(converted, expressions, expressionSites, classifier);
  // A for...of over an array that a converted loop grows iterates a list whose length only the
  // graph knows when it is staged: it goes through ag__.forStmt (a native for...of eagerly). So does one
  // over an array a converted callee may have grown (`for (const box of nms(...))`, Classifier.mayReturnList).
  // (A parameter a caller may pass a list to stays native, as its static type says: iterating a list there is
  // refused by name.)
  const lists = new Set([...[...newLists(body, converted, classifier)].map((d) => (d.name as TS.Identifier).text),
    ...listResultsOf(body, classifier)]);
  for (const { node } of controls) {
    if (!ts.isForOfStatement(node) || node.awaitModifier) continue;
    const iterable = skipOuterExpressions(node.expression);
    if ((ts.isIdentifier(iterable) && lists.has(iterable.text)) || (ts.isCallExpression(iterable) && classifier.mayReturnList(iterable))) {
      converted.add(node);
    }
  }

  const loweredJumps = new Set<Jump>();
  let lowerReturns = false;
  // Lowering a jump wraps the rest of each block on its way to the target in a guard, which is a
  // converted `if` (a closure): a jump or return that ends up inside one crosses a converted
  // statement like any other, and is lowered too (guardedStatements mirrors guards.ts).
  let guarded = new Set<TS.Node>();
  // A switch that a lowered jump must leave from inside a closure becomes an if chain (see
  // converters/switch_statements.ts); every other switch stays native.
  const loweredSwitches = new Set<TS.SwitchStatement>();
  let promoted = new Set<string>();
  // A parameter typed as an array of tensors may receive a caller's list (`helper(xs)` after a staged
  // loop grew xs): its length may be an int32 tensor too.
  const listParameters = [...listParametersOf(body, classifier), ...listResultsOf(body, classifier)];
  const captured = capturedPromotableNames(body, classifier);
  for (let changed = true; changed;) {
    changed = false;
    const convert = (node: TS.Node): void => {
      if (!converted.has(node)) {
        converted.add(node);
        changed = true;
      }
    };
    // A condition that may hold a promoted counter or flag (`t < n`, `found`) is a tensor
    // condition in a trace: its statement or expression is converted (analysis/promotion.ts).
    const grownLists = [...newLists(body, withGuarded(converted, guarded), classifier)].map((d) => (d.name as TS.Identifier).text);
    promoted = promotableNames(body, withGuarded(converted, guarded), classifier, [...grownLists, ...listParameters], expressions, captured);
    for (const { node } of controls) {
      const tested = classifier.statement(node);
      if (tested?.convertible && tested.role === 'condition' && isMaybePromoted(tested.tested, promoted)) convert(node);
    }
    for (const site of staticLogical) {
      if (!expressions.has(site.node) && isMaybePromoted(logicalOperand(site.node)!, promoted)) {
        expressions.add(site.node);
        expressionSites.push(site);
        changed = true;
      }
    }
    const lowerSwitch = (node: TS.SwitchStatement): void => {
      if (!loweredSwitches.has(node)) {
        loweredSwitches.add(node);
        changed = true;
      }
    };
    // A finally block that a lowered jump leaves no longer runs as a native finally (see
    // converters/finally_overrides.ts): a jump out of its try or catch block must be lowered too,
    // or it would leave without running it.
    const jumpingFinallies = finallyBlocksLeftByLoweredJumps();
    for (const { node: jump, ancestors } of jumps) {
      const target = jumpTargets.get(jump)!;
      const between = ancestors.slice(ancestors.indexOf(target) + 1);
      const crosses = converted.has(loopOf(target)) || [...between, jump].some((s) => converted.has(s) || guarded.has(s)) ||
        (ts.isSwitchStatement(target) && loweredSwitches.has(target)) || between.some((s) => jumpingFinallies.has(s));
      if (!crosses) continue;
      if (!loweredJumps.has(jump)) {
        loweredJumps.add(jump);
        changed = true;
      }
      if (ts.isSwitchStatement(target)) lowerSwitch(target);
      for (const s of between) if (isLoop(s)) convert(s);
      if (ts.isBreakStatement(jump) && isLoop(loopOf(target))) convert(loopOf(target));
    }
    if (!lowerReturns && returns.some(({ node, ancestors }) => [...ancestors, node].some((s) => converted.has(s) || guarded.has(s) || jumpingFinallies.has(s)))) {
      lowerReturns = true;
      changed = true;
    }
    if (lowerReturns) {
      for (const { ancestors } of returns) for (const s of ancestors) if (isLoop(s)) convert(s);
    }
    // A lowered jump or return leaves a native switch with a native break after setting its flag:
    // only from the innermost native switch it crosses, and only when no closure (a converted
    // statement or a guard) lies between. Any other switch it crosses is lowered.
    for (const { node, ancestors } of loweredSites()) {
      const target = jumpTargets.get(node as Jump);
      const between = target === undefined ? ancestors : ancestors.slice(ancestors.indexOf(target) + 1);
      const native = between.filter((s): s is TS.SwitchStatement => ts.isSwitchStatement(s) && !loweredSwitches.has(s));
      if (native.length === 0) continue;
      const innermost = native[native.length - 1];
      native.slice(0, -1).forEach(lowerSwitch);
      const inner = between.slice(between.indexOf(innermost) + 1);
      // A try statement whose finally block is lowered: the native break would skip that block.
      if ([...inner, node].some((s) => converted.has(s) || guarded.has(s) || jumpingFinallies.has(s))) lowerSwitch(innermost);
    }
    const nowGuarded = guardedStatements(jumps.filter(({ node }) => loweredJumps.has(node)), lowerReturns ? returns : [],
      jumpTargets, loweredSwitches);
    if (nowGuarded.size !== guarded.size) changed = true;
    guarded = nowGuarded;
  }
  function loweredSites(): Site<TS.Node>[] {
    return [...jumps.filter(({ node }) => loweredJumps.has(node)), ...(lowerReturns ? returns : [])];
  }
  /** The try statements whose finally block a lowered jump or return leaves. */
  function finallyBlocksLeftByLoweredJumps(): Set<TS.Node> {
    const tries = new Set<TS.Node>();
    for (const { node, ancestors } of loweredSites()) {
      const target = jumpTargets.get(node as Jump);
      const from = target === undefined ? 0 : ancestors.indexOf(target) + 1;
      for (const s of ancestors.slice(from)) {
        if (ts.isTryStatement(s) && s.finallyBlock !== undefined && contains(s.finallyBlock, node)) tries.add(s);
      }
    }
    return tries;
  }

  // What is left: lowered jumps and returns that leave one native switch with a native break.
  const switchExits = new Set<TS.Node>();
  for (const { node, ancestors } of loweredSites()) {
    const target = jumpTargets.get(node as Jump);
    const between = target === undefined ? ancestors : ancestors.slice(ancestors.indexOf(target) + 1);
    if (between.some((s) => ts.isSwitchStatement(s) && !loweredSwitches.has(s))) switchExits.add(node);
  }
  for (const node of loweredSwitches) checkCaseDeclarations(node);

  const switchDiscriminants = new Set<TS.Expression>();
  for (const { node } of controls) {
    if (!ts.isSwitchStatement(node)) continue;
    const kind = classifier.statement(node)!.kind;
    if (kind === 'staged') throw new ConversionError('TensorSwitch', node.expression);
    if (kind === 'dynamic') switchDiscriminants.add(node.expression);
  }
  // Closures cannot hold yield/await: refuse where conversion would move them into one.
  for (const { node, ancestors } of expressionSites) {
    const enclosed = ancestors.some((s) => converted.has(s)) ||
      [...expressions].some((e) => e !== node && contains(e, node));
    if (!enclosed) continue;
    if (ts.isYieldExpression(node)) throw new ConversionError('YieldInConvertedStatement', node);
    if (ts.isAwaitExpression(node)) throw new ConversionError('AwaitInConvertedStatement', node);
    if (ts.isForOfStatement(node) && node.awaitModifier) throw new ConversionError('ForAwaitInConvertedStatement', node);
    if (ts.isWithStatement(node)) throw new ConversionError('WithStatement', node);
  }
  for (const { node } of controls) {
    if (ts.isForOfStatement(node) && node.awaitModifier && converted.has(node)) {
      throw new ConversionError('ForAwaitInConvertedStatement', node);
    }
  }
  recordPromotableNames(body, promoted);
  // (Reads of captured values that this function's plan promotes are plainReads' to judge.)
  const capturedReads = [...capturedCounterReads(body, classifier)].filter(([, name]) => !captured.has(name));
  const calls = callsPromoting(body);
  const reads = new Map([...(promoted.size > 0 || calls ? plainReads(body, promoted, classifier, captured) : []), ...capturedReads]);
  // The index of a statement written through an element at a promoted index is ag__.atIndex's (a tensor there is fine).
  const indexDispatches = indexDispatchesOf(body, promoted, classifier);
  for (const element of indexDispatches.values()) reads.delete(element.argumentExpression);
  const active = promoted.size > 0 || reads.size > 0 || calls;
  const records = promotableRecords(body, withGuarded(converted, guarded), classifier);
  const promotion = active || records.size > 0 ? { active, names: promoted, plainReads: reads, records } : noPromotion;
  const declaredLists = newLists(body, withGuarded(converted, guarded), classifier);
  const scalarLists = new Set([...declaredLists]
    .filter((d) => !classifier.mayHoldTensors(d.name) && classifier.holdsNumbersOrBooleans(d.name)));
  const mayBeList = maybeListNames(body, declaredLists, classifier);
  return { converted, loweredJumps, jumpTargets, lowerReturns, expressions, switchExits, loweredSwitches, promotion,
    warnings: [...booleanTypedTensors(expressions, classifier), ...optionalTensorConditions(controls, converted, classifier)],
    asserts: assertKinds(expressions, classifier), switchDiscriminants, newLists: declaredLists, listForEach: forEachOnLists(body, mayBeList),
    listSpreads: spreadsOfLists(body, mayBeList),
    scalarLists,
    listArguments: listArgumentsOf(body, new Set([...scalarLists].map((d) => (d.name as TS.Identifier).text)), classifier),
    mayBeArray: (receiver) => classifier.mayBeArray(receiver), mayHaveFields: (name) => classifier.mayHaveFields(name) || classifier.holdsObjectsWithFields(name), recursiveCalls,
    moduleObjects: moduleObjectsOf(body, classifier), indexDispatches,
    arrayPredicates, numberArgumentCalls: numberArgumentCalls(body, promoted, classifier) };
}

/** See ConversionPlan.moduleObjects. */
function moduleObjectsOf(body: TS.Node, classifier: Classifier): Set<string> {
  const found = new Set<string>();
  if (body.pos < 0 || ts.getOriginalNode(body) !== body) return found;
  visitReferences(body, {
    name(name, kind, _nested, node) {
      if (kind !== 'declare' && !found.has(name) && ts.isIdentifier(node) && classifier.isModuleBinding(node) &&
          classifier.mayHaveFields(node)) found.add(name);
    },
  });
  return found;
}

/** `xs.forEach(f)` (f an arrow or function expression) where xs may be a list in a trace (maybeListNames). */
function forEachOnLists(body: TS.Node, mayBeList: (name: TS.Identifier) => boolean): Set<TS.CallExpression> {
  const found = new Set<TS.CallExpression>();
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'forEach' &&
        ts.isIdentifier(node.expression.expression) && mayBeList(node.expression.expression) && node.arguments.length >= 1 &&
        (ts.isArrowFunction(node.arguments[0]) || ts.isFunctionExpression(node.arguments[0]))) found.add(node);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** Array literals spreading a name that may be a list in a trace (`[...tokens, eos]`): `ag__.spreadItems(...)`. */
function spreadsOfLists(body: TS.Node, mayBeList: (name: TS.Identifier) => boolean): Set<TS.ArrayLiteralExpression> {
  const found = new Set<TS.ArrayLiteralExpression>();
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isArrayLiteralExpression(node) && node.elements.some((e) => ts.isSpreadElement(e) && mayBeListValue(e.expression, mayBeList)) &&
        !node.elements.some(ts.isOmittedExpression)) found.add(node);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** The list methods that give a new list of a list (backends/staging/list_methods.ts, array_predicates.ts). */
const LIST_MAKING_METHODS = new Set(['map', 'filter', 'slice', 'concat']);

/** A name that may be a list (maybeListNames), or a list method's result on one (`xs.map(f)`, `xs.filter(f)`). */
function mayBeListValue(e: TS.Expression, mayBeList: (name: TS.Identifier) => boolean): boolean {
  e = skipOuterExpressions(e);
  if (ts.isIdentifier(e)) return mayBeList(e);
  return ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && LIST_MAKING_METHODS.has(e.expression.name.text) &&
    mayBeListValue(e.expression.expression, mayBeList);
}

/**
 * Whether a name may be a list in a trace: one of `lists` (the newLists), or an array of tensors,
 * numbers, booleans or records that a call returned, which a converted callee may have grown as one
 * (`const idx = positives(xs)`).
 */
function maybeListNames(body: TS.Node, lists: ReadonlySet<TS.VariableDeclaration>, classifier: Classifier): (name: TS.Identifier) => boolean {
  const names = new Set([...lists].map((d) => (d.name as TS.Identifier).text));
  // Arrays a call returned (`const idx = positives(xs)`), which a converted callee may have grown as a list.
  const returned = new Set<string>();
  const collect = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined &&
        ts.isCallExpression(skipOuterExpressions(node.initializer)) && !classifier.isTfjsCall(skipOuterExpressions(node.initializer) as TS.CallExpression)) {
      returned.add(node.name.text);
    }
    ts.forEachChild(node, collect);
  };
  ts.forEachChild(body, collect);
  return (name) => names.has(name.text) || (returned.has(name.text) && name.pos >= 0 && classifier.mayBeArray(name) &&
    (classifier.mayHoldTensors(name) || classifier.holdsNumbersOrBooleans(name) || classifier.holdsRecords(name)));
}

function skipOuterExpressions(e: TS.Expression): TS.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) ||
         ts.isTypeAssertionExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return e;
}

/** The parameters (plain names) of the function whose type is an array that may hold tensors, JS numbers or
 * booleans, or records (what a caller's list may be) and whose `length` the body reads. */
function listParametersOf(body: TS.Node, classifier: Classifier): string[] {
  const fn = body.parent;
  if (fn === undefined || !ts.isFunctionLike(fn) || body.pos < 0 || ts.getOriginalNode(body) !== body) return [];
  const lengthsRead = new Set<string>();
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.name.text === 'length') {
      lengthsRead.add(node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return fn.parameters.filter((p) => ts.isIdentifier(p.name) && lengthsRead.has(p.name.text) &&
    (classifier.mayHoldTensors(p.name) || classifier.holdsNumbersOrBooleans(p.name) || classifier.holdsRecords(p.name)))
    .map((p) => (p.name as TS.Identifier).text);
}

/**
 * Variables holding what a call of the project's own function returns, typed as an array it may have
 * grown into a list in a staged loop (Classifier.mayReturnList: `const idx = positives(xs)`): in a
 * trace their length is an int32 tensor, as a list of this function's own is.
 */
function listResultsOf(body: TS.Node, classifier: Classifier): string[] {
  const fn = body.parent;
  if (fn === undefined || body.pos < 0 || ts.getOriginalNode(body) !== body) return [];
  const found: string[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
      const init = skipOuterExpressions(node.initializer);
      if (ts.isCallExpression(init) && classifier.mayReturnList(init)) found.push(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** The statements that run in a closure: the converted ones, and those a lowered jump guards (a
 * converted `if` too: `ls.push(x)` after a loop that may return is staged on the return flag). */
function withGuarded(converted: Set<TS.Node>, guarded: Set<TS.Node>): Set<TS.Node> {
  return guarded.size === 0 ? converted : new Set([...converted, ...guarded]);
}

/** See ConversionPlan.newLists. */
function newLists(body: TS.Node, converted: Set<TS.Node>, classifier: Classifier): Set<TS.VariableDeclaration> {
  const grown = new Set<string>();
  for (const node of converted) for (const name of compositeTargetsOf(new Set(), (e) => classifier.mayBeArray(e), node)) grown.add(name);
  // ...and by the project's functions it passes them to (`collectLeaves(x, 2, out)` pushing under a tensor test there).
  for (const name of calleeGrownArguments(body)) grown.add(name);
  const found = arrayDeclarations(body, grown, classifier);
  // ...and by the callbacks of forEach calls on them (or on arrays a call returned), which run here as a
  // staged loop: `out.forEach((t) => { if (t.greater(1)) big.push(t); })`.
  const callbacks = [...forEachOnLists(body, maybeListNames(body, found, classifier))].map((call) => call.arguments[0] as TS.ArrowFunction | TS.FunctionExpression);
  if (callbacks.length === 0) return found;
  for (const fn of callbacks) {
    for (const name of compositeTargetsOf(activityOf(fn).declared, (e) => classifier.mayBeArray(e), fn.body)) grown.add(name);
  }
  return arrayDeclarations(body, grown, classifier);
}

/** The names passed to calls of the project's functions that change those arguments' contents (callee_writes.ts). */
function calleeGrownArguments(body: TS.Node): string[] {
  const found: string[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    const written = ts.isCallExpression(node) ? calleeWrittenArguments.get(node) : undefined;
    for (const k of written ?? []) {
      const argument = (node as TS.CallExpression).arguments[k];
      if (argument !== undefined && ts.isIdentifier(argument)) found.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** The `let`/`const` declarations of new arrays (literals) named in `grown` that may hold tensors, JS numbers, booleans or records. */
function arrayDeclarations(body: TS.Node, grown: ReadonlySet<string>, classifier: Classifier): Set<TS.VariableDeclaration> {
  const found = new Set<TS.VariableDeclaration>();
  if (grown.size === 0) return found;
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    // Only a new array (a literal, or what an array method that makes one gives): no other name can refer to
    // it, so that the list the trace makes of it is what every reference sees.
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined &&
        isNewArray(skipOuterExpressions(node.initializer)) &&
        grown.has(node.name.text) && ts.isVariableDeclarationList(node.parent) &&
        (node.parent.flags & ts.NodeFlags.BlockScoped) !== 0 &&
        (classifier.mayHoldTensors(node.name) || classifier.holdsNumbersOrBooleans(node.name) ||
         classifier.holdsRecords(node.name))) {
      found.add(node);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** The array methods whose result is a new array (no other reference to it exists). */
const NEW_ARRAY_METHODS = new Set(['map', 'filter', 'slice', 'concat', 'flat', 'flatMap', 'toReversed', 'toSorted', 'toSpliced', 'with']);

/** An array literal, `xs.map(f)` & co. (NEW_ARRAY_METHODS), `Array.from(...)`, `Array.of(...)`. */
function isNewArray(e: TS.Expression): boolean {
  if (ts.isArrayLiteralExpression(e)) return true;
  if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression)) return false;
  const method = e.expression.name.text;
  const receiver = e.expression.expression;
  if (ts.isIdentifier(receiver) && receiver.text === 'Array') return method === 'from' || method === 'of';
  return NEW_ARRAY_METHODS.has(method);
}

/**
 * The original statements that the jump-lowering converters will wrap in a guard: for each lowered
 * jump (or return), in every statement list on its way up to its target (the function body for a
 * return), the statements after the one that holds it — unless they are all inert (guards.ts
 * leaves a `;` unguarded, and a switch clause's trailing `break;`). Lists inside a native switch are not guarded (a
 * native break leaves the switch after the flag is set: plan.switchExits).
 */
function guardedStatements(jumps: Site<Jump>[], returns: Site<TS.ReturnStatement>[],
                           jumpTargets: Map<Jump, TS.Statement>, loweredSwitches: Set<TS.SwitchStatement>): Set<TS.Node> {
  const guarded = new Set<TS.Node>();
  const mark = (node: TS.Node, ancestors: TS.Statement[], target: TS.Statement | undefined): void => {
    const path = [...(target === undefined ? ancestors : ancestors.slice(ancestors.indexOf(target) + 1)), node];
    const firstSwitch = path.findIndex((s) => ts.isSwitchStatement(s) && !loweredSwitches.has(s));
    for (const statement of firstSwitch < 0 ? path : path.slice(0, firstSwitch + 1)) {
      const list = statementList(statement.parent);
      if (list === undefined) continue;
      // In a lowered switch, the clauses after this one are statements after it too.
      const clause = statement.parent;
      const laterClauses = ts.isCaseOrDefaultClause(clause) && loweredSwitches.has(clause.parent.parent)
        ? clause.parent.clauses.slice(clause.parent.clauses.indexOf(clause) + 1).flatMap((c) => [...c.statements]) : [];
      const rest = [...list.slice(list.indexOf(statement as TS.Statement) + 1), ...laterClauses];
      const caseClause = ts.isCaseOrDefaultClause(clause);
      if (rest.every((s) => ts.isEmptyStatement(s) || (caseClause && ts.isBreakStatement(s) && s.label === undefined))) continue;
      rest.forEach((s) => guarded.add(s));
    }
  };
  for (const { node, ancestors } of jumps) mark(node, ancestors, jumpTargets.get(node));
  for (const { node, ancestors } of returns) mark(node, ancestors, undefined);
  return guarded;
}

function statementList(parent: TS.Node): readonly TS.Statement[] | undefined {
  return ts.isBlock(parent) || ts.isCaseClause(parent) || ts.isDefaultClause(parent) ? parent.statements : undefined;
}

/**
 * A dynamic condition (any, unknown, a union) may well hold only plain values. Where converting its
 * statement would need what a closure cannot do — hold a yield/await/with — the statement stays
 * native: exactly right on plain values, and the only option.
 * A condition typed as a Tensor has no such way out: the checks after the fixpoint report it.
 */
function demoteDynamic(converted: Set<TS.Node>, expressions: Set<TS.Expression>, sites: Site<TS.Node>[],
                       classifier: Classifier): void {
  const demote = (node: TS.Node): void => {
    const tested = classifier.statement(node);
    if ((tested?.role === 'condition' || tested?.role === 'iterable') && tested.kind === 'dynamic') converted.delete(node);
  };
  // In a generator or async function whose body yields or awaits, a converted dynamic statement
  // anywhere could end up around a yield/await once jumps are lowered (its loop becomes a
  // closure), so dynamic conversion is off there altogether; Tensor-typed conditions still
  // convert, and are reported if they enclose a yield/await.
  const suspends = sites.some(({ node }) => ts.isYieldExpression(node) || ts.isAwaitExpression(node) ||
    (ts.isForOfStatement(node) && node.awaitModifier !== undefined));
  if (suspends) {
    [...converted].forEach(demote);
    for (const e of [...expressions]) if (classifier.expression(operandOf(e)) !== 'staged') expressions.delete(e);
  }
  // A direct eval declares its `var`s in the function it runs in, and a closure would become that
  // function; `with` makes scoping dynamic. Dynamic statements around them stay native.
  for (const { node, ancestors } of sites) {
    if (!ts.isWithStatement(node) && !isDirectEval(node) && !ts.isFunctionDeclaration(node)) continue;
    ancestors.forEach(demote);
    for (const e of [...expressions]) {
      if (contains(e, node) && classifier.expression(operandOf(e)) !== 'staged') expressions.delete(e);
    }
  }
}

/**
 * A lowered switch's clauses become blocks of their own (one `if` each): a let, const, class or
 * function declared directly in one clause and used outside it (in another clause, or in a case
 * expression) would no longer be the same binding — and JS's TDZ across clauses cannot be kept.
 */
function checkCaseDeclarations(node: TS.SwitchStatement): void {
  const clauses = node.caseBlock.clauses;
  clauses.forEach((clause) => {
    const declared = new Map<string, TS.Node>();
    for (const s of clause.statements) {
      if (ts.isVariableStatement(s) && (s.declarationList.flags & ts.NodeFlags.BlockScoped)) {
        for (const d of s.declarationList.declarations) bindingNames(d.name).forEach((n) => declared.set(n.text, n));
      } else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) {
        declared.set(s.name.text, s.name);
      }
    }
    if (declared.size === 0) return;
    const outside = [...clauses.filter((c) => c !== clause), ...clauses.map((c) => (ts.isCaseClause(c) ? c.expression : undefined))];
    for (const part of outside) {
      if (part === undefined) continue;
      visitReferences(part, {
        name(name, kind) {
          if (kind !== 'declare' && declared.has(name)) throw new ConversionError('CaseDeclarationAcrossClauses', declared.get(name)!);
        },
      });
    }
  });
}

function bindingNames(name: TS.BindingName): TS.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/**
 * `const b = !t` or `const b = t1 && t2`: TypeScript types b as boolean, the runtime gives a
 * Tensor; a later `if (b)` would then be classified static and test a Tensor object (always
 * truthy). Warn where such a value leaves condition position.
 */
function booleanTypedTensors(expressions: Set<TS.Expression>, classifier: Classifier): ConversionError[] {
  const warnings: ConversionError[] = [];
  for (const e of expressions) {
    if (classifier.expression(operandOf(e)) !== 'staged' || ts.isConditionalExpression(e)) continue;
    if (!classifier.isBooleanTyped(e)) continue;
    let parent = e.parent;
    while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
    const inCondition = (ts.isIfStatement(parent) || ts.isWhileStatement(parent) || ts.isDoStatement(parent) ||
      (ts.isForStatement(parent) && parent.condition !== undefined) || ts.isConditionalExpression(parent) ||
      (ts.isPrefixUnaryExpression(parent) && parent.operator === ts.SyntaxKind.ExclamationToken) ||
      (ts.isBinaryExpression(parent) && (parent.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ||
        parent.operatorToken.kind === ts.SyntaxKind.BarBarToken)));
    if (!inCondition) warnings.push(new ConversionError('TensorValueAsBoolean', e, undefined, 'warning'));
  }
  return warnings;
}

function optionalTensorConditions(controls: Site<TS.Statement>[], converted: Set<TS.Node>,
                                  classifier: Classifier): ConversionError[] {
  const warnings: ConversionError[] = [];
  for (const { node } of controls) {
    const tested = classifier.statement(node);
    if (tested?.role === 'condition' && converted.has(node) && classifier.isOptionalTensor(tested.tested)) {
      warnings.push(new ConversionError('OptionalTensorCondition', tested.tested, undefined, 'warning'));
    }
  }
  return warnings;
}

function assertKinds(expressions: Set<TS.Expression>, classifier: Classifier): Map<TS.CallExpression, 'node' | 'console'> {
  const kinds = new Map<TS.CallExpression, 'node' | 'console'>();
  for (const e of expressions) if (ts.isCallExpression(e)) kinds.set(e, classifier.assertKind(e)!);
  return kinds;
}

function isDirectEval(node: TS.Node): boolean {
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'eval';
}

function operandOf(e: TS.Expression): TS.Expression {
  if (ts.isCallExpression(e)) return e.arguments[0];
  if (ts.isBinaryExpression(e)) return e.left;
  if (ts.isPrefixUnaryExpression(e)) return e.operand;
  if (ts.isConditionalExpression(e)) return e.condition;
  return e;
}

function isControlStatement(node: TS.Node): node is TS.Statement {
  return ts.isIfStatement(node) || isLoop(node) || ts.isSwitchStatement(node) || ts.isLabeledStatement(node);
}

function hasTensorCondition(node: TS.Statement, classifier: Classifier): boolean {
  const tested = classifier.statement(node);
  return tested !== undefined && tested.convertible && tested.kind !== 'static';
}

/** The operand that decides a `!`, `&&`, `||`, `&&=`, `||=` or `?:` (the one tested). */
function logicalOperand(node: TS.Node): TS.Expression | undefined {
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    return op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken ||
      op === ts.SyntaxKind.AmpersandAmpersandEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken ? node.left : undefined;
  }
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) return node.operand;
  if (ts.isConditionalExpression(node)) return node.condition;
  return undefined;
}

function isConvertedExpression(node: TS.Node, classifier: Classifier): boolean {
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken ||
        op === ts.SyntaxKind.AmpersandAmpersandEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken) {
      return classifier.expression(node.left) !== 'static';
    }
    return false;
  }
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
    return classifier.expression(node.operand) !== 'static';
  }
  if (ts.isConditionalExpression(node)) return classifier.expression(node.condition) !== 'static';
  if (ts.isCallExpression(node) && node.arguments.length > 0 && !ts.isSpreadElement(node.arguments[0])) {
    return classifier.assertKind(node) !== undefined && classifier.expression(node.arguments[0]) !== 'static';
  }
  return false;
}

/** The statement a break/continue leaves, resolved through labels; undefined if it leaves the
 * function (invalid code, reported by the checker already). */
function findTarget(jump: Jump, ancestors: TS.Statement[]): TS.Statement | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const s = ancestors[i];
    if (jump.label) {
      if (ts.isLabeledStatement(s) && s.label.text === jump.label.text) return loopOf(s);
    } else if (isLoop(s) || (ts.isBreakStatement(jump) && ts.isSwitchStatement(s))) {
      return s;
    }
  }
  return undefined;
}

function contains(outer: TS.Node, inner: TS.Node): boolean {
  return inner.pos >= outer.pos && inner.end <= outer.end && inner !== outer && outer.getSourceFile() === inner.getSourceFile();
}
