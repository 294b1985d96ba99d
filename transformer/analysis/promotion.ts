/**
 * Which of the user's JS numbers and booleans a staged loop may promote to tensors, and where the
 * code must be told (issue 8, item 3; the runtime side is runtime/promoted_values.ts).
 *
 * A variable is promotable when it is a local number or boolean (checker) that a converted loop
 * or conditional assigns — its counter `t`, a `found = true` flag, `index = j` under a tensor
 * `if` — or that is assigned a converted `?:`, `&&` or `||` (`k = t.greater(0) ? 3 : 4`), or a
 * value computed from a promotable one (`const next = t + 1`), to a fixpoint. Every expression that may then hold a
 * promoted tensor ("maybe promoted": a read of such a variable, and arithmetic, comparisons, `!`,
 * `&&`, `?:` over one) is either consumed by something that takes a tensor, or read as a plain
 * value through ag__.plainValue, which refuses a tensor with an error naming the variable (which
 * reads those are, and what consumes a tensor, is analysis/plain_reads.ts).
 * The length of an array that a staged loop may grow into a list (`xs.length`, the plan's
 * newLists) is an int32 tensor in a trace as well: it is promotable like a counter, under the
 * qualified name `xs.length` (`Array(xs.length)`, `xs.length === 3` and `typeof xs.length` then
 * behave as for `t`), and so is a variable assigned from it.
 * Everything here is syntactic over names, given the set of promotable names: a rewrite of a read
 * that never holds a tensor is exact on plain values, so over-approximating is safe.
 */
import type * as TS from 'typescript';
import type { Classifier } from '../classify';
import { ts } from '../typescript';
import { closureComposites, closureWrites, escapingWrites, mayRunEscaping } from './closure_writes';
import { elementCallback, isPromotedArgument, promotedParameterNames } from './promoted_parameters';
import { qualifiedName, visitReferences } from './references';
import { compositeTargetsOf } from './activity';
import { PROMOTED_MATH } from '../../runtime/names';

export interface PromotionPlan {
  /** Whether anything in the function may hold a promoted value (the expression pass runs). */
  readonly active: boolean;
  /** Promotable qualified names: variables (`t`) and lengths of lists (`xs.length`). */
  readonly names: ReadonlySet<string>;
  /** Maybe-promoted expressions in places where JS needs a plain value, wrapped in ag__.plainValue,
   * with the text its error names them by (the variable, or the expression's source). */
  readonly plainReads: ReadonlyMap<TS.Expression, string>;
  /** Variables holding objects with number or boolean fields that converted statements assign
   * whole (`best = { score, index: i }`): the JS numbers and booleans in their values are promoted
   * (their field reads are promotable fields, `best.index`, like any user field). */
  readonly records: ReadonlySet<string>;
}

export const noPromotion: PromotionPlan = { active: false, names: new Set(), plainReads: new Map(), records: new Set() };

/** See PromotionPlan.records. */
export function promotableRecords(body: TS.Node, converted: ReadonlySet<TS.Node>, classifier: Classifier): Set<string> {
  const records = new Set<string>();
  const fn = body.parent;
  if (fn === undefined || body.pos < 0 || ts.getOriginalNode(body) !== body) return records;
  const visit = (node: TS.Node, inConverted: boolean): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    // (A statement a lowered jump guards is in a converted if too: plan.ts withGuarded.)
    const here = inConverted || (ts.isStatement(node) && converted.has(node));
    const target = here ? assignedName(node) : undefined;
    if (target !== undefined && ts.isIdentifier(target) && classifier.hasPromotableFields(target, fn)) records.add(target.text);
    ts.forEachChild(node, (child) => visit(child, here));
  };
  visit(body, false);
  return records;
}

/** Whether a function body calls a function that may return a promoted value (after promotableNames). */
export function callsPromoting(body: TS.Node): boolean {
  const visit = (node: TS.Node): boolean => !ts.isFunctionLike(node) && !ts.isClassLike(node) &&
    (promotedCalls.has(node) || (ts.forEachChild(node, (c) => visit(c) || undefined) ?? false));
  return visit(body);
}

