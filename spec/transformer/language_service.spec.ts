/**
 * The language-service plugin reports the transformer's own diagnostics for an open file: same
 * codes, same positions, same messages as a tspc build, and it follows edits as the user types.
 */
import { expect } from 'chai';
import * as path from 'path';
import * as ts from 'typescript';
import plugin = require('../../transformer/language_service');
import { compile } from '../harness/compile';

const ROOT = path.resolve(__dirname, '../../..');
const DIR = path.join(ROOT, 'spec-virtual-ls');

const sources: Record<string, string> = {
  tensorSwitch: `import * as tf from '@tensorflow/tfjs';
export function f(x: tf.Scalar) {
  'use autograph';
  switch (x) { case undefined: return 1; default: return 2; }
}`,
  booleanTypedTensor: `import * as tf from '@tensorflow/tfjs';
export function g(t: tf.Scalar): boolean {
  'use autograph';
  return !t.greater(0);
}`,
  unconvertedCondition: `import * as tf from '@tensorflow/tfjs';
export function k(n: tf.Scalar) {
  while (n.greater(1)) n = n.sub(1);
  return n;
}`,
  clean: `import * as tf from '@tensorflow/tfjs';
export function h(n: tf.Scalar) {
  'use autograph';
  while (n.greater(1)) n = n.sub(1);
  return n;
}`,
};

