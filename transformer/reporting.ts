/**
 * How the transformer's diagnostics reach the user. Errors go to the compiler (ts-patch's
 * `addDiagnostic`), which prints them and fails the build. Warnings cannot take that road: `tsc`
 * (and so `tspc`) exits with status 2 when its emit reports any diagnostic at all, whatever its
 * category, so a warning there would fail the user's build. By default a warning is therefore
 * printed the way tsc prints diagnostics, and the exit status stays 0; the plugin option
 * `"warnings"` makes them errors (`"error"`, for CI) or silences them (`"off"`).
 */
import type * as TS from 'typescript';
import { ts } from './typescript';

export type WarningPolicy = 'error' | 'warning' | 'off';

export function createReporter(program: TS.Program, policy: WarningPolicy = 'warning',
                               addDiagnostic: ((diagnostic: TS.Diagnostic) => unknown) | undefined): (diagnostic: TS.Diagnostic) => void {
  const toCompiler = (diagnostic: TS.Diagnostic): void => {
    if (addDiagnostic === undefined) throw new Error(String(diagnostic.messageText));
    addDiagnostic(diagnostic);
  };
  return (diagnostic) => {
    if (diagnostic.category !== ts.DiagnosticCategory.Warning) return toCompiler(diagnostic);
    if (policy === 'off') return;
    if (policy === 'error') return toCompiler({ ...diagnostic, category: ts.DiagnosticCategory.Error });
    printWarning(program, diagnostic);
  };
}

/** Prints like tsc: `src/a.ts(4,10): warning TS99101: ...`, with colour and context under --pretty. */
function printWarning(program: TS.Program, diagnostic: TS.Diagnostic): void {
  const host: TS.FormatDiagnosticsHost = {
    getCurrentDirectory: () => program.getCurrentDirectory(),
    getCanonicalFileName: (name) => name,
    getNewLine: () => ts.sys.newLine,
  };
  const pretty = program.getCompilerOptions().pretty ?? (ts.sys.writeOutputIsTTY?.() ?? false);
  ts.sys.write(pretty ? ts.formatDiagnosticsWithColorAndContext([diagnostic], host) + ts.sys.newLine
    : ts.formatDiagnostics([diagnostic], host));
}