export const ARITHMETIC = new Set<TS.SyntaxKind>([
  ts.SyntaxKind.PlusToken, ts.SyntaxKind.MinusToken, ts.SyntaxKind.AsteriskToken, ts.SyntaxKind.SlashToken,
  ts.SyntaxKind.PercentToken, ts.SyntaxKind.AsteriskAsteriskToken, ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken, ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.AmpersandToken, ts.SyntaxKind.BarToken,
  ts.SyntaxKind.CaretToken, ts.SyntaxKind.LessThanLessThanToken, ts.SyntaxKind.GreaterThanGreaterThanToken,
  ts.SyntaxKind.GreaterThanGreaterThanGreaterThanToken,
]);

/** `a op= b` → op, for the compound assignments of the ARITHMETIC operators. */
export const COMPOUND_ASSIGNMENT = new Map<TS.SyntaxKind, TS.SyntaxKind>([
  [ts.SyntaxKind.PlusEqualsToken, ts.SyntaxKind.PlusToken], [ts.SyntaxKind.MinusEqualsToken, ts.SyntaxKind.MinusToken],
  [ts.SyntaxKind.AsteriskEqualsToken, ts.SyntaxKind.AsteriskToken], [ts.SyntaxKind.SlashEqualsToken, ts.SyntaxKind.SlashToken],
  [ts.SyntaxKind.PercentEqualsToken, ts.SyntaxKind.PercentToken],
  [ts.SyntaxKind.AsteriskAsteriskEqualsToken, ts.SyntaxKind.AsteriskAsteriskToken],
  [ts.SyntaxKind.AmpersandEqualsToken, ts.SyntaxKind.AmpersandToken], [ts.SyntaxKind.BarEqualsToken, ts.SyntaxKind.BarToken],
  [ts.SyntaxKind.CaretEqualsToken, ts.SyntaxKind.CaretToken],
  [ts.SyntaxKind.LessThanLessThanEqualsToken, ts.SyntaxKind.LessThanLessThanToken],
  [ts.SyntaxKind.GreaterThanGreaterThanEqualsToken, ts.SyntaxKind.GreaterThanGreaterThanToken],
  [ts.SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken, ts.SyntaxKind.GreaterThanGreaterThanGreaterThanToken],
]);

export function isArithmetic(op: TS.SyntaxKind): boolean {
  return ARITHMETIC.has(op);
}

export const isLogical = (op: TS.SyntaxKind): boolean => op === ts.SyntaxKind.AmpersandAmpersandToken ||
  op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken;

/**
 * Calls to the project's functions typed to return a number or boolean (Classifier.mayReturnPromoted),
 * by original node: a converted callee may return a counter that its staged loop promoted, so its
 * result is maybe promoted in the caller like a promotable variable.
 */
const promotedCalls = new WeakSet<TS.Node>();

/** Whether a call (by original node) may return a promoted value (promotedCalls). */
export const isPromotedCall = (node: TS.Node): boolean => promotedCalls.has(node);

/**
 * Reads of the user's number or boolean fields through a chain that has no qualified name
 * (`list.callbacks[0].model.stopTraining`), by original node: like a named field (`this.wait`), a
 * staged statement elsewhere may have made the field a promoted tensor.
 */
const promotedFieldReads = new WeakSet<TS.Node>();

/**
 * `values[i]` on a JS array of numbers or booleans, or of tensors (not one a staged loop grows), whose
 * index may be promoted, by original node: ag__.arrayItem gathers it in a trace (of numbers, a
 * promoted value itself).
 */
const promotedItemReads = new WeakSet<TS.Node>();
/** Likewise on a JS array of tensors (`tf.unstack(x)`) or records: ag__.arrayItem reads it too, but eagerly it is a
 * tensor or an object, not a promoted value (a record's number fields are promoted fields). */
const tensorItemReads = new WeakSet<TS.Node>();

/**
 * `values[i] = v` (values a variable or a field: `this.visited[p] = 1`) on a JS array of numbers, booleans, tensors
 * or records that is not one a staged loop grows, whose index may be promoted, by original node: ag__.setListItem
 * writes every element as a conditional on `i === k` in a trace (the array is state of the staged statements
 * around the write, element by element).
 */
