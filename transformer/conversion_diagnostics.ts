/**
 * The transformer's diagnostics for one file without emitting it: the transformer itself runs over
 * the file (ts.transform, nothing printed) and what it reports is collected. The language-service
 * plugin and `autograph-ts show` use this, so an editor shows exactly what `tspc` reports — one
 * source of truth, never a second implementation of the checks.
 */
import type * as TS from 'typescript';
import { AutographConfig, createFileTransformer } from './file_transformer';
import { ts } from './typescript';

export interface FileConversion {
  /** The file as the transformer rewrote it (TypeScript, before TypeScript's own transforms). */
  converted: TS.SourceFile;
  diagnostics: TS.Diagnostic[];
}

export function convertFile(program: TS.Program, file: TS.SourceFile, config: AutographConfig): FileConversion {
  const diagnostics: TS.Diagnostic[] = [];
  const factory = createFileTransformer(program, config, (d) => diagnostics.push(d));
  const result = ts.transform(file, [factory], program.getCompilerOptions());
  const converted = result.transformed[0];
  result.dispose();
  return { converted, diagnostics };
}

export function conversionDiagnostics(program: TS.Program, file: TS.SourceFile, config: AutographConfig): TS.Diagnostic[] {
  return convertFile(program, file, config).diagnostics;
}

/** The options of the project's `"plugins": [{ "transform": "autograph-ts/transformer", ... }]`
 * entry, so that tools besides tspc convert with the build's configuration. */
export function transformerConfig(options: TS.CompilerOptions): AutographConfig {
  const plugins = (options.plugins ?? []) as unknown as Record<string, unknown>[];
  const entry = plugins.find((p) => typeof p.transform === 'string' && /autograph-ts\/transformer|transformer\/index/.test(p.transform));
  if (entry === undefined) return {};
  const { transform: _transform, ...config } = entry;
  return config as AutographConfig;
}
