/**
 * The conversion pipeline of one function body: the only place that knows the order of passes.
 *
 *  1. plan         – on the original tree, with the checker: what is converted (analysis/plan.ts).
 *                    Everything after works on rewritten trees, which the checker cannot type, so
 *                    every decision that needs types is taken here, once.
 *  2. expressions  – `&&`, `||`, `!`, `?:`, asserts and switch discriminants first: local rewrites; doing them before
 *                    statements move into closures keeps their origin lookups on original nodes.
 *  3. declarations – hoist `var`s and function declarations, so that moving code into closures
 *                    (next passes) cannot change what a name refers to.
 *  4. switch       – a switch that a lowered jump leaves from inside a closure becomes an if chain
 *                    (the plan says which), so that the next passes can guard across its clauses.
 *  5. break        – lower jumps to flags and guards before any control flow is functionalized
 *  6. continue       (AutoGraph's canonicalization): after these three passes the control-flow
 *  7. return         converters see only structured code. break before continue before return,
 *                    as in AutoGraph: each pass's guards are ordinary ifs for the next one.
 *  8. finally      – a jump that leaves `finally` overrides the pending one: the finally block
 *                    runs with the pending flags cleared, restored unless it jumped.
 *  9. control flow – if / while / do / for / for...of / for...in become operator calls; it runs
 *                    the liveness analysis on the lowered tree, so the synthesized flags are
 *                    seen like any other variable.
 */
import type * as TS from 'typescript';
import { type ConversionPlan, planFunction } from './analysis/plan';
import { closureWritesOf, withClosureWrites } from './analysis/closure_writes';
import { Classifier } from './classify';
import { ConversionError } from './diagnostics';
import { EmitContext, operatorCall, optionsObject, withModuleObjects } from './emit';
import { fieldWritesOf } from './analysis/field_writes';
import { isConvertibleFunction } from './directives';
import { ts } from './typescript';
import { convertExpressions } from './converters/expressions';
import { hoistDeclarations } from './converters/declarations';
import { createLoweringState } from './lowering/guards';
import { lowerSwitches } from './converters/switch_statements';
import { lowerBreaks } from './converters/break_statements';
import { lowerContinues } from './converters/continue_statements';
import { lowerReturns } from './converters/return_statements';
import { convertControlFlow } from './converters/control_flow';
import { resolveFinallyOverrides } from './lowering/finally_overrides';
import { bindOuterNames } from './converters/outer_names';

export interface ConvertedBody {
  body: TS.ConciseBody;
  /** Whether the body now calls the runtime. */
  usesRuntime: boolean;
  /** Problems that do not prevent conversion. */
  warnings: ConversionError[];
}

export function convertFunctionBody(body: TS.ConciseBody, classifier: Classifier, emit: EmitContext,
                                    context: TS.TransformationContext, sloppy = false,
                                    recursiveCalls?: ReadonlySet<TS.CallExpression>): ConvertedBody {
  // The analyses of this body see what its local functions assign where they are named.
  return withClosureWrites(closureWritesOf(body, classifier), () => convertBody(body, classifier, emit, context, sloppy, recursiveCalls));
}

function convertBody(body: TS.ConciseBody, classifier: Classifier, emit: EmitContext, context: TS.TransformationContext,
                     sloppy: boolean, recursiveCalls?: ReadonlySet<TS.CallExpression>): ConvertedBody {
  const plan = planFunction(body, classifier, sloppy, recursiveCalls);
  return withModuleObjects(plan.moduleObjects, () => convertPlanned(body, plan, classifier, emit, context));
}

function convertPlanned(body: TS.ConciseBody, plan: ConversionPlan, classifier: Classifier, emit: EmitContext,
                        context: TS.TransformationContext): ConvertedBody {
  const warnings = plan.warnings;
  const nothingElse = plan.converted.size === 0 && plan.expressions.size === 0 && plan.switchDiscriminants.size === 0 &&
    !plan.promotion.active && plan.recursiveCalls.size === 0 && plan.arrayPredicates.size === 0 && plan.listForEach.size === 0 &&
    plan.listSpreads.size === 0 && plan.indexDispatches.size === 0;
  const writes = observedFieldWrites(body, classifier, nothingElse);
  if (nothingElse && writes.size === 0) {
    return { body, usesRuntime: false, warnings };
  }

  let converted = convertExpressions(body, plan, emit, context);
  if (!ts.isBlock(converted) || plan.converted.size === 0) {
    return { body: bindOuterNames(withObservedFields(converted, writes, emit, body), body), usesRuntime: true, warnings };
  }

  const state = createLoweringState(plan, emit);
  converted = hoistDeclarations(converted, context);
  converted = lowerSwitches(converted, state, context);
  converted = lowerBreaks(converted, state, context);
  converted = lowerContinues(converted, state, context);
  converted = lowerReturns(converted, state, context);
  converted = resolveFinallyOverrides(converted, state, context);
  converted = convertControlFlow(converted, state, context);
  return { body: bindOuterNames(withObservedFields(converted, writes, emit, body), body), usesRuntime: true, warnings };
}

/**
 * The fields a function writes on `this` or its parameters' objects, where the function works with
 * tensors (other conversions, a parameter or a written field that may hold one): a function that
 * cannot touch a tensor stays as tsc emits it. Not in a constructor (it makes its object).
 */
function observedFieldWrites(body: TS.ConciseBody, classifier: Classifier, nothingElse: boolean): Map<string, string[]> {
  const fn = body.parent;
  if (!ts.isBlock(body) || !isConvertibleFunction(fn) || ts.isConstructorDeclaration(fn)) return new Map();
  const targets: TS.Expression[] = [];
  const writes = fieldWritesOf(body, targets);
  if (writes.size === 0 || !nothingElse) return writes;
  const tensors = fn.parameters.some((p) => classifier.mayHoldTensor(p.name)) || targets.some((t) => classifier.mayHoldTensor(t));
  return tensors ? writes : new Map();
}

/** `ag__.observeFields(this, ["best"], "this", { origin })` first, for each object whose fields the function writes. */
function withObservedFields(body: TS.ConciseBody, writes: Map<string, string[]>, emit: EmitContext, original: TS.ConciseBody): TS.ConciseBody {
  if (writes.size === 0 || !ts.isBlock(body)) return body;
  const f = ts.factory;
  const calls = [...writes].map(([owner, keys]) => f.createExpressionStatement(operatorCall(emit, 'observeFields', [
    owner === 'this' ? f.createThis() : f.createIdentifier(owner),
    f.createArrayLiteralExpression(keys.map((k) => f.createStringLiteral(k))),
    f.createStringLiteral(owner),
    optionsObject(emit.origin(original.parent ?? original)),
  ])));
  // After the directive prologue ('use strict', 'use autograph'), which must stay first.
  let prologue = 0;
  while (prologue < body.statements.length && ts.isExpressionStatement(body.statements[prologue]) &&
         ts.isStringLiteral((body.statements[prologue] as TS.ExpressionStatement).expression)) prologue++;
  return f.updateBlock(body, [...body.statements.slice(0, prologue), ...calls, ...body.statements.slice(prologue)]);
}
