/**
 * Arrays and objects that a converted function passes to a function of the project which changes their
 * contents (`swap(array, i, j)` assigning `array[i]`, `fill(out)` pushing to it): the call changes them in
 * place, as `array[i] = v` written there would, so they are composite targets of the statements around the
 * call (activity.ts compositeTargetsOf) and carried through a staged loop that calls it. Callees are resolved
 * by the checker (Classifier.projectCallee); what they change is what their own body changes in place (and,
 * transitively, what the project's functions they pass a parameter on to change).
 */
import type * as TS from 'typescript';
import type { Classifier } from '../classify';
import { ts } from '../typescript';
import { calleeWrittenArguments, compositeTargetsOf, rootOf } from './activity';

/** Per callee: the indices of the parameters whose contents it changes (an empty list while it is being decided). */
const writtenParameters = new WeakMap<TS.Node, readonly number[]>();

/** Records, for each call in `body` to a project function that changes its arguments' contents, which arguments. */
export function recordCalleeWrites(body: TS.Node, classifier: Classifier): void {
  if (body.pos < 0 || ts.getOriginalNode(body) !== body) return;
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = classifier.projectCallee(node);
      const written = callee === undefined ? [] : parametersWrittenBy(callee, classifier);
      if (written.length > 0) calleeWrittenArguments.set(node, written);
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
}

function parametersWrittenBy(callee: TS.FunctionLikeDeclaration, classifier: Classifier): readonly number[] {
  let written = writtenParameters.get(callee);
  if (written !== undefined) return written;
  writtenParameters.set(callee, []); // (a recursive callee does not decide itself)
  recordCalleeWrites(callee.body!, classifier);
  const changed = new Set(compositeTargetsOf(new Set(), () => true, callee.body).map(rootOf));
  written = callee.parameters.flatMap((p, k) => (ts.isIdentifier(p.name) && changed.has(p.name.text) ? [k] : []));
  writtenParameters.set(callee, written);
  // Its calls of itself (a recursion passing the array down) were recorded while it was being decided: again, now known.
  if (written.length > 0) recordCalleeWrites(callee.body!, classifier);
  return written;
}
