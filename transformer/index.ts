/**
 * autograph-ts/transformer: the ts-patch entry. In tsconfig.json:
 *   "plugins": [{ "transform": "autograph-ts/transformer" }]            // or "convert": "all"
 * Options: "convert": "directive" | "all", "warnings": "warning" | "error" | "off" (reporting.ts).
 * A `program` transformer run `before` TypeScript's own transforms; it only delegates.
 */
import type * as TS from 'typescript';
import { AutographConfig, createFileTransformer } from './file_transformer';
import { createReporter } from './reporting';
import { useTypeScript } from './typescript';

export type { AutographConfig } from './file_transformer';
export { Diagnostics } from './diagnostics';

interface TransformerExtras {
  ts?: typeof TS;
  addDiagnostic?: (diagnostic: TS.Diagnostic) => number;
}

export default function autographTransformer(program: TS.Program, config: AutographConfig = {},
                                             extras: TransformerExtras = {}): TS.TransformerFactory<TS.SourceFile> {
  useTypeScript(extras.ts);
  return createFileTransformer(program, config, createReporter(program, config.warnings, extras.addDiagnostic));
}
