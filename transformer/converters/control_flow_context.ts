/**
 * What the control-flow converters (if, while, do-while, for, for...of, for...in) share: the
 * context the dispatcher (control_flow.ts) hands each of them, and the helpers more than one of
 * them uses. The idiom files import this module, never the dispatcher nor each other.
 */
import type * as TS from 'typescript';
import type { Liveness } from '../analysis/liveness';
import { closure, EmitContext, operatorCall, optionsObject } from '../emit';
import { LoweringState, noFlagSet } from '../lowering/guards';

export interface ControlFlowContext {
  readonly state: LoweringState;
  readonly emit: EmitContext;
  readonly liveness: Liveness;
  readonly context: TS.TransformationContext;
  visit(node: TS.Statement): TS.Statement;
  /** The state of a converted statement: names modified in `parts` that are live where it
   * matters (`live`), plus the synthesized flags it modifies. */
  stateOf(parts: (TS.Node | undefined)[], live: Set<string>): string[];
  /** The composite targets (`xs` of `xs[i] = v`, `xs.push(v)`) that `parts` of `node` change in
   * place (opts.composites). */
  compositesOf(node: TS.Node, parts: (TS.Node | undefined)[]): string[];
  /** The objects `parts` of `node` read whose fields code they call may change (opts.observed). */
  observedOf(node: TS.Node, parts: (TS.Node | undefined)[]): string[];
  /** The flags a converted loop must check (from the jump-lowering converters). */
  loopFlags(loop: TS.Node): string[];
  /** The flags among `names` (for opts.flags). */
  flagsIn(names: string[]): string[];
  /** The promotable numbers and booleans among `names` (for opts.promote; analysis/promotion.ts). */
  promotedIn(names: string[]): string[];
  /** Whether a statement of the lowered tree becomes an operator call. */
  isConverted(node: TS.Node): boolean;
}

/** The loop test, after the flags of lowered jumps: stop as soon as one is set. */
export function testWithFlags(test: TS.Expression, flags: string[], origin: TS.Node,
                              cf: ControlFlowContext): TS.Expression {
  if (flags.length === 0) return test;
  return operatorCall(cf.emit, 'and', [closure(noFlagSet(cf.state, flags, origin)), closure(test), optionsObject(cf.emit.origin(origin))]);
}
