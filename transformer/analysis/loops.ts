/** Which statements are loops: one definition for the analyses, the plan and the lowerings. */
import type * as TS from 'typescript';
import { ts } from '../typescript';

/** while, do-while, for, for...of, for...in. */
export function isLoop(node: TS.Node): node is TS.IterationStatement {
  return ts.isWhileStatement(node) || ts.isDoStatement(node) || ts.isForStatement(node) ||
    ts.isForOfStatement(node) || ts.isForInStatement(node);
}

/** The loop a labeled statement labels (possibly through nested labels), else the statement. */
export function loopOf(target: TS.Statement): TS.Statement {
  let s = target;
  while (ts.isLabeledStatement(s)) s = s.statement;
  return isLoop(s) ? s : target;
}
