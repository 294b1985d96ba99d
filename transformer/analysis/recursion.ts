/**
 * Recursive calls: a call in a converted function whose callee is a converted function that can
 * call (directly or through other converted functions) the function the call is in, or one
 * enclosing it. Such a call becomes `ag__.recursiveCall(f, [args], opts, receiver)`, so that a
 * trace can stage the recursion as recursion (a Call node of the graph) where a tensor decides
 * where it ends (Snek's staged recursion), instead of unrolling it without end.
 *
 * The call graph is the checker's: each converted function's calls resolved to their
 * declarations (the same resolution that selects callees for conversion, directives.ts), closures
 * included, since a function a body creates may be the one that calls back.
 */
import type * as TS from 'typescript';
import { isConvertibleFunction, resolveCallee, type ConvertibleFunction } from '../directives';
import { ts } from '../typescript';

export class RecursionIndex {
  private readonly callees = new Map<TS.Node, Set<ConvertibleFunction>>();

  constructor(private readonly checker: TS.TypeChecker, private readonly isConverted: (fn: TS.Node) => boolean) {}

  /** The calls directly in `body` (not in nested functions) that may lead back to a function around them. */
  recursiveCalls(body: TS.ConciseBody): Set<TS.CallExpression> {
    const found = new Set<TS.CallExpression>();
    const around = enclosingFunctions(body);
    if (around.length === 0) return found;
    const visit = (node: TS.Node): void => {
      if (isConvertibleFunction(node) || ts.isClassLike(node)) return;
      if (ts.isCallExpression(node) && hasSimpleReceiver(node)) {
        const callee = resolveCallee(this.checker, node);
        if (callee !== undefined && this.isConverted(callee) && around.some((fn) => this.reaches(callee, fn))) found.add(node);
      }
      ts.forEachChild(node, visit);
    };
    visit(body);
    return found;
  }

  /** Whether `from` is `to` or calls it through converted functions. */
  private reaches(from: ConvertibleFunction, to: TS.Node): boolean {
    const seen = new Set<TS.Node>();
    const stack: TS.Node[] = [from];
    while (stack.length > 0) {
      const fn = stack.pop()!;
      if (fn === to) return true;
      if (seen.has(fn)) continue;
      seen.add(fn);
      stack.push(...this.calleesOf(fn));
    }
    return false;
  }

  /** The converted functions a function's body (closures included) calls. */
  private calleesOf(fn: TS.Node): Set<ConvertibleFunction> {
    let callees = this.callees.get(fn);
    if (callees !== undefined) return callees;
    callees = new Set();
    this.callees.set(fn, callees);
    const body = isConvertibleFunction(fn) ? fn.body : undefined;
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = resolveCallee(this.checker, node);
        if (callee !== undefined && this.isConverted(callee)) callees!.add(callee);
      }
      ts.forEachChild(node, visit);
    };
    if (body !== undefined) visit(body);
    return callees;
  }
}

/** The functions around a body, innermost first (the body's own function included). */
function enclosingFunctions(body: TS.ConciseBody): ConvertibleFunction[] {
  const result: ConvertibleFunction[] = [];
  for (let node: TS.Node | undefined = body.parent; node !== undefined; node = node.parent) {
    if (isConvertibleFunction(node)) result.push(node);
  }
  return result;
}

/**
 * `f(...)`, `this.f(...)`, `obj.f(...)`: callees whose receiver the emitted call can name twice
 * (as the function's owner and as `this`) without evaluating anything twice.
 */
function hasSimpleReceiver(call: TS.CallExpression): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return true;
  return ts.isPropertyAccessExpression(callee) && !ts.isPrivateIdentifier(callee.name) &&
    (callee.expression.kind === ts.SyntaxKind.ThisKeyword || ts.isIdentifier(callee.expression));
}
