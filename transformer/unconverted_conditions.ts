/**
 * Tensor conditions in code that is NOT converted: `if (t)`, `while (t.greater(0))`, `t ? a : b`,
 * `!t`, `t && x` test a Tensor object, which JavaScript always treats as true, so the branch is
 * always taken and the loop never ends (eagerly, and under stage() as a trace that grows until
 * memory runs out). Forgetting 'use autograph' is the first mistake every user makes: each such
 * condition becomes a warning that names the function to mark. One walk per file, with the
 * Classifier the conversion uses; only conditions it calls staged (a Tensor type), never dynamic
 * ones (any, unknown, unions), whose run-time value may well be a plain one. The same for a
 * callback typed to return a Tensor given to an array's predicate method (`xs.some((x) =>
 * x.greater(0))`: always true; Classifier.arrayPredicate), which converted code reads by value.
 */
import type * as TS from 'typescript';
import { Classifier } from './classify';
import { ConversionError } from './diagnostics';
import { ConvertibleFunction, isConvertibleFunction } from './directives';
import { functionName } from './explain';
import { ts } from './typescript';

/** The warnings for one file; `converted` says which functions are converted (their nested
 * functions are converted with them, and are skipped here). */
export function unconvertedTensorConditions(file: TS.SourceFile, classifier: Classifier,
                                            converted: (fn: ConvertibleFunction) => boolean): ConversionError[] {
  const warnings: ConversionError[] = [];
  let enclosing: ConvertibleFunction | undefined;

  /** An expression whose truthiness is tested: a leaf of it (looking through parentheses, `&&`
   * and `||` right operands, `?:` branches and commas) typed as a Tensor is reported. `!` and the
   * left operands of `&&`/`||`, and the condition of `?:`, are reported when the walk reaches
   * their own node, so that each leaf is reported once. */
  const tested = (expr: TS.Expression): void => {
    if (ts.isParenthesizedExpression(expr)) return tested(expr.expression);
    if (ts.isPrefixUnaryExpression(expr) && expr.operator === ts.SyntaxKind.ExclamationToken) return;
    if (ts.isBinaryExpression(expr)) {
      const op = expr.operatorToken.kind;
      if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.CommaToken) {
        return tested(expr.right);
      }
    }
    if (ts.isConditionalExpression(expr)) {
      tested(expr.whenTrue);
      return tested(expr.whenFalse);
    }
    if (classifier.expression(expr) === 'staged') warnings.push(warning(expr, enclosing));
  };

  const visit = (node: TS.Node): void => {
    if (isConvertibleFunction(node)) {
      if (converted(node)) return;
      const outer = enclosing;
      enclosing = node;
      ts.forEachChild(node, visit);
      enclosing = outer;
      return;
    }
    if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) tested(node.expression);
    else if (ts.isForStatement(node) && node.condition !== undefined) tested(node.condition);
    else if (ts.isConditionalExpression(node)) tested(node.condition);
    else if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) tested(node.operand);
    else if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ||
             node.operatorToken.kind === ts.SyntaxKind.BarBarToken)) tested(node.left);
    else if (ts.isCallExpression(node) && classifier.arrayPredicate(node)?.kind === 'staged') {
      warnings.push(warning(node.expression, enclosing, 'UnconvertedTensorPredicate'));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return warnings;
}

function warning(condition: TS.Expression, fn: ConvertibleFunction | undefined,
                 key: 'UnconvertedTensorCondition' | 'UnconvertedTensorPredicate' = 'UnconvertedTensorCondition'): ConversionError {
  const detail = fn === undefined
    ? "Code outside a function is never converted: move it into a function and add 'use autograph' to that function."
    : `Add 'use autograph' as the first statement of ${describe(fn)}.`;
  return new ConversionError(key, condition, detail, 'warning');
}

/** 'train', 'EarlyStopping.onEpochEnd', or for an anonymous function where it starts. */
function describe(fn: ConvertibleFunction): string {
  const name = functionName(fn);
  if (!name.includes('<anonymous>')) return `'${name}'`;
  const file = fn.getSourceFile();
  const { line, character } = file.getLineAndCharacterOfPosition(fn.getStart(file));
  return `the function at line ${line + 1}, column ${character + 1}`;
}