const promotedItemWrites = new WeakSet<TS.Node>();

export function isPromotedItemWrite(node: TS.Node): node is TS.BinaryExpression & { left: TS.ElementAccessExpression } {
  return ts.isBinaryExpression(node) && promotedItemWrites.has(ts.getOriginalNode(node));
}

export function isPromotedItemRead(node: TS.Node): node is TS.ElementAccessExpression {
  return ts.isElementAccessExpression(node) && (promotedItemReads.has(ts.getOriginalNode(node)) || tensorItemReads.has(ts.getOriginalNode(node)));
}

/** Whether `expr` may hold a promoted tensor, given the promotable names (see the module comment). */
export function isMaybePromoted(expr: TS.Expression, names: ReadonlySet<string>): boolean {
  const maybe = (e: TS.Expression): boolean => {
    if (ts.isIdentifier(e)) return names.has(e.text);
    if (isListLength(e)) return names.has(listLengthName(e));
    if (ts.isPropertyAccessExpression(e)) return isPromotedField(e, names) || promotedFieldReads.has(ts.getOriginalNode(e));
    if (ts.isElementAccessExpression(e)) return isPromotedElement(e, names) || promotedItemReads.has(ts.getOriginalNode(e));
    if (ts.isCallExpression(e)) return promotedCalls.has(ts.getOriginalNode(e)) || (isMathCall(e) && e.arguments.some(maybe));
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) ||
        ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e)) return maybe(e.expression);
    if (ts.isPrefixUnaryExpression(e)) {
      if (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken) return maybe(e.operand);
      if (e.operator === ts.SyntaxKind.ExclamationToken || e.operator === ts.SyntaxKind.MinusToken ||
          e.operator === ts.SyntaxKind.PlusToken) return maybe(e.operand);
      return false;
    }
    if (ts.isPostfixUnaryExpression(e)) return maybe(e.operand);
    // `...counts` of an array whose elements are promoted (in `Math.max(...counts)`).
    if (ts.isSpreadElement(e)) return ts.isIdentifier(e.expression) && names.has(elementsName(e.expression.text));
    if (ts.isConditionalExpression(e)) return maybe(e.condition) || maybe(e.whenTrue) || maybe(e.whenFalse);
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === ts.SyntaxKind.CommaToken) return maybe(e.right);
      if (ARITHMETIC.has(op) || isLogical(op)) return maybe(e.left) || maybe(e.right);
      if (op === ts.SyntaxKind.EqualsToken || COMPOUND_ASSIGNMENT.has(op)) {
        return (ts.isIdentifier(e.left) && names.has(e.left.text)) || (ts.isPropertyAccessExpression(e.left) && isPromotedField(e.left, names)) ||
          (ts.isElementAccessExpression(e.left) && isPromotedElement(e.left, names));
      }
      if (op === ts.SyntaxKind.AmpersandAmpersandEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken ||
          op === ts.SyntaxKind.QuestionQuestionEqualsToken) return maybe(e.left) || maybe(e.right);
    }
    return false;
  };
  return maybe(expr);
}

/**
 * In a nested function, the reads of an enclosing function's counters and flags that a staged loop
 * there may promote (`xs.some((v) => v === t)`), and of the length of its arrays that a staged loop
 * may grow into lists (`() => Array(xs.length)`): the closure may run after (or during) that loop,
 * and JS code is all it can run on them, so each read is a plain-value read.
 */
export function capturedCounterReads(body: TS.Node, classifier: Classifier): Map<TS.Expression, string> {
  const fn = body.parent;
  const reads = new Map<TS.Expression, string>();
  // Only the original tree can be asked about symbols (a function that a pass rebuilt is skipped).
  if (fn === undefined || body.pos < 0 || ts.getOriginalNode(body) !== body) return reads;
  visitReferences(body, {
    name(name, kind, nested, node) {
      if (kind !== 'read' || nested || !ts.isIdentifier(node) || node.pos < 0 || node.parent === undefined) return;
      if (classifier.isCapturedCounter(node, fn)) reads.set(node, name);
      const access = node.parent;
      if (isListLength(access) && access.expression === node && !isWriteTarget(access) &&
          classifier.isCapturedList(node, fn)) reads.set(access, listLengthName(access));
    },
  });
  return reads;
}

