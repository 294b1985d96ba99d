/**
 * The TypeScript instance the transformer works with. ts-patch hands us the compiler that is
 * running (`extras.ts`); we must build nodes with THAT instance, not with whatever `typescript`
 * this package resolves to (SyntaxKind numbers differ between versions). Modules read the live
 * binding `ts` at call time, never at load time.
 */
import type * as TS from 'typescript';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export let ts: typeof TS = require('typescript');

export function useTypeScript(instance: typeof TS | undefined): void {
  if (instance !== undefined) ts = instance;
}
