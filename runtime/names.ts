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
  forEachItem: 'forEachItem',
  spreadItems: 'spreadItems',
  listItem: 'listItem',
  setListItem: 'setListItem',
  atIndex: 'atIndex',
  arrayItem: 'arrayItem',
  listValue: 'listValue',
  mathCall: 'mathCall',
  arrayPredicate: 'arrayPredicate',
  tfjsCall: 'tfjsCall',
  tensorMethodCall: 'tensorMethodCall',
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

/**
 * tfjs ops that take JS numbers (alone or in arrays) where a staged loop's counter may reach them
 * (`x.slice([i], [1])`): their tensor parameter (a Tensor method's receiver), then their number
 * parameters in order. The transformer sends a call of one with a maybe-promoted value in such a
 * parameter to ag__.tfjsCall / ag__.tensorMethodCall (runtime/promoted_op_arguments.ts): the call
 * as written on plain values; slice's begin is staged, the rest is refused by name (each decides
 * the shape of the op's result).
 */
export const NUMBER_ARGUMENT_OPS: Readonly<Record<string, { readonly tensor?: string; readonly numbers: readonly string[] }>> = {
  slice: { tensor: 'x', numbers: ['begin', 'size'] },
  stridedSlice: { tensor: 'x', numbers: ['begin', 'end', 'strides'] },
  reshape: { tensor: 'x', numbers: ['shape'] },
  tile: { tensor: 'x', numbers: ['reps'] },
  pad: { tensor: 'x', numbers: ['paddings', 'constantValue'] },
  split: { tensor: 'x', numbers: ['numOrSizeSplits', 'axis'] },
  oneHot: { tensor: 'indices', numbers: ['depth', 'onValue', 'offValue'] },
  range: { numbers: ['start', 'stop', 'step'] },
};

/** The position of `op`'s number parameter `k` (NUMBER_ARGUMENT_OPS) among a call's arguments. */
export function numberArgumentIndex(op: string, k: number, method: boolean): number {
  return k + (!method && NUMBER_ARGUMENT_OPS[op].tensor !== undefined ? 1 : 0);
}

/** The directive that marks a function (or a file) for conversion. */
export const DIRECTIVE = 'use autograph';

/** The module specifier that emitted code imports the operators from. */
export const RUNTIME_MODULE = 'autograph-ts/runtime';

/**
 * Whether a synthesized name is a function's return value (`retval_`, `retval__1`: converters/
 * return_statements.ts). It is among a statement's flags (opts.flags) for its "not returned yet"
 * value, but holds the user's value: a returned `true` is a JS boolean to read back, not a jump flag.
 */
export const isReturnValueName = (name: string): boolean => /^retval_(_\d+)?$/.test(name);

/** A variable as messages name it: the user's name in quotes, the return value as what it is to the user. */
export const displayName = (name: string): string => (isReturnValueName(name) ? 'the returned value' : `'${name}'`);
