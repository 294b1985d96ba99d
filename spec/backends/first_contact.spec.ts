/**
 * Errors at first contact tell the truth (issue "Trust at first contact"): what went wrong, in the
 * user's words (the parameter, the loop's line), raised at the user's call, on every engine.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import * as ag__ from '../../runtime/operators';
import { stage } from '../../backends/stage';
import { StagingError } from '../../backends/common/errors';
import { onnxRuntimeAvailable } from '../../backends/engines/onnx/runtime';

/** The error `call` throws (it must throw). */
function thrown(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    return error as Error;
  }
  return expect.fail('expected an error') as never;
}

const engines = (): ('tfjs' | 'auto' | 'onnx')[] => (onnxRuntimeAvailable() ? ['tfjs', 'auto', 'onnx'] : ['tfjs', 'auto']);

describe('a disposed tensor argument is refused before any engine runs, naming the parameter', () => {
  for (const engine of engines()) {
    it(`on engine '${engine}'`, () => {
      const scaled = stage(function scaled(x: tf.Tensor, scale: tf.Tensor): tf.Tensor {
        return x.mul(scale).add(tf.scalar(1));
      }, { engine });
      const x = tf.tensor1d([1, 2, 3]);
      const scale = tf.scalar(2);
      expect(Array.from(scaled(x, scale).dataSync())).to.deep.equal([3, 5, 7]);
      scale.dispose();
      // Called from a named function of this spec: its frame is the user's call site.
      const error = thrown(function callsScaled() { return scaled(x, scale); });
      expect(error).to.be.instanceOf(StagingError);
      expect(error.message).to.equal('autograph-ts: argument 1 (scale) of scaled is a disposed tensor: it was disposed ' +
        '(t.dispose(), or a tf.tidy that ended) before this call. Pass a tensor that is still alive, or keep it ' +
        '(tf.keep, or return it from the tidy).');
      expect(error.stack!.split('\n')[1]).to.match(/at callsScaled \(.*first_contact\.spec\.ts:\d+:\d+\)/);
      // Before the first trace too, and inside a nested argument.
      const pair = stage(function pair(xs: { a: tf.Tensor; b: tf.Tensor }): tf.Tensor { return xs.a.add(xs.b); }, { engine });
      expect(() => pair({ a: x, b: scale })).to.throw(StagingError, 'argument 0 (xs) of pair holds a disposed tensor');
      expect(pair.traceCount).to.equal(0);
      x.dispose();
    });
  }
});

