/**
 * Promoted parameters: the number and boolean parameters of converted functions to which a
 * converted caller may pass a promoted value — `cb.onBatchEnd(batch, loss)` in a loop that a tensor
 * `break` stages, where `batch` is carried as an int32 tensor. In the callee such a parameter is
 * promotable like its own counters (its arithmetic and comparisons go through the operators, JS-only
 * uses read it as a plain value), and in the caller the argument is no longer a JS-only use.
 *
 * Found once per program, before any function is converted: each converted function's plan says
 * which of its arguments may hold a promoted value; the callee (and every override of a called
 * method, which runs in its place) gets those parameters; repeated until nothing changes, since a
 * promoted parameter may be passed on.
 */
import type * as TS from 'typescript';
import type { Classifier } from '../classify';
import { CallTargets, isConvertibleFunction } from '../directives';
import { ts } from '../typescript';

/** Function (original node) → the indices of its promoted parameters. */
export type PromotedParameterTable = ReadonlyMap<TS.Node, ReadonlySet<number>>;

let current: PromotedParameterTable = new Map();
let currentTargets: CallTargets | undefined;

/** The table in force for the program being converted (empty outside a conversion), with its call targets. */
export function setPromotedParameters(table: PromotedParameterTable, targets: CallTargets | undefined): void {
  current = table;
  currentTargets = targets;
}

/**
 * Index of a parameter of number[] / boolean[] type whose elements may be promoted (an array a caller
 * built of promoted values: `predict(brain, [this.y / h, v])`): the table holds it as `~i`.
 */
const elementsOf = (i: number): number => ~i;

/** The names of `fn`'s promoted parameters (`xs[]` for one whose elements are promoted). */
export function promotedParameterNames(fn: TS.Node | undefined): string[] {
  const indices = fn === undefined ? undefined : current.get(ts.getOriginalNode(fn));
  if (indices === undefined || !ts.isFunctionLike(fn!)) return [];
  return [...indices].flatMap((i) => {
    const name = fn!.parameters[i < 0 ? elementsOf(i) : i]?.name;
    return name !== undefined && ts.isIdentifier(name) ? [i < 0 ? `${name.text}[]` : name.text] : [];
  });
}

/** Whether argument `index` of `call` goes to a promoted parameter of every function the call may run. */
export function isPromotedArgument(call: TS.CallExpression | TS.NewExpression, index: number, elements = false): boolean {
  if (current.size === 0 || currentTargets === undefined || call.pos < 0) return false;
  const fns = currentTargets.of(call);
  return fns.length > 0 && fns.every((fn) => current.get(fn)?.has(elements ? elementsOf(index) : index) === true);
}

/**
 * Builds the table: `promotedNames(fn)` is the plan's promotable names of a converted function
 * (given the table so far), `maybePromoted` whether an argument may hold a promoted value then.
 */
export function findPromotedParameters(selected: Iterable<TS.Node>, targets: CallTargets, classifier: Classifier,
                                        promotedNames: (fn: TS.FunctionLikeDeclaration) => ReadonlySet<string> | undefined,
                                        maybePromoted: (arg: TS.Expression, names: ReadonlySet<string>) => boolean): Map<TS.Node, Set<number>> {
  const table = new Map<TS.Node, Set<number>>();
  const callers = [...selected].filter((fn): fn is TS.FunctionLikeDeclaration => isConvertibleFunction(fn) && hasCallsWithArguments(fn));
  for (let changed = true, rounds = 0; changed && rounds < 4; rounds++) {
    changed = false;
    setPromotedParameters(table, targets);
    for (const fn of callers) {
      const names = promotedNames(fn);
      if (names === undefined || names.size === 0) continue;
      forEachCall(fn.body!, (call) => {
        const element = elementCallback(call, names);
        if (element !== undefined && !table.get(element.callback)?.has(element.index)) {
          table.set(element.callback, (table.get(element.callback) ?? new Set<number>()).add(element.index));
          changed = true;
        }
      });
      forEachCall(fn.body!, (call) => call.arguments?.forEach((arg, i) => {
        const elements = ts.isIdentifier(arg) && names.has(`${arg.text}[]`);
        if (!elements && !maybePromoted(arg, names)) return;
        for (const callee of targets.of(call)) {
          const param = callee.parameters[i];
          if (param === undefined || !ts.isIdentifier(param.name)) continue;
          if (elements ? !classifier.isPromotableArray(param.name) : !classifier.isPromotableVariable(param.name, callee)) continue;
          const indices = table.get(callee) ?? new Set<number>();
          const index = elements ? elementsOf(i) : i;
          if (!indices.has(index)) {
            table.set(callee, indices.add(index));
            changed = true;
          }
        }
      }));
    }
  }
  return table;
}

function hasCallsWithArguments(fn: TS.FunctionLikeDeclaration): boolean {
  let found = false;
  if (fn.body !== undefined) forEachCall(fn.body, (call) => { found ||= (call.arguments?.length ?? 0) > 0; });
  return found;
}

/** The calls in a body, outside nested functions and classes. */
function forEachCall(body: TS.Node, visit: (call: TS.CallExpression | TS.NewExpression) => void): void {
  const walk = (node: TS.Node): void => {
    if (node !== body && (ts.isFunctionLike(node) || ts.isClassLike(node))) return;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) visit(node);
    ts.forEachChild(node, walk);
  };
  walk(body);
}

/** Array methods whose callback gets the elements, with the element's parameter index. */
export const ELEMENT_CALLBACKS: ReadonlyMap<string, number> = new Map([['map', 0], ['forEach', 0], ['reduce', 1]]);

/**
 * `counts.map((c, k) => c / total[k])` on an array whose elements may be promoted (`counts[]`): the
 * inline callback's element parameter is promoted too.
 */
export function elementCallback(call: TS.CallExpression | TS.NewExpression, names: ReadonlySet<string>):
    { callback: TS.FunctionLikeDeclaration; index: number } | undefined {
  const callee = call.expression;
  if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.expression) ||
      !names.has(`${callee.expression.text}[]`)) return undefined;
  const index = ELEMENT_CALLBACKS.get(callee.name.text);
  const callback = call.arguments[0];
  if (index === undefined || callback === undefined || !(ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) return undefined;
  return { callback, index };
}