/**
 * The promotable names of each converted function (by its original node), as its plan found them:
 * a function nested in it reads the same variables, and the same names are promotable there.
 */
const promotableByFunction = new WeakMap<TS.Node, ReadonlySet<string>>();

export function recordPromotableNames(body: TS.Node, names: ReadonlySet<string>): void {
  if (body.parent !== undefined && names.size > 0) promotableByFunction.set(ts.getOriginalNode(body.parent), names);
}

/**
 * The names of an enclosing converted function's promotable values that a nested function reads
 * (`sums.map((s, c) => s.div(Math.max(counts[c], 1)))` after a staged loop counted into `counts`):
 * the closure may run while they hold promoted tensors, so its expressions over them go through the
 * operators as the enclosing function's do (exact on plain values: a closure that runs later, on
 * JS numbers, computes what it always did). Each read is resolved by the checker to the enclosing
 * function's own variable, so a local of the same name is not one.
 */
export function capturedPromotableNames(body: TS.Node, classifier: Classifier): Set<string> {
  const names = new Set<string>();
  const fn = body.parent;
  if (fn === undefined || body.pos < 0 || ts.getOriginalNode(body) !== body) return names;
  visitReferences(body, {
    name(name, kind, nested, node) {
      if (kind === 'declare' || nested || !ts.isIdentifier(node) || node.pos < 0 || node.parent === undefined) return;
      // The variable itself, and what a local function named here assigns (closure_writes.ts).
      for (const id of [node, ...(kind === 'read' ? closureWrites().get(name) ?? [] : [])]) {
        const owner = classifier.enclosingOwner(id, fn);
        const promotable = owner === undefined ? undefined : promotableByFunction.get(owner);
        if (promotable === undefined) continue;
        for (const form of [id.text, elementsName(id.text), `${id.text}.length`]) if (promotable.has(form)) names.add(form);
      }
    },
  });
  return names;
}

/**
 * `Math.floor(...)`, `Math.max(...)`, ...: a built-in that runtime/promoted_math.ts computes on a
 * promoted value (its arguments are consumed there; the call gives a maybe-promoted value).
 */
export function isMathCall(e: TS.Node): e is TS.CallExpression {
  return ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && ts.isIdentifier(e.expression.expression) &&
    e.expression.expression.text === 'Math' && ts.isIdentifier(e.expression.name) &&
    (PROMOTED_MATH as readonly string[]).includes(e.expression.name.text);
}

/** The promotable name that stands for every element of the array `name` (`counts[]`). */
export const elementsName = (name: string): string => `${name}[]`;

/** An element of an array whose elements are promotable (`counts[c]`). */
export function isPromotedElement(e: TS.ElementAccessExpression, names: ReadonlySet<string>): boolean {
  return ts.isIdentifier(e.expression) && names.has(elementsName(e.expression.text));
}

/** A promotable field (`this.wait`), by its qualified name. */
export function isPromotedField(e: TS.PropertyAccessExpression, names: ReadonlySet<string>): boolean {
  const name = qualifiedName(e);
  return name !== undefined && name.includes('.') && names.has(name);
}

/** `xs.length` for an array variable xs (whether xs is a list is the caller's question). */
export function isListLength(e: TS.Node): e is TS.PropertyAccessExpression & { expression: TS.Identifier } {
  return ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && ts.isIdentifier(e.name) &&
    e.name.text === 'length';
}

export function listLengthName(e: TS.PropertyAccessExpression & { expression: TS.Identifier }): string {
  return `${e.expression.text}.length`;
}

/**
 * The promotable qualified names of a function body, given the loops the plan converts and the
 * arrays they may grow into lists (by name).
 */
