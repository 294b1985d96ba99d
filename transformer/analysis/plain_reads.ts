/**
 * Plain reads: where an expression that may hold a promoted value (analysis/promotion.ts) is used
 * where JS needs its plain value, it is read through ag__.plainValue, which refuses a promoted
 * tensor with an error naming it. Everything else is a consumer that takes a tensor: an operator,
 * a condition, a tfjs call, an assignment to a promotable variable, a return (read back), the
 * stores and callbacks of arrays whose elements are promoted (`consumed`, `arrayConsumed`).
 */
import type * as TS from 'typescript';
import type { Classifier } from '../classify';
import { ts } from '../typescript';
import { qualifiedName, visitReferences } from './references';
import { elementCallback, isPromotedArgument, promotedParameterNames } from './promoted_parameters';
import {
  ARITHMETIC, arrayLiteralStored, assignedName, COMPOUND_ASSIGNMENT, elementsName, isPromotedCall, isListItem, isListItemWrite, isListLength, isLogical, isMathCall, isMaybePromoted, isPromotedElement,
  isPromotedField, isPromotedItemRead, isPromotedItemWrite, isWriteTarget, listLengthName,
} from './promotion';

/** The user's text of a short expression (for messages), on one line. */
function sourceText(node: TS.Node): string | undefined {
  if (node.pos < 0 || node.parent === undefined) return undefined;
  const text = node.getText().replace(/\s+/g, ' ');
  return text.length <= 40 ? text : undefined;
}

/** The first promotable name an expression reads (for the error of ag__.plainValue). */
function firstName(node: TS.Node, names: ReadonlySet<string>): string | undefined {
  if (ts.isIdentifier(node)) return names.has(node.text) ? node.text : undefined;
  if (ts.isPropertyAccessExpression(node) && isPromotedField(node, names)) return qualifiedName(node);
  if (isListLength(node) && names.has(listLengthName(node))) return listLengthName(node);
  if (isPromotedCall(node)) return 'the call\'s result';
  return ts.forEachChild(node, (child) => firstName(child, names));
}

/**
 * The outermost maybe-promoted expressions whose parent does not consume a tensor (see the module
 * comment), mapped to the variable they read.
 */
export function plainReads(body: TS.Node, names: ReadonlySet<string>, classifier: Classifier,
                           captured: ReadonlySet<string> = new Set()): Map<TS.Expression, string> {
  const reads = new Map<TS.Expression, string>();
  if (body.parent === undefined || body.pos < 0 || ts.getOriginalNode(body) !== body) return reads;
  // Identifiers that are references (not declared names, property names, labels...), read here.
  const references = new Set<TS.Node>();
  visitReferences(body, { name(_name, kind, nested, node) { if (kind === 'read' && !nested) references.add(node); } });
  const maybe = (e: TS.Expression): boolean => (!ts.isIdentifier(e) || references.has(e)) &&
    (!isListLength(e) || references.has(e.expression)) && isMaybePromoted(e, names);
  const record = (node: TS.Expression): void => {
    reads.set(node, ts.isIdentifier(node) ? node.text : isListLength(node) ? listLengthName(node)
      : ts.isPropertyAccessExpression(node) && isPromotedField(node, names) ? qualifiedName(node)!
      : sourceText(node) ?? firstName(node, names)!);
  };
  // `plainParts`: inside an expression JS needs as a plain value that reads an enclosing function's
  // promoted values (`v === t` in a closure): those reads are the plain ones, named as the user's.
  const visit = (node: TS.Node, plainParts: boolean): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    // An array whose elements may be promoted, read whole where JS would see its elements (`counts.indexOf(2)`).
    if (ts.isIdentifier(node) && references.has(node) && names.has(elementsName(node.text)) && !isWriteTarget(node) &&
        !arrayConsumed(node, names, classifier, captured)) return record(node);
    if (ts.isExpression(node) && maybe(node) && !isWriteTarget(node)) {
      if (plainParts || !consumed(node, names, classifier, captured)) {
        if (isCapturedRead(node, captured)) return record(node);
        if (!plainParts && !readsCaptured(node, captured)) record(node);
        else plainParts = true;
      }
    }
    ts.forEachChild(node, (child) => visit(child, plainParts));
  };
  visit(body, false);
  return reads;
}

