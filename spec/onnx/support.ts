/**
 * Shared by the ONNX specs: skipping when onnxruntime-node is not installed (it is an optional
 * dependency), and comparing tensors the way the op checks need (NaN equals NaN, -0 is not 0 in
 * exact comparisons, floats within a relative tolerance where asked).
 */
import * as fs from 'fs';
import * as path from 'path';
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { onnxRuntimeAvailable, onnxRuntimeMissing } from '../../backends/engines/onnx/runtime';
import type { Graph } from '../../backends/graph/graph';
import { compile, formatDiagnostics, load } from '../harness/compile';

/** describe() whose tests are skipped, saying why, when onnxruntime-node cannot be loaded. */
export function describeOnnx(title: string, body: (this: Mocha.Suite) => void): void {
  describe(title, function () {
    before(function () {
      if (!onnxRuntimeAvailable()) {
        console.log(`    (skipped: ${onnxRuntimeMissing()})`);
        this.skip();
      }
    });
    body.call(this);
  });
}

/** `actual` equals `expected`: dtype, shape, and values (relative tolerance `tol` for floats). */
export function expectSameTensor(actual: tf.Tensor, expected: tf.Tensor, tol = 0, what = ''): void {
  expect(actual.dtype, `${what} dtype`).to.equal(expected.dtype);
  expect(actual.shape, `${what} shape`).to.deep.equal(expected.shape);
  const a = Array.from(actual.dataSync() as ArrayLike<number>);
  const e = Array.from(expected.dataSync() as ArrayLike<number>);
  e.forEach((x, i) => {
    const y = a[i];
    const ok = Number.isNaN(x) ? Number.isNaN(y) : tol === 0 ? Object.is(x, y)
      : x === y || Math.abs(x - y) <= tol * Math.max(1, Math.abs(x));
    if (!ok) expect.fail(`${what} element ${i}: got ${Object.is(y, -0) ? '-0' : y}, expected ${Object.is(x, -0) ? '-0' : x} (all: ${a.join(', ')} vs ${e.join(', ')})`);
  });
}

/** Kernel names of a graph and its sub-graphs. */
export function kernelNames(graph: Graph, into = new Set<string>()): Set<string> {
  for (const node of graph.nodes) {
    if (node.kind === 'Kernel') into.add(node.op);
    if (node.kind === 'If') [node.then, node.else].forEach((g) => kernelNames(g, into));
    if (node.kind === 'While') [node.cond, node.body].forEach((g) => kernelNames(g, into));
  }
  return into;
}

const ROOT = path.resolve(__dirname, '../../..');

/** A sample's source file compiled by the transformer and loaded (its exports). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadSample(file: string): Record<string, any> {
  // The sample's source files are compiled together, so relative imports ('./model') resolve to
  // their compiled siblings.
  const dir = path.dirname(path.join(ROOT, 'samples', file));
  const names = fs.readdirSync(dir).filter((n) => n.endsWith('.ts') && n !== 'main.ts');
  const result = compile(Object.fromEntries(names.map((n) => [n, fs.readFileSync(path.join(dir, n), 'utf8')])));
  if (result.diagnostics.length) throw new Error(formatDiagnostics(result.diagnostics));
  const loaded = new Map<string, Record<string, any>>();
  const loadFile = (name: string): Record<string, any> => {
    let exports = loaded.get(name);
    if (exports === undefined) {
      const module = { exports: {} as Record<string, any> };
      loaded.set(name, module.exports);
      const sibling = (id: string): unknown => (id.startsWith('./') ? loadFile(`${id.slice(2).replace(/\.js$/, '')}.ts`) : require(id));
      new Function('require', 'module', 'exports', result.js[name])(sibling, module, module.exports);
      exports = module.exports;
    }
    return exports;
  };
  return loadFile(path.basename(file));
}