export function promotableNames(body: TS.Node, converted: ReadonlySet<TS.Node>, classifier: Classifier,
                                lists: Iterable<string>, expressions: ReadonlySet<TS.Expression> = new Set(),
                                captured: ReadonlySet<string> = new Set()): Set<string> {
  const fn = body.parent;
  const names = new Set<string>([...[...lists].map((list) => `${list}.length`), ...captured, ...promotedParameterNames(fn)]);
  // Only the original tree can be asked about symbols (a function that a pass rebuilt is skipped).
  if (fn === undefined || body.pos < 0 || ts.getOriginalNode(body) !== body) return names;
  const promotable = (target: TS.Expression): string | undefined => {
    while (ts.isParenthesizedExpression(target)) target = target.expression;
    if (ts.isPropertyAccessExpression(target)) {
      // A number or boolean field (`this.wait`, `state.best`), by its qualified name.
      return classifier.isPromotableProperty(target) ? qualifiedName(target) : undefined;
    }
    return ts.isIdentifier(target) && classifier.isPromotableVariable(target, fn) ? target.text : undefined;
  };
  // Seeds: the targets of assignments inside converted loops and conditionals, and of converted
  // value-giving expressions (a staged `?:`, `&&`, `||` gives a tensor).
  const seed = (node: TS.Node, inConverted: boolean): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    // (A statement a lowered jump guards is in a converted if too: plan.ts withGuarded.)
    const here = inConverted || (ts.isStatement(node) && converted.has(node));
    const assigned = assignment(node);
    const target = here ? assignedName(node)
      : assigned !== undefined && givesConvertedValue(assigned.value, expressions) ? assigned.target : undefined;
    const name = target && promotable(target);
    if (name) names.add(name);
    // A local function called (or passed) here assigns what it assigns here (closure_writes.ts).
    if (here && ts.isIdentifier(node)) {
      for (const written of closureWrites().get(node.text) ?? []) {
        const closureName = promotable(written);
        if (closureName) names.add(closureName);
      }
    }
    // A call here may run an escaping function of the body: what it assigns is assigned here (closure_writes.ts).
    if (here && mayRunEscaping(node)) {
      for (const written of escapingWrites()) {
        const closureName = promotable(written);
        if (closureName) names.add(closureName);
      }
    }
    ts.forEachChild(node, (child) => seed(child, here));
  };
  seed(body, false);
  // Variables of this function that a nested function assigns under its own tensor condition
  // (`xs.forEach((v) => { if (v.greater(0)) n++; })`): promoted there, so here too (and, recorded,
  // in the nested function as its captured names: capturedPromotableNames).
  const nestedStaged = (node: TS.Node, nested: TS.Node | undefined, inStaged: boolean): void => {
    if (ts.isClassLike(node)) return;
    if (ts.isFunctionLike(node)) return ts.forEachChild(node, (child) => nestedStaged(child, node, false));
    const staged = inStaged || (nested !== undefined && ts.isStatement(node) && classifier.isStagedStatement(node));
    const target = staged ? assignedName(node) : undefined;
    if (target !== undefined && ts.isIdentifier(target) && classifier.enclosingOwner(target, nested!) === ts.getOriginalNode(fn)) {
      const name = promotable(target);
      if (name) names.add(name);
    }
    ts.forEachChild(node, (child) => nestedStaged(child, nested, staged));
  };
  ts.forEachChild(body, (child) => nestedStaged(child, undefined, false));
  // Number and boolean fields of the user's objects (`cb.stopTraining`, `this.wait`), wherever they
  // are read or written: code this function calls may have promoted one (a converted method's
  // staged if, a field the tracer observed changing), and JS would read a Tensor object as truthy.
  // (Converted code with tfjs in the program: a converted method may run inside a staged body.)
  const fields = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isPropertyAccessExpression(node) && !ts.isPropertyAccessExpression(node.parent) && classifier.isUserField(node)) {
      const name = qualifiedName(node);
      if (name !== undefined) names.add(name);
      // A chain with no qualified name (`list.callbacks[0].model.stopTraining`): this read, by node.
      else promotedFieldReads.add(node);
    }
    ts.forEachChild(node, fields);
  };
  fields(body);
  // Arrays of numbers or booleans that a converted statement changes in place (`counts[c]++`):
  // their elements are carried promoted, so every element read goes through the operators too.
  const arrays = new Set<string>();
  for (const node of converted) for (const name of compositeTargetsOf(new Set(), () => true, node)) arrays.add(name);
  const elements = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression) && arrays.has(node.expression.text) &&
        classifier.isPromotableArray(node.expression)) names.add(elementsName(node.expression.text));
    ts.forEachChild(node, elements);
  };
  if (arrays.size > 0) elements(body);
  // Arrays of numbers a local function changes in place where a converted statement names it (`see(1)`
  // running `counts[c]++`): its elements are promoted like the function's own (closure_writes.ts).
  const closureArrays = (node: TS.Node, inConverted: boolean): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    const here = inConverted || (ts.isStatement(node) && converted.has(node));
    if (here && ts.isIdentifier(node)) {
      for (const target of closureComposites().get(node.text) ?? []) {
        if (classifier.isPromotableArray(target)) names.add(elementsName(target.text));
      }
    }
    ts.forEachChild(node, (child) => closureArrays(child, here));
  };
  closureArrays(body, false);
  let calls = false;
  const findCalls = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    // (givesPromoted: `xs.some((x) => x.greater(0))` gives a promoted boolean in a trace, runtime/array_predicates.ts.)
    if (ts.isCallExpression(node) && node.pos >= 0 && node.parent !== undefined &&
        (classifier.mayReturnPromoted(node) || classifier.givesPromoted(node))) {
      promotedCalls.add(node);
      calls = true;
    }
    ts.forEachChild(node, findCalls);
  };
  findCalls(body);
  if (names.size === 0 && !calls) return names;
  // `const { length } = xs` (or `{ length: n }`) of a list: the variable holds its length.
  const destructured = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer !== undefined &&
        ts.isIdentifier(node.initializer) && names.has(`${node.initializer.text}.length`)) {
      for (const element of node.name.elements) {
        const key = element.propertyName ?? element.name;
        // (A binding element is not a variable declaration to the classifier; its type is the length's.)
        if (ts.isIdentifier(key) && key.text === 'length' && ts.isIdentifier(element.name)) names.add(element.name.text);
      }
    }
    ts.forEachChild(node, destructured);
  };
  destructured(body);
  // Closure: variables assigned a value computed from a promotable one; arrays of numbers or
  // booleans a maybe-promoted value is stored in (`classes[i] = index`, `lrs.push(cb.lr)`): their
  // elements are promoted (`lrs[]`); the variable of a for...of over such an array.
  for (let changed = true; changed;) {
    changed = false;
    const add = (name: string | undefined): void => {
      if (name !== undefined && !names.has(name)) {
        names.add(name);
        changed = true;
      }
    };
    const visit = (node: TS.Node): void => {
      if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
      const assigned = assignment(node);
      if (assigned !== undefined && mentions(assigned.value, names)) add(promotable(assigned.target));
      // A number or boolean a call computes from a promoted argument (`isLast(batch, n)`: `i === n - 1`
      // on the promoted parameter i) may be promoted too.
      if (ts.isCallExpression(node) && !promotedCalls.has(node) && classifier.givesNumberOrBoolean(node) &&
          node.arguments.some((arg, i) => isMaybePromoted(arg, names) && isPromotedArgument(node, i))) {
        promotedCalls.add(node);
        changed = true;
      }
      const element = ts.isCallExpression(node) ? elementCallback(node, names) : undefined;
      if (element !== undefined) {
        const method = ((node as TS.CallExpression).expression as TS.PropertyAccessExpression).name.text;
        if (method === 'reduce' && !promotedCalls.has(node)) {
          promotedCalls.add(node);
          changed = true;
        }
        if (method === 'map' && ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) &&
            classifier.isPromotableArray(node.parent.name)) add(elementsName(node.parent.name.text));
      }
      // (Of an array variable, or one in a field: `this.visited[p]`.)
      const arrayName = ts.isElementAccessExpression(node) ? qualifiedName(node.expression) : undefined;
      if (ts.isElementAccessExpression(node) && arrayName !== undefined && !promotedItemReads.has(node) &&
          !names.has(elementsName(arrayName)) && !names.has(`${arrayName}.length`) && !isWriteTarget(node) &&
          isMaybePromoted(node.argumentExpression, names)) {
        if (classifier.holdsTensors(node.expression) || classifier.holdsRecords(node.expression)) {
          tensorItemReads.add(node);
        } else if (ts.isIdentifier(node.expression) ? classifier.isPromotableArray(node.expression) || classifier.mayHoldTensors(node.expression)
          : classifier.holdsNumbersOrBooleans(node.expression)) {
          // (An element of a T[] or unknown[] may be a JS number: maybe promoted.)
          promotedItemReads.add(node);
          changed = true;
        }
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isElementAccessExpression(node.left) &&
          !promotedItemWrites.has(node) && !isListItemWrite(node, names) && qualifiedName(node.left.expression) !== undefined &&
          isMaybePromoted(node.left.argumentExpression, names) && (classifier.holdsNumbersOrBooleans(node.left.expression) ||
            classifier.mayHoldTensors(node.left.expression) || classifier.holdsRecords(node.left.expression))) {
        promotedItemWrites.add(node);
      }
      // `const { reward, done } = game.step(a)`: a converted callee that may stage returns a record
      // whose numbers and booleans may be promoted: the names destructured from it are promotable.
      if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer !== undefined) {
        let init = node.initializer;
        while (ts.isParenthesizedExpression(init) || ts.isAwaitExpression(init)) init = init.expression;
        if (ts.isCallExpression(init) && init.pos >= 0 && classifier.mayReturnPromoted(init, true)) {
          for (const element of node.name.elements) {
            if (ts.isIdentifier(element.name) && !element.dotDotDotToken && classifier.isNumberOrBooleanNode(element.name)) add(element.name.text);
          }
        }
      }
      const stored = storedElement(node);
      if (stored !== undefined && isMaybePromoted(stored.value, names) && classifier.isPromotableArray(stored.array)) {
        add(elementsName(stored.array.text));
      }
      // `const inputs = [v / 2, 1]` (or `inputs = [...]`) with a maybe-promoted element: its elements are promoted.
      const literal = arrayLiteralStored(node);
      if (literal !== undefined && literal.values.some((v) => isMaybePromoted(v, names)) && classifier.isPromotableArray(literal.array)) {
        add(elementsName(literal.array.text));
      }
      if (ts.isForOfStatement(node) && ts.isIdentifier(node.expression) && names.has(elementsName(node.expression.text)) &&
          ts.isVariableDeclarationList(node.initializer) && node.initializer.declarations.length === 1 &&
          ts.isIdentifier(node.initializer.declarations[0].name)) {
        add(promotable(node.initializer.declarations[0].name));
      }
      ts.forEachChild(node, visit);
    };
    visit(body);
  }
  return names;
}

