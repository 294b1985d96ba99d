/**
 * autograph-ts/language-service: a TypeScript language-service plugin, so that editors (any
 * tsserver-based one) show the transformer's diagnostics (TS99xxx) as you type. In tsconfig.json,
 * next to the transform entry:
 *   "plugins": [{ "transform": "autograph-ts/transformer" }, { "name": "autograph-ts/language-service" }]
 * The diagnostics come from running the transformer itself (conversion_diagnostics.ts) with the
 * transform entry's options, merged with this entry's. A Tensor condition in unconverted code
 * (AG99103), and a callback returning a Tensor to an array predicate there (AG99104), have the quick
 * fix "Add 'use autograph'" (add_directive_fix.ts).
 */
import type * as TS from 'typescript';
import { addDirectiveFix } from './add_directive_fix';
import { conversionDiagnostics, transformerConfig } from './conversion_diagnostics';
import { Diagnostics } from './diagnostics';
import type { AutographConfig } from './file_transformer';
import { useTypeScript } from './typescript';

function init(modules: { typescript: typeof TS }): TS.server.PluginModule {
  useTypeScript(modules.typescript);
  return {
    create(info: TS.server.PluginCreateInfo): TS.LanguageService {
      return withConversionDiagnostics(info.languageService, (info.config ?? {}) as AutographConfig);
    },
  };
}

/** A language service whose semantic diagnostics include the transformer's. Exported for specs
 * (and for tools that build a LanguageService themselves). */
function withConversionDiagnostics(service: TS.LanguageService, pluginConfig: AutographConfig = {}): TS.LanguageService {
  const { name: _name, ...ownConfig } = pluginConfig as AutographConfig & { name?: string };
  const proxy: TS.LanguageService = Object.create(null);
  for (const key of Object.keys(service) as (keyof TS.LanguageService)[]) {
    const member = service[key];
    (proxy as unknown as Record<string, unknown>)[key] = typeof member === 'function' ? member.bind(service) : member;
  }
  proxy.getSemanticDiagnostics = (fileName) => {
    const base = service.getSemanticDiagnostics(fileName);
    const program = service.getProgram();
    const file = program?.getSourceFile(fileName);
    if (program === undefined || file === undefined || file.isDeclarationFile) return base;
    try {
      const config = { ...transformerConfig(program.getCompilerOptions()), ...ownConfig };
      return [...base, ...conversionDiagnostics(program, file, config)];
    } catch {
      // The editor must keep working whatever happens here; the build (tspc) reports the problem.
      return base;
    }
  };
  const fixable: number[] = [Diagnostics.UnconvertedTensorCondition.code, Diagnostics.UnconvertedTensorPredicate.code];
  proxy.getSupportedCodeFixes = (fileName) => [...service.getSupportedCodeFixes(fileName), ...fixable.map(String)];
  proxy.getCodeFixesAtPosition = (fileName, start, end, errorCodes, formatOptions, preferences) => {
    const base = service.getCodeFixesAtPosition(fileName, start, end, errorCodes.filter((c) => !fixable.includes(c)), formatOptions, preferences);
    const file = service.getProgram()?.getSourceFile(fileName);
    if (!errorCodes.some((c) => fixable.includes(c)) || file === undefined) return base;
    try {
      const fix = addDirectiveFix(file, start, end, formatOptions);
      return fix === undefined ? base : [...base, fix];
    } catch {
      return base;
    }
  };
  return proxy;
}

export = Object.assign(init, { withConversionDiagnostics });
