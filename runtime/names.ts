/**
 * The shared vocabulary between the transformer and the runtime: the names of the operators that
 * emitted code calls. The transformer builds `ag__.<name>(...)` from these constants and the
 * runtime's operators module is type-checked against them (see operators.ts), so the two cannot
 * drift apart.
 */
export const OperatorNames = {
  ifStmt: 'ifStmt',
  whileStmt: 'whileStmt',
  doWhileStmt: 'doWhileStmt',
  forStmt: 'forStmt',
  forInStmt: 'forInStmt',
  ifExp: 'ifExp',
  and: 'and',
  or: 'or',
  not: 'not',
  switchValue: 'switchValue',
  assert: 'assert',
  retval: 'retval',
  newList: 'newList',
  recursiveCall: 'recursiveCall',
  observeFields: 'observeFields',
  binaryOp: 'binaryOp',
  unaryOp: 'unaryOp',
  postfixOp: 'postfixOp',
  plainValue: 'plainValue',
  listItem: 'listItem',
  mathCall: 'mathCall',
  arrayPredicate: 'arrayPredicate',
  UndefinedReturnValue: 'UndefinedReturnValue',
} as const;

export type OperatorName = (typeof OperatorNames)[keyof typeof OperatorNames];

/** The Math built-ins that ag__.mathCall computes on a promoted value (runtime/promoted_math.ts). */
export const PROMOTED_MATH = ['floor', 'ceil', 'round', 'trunc', 'abs', 'sign', 'min', 'max', 'sqrt', 'exp', 'log'] as const;

/**
 * The array methods whose callback's result JS reads as a truth value (`sort`: as a comparison),
 * which ag__.arrayPredicate calls when the callback may return a tensor (runtime/array_predicates.ts).
 */
export const ARRAY_PREDICATES = ['some', 'every', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'sort'] as const;
export type ArrayPredicate = (typeof ARRAY_PREDICATES)[number];

/** The directive that marks a function (or a file) for conversion. */
export const DIRECTIVE = 'use autograph';

/** The module specifier that emitted code imports the operators from. */
export const RUNTIME_MODULE = 'autograph-ts/runtime';