/** `xs[i] = v`, `xs.push(v)`, `xs.unshift(v)` on an array variable: the array and the value stored. */
function storedElement(node: TS.Node): { array: TS.Identifier; value: TS.Expression } | undefined {
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isElementAccessExpression(node.left) && ts.isIdentifier(node.left.expression)) {
    return { array: node.left.expression, value: node.right };
  }
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) &&
      ['push', 'unshift'].includes(node.expression.name.text) && node.arguments.length === 1 && !ts.isSpreadElement(node.arguments[0])) {
    return { array: node.expression.expression, value: node.arguments[0] };
  }
  return undefined;
}

/** `const xs = [a, b]`, `xs = [a, b]` (no spread): the array variable and the literal's elements. */
export function arrayLiteralStored(node: TS.Node): { array: TS.Identifier; values: readonly TS.Expression[] } | undefined {
  let target: TS.Node | undefined;
  let value: TS.Expression | undefined;
  if (ts.isVariableDeclaration(node) && node.initializer !== undefined) [target, value] = [node.name, node.initializer];
  else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) [target, value] = [node.left, node.right];
  while (value !== undefined && ts.isParenthesizedExpression(value)) value = value.expression;
  if (target === undefined || !ts.isIdentifier(target) || value === undefined || !ts.isArrayLiteralExpression(value) ||
      value.elements.some((e) => ts.isSpreadElement(e) || ts.isOmittedExpression(e))) return undefined;
  return { array: target, values: value.elements };
}

