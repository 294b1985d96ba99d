/**
 * The bundler plugin (one implementation for Vite, Rollup, esbuild and webpack, on unplugin): each
 * TypeScript file of the project is compiled by the transformer `tspc` runs, with the whole
 * program (project.mts), before the bundler's own TypeScript handling sees it. What it hands on is
 * JavaScript (ES modules) with its source map, which the bundler chains to the .ts; the
 * transformer's diagnostics (TS99xxx) become the bundler's errors and warnings at file:line.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { createUnplugin, type UnpluginBuildContext, type UnpluginContext } from 'unplugin';
import type { HmrContext } from 'vite';
import { Project, type ProjectOptions, type TransformMessage } from './project.mjs';

export type AutographPluginOptions = ProjectOptions;

export const autographPlugin = createUnplugin<AutographPluginOptions | undefined>((options = {}) => {
  const root = process.cwd();
  return {
    name: 'autograph-ts',
    enforce: 'pre',
    buildStart() {
      for (const project of Project.all()) project.refresh();
    },
    // onnxruntime-web is an optional peer: the onnx-web engine imports it on first use. A project
    // without it gets a module that rejects that import (the engine then says how to install it),
    // not a build error.
    resolveId: (id, importer) => (id === 'onnxruntime-web' && !resolvable(id, importer ?? path.join(root, 'package.json'))
      ? MISSING_ONNX_WEB : null),
    loadInclude: (id) => id === MISSING_ONNX_WEB,
    load: (id) => (id === MISSING_ONNX_WEB
      ? 'throw new Error("onnxruntime-web is not installed in this project (npm install onnxruntime-web)");' : null),
    transformInclude: (id) => Project.includes(id.replace(/\?.*$/, '')),
    transform(code, id) {
      const file = id.replace(/\?.*$/, '');
      const emitted = Project.of(file, options, root).emit(file, code);
      for (const related of emitted.related) this.addWatchFile(related);
      report(this, emitted.messages);
      return { code: emitted.code, map: emitted.map };
    },
    watchChange(id) {
      for (const project of Project.all()) project.invalidate(id);
    },
    vite: {
      // Vite's dev server re-transforms only the changed file (its importers keep their transform):
      // the files whose conversion depends on it are re-transformed too.
      handleHotUpdate(context: HmrContext) {
        const graph = context.server.moduleGraph;
        const dependents = [...Project.all()].flatMap((project) => project.dependents(context.file))
          .flatMap((file) => [...graph.getModulesByFile(file) ?? []]);
        for (const module of dependents) graph.invalidateModule(module);
        return [...context.modules, ...dependents];
      },
    },
  };
});

const MISSING_ONNX_WEB = '\0autograph-ts:onnxruntime-web-not-installed';

/** Whether `id` resolves from `importer` (a file). */
function resolvable(id: string, importer: string): boolean {
  try {
    createRequire(importer).resolve(id);
    return true;
  } catch {
    return false;
  }
}

/** The transformer's diagnostics as the bundler's: errors fail the build, warnings are shown. */
function report(context: UnpluginBuildContext & UnpluginContext, messages: TransformMessage[]): void {
  for (const message of messages) {
    const warning = {
      message: message.text,
      id: message.file,
      loc: message.file === undefined ? undefined : { file: message.file, line: message.line!, column: message.column! },
    };
    if (message.category === 'warning') context.warn(warning);
  }
  const errors = messages.filter((m) => m.category === 'error');
  if (errors.length > 0) {
    const [first] = errors;
    context.error({
      // (Rollup stops at the first error it is given: one error names them all.)
      message: errors.length === 1 ? first.text : errors.map(located).join('\n'),
      id: first.file,
      loc: first.file === undefined ? undefined : { file: first.file, line: first.line!, column: first.column! },
    });
  }
}

/** `src/a.ts:4:10: TS99101: ...` */
const located = (m: TransformMessage): string => (m.file === undefined ? m.text : `${m.file}:${m.line}:${(m.column ?? 0) + 1}: ${m.text}`);
