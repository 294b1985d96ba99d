/**
 * Options the transformer passes to every operator call. `origin` is the user's source location
 * (`file.ts:line:col`) of the statement the call replaced; errors raised at run time name it.
 */
export interface OperatorOptions {
  /** `path/to/file.ts:12:5` of the converted statement or expression. */
  origin?: string;
  /**
   * Names (a subset of symbolNames) of the variables the transformer introduced: the lowered jump
   * flags (`break_`, `continue_`, `do_return`) and the return value (`retval_`). The staging engine
   * may turn a JS boolean flag into a bool tensor when a staged branch or loop sets it; a user's
   * JS number or boolean that changes inside a staged loop is an error instead.
   */
  flags?: string[];
  /**
   * The objects and arrays the statement's branches or body change in place without assigning a
   * name (`xs[i] = v`, `xs.push(v)`), by qualified name. A staging engine carries their contents
   * as state (or refuses a change it cannot carry); the eager path never calls it.
   */
  composites?: () => Record<string, unknown>;
  /**
   * The objects the statement reads (by name; `this` too) whose fields code it calls may change:
   * class instances and plain objects of the user's types. A staging engine compares their fields
   * before and after tracing a branch or body and carries a changed field as state.
   */
  observed?: () => Record<string, unknown>;
  /** The names among `observed` of module-level variables (`export const state = { best: 0 }`): the objects they hold
   * outlive the call, so a staging engine carries their fields as state of every call (written back after it). */
  outlives?: string[];
  /**
   * The user's JS numbers and booleans among the state that the transformer made safe to carry as
   * tensors (every use rewritten: runtime/promoted_values.ts). A staged loop that changes one, or a
   * staged conditional that gives it two values, promotes it to a tensor, as tf.while_loop does;
   * any other JS value that a staged loop changes is an error.
   */
  promote?: string[];
  /**
   * For ag__.ifExp, ag__.and, ag__.or whose operands assign variables (`c ? (x = a) : b`,
   * `x &&= y`): those variables, read and written like a statement's getState / setState.
   */
  state?: { names: string[]; get: () => unknown[]; set: (values: unknown[]) => void };
  /** For ag__.assert: the original check (node's assert, console.assert) applied to the
   * condition's value; a staged assert calls it when the graph runs. */
  check?: (ok: boolean) => void;
  /**
   * For the guard a lowered jump puts around the rest of a block (`if (!continue_) { ... }`): the
   * user's jump and the location of the condition it is under. Errors about the guard's branches
   * name them: its if branch is "past the jump", its else branch "where the jump is taken".
   */
  jump?: { kind: 'break' | 'continue' | 'return'; origin: string };
  /** For ag__.newList: the name of the array variable; for ag__.arrayPredicate: the receiver's
   * source text (errors name them). */
  name?: string;
  /** For ag__.newList: the array holds JS numbers or booleans (`number[]`, `boolean[]`): as a list
   * of the graph its elements are promoted scalars, and returned it is read back as JS values. */
  scalars?: true;
  /** For a list a staged method makes (`xs.map(f)`, `xs.filter(f)`): whether it holds JS numbers or booleans
   * (a list of scalars) is learnt from the first element that goes in. */
  learnsScalars?: true;
  /** For ag__.atIndex: the statement changes something inside the element (`byClass[c].push(box)`, `m[p][1] = 7`),
   * not the element itself (`counts[p] += 1`). */
  within?: true;
  /** For ag__.assert: 'console' for console.assert, which reports instead of throwing. */
  kind?: 'console';
  /**
   * For ag__.whileStmt of a `for (let i = ...; test; update)` whose counters may stay JS numbers
   * (transformer/analysis/counted_loops.ts): the counters, the loop's own test and update (without the
   * jump flags) and the test that no lowered break or return has happened (`running`). Once a flag is a
   * tensor, a staging engine may run the rest of the loop in JS, each iteration under a staged
   * `if (running())`, rather than as a staged while (where the counters would be tensors).
   */
  counted?: { counters: string[]; test: () => unknown; update: () => void; running: () => unknown };
}

export type LoopOptions = OperatorOptions;

export function describeOrigin(opts: OperatorOptions | undefined): string {
  return opts?.origin ? ` (${opts.origin})` : '';
}