/**
 * Whether an array whose elements may be promoted (`counts`, with `counts[]` promotable) is read
 * where its elements go through the operators or come back as JS values: an element (`counts[c]`),
 * its length, a push, a return, a for...of (its variable is promotable), `Math.max(...counts)`, a
 * tfjs function's values. Anywhere else JS would see a promoted tensor for a number.
 */
function arrayConsumed(node: TS.Identifier, names: ReadonlySet<string>, classifier: Classifier, captured: ReadonlySet<string>): boolean {
  let child: TS.Node = node;
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent) || ts.isAsExpression(parent)) {
    child = parent;
    parent = parent.parent;
  }
  if (ts.isElementAccessExpression(parent) && parent.expression === child) return true;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === child) {
    const member = parent.name.text;
    const call = ts.isCallExpression(parent.parent) && parent.parent.expression === parent ? parent.parent : undefined;
    // An inline callback of forEach/map/reduce gets the elements as promoted parameters; map's new
    // array is consumed where its own elements are (returned, or a variable whose elements are promoted).
    if (call !== undefined && elementCallback(call, names) !== undefined) return member !== 'map' || mapResultConsumed(call);
    return member === 'length' || ((member === 'push' || member === 'unshift') && call !== undefined);
  }
  if (ts.isForOfStatement(parent) && parent.expression === child) return true;
  if (ts.isSpreadElement(parent)) return isMathCall(parent.parent);
  const returnable = !readsCaptured(node, captured);
  if (ts.isReturnStatement(parent)) return returnable;
  if (ts.isArrayLiteralExpression(parent)) return (returnable && isReturned(parent)) || isTfjsValues(parent, classifier);
  if ((ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) && ts.isObjectLiteralExpression(parent.parent)) {
    return returnable && isReturned(parent.parent);
  }
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.includes(child as TS.Expression)) {
    return classifier.isTfjsCall(parent) || classifier.isTfjsValuesArgument(parent, child as TS.Expression) ||
      isPromotedArgument(parent, parent.arguments.indexOf(child as TS.Expression), true);
  }
  return false;
}

/** Whether `node` is in a map/reduce callback whose element parameter is promoted (promoted_parameters.ts): what it returns is an element. */
function givesElements(node: TS.Node): boolean {
  let fn: TS.Node | undefined = node.parent;
  while (fn !== undefined && !ts.isFunctionLike(fn)) fn = fn.parent;
  const call = fn?.parent;
  // (Or any map whose array is returned or stored: `return pairs.map((p) => p.index)` after a staged call promoted
  // the records' numbers gives an array of them, read back as JS numbers when returned.)
  return fn !== undefined && call !== undefined && ts.isCallExpression(call) && call.arguments[0] === fn &&
    ts.isPropertyAccessExpression(call.expression) && ['map', 'reduce'].includes(call.expression.name.text) &&
    (promotedParameterNames(fn).length > 0 || (call.expression.name.text === 'map' && mapResultConsumed(call)));
}

/** `return xs.map(...)` or `const ys = xs.map(...)` (ys's elements are then promoted: promotableNames). */
function mapResultConsumed(call: TS.CallExpression): boolean {
  let node: TS.Node = call;
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  return ts.isReturnStatement(node.parent) || (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name));
}

/** Whether `node` holds a read of an enclosing function's promotable value (isCapturedRead). */
function readsCaptured(node: TS.Node, captured: ReadonlySet<string>): boolean {
  if (captured.size === 0) return false;
  if (ts.isExpression(node) && isCapturedRead(node, captured)) return true;
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  return ts.forEachChild(node, (child) => readsCaptured(child, captured) || undefined) ?? false;
}

/** A read of an enclosing function's promotable value: `t`, `counts[c]`, `xs.length` (capturedPromotableNames). */
function isCapturedRead(node: TS.Expression, captured: ReadonlySet<string>): boolean {
  return (ts.isIdentifier(node) && captured.has(node.text)) || (ts.isElementAccessExpression(node) && isPromotedElement(node, captured)) ||
    (isListLength(node) && captured.has(listLengthName(node)));
}


