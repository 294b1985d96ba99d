/**
 * Walks a function body keeping the stack of enclosing loops, for the jump-lowering converters:
 * each lowered jump must tell the loops it leaves to check its flag.
 */
import type * as TS from 'typescript';
import { isLoop } from '../analysis/loops';
import { ts } from '../typescript';

export interface JumpWalker {
  /** Original loops enclosing the current node, outermost first. */
  readonly loops: TS.Node[];
  /** The original loops strictly inside `target` (an original statement) on the current path. */
  loopsInside(target: TS.Node): TS.Node[];
}

export function createJumpWalker(targets: Set<TS.Node> = new Set()): JumpWalker & { enter(node: TS.Node): boolean; exit(): void } {
  const path: TS.Node[] = [];
  return {
    get loops() {
      return path.filter(isLoop);
    },
    loopsInside(target) {
      const index = path.indexOf(target);
      return path.slice(index + 1).filter(isLoop);
    },
    enter(node) {
      const original = ts.getOriginalNode(node);
      if (!isLoop(original) && !targets.has(original)) return false;
      path.push(original);
      return true;
    },
    exit() {
      path.pop();
    },
  };
}

/** Visits a labeled statement so that declarations produced for its inner statement end up
 * before the label. */
export function visitLabeled(node: TS.LabeledStatement, visitInner: (s: TS.Statement) => TS.VisitResult<TS.Node>): TS.VisitResult<TS.Node> {
  const result = visitInner(node.statement);
  if (Array.isArray(result)) {
    const statements = result as TS.Statement[];
    const last = statements[statements.length - 1];
    return [...statements.slice(0, -1), ts.factory.updateLabeledStatement(node, node.label, last)];
  }
  return ts.factory.updateLabeledStatement(node, node.label, result as TS.Statement);
}