/** Whether `value` is (in parentheses) a converted `?:`, `&&` or `||`: staged, it gives a tensor. */
function givesConvertedValue(value: TS.Expression, expressions: ReadonlySet<TS.Expression>): boolean {
  while (ts.isParenthesizedExpression(value)) value = value.expression;
  return expressions.has(value) && (ts.isConditionalExpression(value) || (ts.isBinaryExpression(value) &&
    (value.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || value.operatorToken.kind === ts.SyntaxKind.BarBarToken)));
}

/** The variable an assignment, update or declaration inside a loop writes, if it is a plain name. */
export function assignedName(node: TS.Node): TS.Expression | undefined {
  if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.EqualsToken ||
      COMPOUND_ASSIGNMENT.has(node.operatorToken.kind) || node.operatorToken.kind === ts.SyntaxKind.BarBarEqualsToken ||
      node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandEqualsToken ||
      node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionEqualsToken)) return node.left;
  if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) return node.operand;
  return undefined;
}

function assignment(node: TS.Node): { target: TS.Expression; value: TS.Expression } | undefined {
  if (ts.isVariableDeclaration(node) && node.initializer && ts.isIdentifier(node.name)) {
    return { target: node.name, value: node.initializer };
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind !== ts.SyntaxKind.CommaToken && assignedName(node)) {
    return { target: node.left, value: node.right };
  }
  return undefined;
}