/**
 * Whether the parent of a maybe-promoted expression takes a tensor there. A nested function's
 * result that holds an enclosing function's promoted value (`(v) => v === t`) goes to JS code
 * (`xs.some(...)`), which would take a Tensor object for a truthy value: its return is no consumer.
 */
function consumed(node: TS.Expression, names: ReadonlySet<string>, classifier: Classifier, captured: ReadonlySet<string>): boolean {
  const parent = node.parent;
  const returnable = !readsCaptured(node, captured) || givesElements(node);
  // `(c, k) => c / total[k]` given to map or reduce on promoted elements: its result is an element (or the accumulator).
  if (ts.isArrowFunction(parent) && parent.body === node && givesElements(node)) return true;
  // Parts of a larger maybe-promoted expression: the check is on that one.
  if (ts.isExpression(parent) && !ts.isCallLikeExpression(parent) && isMaybePromoted(parent, names) &&
      !ts.isTemplateExpression(parent) && !ts.isArrayLiteralExpression(parent) && !ts.isObjectLiteralExpression(parent) &&
      !ts.isElementAccessExpression(parent) && !ts.isPropertyAccessExpression(parent) && !ts.isSpreadElement(parent)) {
    // ...except the right operand of an assignment to something else.
    if (!(ts.isBinaryExpression(parent) && parent.right === node && assignedName(parent) !== undefined)) return true;
  }
  if (ts.isExpressionStatement(parent) || (ts.isReturnStatement(parent) && returnable)) return true;
  if ((ts.isIfStatement(parent) || ts.isWhileStatement(parent) || ts.isDoStatement(parent)) && parent.expression === node) return true;
  if (ts.isForStatement(parent) && (parent.condition === node || parent.incrementor === node)) return true;
  // Stored where a tensor may go: a promotable variable, or one whose type may hold a Tensor
  // (`v = t > 1 ? a : b` with tensors a, b: a tensor either way, not a JS number misread).
  if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
    return ts.isIdentifier(parent.name) && (names.has(parent.name.text) || classifier.mayHoldTensor(parent.name));
  }
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    if (op === ts.SyntaxKind.CommaToken && parent.left === node) return true;
    if (parent.right === node && assignedName(parent) !== undefined) {
      const toPromotable = (ts.isIdentifier(parent.left) && names.has(parent.left.text)) ||
        (ts.isPropertyAccessExpression(parent.left) && isPromotedField(parent.left, names)) ||
        (ts.isElementAccessExpression(parent.left) && isPromotedElement(parent.left, names));
      if (op === ts.SyntaxKind.EqualsToken && !toPromotable) return classifier.mayHoldTensor(parent.left);
      return toPromotable && (op === ts.SyntaxKind.EqualsToken || COMPOUND_ASSIGNMENT.has(op));
    }
    if (ARITHMETIC.has(op) || isLogical(op)) return true;
  }
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.includes(node)) {
    return classifier.isTfjsCall(parent) || classifier.isTfjsValuesArgument(parent, node) || isMathCall(parent) ||
      (ts.isCallExpression(parent) && (isListAt(parent, names) || isListPush(parent, names) || isElementsStore(parent, names))) ||
      isPromotedArgument(parent, parent.arguments!.indexOf(node));
  }
  // `xs[t]` on a list: ag__.listItem; on a JS array of numbers: ag__.arrayItem (converters/promoted_values.ts).
  if (isListItem(parent, names) && parent.argumentExpression === node) return true;
  // `xs[t] = v` on a list: ag__.setListItem, which takes a tensor index, and a value the list checks (a promoted
  // number goes into a list of numbers; a list of tensors refuses it by name).
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node && isListItemWrite(parent.parent, names) &&
      parent.parent.left === parent) return true;
  if (isListItemWrite(parent, names) && parent.right === node) return true;
  // `values[t] = v` on a JS array: ag__.setListItem, which writes every element as a conditional (promoted values in).
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node && isPromotedItemWrite(parent.parent) &&
      parent.parent.left === parent) return true;
  if (isPromotedItemWrite(parent) && parent.right === node) return true;
  if (isPromotedItemRead(parent) && parent.argumentExpression === node) return true;
  // `return [x, t]`, `return { t }`: the literal is the returned value; `tf.tensor1d([i, j])`:
  // the values of a tfjs function that makes a tensor.
  if (ts.isArrayLiteralExpression(parent)) {
    return (returnable && isReturned(parent)) || isTfjsValues(parent, classifier) || isStoredAsElements(parent, names);
  }
  if ((ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) && ts.isObjectLiteralExpression(parent.parent)) {
    return (returnable && isReturned(parent.parent)) || isStoredInRecord(parent.parent, classifier) ||
      isPushedToList(parent.parent, names);
  }
  return false;
}