describe('an error raised while tracing says so; an unbound method gets the bind hint', () => {
  class Model {
    k = 2;
    forward(x: tf.Tensor): tf.Tensor {
      return x.mul(this.k);
    }
    branchy(x: tf.Tensor): tf.Tensor {
      let y = x;
      ag__.ifStmt(x.greater(0), () => { y = x.mul(this.k); }, () => {}, () => [y], ([a]) => { y = a as tf.Tensor; }, ['y'], 1,
        { origin: 'model.ts:3:5' });
      return y;
    }
  }
  let model: Model;
  before(() => { model = new Model(); });
  const hint = 'stage() traced forward with `this` undefined, and it uses `this`: a method passed unbound ' +
    '(stage(obj.forward)) loses its object. Stage it bound: stage(obj.forward.bind(obj)), or ' +
    'stage((...args) => obj.forward(...args)).';

  for (const engine of engines()) {
    it(`stage(m.forward) on engine '${engine}': raised while tracing, with the hint`, () => {
      const forward = stage(model.forward, { engine });
      const error = thrown(function callsForward() { return forward(tf.scalar(1)); });
      expect(error).to.be.instanceOf(TypeError);
      expect(error.message).to.equal(`Cannot read properties of undefined (reading 'k')\n\n${hint}`);
      const frames = error.stack!.split('\n').filter((l) => /^\s+at /.test(l));
      expect(frames[0]).to.match(/at forward \(.*first_contact\.spec\.ts:\d+:\d+\)/);
      expect(frames[1]).to.equal('    at <stage() tracing forward> (raised while stage() traced it, not by a run of its graph)');
      expect(frames[2]).to.match(/at callsForward \(.*first_contact\.spec\.ts:\d+:\d+\)/);
      // Bound, it stages.
      expect(stage(model.forward.bind(model), { engine })(tf.scalar(3)).dataSync()[0]).to.equal(6);
    });
  }

  it('a branch that threw while traced is raised again when the graph takes it, and its stack says which', () => {
    const branchy = stage(model.branchy, { engine: 'tfjs' });
    expect(branchy(tf.scalar(-1)).dataSync()[0]).to.equal(-1); // the branch not taken: no error, as eagerly
    const error = thrown(() => branchy(tf.scalar(1)));
    expect(error).to.be.instanceOf(TypeError);
    expect(error.message).to.equal(`Cannot read properties of undefined (reading 'k')\n\n${hint.replace(/forward/g, 'branchy')}`);
    expect(error.stack).to.include('    at <staged graph> (thrown while stage() traced this branch, at the frames above; ' +
      'raised again when the graph ran it)');
    expect(error.stack).not.to.include('raised when the graph ran;');
  });

  it('no hint when `this` is given or fn does not use it; the tracing frame all the same', () => {
    const f = stage(function reads(x: tf.Tensor, o: { k?: { k: tf.Tensor } }): tf.Tensor { return x.mul(o.k!.k); });
    const error = thrown(function callsReads() { return f(tf.scalar(1), {}); });
    expect(error.message).to.equal("Cannot read properties of undefined (reading 'k')");
    expect(error.stack).to.include('    at <stage() tracing reads> (raised while stage() traced it, not by a run of its graph)');
  });
});

describe('stage(fn, { maximumIterations }): a staged loop that does not end is a named error', () => {
  /** `while (x.greater(0)) x = x.add(1)` as the transformer emits it, at 'forever.ts:3:3'. */
  function forever(x: tf.Tensor): tf.Tensor {
    ag__.whileStmt(() => x.greater(0), () => { x = x.add(1); }, () => [x], ([a]) => { x = a as tf.Tensor; }, ['x'],
      { origin: 'forever.ts:3:3' });
    return x;
  }
  /** `while (x.less(0)) x = x.add(1)`, at 'count_up.ts:2:3': ends. */
  function countUp(x: tf.Tensor): tf.Tensor {
    ag__.whileStmt(() => x.less(0), () => { x = x.add(1); }, () => [x], ([a]) => { x = a as tf.Tensor; }, ['x'],
      { origin: 'count_up.ts:2:3' });
    return x;
  }
  const message = 'autograph-ts: the loop staged on a tensor condition at forever.ts:3:3 did not end within ' +
    'maximumIterations (100): its condition still held after 100 iterations. A loop whose condition never becomes ' +
    'false runs forever; raise maximumIterations if this one needs more.';

  for (const engine of ['tfjs', 'auto'] as const) {
    it(`on engine '${engine}': throws naming the loop's line; a loop that ends within the limit is unaffected`, () => {
      const staged = stage(forever, { engine, maximumIterations: 100 });
      const error = thrown(() => staged(tf.scalar(1)));
      expect(error).to.be.instanceOf(StagingError);
      expect(error.message).to.equal(message);
      expect(error.stack!.split('\n')[1]).to.equal('    at forever.ts:3:3');
      // Loops that end: after zero iterations, 6, and exactly 100.
      expect(staged(tf.scalar(-5)).dataSync()[0]).to.equal(-5);
      const counted = stage(countUp, { engine, maximumIterations: 100 });
      expect(counted(tf.scalar(-5.5)).dataSync()[0]).to.equal(0.5);
      expect(counted(tf.scalar(-99.5)).dataSync()[0]).to.equal(0.5);
      expect(thrown(() => stage(countUp, { engine, maximumIterations: 99 })(tf.scalar(-99.5))).message)
        .to.include('at count_up.ts:2:3 did not end within maximumIterations (99)');
      expect(staged.inspect(tf.scalar(1)).engine.engine).to.equal('tfjs');
      if (engine === 'auto' && onnxRuntimeAvailable()) {
        expect(staged.inspect(tf.scalar(1)).engine.reason).to.equal("engine 'auto' keeps the tfjs executor: maximumIterations " +
          "(100) is checked by the tfjs executor only: ONNX Runtime's Loop cannot raise the error that names the loop");
      }
    });
  }

  it('under a gradient tape too (the program gradient keeps the limit)', () => {
    const staged = stage(forever, { engine: 'tfjs', maximumIterations: 10 });
    const error = thrown(() => tf.grad((x: tf.Tensor) => staged(x))(tf.scalar(1)));
    expect(error.message).to.include('at forever.ts:3:3 did not end within maximumIterations (10)');
  });

  it("engine 'onnx' refuses it, saying why; a bad limit is a TypeError", function () {
    if (!onnxRuntimeAvailable()) this.skip();
    expect(() => stage(forever, { engine: 'onnx', maximumIterations: 100 })(tf.scalar(-3)))
      .to.throw("engine 'onnx' cannot run forever: maximumIterations (100) is checked by the tfjs executor only");
    expect(() => stage(forever, { maximumIterations: -1 })).to.throw(TypeError, 'maximumIterations must be a non-negative integer, got -1');
  });
});

