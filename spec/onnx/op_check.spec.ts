/**
 * Op checks: every lowered kernel, run by the ONNX engine, against tfjs eager on the same inputs,
 * per dtype, with edge values (NaN, ±Infinity, ±0, negative operands of mod and floor division,
 * zero divisors). Inputs are arguments, so nothing is constant-folded away; each check also
 * asserts that the kernel it is about is in the graph.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';
import { describeOnnx, expectSameTensor, kernelNames } from './support';
import { cases, edgeCases } from './op_cases';

describeOnnx('onnx: op checks (ONNX engine vs tfjs eager)', () => {
  for (const c of [...cases, ...edgeCases]) {
    it(`${c.kernel}${c.note ? ` (${c.note})` : ''}`, async () => {
      const previous = tf.getBackend();
      if (c.backend !== undefined) await tf.setBackend(c.backend);
      const args = c.args();
      if (c.refused !== undefined) {
        try {
          expect(() => stage(c.fn, { engine: 'onnx' }).inspect(...args)).to.throw(new RegExp(`${c.kernel}.*${c.refused.source}`));
          // (It runs on the tfjs executor, the same kernels as eager.)
          const onTfjs = stage(c.fn, { engine: 'auto' });
          expect(onTfjs.inspect(...args).engine.engine, 'engine').to.equal('tfjs');
          onTfjs.dispose();
        } finally {
          tf.dispose(args);
          if (c.backend !== undefined) await tf.setBackend(previous);
        }
        return;
      }
      const staged = stage(c.fn, { engine: 'onnx' });
      if (c.throws !== undefined) {
        try {
          const valid = c.traceArgs!();
          expect(staged.inspect(...valid).engine.engine).to.equal('onnx');
          tf.dispose([staged(...valid), valid]);
          expect(() => c.fn(...args)).to.throw(c.throws);
          expect(() => staged(...args)).to.throw(c.throws);
        } finally {
          staged.dispose();
          tf.dispose(args);
          if (c.backend !== undefined) await tf.setBackend(previous);
        }
        return;
      }
      try {
        const info = staged.inspect(...args);
        expect([...kernelNames(info.program.graph)], 'kernels in the graph').to.include(c.kernel);
        expect(info.engine.engine).to.equal('onnx');
        const got = staged(...args);
        // (A model ORT cannot load runs on the tfjs executor from then on: that would hide a wrong lowering.)
        expect(staged.inspect(...args).engine, 'engine after the run').to.include({ engine: 'onnx' });
        const want = tf.tidy(() => c.fn(...args));
        const [g, w] = [got, want].map((t) => (Array.isArray(t) ? t : [t]));
        expect(g.length).to.equal(w.length);
        w.forEach((t, i) => expectSameTensor(g[i], t, c.tol ?? 0, `${c.kernel} output ${i}`));
        tf.dispose([g, w]);
      } finally {
        staged.dispose();
        tf.dispose(args);
        if (c.backend !== undefined) await tf.setBackend(previous);
      }
    });
  }
});