/** `const inputs = [v / 2, 1]` where `inputs`' elements are promoted (promotableNames): the element stays promoted. */
function isStoredAsElements(literal: TS.ArrayLiteralExpression, names: ReadonlySet<string>): boolean {
  let node: TS.Node = literal;
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const stored = arrayLiteralStored(node.parent);
  return stored !== undefined && names.has(elementsName(stored.array.text));
}

/** `out.push({ v, k: i })` on a list: a record's number fields are lists of promoted scalars
 * (backends/staging/record_lists.ts), so a promoted field value stays promoted. */
function isPushedToList(literal: TS.ObjectLiteralExpression, names: ReadonlySet<string>): boolean {
  let node: TS.Node = literal;
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  return ts.isCallExpression(node.parent) && node.parent.arguments.includes(node as TS.Expression) && isListPush(node.parent, names);
}

/** `best = { score, index: i }`, `const o = { a, n: c }`: an object stored in a variable whose number
 * fields are promotable (PromotionPlan.records); its field reads are routed like any user field's. */
function isStoredInRecord(literal: TS.ObjectLiteralExpression, classifier: Classifier): boolean {
  let node: TS.Node = literal;
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  const target = ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken
    ? parent.left : ts.isVariableDeclaration(parent) && parent.initializer === node ? parent.name : undefined;
  if (target === undefined || !ts.isIdentifier(target)) return false;
  let fn: TS.Node | undefined = target.parent;
  while (fn !== undefined && !ts.isFunctionLike(fn)) fn = fn.parent;
  return fn !== undefined && classifier.hasPromotableFields(target, fn);
}

/** `xs.push(t)` on an array that a staged loop may grow into a list: a list of JS numbers holds
 * promoted scalars (a list of tensors refuses a promoted value: eagerly it would hold a number). */
function isListPush(call: TS.CallExpression, names: ReadonlySet<string>): boolean {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name) && callee.name.text === 'push' &&
    ts.isIdentifier(callee.expression) && names.has(`${callee.expression.text}.length`);
}

/** `xs.push(v)`, `xs.unshift(v)` on an array whose elements are promoted (`xs[]`, see promotableNames). */
function isElementsStore(call: TS.CallExpression, names: ReadonlySet<string>): boolean {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && (callee.name.text === 'push' || callee.name.text === 'unshift') &&
    ts.isIdentifier(callee.expression) && names.has(elementsName(callee.expression.text));
}

/** `xs.at(i)` on an array that a staged loop may grow into a list (which takes a tensor index). */
function isListAt(call: TS.CallExpression, names: ReadonlySet<string>): boolean {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.name) && callee.name.text === 'at' &&
    ts.isIdentifier(callee.expression) && names.has(`${callee.expression.text}.length`);
}

/** An array literal (nested in array literals) that is the values argument of tf.tensor1d & co. */
function isTfjsValues(literal: TS.ArrayLiteralExpression, classifier: Classifier): boolean {
  let node: TS.Expression = literal;
  while (ts.isArrayLiteralExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent as TS.Expression;
  const call = node.parent;
  return (ts.isCallExpression(call) || ts.isNewExpression(call)) && classifier.isTfjsValuesArgument(call, node);
}

function isReturned(literal: TS.Expression): boolean {
  let node: TS.Node = literal;
  while (ts.isParenthesizedExpression(node.parent) || ts.isArrayLiteralExpression(node.parent) ||
         ts.isPropertyAssignment(node.parent) || ts.isObjectLiteralExpression(node.parent)) node = node.parent;
  // (Or the result of a map callback on promoted elements: an element of the array map returns.)
  return ts.isReturnStatement(node.parent) || (ts.isArrowFunction(node.parent) && node.parent.body === node && givesElements(node));
}
