/**
 * Liveness of local names, computed backwards over the structured statements of one function
 * body (after jump lowering, so it also sees the synthesized flags). Results are side tables:
 * LIVE_OUT and LIVE_IN per statement node. The analysis is conservative where JS is hard to see
 * through: reads inside nested functions count as reads where the function is created, a `try`
 * keeps alive everything its handlers need, and only plain `x = e` assignments kill.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript';
import { isLoop } from './loops';
import { visitReferences } from './references';

type Names = Set<string>;

interface JumpTargets {
  breakOut: Names;
  continueIn?: Names;
  labels: Map<string, { breakOut: Names; continueIn?: Names }>;
}

export class Liveness {
  readonly liveOut = new Map<TS.Node, Names>();
  readonly liveIn = new Map<TS.Node, Names>();

  /**
   * Round-robin iteration: each sweep goes backwards over the whole body once, every loop using
   * its head from the previous sweep; sweeps repeat until no loop head grows. A sweep is linear
   * and the number of sweeps is small (about the loop nesting depth), where nested per-loop
   * fixpoints would cost rounds^depth. The last sweep, which changed nothing, leaves the tables.
   */
  static ofFunctionBody(body: TS.Block | TS.ConciseBody): Liveness {
    const analysis = new Liveness();
    if (!ts.isBlock(body)) return analysis;
    do {
      analysis.grew = false;
      analysis.statements(body.statements, new Set(), { breakOut: new Set(), labels: new Map() });
    } while (analysis.grew);
    return analysis;
  }

  /** Each loop's live-at-head set so far; only grows. */
  private readonly heads = new Map<TS.Node, Names>();
  private grew = false;

  outOf(node: TS.Node): Names {
    return this.liveOut.get(node) ?? new Set();
  }

  inOf(node: TS.Node): Names {
    return this.liveIn.get(node) ?? new Set();
  }

  private statements(list: readonly TS.Statement[], out: Names, jumps: JumpTargets): Names {
    let live = out;
    for (let i = list.length - 1; i >= 0; i--) live = this.statement(list[i], live, jumps);
    return live;
  }

  private statement(s: TS.Statement, out: Names, jumps: JumpTargets, label?: string): Names {
    const live = this.compute(s, out, jumps, label);
    this.liveOut.set(s, out);
    this.liveIn.set(s, live);
    return live;
  }

  private compute(s: TS.Statement, out: Names, jumps: JumpTargets, label?: string): Names {
    if (ts.isBlock(s)) return this.statements(s.statements, out, jumps);
    if (ts.isExpressionStatement(s)) return transfer(s.expression, out);
    if (ts.isVariableStatement(s)) {
      let live = out;
      const decls = s.declarationList.declarations;
      for (let i = decls.length - 1; i >= 0; i--) live = union(uses(decls[i]), live);
      return live;
    }
    if (ts.isIfStatement(s)) {
      const thenIn = this.statement(s.thenStatement, out, jumps);
      const elseIn = s.elseStatement ? this.statement(s.elseStatement, out, jumps) : out;
      return union(uses(s.expression), thenIn, elseIn);
    }
    if (ts.isReturnStatement(s)) return s.expression ? uses(s.expression) : new Set();
    if (ts.isThrowStatement(s)) return uses(s.expression);
    if (ts.isBreakStatement(s)) {
      return s.label ? jumps.labels.get(s.label.text)?.breakOut ?? new Set() : jumps.breakOut;
    }
    if (ts.isContinueStatement(s)) {
      const target = s.label ? jumps.labels.get(s.label.text)?.continueIn : jumps.continueIn;
      return target ?? new Set();
    }
    if (ts.isLabeledStatement(s)) {
      const inner: JumpTargets = { ...jumps, labels: new Map(jumps.labels) };
      if (!isLoop(s.statement)) inner.labels.set(s.label.text, { breakOut: out });
      return this.statement(s.statement, out, inner, s.label.text);
    }
    if (ts.isWhileStatement(s) || ts.isDoStatement(s) || ts.isForStatement(s) ||
        ts.isForOfStatement(s) || ts.isForInStatement(s)) {
      return this.loop(s, out, jumps, label);
    }
    if (ts.isSwitchStatement(s)) {
      const inner: JumpTargets = { ...jumps, breakOut: out };
      let fallthrough = out;
      let live = new Set<string>();
      for (let i = s.caseBlock.clauses.length - 1; i >= 0; i--) {
        const clause = s.caseBlock.clauses[i];
        fallthrough = this.statements(clause.statements, fallthrough, inner);
        live = union(live, fallthrough, ts.isCaseClause(clause) ? uses(clause.expression) : new Set());
      }
      return union(uses(s.expression), live, out);
    }
    if (ts.isTryStatement(s)) {
      const finallyIn = s.finallyBlock ? this.statement(s.finallyBlock, out, jumps) : out;
      const afterBlocks = union(finallyIn, out);
      const catchIn = s.catchClause ? this.statement(s.catchClause.block, afterBlocks, jumps) : new Set<string>();
      // Anything the handlers need may be needed at any point of the try block.
      const tryOut = union(afterBlocks, catchIn);
      const tryIn = this.statement(s.tryBlock, tryOut, jumps);
      return union(tryIn, catchIn, s.finallyBlock ? finallyIn : new Set());
    }
    // Function and class declarations: their free reads happen whenever they are called.
    return union(uses(s), out);
  }

  private loop(s: TS.IterationStatement, out: Names, jumps: JumpTargets, label?: string): Names {
    const previous = this.heads.get(s) ?? new Set<string>();
    let head = union(previous, out);
    const continueIn = ts.isForStatement(s) && s.incrementor ? union(uses(s.incrementor), head) : head;
    const inner: JumpTargets = { breakOut: out, continueIn, labels: new Map(jumps.labels) };
    if (label !== undefined) inner.labels.set(label, { breakOut: out, continueIn });
    const bodyIn = this.statement(s.statement, continueIn, inner);
    let next: Names;
    if (ts.isWhileStatement(s)) next = union(uses(s.expression), out, bodyIn);
    else if (ts.isDoStatement(s)) next = union(uses(s.expression), out, bodyIn);
    else if (ts.isForStatement(s)) next = union(s.condition ? uses(s.condition) : new Set(), out, bodyIn);
    else next = union(out, minus(bodyIn, loopDeclared(s as TS.ForOfStatement | TS.ForInStatement)));
    head = union(head, next);
    if (!sameSet(head, previous)) this.grew = true;
    this.heads.set(s, head);
    if (ts.isDoStatement(s)) return this.inOf(s.statement);
    if (ts.isForStatement(s)) return s.initializer ? union(uses(s.initializer), head) : head;
    if (ts.isForOfStatement(s) || ts.isForInStatement(s)) return union(uses(s.expression), head);
    return head;
  }
}

