/**
 * Activity: which names a statement modifies that outlive it. A name declared anywhere inside the
 * statement is local to it (its block, a loop head, a nested function) and excluded — a
 * deliberate simplification: shadowing a modified outer name inside the same statement is rare.
 * Writes inside nested functions count (a callback run in a branch, like `xs.forEach(...)`, does
 * modify the variable there); AutoGraph ignores them, which silently drops such state.
 */
import type * as TS from 'typescript';
import { visitReferences } from './references';

export interface Activity {
  /** Names (and `this.x`-style chains) assigned inside, in source order. */
  modified: string[];
  /** Names declared inside (block-scoped or nested). */
  declared: Set<string>;
  /** Names read inside. */
  read: Set<string>;
}

export function activityOf(...nodes: (TS.Node | undefined)[]): Activity {
  const written: string[] = [];
  const members: string[] = [];
  const declared = new Set<string>();
  const read = new Set<string>();
  for (const node of nodes) {
    if (node === undefined) continue;
    visitReferences(node, {
      name(name, kind) {
        if (kind === 'declare') declared.add(name);
        if (kind === 'read' || kind === 'readwrite') read.add(name);
        if (kind === 'write' || kind === 'readwrite') written.push(name);
      },
      member(qualifiedName) {
        members.push(qualifiedName);
      },
    });
  }
  const modified = unique([...written, ...members]).filter((name) => !declared.has(rootOf(name)));
  return { modified, declared, read };
}

export function rootOf(qualifiedName: string): string {
  const dot = qualifiedName.indexOf('.');
  return dot < 0 ? qualifiedName : qualifiedName.slice(0, dot);
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
