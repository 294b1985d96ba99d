/**
 * Fresh names for synthesized variables and helpers. Names are real identifiers chosen against
 * every identifier already in the file (so later analyses can see them as ordinary names, which
 * auto-generated identifiers would not allow): `if_body`, `if_body_1`, ... Readable, stable.
 */
import type * as TS from 'typescript';
import { ts } from './typescript';

export class NameGenerator {
  private readonly used = new Set<string>();

  constructor(sourceFile: TS.SourceFile) {
    const visit = (node: TS.Node): void => {
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) this.used.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }

  fresh(base: string): string {
    let name = base;
    for (let i = 1; this.used.has(name); i++) name = `${base}_${i}`;
    this.used.add(name);
    return name;
  }
}