/** `x = e` kills x; everything read is live. */
function transfer(expr: TS.Expression, out: Names): Names {
  let e = expr;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(e.left)) {
    const live = new Set(out);
    live.delete(e.left.text);
    return union(uses(e.right), live);
  }
  return union(uses(expr), out);
}

export function uses(node: TS.Node): Names {
  const names = new Set<string>();
  visitReferences(node, {
    name(name, kind) {
      if (kind === 'read' || kind === 'readwrite') names.add(name);
    },
  });
  return names;
}

function loopDeclared(s: TS.ForOfStatement | TS.ForInStatement): Names {
  const names = new Set<string>();
  if (ts.isVariableDeclarationList(s.initializer)) {
    visitReferences(s.initializer, { name(name, kind) { if (kind === 'declare') names.add(name); } });
  } else if (ts.isIdentifier(s.initializer)) {
    names.add(s.initializer.text);
  }
  return names;
}

export function union(...sets: Names[]): Names {
  const result = new Set<string>();
  for (const set of sets) for (const name of set) result.add(name);
  return result;
}

function minus(a: Names, b: Names): Names {
  return new Set([...a].filter((name) => !b.has(name)));
}

function sameSet(a: Names, b: Names): boolean {
  if (a.size !== b.size) return false;
  for (const name of a) if (!b.has(name)) return false;
  return true;
}
