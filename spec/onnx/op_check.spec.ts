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
import { cases } from './op_cases';

describeOnnx('onnx: op checks (ONNX engine vs tfjs eager)', () => {
  for (const c of cases) {
    it(`${c.kernel}${c.note ? ` (${c.note})` : ''}`, async () => {
      const previous = tf.getBackend();
      if (c.backend !== undefined) await tf.setBackend(c.backend);
      const args = c.args();
      const staged = stage(c.fn, { engine: 'onnx' });
      try {
        const info = staged.inspect(...args);
        expect([...kernelNames(info.program.graph)], 'kernels in the graph').to.include(c.kernel);
        expect(info.engine.engine).to.equal('onnx');
        const got = staged(...args);
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
