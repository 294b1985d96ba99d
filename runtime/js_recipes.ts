/**
 * JS arithmetic on promoted values, replayed in JS when the result comes back (`accuracy: correct / n`,
 * `Math.sqrt(sumSq) / count`). A staged trace computes it in float32 where eager JS computes in float64, so
 * a returned result would be another number (promoted_values.ts refuses it as inexact). But when its operands
 * are JS numbers and promoted values that are exact (an int32 counter, a boolean, a float32-exact number), the
 * staged call can read those operands back and compute the result in JS, as eager code does: the same number.
 * A result used inside the graph (a tensor condition, a tfjs op) is still the float32 value, and an inexact
 * one is refused there as before; a recipe only serves a value that leaves the graph.
 */
import type * as tf from '@tensorflow/tfjs-core';

export interface Recipe {
  /** The exact promoted values it is computed from (read back after the call). */
  readonly leaves: readonly tf.Tensor[];
  /** The JS value, from the leaves' JS values (in the order of `leaves`). */
  compute(values: readonly (number | boolean)[]): unknown;
}

const recipes = new WeakMap<object, Recipe>();

/** The recipe of a promoted value computed by JS arithmetic, if it has one. */
export function recipeOf(value: unknown): Recipe | undefined {
  return typeof value === 'object' && value !== null ? recipes.get(value) : undefined;
}

/**
 * Notes that `result` is `apply(...operands)` in JS, where each operand is a JS number or boolean, a value with a
 * recipe, or an exact promoted value (`leaf(operand)` true); otherwise no recipe.
 */
export function noteRecipe(result: object, operands: readonly unknown[], apply: (...values: unknown[]) => unknown,
                           leaf: (operand: tf.Tensor) => boolean, visible: (leaf: tf.Tensor) => boolean = () => true): void {
  const parts: { leaves: readonly tf.Tensor[]; compute: (values: readonly (number | boolean)[]) => unknown }[] = [];
  for (const operand of operands) {
    const recipe = recipeOf(operand);
    if (recipe !== undefined) parts.push(recipe);
    else if (typeof operand === 'object' && operand !== null) {
      if (!leaf(operand as tf.Tensor)) return;
      parts.push({ leaves: [operand as tf.Tensor], compute: (values) => values[0] });
    } else if (typeof operand === 'number' || typeof operand === 'boolean' || operand === undefined) parts.push({ leaves: [], compute: () => operand });
    else return;
  }
  const leaves = parts.flatMap((p) => p.leaves);
  if (!leaves.every(visible)) return;
  recipes.set(result, {
    leaves,
    compute: (values) => {
      let at = 0;
      return apply(...parts.map((p) => {
        const own = values.slice(at, at + p.leaves.length);
        at += p.leaves.length;
        return p.compute(own);
      }));
    },
  });
}

/**
 * The output of a staged `if` that merges two values, each a JS constant, an exact promoted value or one with a
 * recipe: `cond ? then : else` in JS, from the condition read back (a boolean: exact) — when every value it is
 * computed from is one the graph has outside the `if` (`visible`), where the call can read it.
 */
export function noteChoiceRecipe(result: object, cond: tf.Tensor, whenTrue: unknown, whenFalse: unknown,
                                 leaf: (operand: tf.Tensor) => boolean, visible: (leaf: tf.Tensor) => boolean,
                                 unset: (value: unknown) => boolean): void {
  // (A placeholder — a path where the value is not defined yet: a return not taken — is never the value read back.)
  const operand = (v: unknown): unknown => (unset(v) ? undefined : v);
  noteRecipe(result, [cond, operand(whenTrue), operand(whenFalse)], (c, a, b) => (c ? a : b), (t) => t === cond || leaf(t), visible);
}