describe('stage(fn, { timeBudgetMs }): an asynchronous call still in a staged loop past its budget is a named error', () => {
  /** `while (x.greater(0)) x = x.add(1)` as the transformer emits it, at 'forever.ts:3:3'. */
  function forever(x: tf.Tensor): tf.Tensor {
    ag__.whileStmt(() => x.greater(0), () => { x = x.add(1); }, () => [x], ([a]) => { x = a as tf.Tensor; }, ['x'],
      { origin: 'forever.ts:3:3' });
    return x;
  }

  for (const engine of ['tfjs', 'auto'] as const) {
    it(`on engine '${engine}': staged.run rejects naming the loop's line and the budget; a call within it is unaffected`, async () => {
      const staged = stage(forever, { engine, timeBudgetMs: 200 });
      const started = performance.now();
      let error: Error | undefined;
      try {
        await staged.run(tf.scalar(1));
      } catch (e) {
        error = e as Error;
      }
      const elapsed = performance.now() - started;
      expect(error).to.be.instanceOf(StagingError);
      expect(error!.message).to.match(new RegExp('^autograph-ts: staged\\.run\\(\\.\\.\\.\\) did not finish within timeBudgetMs ' +
        '\\(200 ms\\): after \\d+ ms the loop staged on a tensor condition at forever\\.ts:3:3 was still running \\(\\d+ iterations ' +
        'in this run of it\\)\\. A loop whose condition never becomes false runs forever; raise timeBudgetMs if this call needs ' +
        'more time\\.$'));
      expect(error!.stack!.split('\n').find((l) => /^\s+at /.test(l))).to.equal('    at forever.ts:3:3');
      expect(elapsed).to.be.below(200 + 5000); // (a loaded machine: one iteration can be slow, but not forever)
      expect((await staged.run(tf.scalar(-5))).dataSync()[0]).to.equal(-5);
      expect(staged.inspect(tf.scalar(1)).engine.engine).to.equal('tfjs');
      if (engine === 'auto' && onnxRuntimeAvailable()) {
        expect(staged.inspect(tf.scalar(1)).engine.reason).to.equal("engine 'auto' keeps the tfjs executor: timeBudgetMs " +
          "(200) is checked by the tfjs executor only: ONNX Runtime's Loop cannot raise the error that names the loop");
      }
    });
  }

  it('a bad budget is a TypeError', () => {
    expect(() => stage(forever, { timeBudgetMs: 0 })).to.throw(TypeError, 'timeBudgetMs must be a positive number of milliseconds, got 0');
  });
});

