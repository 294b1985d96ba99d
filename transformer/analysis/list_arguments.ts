/**
 * List arguments: an array of JS numbers or booleans that a staged statement may grow (a list of
 * promoted scalars in a trace: the plan's scalarLists) passed to a tfjs function where tfjs takes
 * its values (`xs.gather(chosen)`, `tf.tensor1d(picked)`). tfjs cannot read a list of the graph;
 * ag__.listValue stacks it there into the tensor tfjs would have made of the JS array.
 */
import type * as TS from 'typescript';
import type { Classifier } from '../classify';
import { ts } from '../typescript';

/** The identifiers, among `body`'s tfjs call arguments, that name one of `lists`. */
export function listArgumentsOf(body: TS.Node, lists: ReadonlySet<string>, classifier: Classifier): Set<TS.Identifier> {
  const found = new Set<TS.Identifier>();
  if (lists.size === 0) return found;
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.pos >= 0 && (classifier.isTfjsCall(node) ||
        node.arguments?.some((a) => classifier.isTfjsValuesArgument(node, a)))) {
      for (const arg of node.arguments ?? []) if (ts.isIdentifier(arg) && lists.has(arg.text)) found.add(arg);
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}
