/**
 * Op checks for the GraphModel export: every op check case (spec/onnx/op_cases.ts) exported,
 * loaded with tf.loadGraphModel and run with executeAsync, against tfjs eager; or, for the
 * kernels listed in REFUSED, refused with an error naming the kernel.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';
import { exportGraphModel } from '../../backends/export/graphmodel/export';
import { expectSameTensor, kernelNames } from '../onnx/support';
import { cases } from '../onnx/op_cases';
import { loadExported } from './support';

/** Kernels (with the case note, where only that case) that do not export, and why. */
const REFUSED: Record<string, RegExp> = {
  // tf.step has no TF op.
  Step: /Step \(the function, node %\d+\): tfjs-converter has no op Step/,
  // TF's FusedBatchNorm needs a scale and an offset.
  'FusedBatchNorm (no offset or scale)': /FusedBatchNorm .*3 tensor inputs, TF's FusedBatchNorm takes 5/,
};

describe('graph model: op checks (exported GraphModel vs tfjs eager)', () => {
  let dir: string;
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-graphmodel-ops-')); });
  after(() => dir !== undefined && fs.rmSync(dir, { recursive: true, force: true }));

  cases.forEach((c, index) => {
    const title = `${c.kernel}${c.note ? ` (${c.note})` : ''}`;
    it(title, async () => {
      const previous = tf.getBackend();
      if (c.backend !== undefined) await tf.setBackend(c.backend);
      const args = c.args();
      const staged = stage(c.fn);
      const out = path.join(dir, `case${index}`);
      try {
        expect([...kernelNames(staged.inspect(...args).program.graph)], 'kernels in the graph').to.include(c.kernel);
        const refused = REFUSED[title] ?? REFUSED[c.kernel];
        if (refused) {
          let error: unknown;
          await exportGraphModel(staged, args, out).catch((e: unknown) => { error = e; });
          expect(String(error)).to.match(refused);
          return;
        }
        await exportGraphModel(staged, args, out);
        const model = await loadExported(out);
        const feeds = Object.fromEntries(model.inputNodes.map((n, i) => [n, args[i]]));
        const result = await model.executeAsync(feeds, model.outputNodes);
        const got = Array.isArray(result) ? result : [result];
        const want = tf.tidy(() => c.fn(...args));
        const w = Array.isArray(want) ? want : [want];
        expect(got.length).to.equal(w.length);
        w.forEach((t, i) => expectSameTensor(got[i], t, c.tol ?? 0, `${c.kernel} output ${i}`));
        tf.dispose([got, w]);
        model.dispose();
      } finally {
        staged.dispose();
        tf.dispose(args);
        if (c.backend !== undefined) await tf.setBackend(previous);
      }
    });
  });
});
