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