describe('a loop whose value changes shape and whose body fails on the changed shape (x = x.matMul(w), x [2,3], w [3,4])', () => {
  /** `while (i.less(n)) { x = x.matMul(w); i = i.add(1); }` as the transformer emits it, at 'grow.ts:4:3'. */
  function grow(x: tf.Tensor, w: tf.Tensor, n: tf.Tensor): tf.Tensor {
    let i: tf.Tensor = tf.scalar(0);
    ag__.whileStmt(() => i.less(n), function growBody() { x = x.matMul(w); i = i.add(1); }, () => [x, i],
      ([a, b]) => { x = a as tf.Tensor; i = b as tf.Tensor; }, ['x', 'i'], { origin: 'grow.ts:4:3' });
    return x;
  }
  const args = (n: number): [tf.Tensor, tf.Tensor, tf.Tensor] => [tf.ones([2, 3]), tf.ones([3, 4]), tf.scalar(n)];
  const message = 'Error in matMul: inner shapes (4) and (3) of Tensors with shapes 2,4 and 3,4 and transposeA=false and ' +
    'transposeB=false must match.\n\nin user code: the loop staged on a tensor condition at grow.ts:4:3 fails on its second ' +
    "iteration (as eager code does), where 'x' is [2,4] ([2,3] before the loop): stage() traced that iteration to find it, " +
    'and the graph raises it when a run reaches it.';

  for (const engine of ['tfjs', 'auto'] as const) {
    it(`on engine '${engine}': runs of 0 and 1 iterations equal eager; a second iteration raises eager's error with the body's line first`, () => {
      const staged = stage(grow, { engine });
      for (const n of [0, 1]) {
        const want = grow(...args(n));
        const got = staged(...args(n));
        expect(got.shape).to.deep.equal(want.shape);
        expect(got.arraySync()).to.deep.equal(want.arraySync());
      }
      expect(() => grow(...args(3))).to.throw('inner shapes (4) and (3) of Tensors with shapes 2,4 and 3,4');
      const error = thrown(() => staged(...args(3)));
      expect(error.message).to.equal(message);
      expect(error.stack!.split('\n').find((l) => /^\s+at /.test(l))).to.match(/at (Object\.)?growBody \(.*first_contact\.spec\.ts:\d+:\d+\)/);
      // (One graph for every n: traced twice, as a graph with unknown dims is, not per call.)
      expect(staged.traceCount).to.equal(2);
    });
  }

  it('a body that fails only on the stand-in sizes (reshape([-1, 2]) of a growing x) is traced on the first two iterations\' dims: equal eager', () => {
    /** `while (i.less(n)) { x = tf.concat([x, tf.ones([2])]); s = x.reshape([-1, 2]).sum(); i = i.add(1); }` at 'pairs.ts:4:3'. */
    function pairs(x: tf.Tensor, n: tf.Tensor): tf.Tensor[] {
      let i: tf.Tensor = tf.scalar(0);
      let s: tf.Tensor = tf.scalar(0);
      ag__.whileStmt(() => i.less(n), () => { x = tf.concat([x, tf.ones([2])]); s = x.reshape([-1, 2]).sum(); i = i.add(1); },
        () => [x, s, i], ([a, b, c]) => { x = a as tf.Tensor; s = b as tf.Tensor; i = c as tf.Tensor; }, ['x', 's', 'i'],
        { origin: 'pairs.ts:4:3' });
      return [s, x];
    }
    for (const engine of ['tfjs', 'auto'] as const) {
      const staged = stage(pairs, { engine });
      for (const n of [0, 1, 2, 5]) {
        const [wantS, wantX] = pairs(tf.ones([4]), tf.scalar(n));
        const [gotS, gotX] = staged(tf.ones([4]), tf.scalar(n));
        expect(gotS.dataSync()[0], `${engine} n=${n}`).to.equal(wantS.dataSync()[0]);
        expect(gotX.shape).to.deep.equal(wantX.shape);
      }
      expect(staged.traceCount).to.equal(2);
    }
  });

  it("engine 'onnx' refuses it, saying why (the check is a host callback inside the loop)", function () {
    if (!onnxRuntimeAvailable()) this.skip();
    expect(() => stage(grow, { engine: 'onnx' })(...args(1))).to.throw("engine 'onnx' cannot run grow");
  });
});
