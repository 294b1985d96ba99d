/**
 * Nested structures (arrays and plain objects) of state variables, arguments and results,
 * flattened to leaves and rebuilt. Anything else (tensors, numbers, class instances) is a leaf.
 */
export interface Flat {
  leaves: unknown[];
  /** Where each leaf is in the structure, as code reads it: '' for the value itself, `.index`, `[1]`, `[0].a`. */
  paths: string[];
  /** Describes the containers, for comparing two structures. */
  structure: string;
  rebuild(leaves: readonly unknown[]): unknown;
}

/**
 * Answered `true` by values that look like arrays but are one leaf: an array a staged loop made a
 * list value of the graph (staging/staged_lists.ts), whose elements only the graph knows.
 */
export const OPAQUE_LEAF = Symbol.for('autograph-ts.opaqueLeaf');

export function isOpaqueLeaf(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { [OPAQUE_LEAF]?: unknown })[OPAQUE_LEAF] === true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `keepWhole`: arrays it accepts are leaves too (a function's return value keeps the user's arrays
 * themselves: see staging/staged_lists.ts keepReturnedArray).
 */
export function flatten(value: unknown, keepWhole?: (array: unknown[]) => boolean): Flat {
  const leaves: unknown[] = [];
  const paths: string[] = [];
  const build = (v: unknown, path: string): { structure: string; make: (next: () => unknown) => unknown } => {
    if (Array.isArray(v) && !isOpaqueLeaf(v) && !keepWhole?.(v)) {
      const items = v.map((item, i) => build(item, `${path}[${i}]`));
      return {
        structure: `[${items.map((i) => i.structure).join(',')}]`,
        make: (next) => items.map((i) => i.make(next)),
      };
    }
    if (isPlainObject(v)) {
      const keys = Object.keys(v);
      const items = keys.map((k) => build(v[k], /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`));
      return {
        structure: `{${keys.map((k, i) => `${JSON.stringify(k)}:${items[i].structure}`).join(',')}}`,
        make: (next) => Object.fromEntries(keys.map((k, i) => [k, items[i].make(next)])),
      };
    }
    leaves.push(v);
    paths.push(path);
    return { structure: '*', make: (next) => next() };
  };
  const root = build(value, '');
  return {
    leaves,
    paths,
    structure: root.structure,
    rebuild: (newLeaves) => {
      let i = 0;
      return root.make(() => newLeaves[i++]);
    },
  };
}
