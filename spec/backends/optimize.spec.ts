import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import * as ag__ from '../../runtime/operators';
import { stage } from '../../backends/stage';
import type { Graph, WhileNode } from '../../backends/graph/graph';

const values = (t: unknown): number[] => Array.from((t as tf.Tensor).dataSync());
const kernels = (g: Graph, op: string): number => g.nodes.filter((n) => n.kind === 'Kernel' && n.op === op).length;

describe('graph optimizations', () => {
  it('CSE merges repeated pure expressions, not random draws', () => {
    const f = (x: tf.Tensor) => x.exp().add(x.exp()).add(tf.randomUniform([2])).add(tf.randomUniform([2]));
    const on = stage(f);
    const off = stage(f, { optimize: { cse: false } });
    const x = tf.tensor1d([0, 1]);
    expect(kernels(on.inspect(x).program.graph, 'Exp')).to.equal(1);
    expect(kernels(off.inspect(x).program.graph, 'Exp')).to.equal(2);
    expect(on.inspect(x).program.graph.nodes.filter((n) => n.kind === 'Random')).to.have.length(2);
    const y = values(on(tf.tensor1d([0, 0])));
    y.forEach((v) => expect(v).to.be.within(2, 4));
  });

  it('folds subgraphs of constants, never variable reads or random draws', () => {
    const v = tf.variable(tf.scalar(2));
    const f = (x: tf.Tensor) => x.add(tf.scalar(3).square().sqrt()).add(v.square()).add(tf.randomNormal([]).mul(0));
    const on = stage(f);
    const off = stage(f, { optimize: { constantFolding: false } });
    const x = tf.scalar(1);
    const g = on.inspect(x).program.graph;
    expect(kernels(g, 'Square')).to.equal(1); // v.square() stays, the constant one is folded
    expect(kernels(g, 'Sqrt')).to.equal(0);
    expect(kernels(off.inspect(x).program.graph, 'Sqrt')).to.equal(1);
    expect(values(on(x))).to.deep.equal([1 + 3 + 4]);
    v.assign(tf.scalar(3));
    expect(values(on(x))).to.deep.equal([1 + 3 + 9]);
    v.dispose();
  });

  it('hoists loop-invariant nodes out of While bodies', () => {
    const f = (w: tf.Tensor2D, n: tf.Scalar) => {
      let h = tf.ones([1, 4]) as tf.Tensor;
      let i = tf.scalar(0);
      ag__.whileStmt(() => i.less(n), () => {
        h = h.matMul(w.transpose().tanh()).div(4);
        i = i.add(1);
      }, () => [h, i], ([a, b]) => { h = a as tf.Tensor; i = b as tf.Scalar; }, ['h', 'i'], { origin: 'rnn.ts:3:3' });
      return h;
    };
    const w = tf.randomNormal([4, 4]) as tf.Tensor2D;
    const on = stage(f);
    const off = stage(f, { optimize: { loopInvariant: false } });
    const loopOf = (g: Graph) => g.nodes.find((n): n is WhileNode => n.kind === 'While')!;
    const hoisted = on.inspect(w, tf.scalar(3)).program.graph;
    expect(kernels(loopOf(hoisted).body, 'Tanh')).to.equal(0);
    expect(kernels(hoisted, 'Tanh')).to.equal(1);
    expect(kernels(loopOf(off.inspect(w, tf.scalar(3)).program.graph).body, 'Tanh')).to.equal(1);
    const eager = values(f(w, tf.scalar(3)));
    values(on(w, tf.scalar(3))).forEach((v, k) => expect(v).to.be.closeTo(eager[k], 1e-5));
    values(off(w, tf.scalar(3))).forEach((v, k) => expect(v).to.be.closeTo(eager[k], 1e-5));
  });

  it('replaces Reshapes to the shape their input has by their input; values equal eager and the unoptimized graph', () => {
    const f = (x: tf.Tensor, y: tf.Tensor) => {
      const a = x.reshape([2, 3]).add(1);          // x is [2, 3]: no-op
      const b = tf.clone(a).mul(y.reshape([3, 2]).transpose());   // y is [6]: a real reshape
      return b.reshape([6]).sum(0, true).reshape([1]);               // the last is a no-op too
    };
    const x = tf.tensor2d([[1, 2, 3], [4, 5, 6]]);
    const y = tf.tensor1d([1, -1, 2, -2, 3, -3]);
    const on = stage(f, { engine: 'tfjs' });
    const off = stage(f, { engine: 'tfjs', optimize: { cse: false } });
    const g = on.inspect(x, y).program.graph;
    expect(kernels(g, 'Identity')).to.equal(1); // (Identity kernels stay)
    expect(kernels(g, 'Reshape')).to.equal(2); // y to [3, 2], b to [6]
    expect(kernels(off.inspect(x, y).program.graph, 'Reshape')).to.equal(4);
    const eager = values(f(x, y));
    for (let call = 0; call < 2; call++) {        // (the first call is the trace's, the second runs the graph)
      expect(values(on(x, y))).to.deep.equal(eager);
      expect(values(off(x, y))).to.deep.equal(eager);
    }
  });

  it('removes dead nodes and keeps the effects', () => {
    const f = stage((x: tf.Tensor) => {
      x.exp(); // unused
      console.log(x);
      return x.neg();
    });
    const g = f.inspect(tf.scalar(1)).program.graph;
    expect(kernels(g, 'Exp')).to.equal(0);
    expect(g.nodes.filter((n) => n.kind === 'Print')).to.have.length(1);
    expect(f.inspect(tf.scalar(1)).dump()).to.match(/Print/);
  });
});