/** A LanguageService over in-memory files (as an editor's tsserver holds them), with the plugin. */
function editorSession(files: Record<string, string>, options: ts.CompilerOptions = {}) {
  const texts = new Map(Object.entries(files).map(([name, text]) => [path.join(DIR, name), { text, version: 0 }]));
  const settings: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: true, skipLibCheck: true, types: [], lib: ['lib.es2022.d.ts'], ignoreDeprecations: '6.0', ...options,
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [...texts.keys()],
    getScriptVersion: (f) => String(texts.get(f)?.version ?? 0),
    getScriptSnapshot: (f) => {
      const text = texts.get(f)?.text ?? ts.sys.readFile(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => DIR,
    getCompilationSettings: () => settings,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => texts.has(f) || ts.sys.fileExists(f),
    readFile: (f) => texts.get(f)?.text ?? ts.sys.readFile(f),
    directoryExists: (d) => d === DIR || ts.sys.directoryExists(d),
    getDirectories: ts.sys.getDirectories,
  };
  const base = ts.createLanguageService(host, ts.createDocumentRegistry());
  const pluginModule = plugin({ typescript: ts });
  const service = pluginModule.create({ languageService: base, config: {}, project: {} as ts.server.Project,
    languageServiceHost: host, serverHost: {} as ts.server.ServerHost } as ts.server.PluginCreateInfo);
  return {
    service,
    edit(name: string, text: string): void {
      const entry = texts.get(path.join(DIR, name))!;
      entry.text = text;
      entry.version++;
    },
    ours: (name: string) => service.getSemanticDiagnostics(path.join(DIR, name)).filter((d) => d.source === 'autograph-ts'),
  };
}

/** What an editor does with a code fix's edits (from the last, so that offsets stay valid). */
function applyChanges(text: string, changes: readonly ts.TextChange[]): string {
  for (const c of [...changes].sort((a, b) => b.span.start - a.span.start)) {
    text = text.slice(0, c.span.start) + c.newText + text.slice(c.span.start + c.span.length);
  }
  return text;
}

const shape = (d: ts.Diagnostic) => ({ code: d.code, start: d.start, length: d.length, category: d.category,
  message: ts.flattenDiagnosticMessageText(d.messageText, '\n') });

describe('language-service plugin', () => {
  for (const [name, source] of Object.entries(sources)) {
    it(`reports what tspc reports: ${name}`, () => {
      const build = compile({ 'main.ts': source }).diagnostics.map(shape);
      const editor = editorSession({ 'main.ts': source }).ours('main.ts').map(shape);
      expect(editor).to.deep.equal(build);
      if (name !== 'clean') expect(editor).to.have.length.greaterThan(0);
    });
  }

  it('follows edits: a diagnostic appears and disappears as the file changes', () => {
    const session = editorSession({ 'main.ts': sources.clean });
    expect(session.ours('main.ts')).to.deep.equal([]);
    session.edit('main.ts', sources.tensorSwitch);
    expect(session.ours('main.ts').map((d) => d.code)).to.deep.equal([99003]);
    session.edit('main.ts', sources.clean);
    expect(session.ours('main.ts')).to.deep.equal([]);
  });

  describe("the quick fix \"Add 'use autograph'\" for a Tensor condition in unconverted code (AG99103)", () => {
    /** Applies the plugin's fix at the one AG99103 warning of main.ts; returns the new text. */
    const fixed = (source: string, code = 99103): { text: string; after: ts.Diagnostic[]; description: string } => {
      const session = editorSession({ 'main.ts': source });
      const file = path.join(DIR, 'main.ts');
      const [warning] = session.ours('main.ts');
      expect(warning.code).to.equal(code);
      expect(session.service.getSupportedCodeFixes(file)).to.include(String(code));
      const fixes = session.service.getCodeFixesAtPosition(file, warning.start!, warning.start! + warning.length!, [warning.code],
        ts.getDefaultFormatCodeSettings('\n'), {});
      const ours = fixes.filter((f) => f.fixName === 'autographAddDirective');
      expect(ours).to.have.length(1);
      const [change] = ours[0].changes;
      expect(change.fileName).to.equal(file);
      const text = applyChanges(source, change.textChanges);
      session.edit('main.ts', text);
      return { text, after: session.ours('main.ts'), description: ours[0].description };
    };

    it('inserts the directive as the first statement of the enclosing function; the warning goes away', () => {
      const { text, after, description } = fixed(sources.unconvertedCondition);
      expect(description).to.equal("Add 'use autograph'");
      expect(text).to.equal(`import * as tf from '@tensorflow/tfjs';
export function k(n: tf.Scalar) {
  'use autograph';
  while (n.greater(1)) n = n.sub(1);
  return n;
}`);
      expect(after).to.deep.equal([]);
    });

    it('the innermost function: a method in a class, a nested function', () => {
      const { text, after } = fixed(`import * as tf from '@tensorflow/tfjs';
class Stopper {
  check(loss: tf.Scalar) {
    const helper = function (x: tf.Scalar) {
      // a comment stays above
      return x.less(0) ? 1 : 2;
    };
    return helper(loss);
  }
}`);
      expect(text).to.contain(`    const helper = function (x: tf.Scalar) {
      // a comment stays above
      'use autograph';
      return x.less(0) ? 1 : 2;`);
      expect(after).to.deep.equal([]);
    });

    it('an arrow with an expression body becomes a block with a return', () => {
      const { text, after } = fixed(`import * as tf from '@tensorflow/tfjs';
export const sign = (x: tf.Scalar) => x.greater(0) ? x : x.neg();`);
      expect(text).to.equal(`import * as tf from '@tensorflow/tfjs';
export const sign = (x: tf.Scalar) => {
    'use autograph';
    return x.greater(0) ? x : x.neg();
};`);
      expect(after).to.deep.equal([]);
    });

    it('the same fix for a callback returning a Tensor to an array predicate (AG99104)', () => {
      const { text, after } = fixed(`import * as tf from '@tensorflow/tfjs';
export function near(xs: tf.Scalar[], c: tf.Scalar) {
  return xs.some((x) => x.sub(c).abs().less(1));
}`, 99104);
      expect(text).to.contain(`export function near(xs: tf.Scalar[], c: tf.Scalar) {
  'use autograph';
  return xs.some(`);
      expect(after).to.deep.equal([]);
    });

    it('no fix for module-level code (no function to mark), and none for other codes', () => {
      const session = editorSession({ 'main.ts': `import * as tf from '@tensorflow/tfjs';
const t = tf.scalar(1);
if (t) console.log(t);` });
      const file = path.join(DIR, 'main.ts');
      const [warning] = session.ours('main.ts');
      expect(warning.code).to.equal(99103);
      const fixes = session.service.getCodeFixesAtPosition(file, warning.start!, warning.start! + warning.length!, [warning.code],
        ts.getDefaultFormatCodeSettings('\n'), {});
      expect(fixes.filter((f) => f.fixName === 'autographAddDirective')).to.deep.equal([]);
    });
  });

  it("keeps the service's own diagnostics and uses the transform entry's options", () => {
    const source = `export function f(a: any) {
  let n: number = 'x';
  switch (a) { case 1: if (a) break; return 1; }
  return 2;
}`;
    // "convert": "all" in the transform entry converts f (no directive): the editor sees that.
    const session = editorSession({ 'main.ts': source },
      { plugins: [{ transform: 'autograph-ts/transformer', convert: 'all' }] as unknown as ts.PluginImport[] });
    const all = session.service.getSemanticDiagnostics(path.join(DIR, 'main.ts'));
    expect(all.some((d) => d.code === 2322)).to.equal(true);
    const build = compile({ 'main.ts': source }, { convert: 'all' }).diagnostics.map(shape);
    expect(session.ours('main.ts').map(shape)).to.deep.equal(build);
  });
});