function mentions(node: TS.Node, names: ReadonlySet<string>): boolean {
  if (ts.isIdentifier(node)) return names.has(node.text);
  // `...counts` of an array whose elements are promoted (`n = Math.max(...counts)`).
  if (ts.isSpreadElement(node) && ts.isIdentifier(node.expression) && names.has(elementsName(node.expression.text))) return true;
  if (ts.isPropertyAccessExpression(node) && isPromotedField(node, names)) return true;
  if (ts.isElementAccessExpression(node) && isPromotedElement(node, names)) return true;
  if (isListLength(node) && names.has(listLengthName(node))) return true;
  if (promotedCalls.has(node)) return true;
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  return ts.forEachChild(node, (child) => mentions(child, names) || undefined) ?? false;
}

/** A name (or pattern) that an assignment, update, declaration or for...of/in writes. */
export function isWriteTarget(node: TS.Node): boolean {
  let child = node;
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) {
    child = parent;
    parent = parent.parent;
  }
  if (ts.isBinaryExpression(parent) && parent.left === child && (parent.operatorToken.kind === ts.SyntaxKind.EqualsToken ||
      assignedName(parent) !== undefined)) return true;
  if ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) && assignedName(parent) !== undefined) return true;
  if ((ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === child) return true;
  // Elements of a destructuring assignment's pattern.
  if (ts.isArrayLiteralExpression(parent) || ts.isShorthandPropertyAssignment(parent) || ts.isPropertyAssignment(parent) ||
      ts.isSpreadElement(parent) || ts.isObjectLiteralExpression(parent)) {
    let outer: TS.Node = parent;
    while (ts.isArrayLiteralExpression(outer) || ts.isObjectLiteralExpression(outer) || ts.isPropertyAssignment(outer) ||
           ts.isShorthandPropertyAssignment(outer) || ts.isSpreadElement(outer) || ts.isParenthesizedExpression(outer)) {
      const up: TS.Node = outer.parent;
      if ((ts.isBinaryExpression(up) && up.left === outer && up.operatorToken.kind === ts.SyntaxKind.EqualsToken) ||
          ((ts.isForOfStatement(up) || ts.isForInStatement(up)) && up.initializer === outer)) return true;
      outer = up;
    }
  }
  return false;
}

/** `xs[i]`, read (not assigned), on an array that a staged loop may grow into a list. */
export function isListItem(node: TS.Node, names: ReadonlySet<string>): node is TS.ElementAccessExpression {
  return ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression) &&
    names.has(`${node.expression.text}.length`) && !isWriteTarget(node);
}

/** `xs[i] = v` on an array that a staged loop may grow into a list (whose elements a tensor index writes). */
export function isListItemWrite(node: TS.Node, names: ReadonlySet<string>): node is TS.BinaryExpression & { left: TS.ElementAccessExpression } {
  return ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isElementAccessExpression(node.left) && ts.isIdentifier(node.left.expression) && names.has(`${node.left.expression.text}.length`);
}
