/**
 * stage() on a function the transformer never saw fails at once with what to do; retraces are
 * explained (AUTOGRAPH_VERBOSITY) and warned about when they keep happening.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { stage } from '../../backends/stage';
import { RETRACE_WARNING_THRESHOLD } from '../../backends/cache/retracing';

function captureConsole<T>(method: 'warn' | 'error', fn: () => T): { result: T; lines: string[] } {
  const lines: string[] = [];
  const original = console[method];
  console[method] = (...args: unknown[]) => void lines.push(args.join(' '));
  try {
    return { result: fn(), lines };
  } finally {
    console[method] = original;
  }
}

describe('stage(): unconverted functions and retracing', () => {
  it("refuses a function whose body still holds 'use autograph' (compiled without the plugin)", () => {
    // What plain tsc emits for a marked function: the directive stays, the while is native.
    const plain = new Function('tf', `return function collatz(n) {
      'use strict'; "use autograph";
      while (n.greater(1)) n = n.sub(1);
      return n;
    }`)(tf) as (n: tf.Tensor) => tf.Tensor;
    expect(() => stage(plain)).to.throw(/collatz was not converted: .*'use autograph'.*tspc.*"transform": "autograph-ts\/transformer"/);
    const arrow = new Function(`return (x) => { 'use autograph'; return x; }`)() as (x: tf.Tensor) => tf.Tensor;
    expect(() => stage(arrow)).to.throw(/was not converted/);
  });

  it('accepts converted and plain functions, including ones that only mention the directive', () => {
    expect(() => stage((x: tf.Tensor) => x.add(1))).not.to.throw();
    expect(() => stage(function f(x: tf.Tensor) { 'use strict'; const s = 'use autograph'; return s ? x : x; })).not.to.throw();
    expect(() => stage(new Function(`return (x) => ({ a: 'use autograph' })`)() as () => unknown)).not.to.throw();
  });

  it(`warns once after ${RETRACE_WARNING_THRESHOLD} traces, naming the argument that changed`, () => {
    const staged = stage(function scale(x: tf.Tensor, k: number) { return x.mul(k); });
    const { lines } = captureConsole('warn', () => {
      for (let k = 1; k <= RETRACE_WARNING_THRESHOLD + 2; k++) staged(tf.scalar(1), k).dispose();
    });
    expect(staged.traceCount).to.equal(RETRACE_WARNING_THRESHOLD + 2);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.contain(`scale has been traced ${RETRACE_WARNING_THRESHOLD} times`);
    expect(lines[0]).to.contain(`argument 1 (k) changed from ${RETRACE_WARNING_THRESHOLD - 1} to ${RETRACE_WARNING_THRESHOLD}`);
  });

  it('does not warn for a function called with one signature', () => {
    const staged = stage((x: tf.Tensor) => x.mul(2));
    const { lines } = captureConsole('warn', () => {
      for (let i = 0; i < RETRACE_WARNING_THRESHOLD * 2; i++) staged(tf.scalar(i)).dispose();
    });
    expect(staged.traceCount).to.equal(1);
    expect(lines).to.deep.equal([]);
  });
});

describe('AUTOGRAPH_VERBOSITY', () => {
  it('1 logs each trace with the argument that caused it; 0 logs nothing', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawnSync } = require('child_process') as typeof import('child_process');
    const script = `
      require(${JSON.stringify(require.resolve('../setup'))});
      const tf = require('@tensorflow/tfjs');
      const { stage } = require(${JSON.stringify(require.resolve('../../backends/stage'))});
      tf.ready().then(() => {
        const f = stage(function grow(x, times) { return x.tile([times]); });
        f(tf.tensor1d([1, 2]), 2); f(tf.tensor1d([1, 2]), 2); f(tf.tensor1d([1, 2, 3]), 2);
      });`;
    const run = (level: string) => spawnSync(process.execPath, ['-e', script],
      { encoding: 'utf8', env: { ...process.env, AUTOGRAPH_VERBOSITY: level }, cwd: __dirname });
    const on = run('1');
    expect(on.status, on.stderr).to.equal(0);
    const lines = on.stderr.split('\n').filter((l) => l.startsWith('autograph-ts:'));
    expect(lines).to.deep.equal([
      'autograph-ts: tracing grow (trace #1) for (float32[2], 2): first call',
      'autograph-ts: tracing grow (trace #2) for (float32[3], 2): argument 0 (x) changed from float32[2] to float32[3]',
      'autograph-ts: relaxed grow: its graph does not depend on the dims that changed, one graph now serves ' +
        'argument 0 (x) as float32[?]',
    ]);
    const off = run('0');
    expect(off.status, off.stderr).to.equal(0);
    expect(off.stderr).not.to.contain('autograph-ts:');
  });
});

describe('AUTOGRAPH_VERBOSITY and unknown dims', () => {
  it('1 says when a graph is relaxed, and why one is not (the read of a dim, the node that differs)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawnSync } = require('child_process') as typeof import('child_process');
    const script = `
      require(${JSON.stringify(require.resolve('../setup'))});
      const tf = require('@tensorflow/tfjs');
      const { stage } = require(${JSON.stringify(require.resolve('../../backends/stage'))});
      tf.ready().then(() => {
        const reads = stage(function flat(x) { return x.reshape([x.shape[0] * 2]); });
        reads(tf.ones([2, 2])); reads(tf.ones([3, 2])); reads(tf.ones([4, 2]));
        const squeezes = stage(function squeezed(x) { return x.expandDims(1).mul(x.expandDims(0)).expandDims(0).squeeze([0]); });
        squeezes(tf.ones([2])); squeezes(tf.ones([3]));
      });`;
    const run = spawnSync(process.execPath, ['-e', script],
      { encoding: 'utf8', env: { ...process.env, AUTOGRAPH_VERBOSITY: '1' }, cwd: __dirname });
    expect(run.status, run.stderr).to.equal(0);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('autograph-ts:'));
    expect(lines).to.include('autograph-ts: not relaxing flat: its graph depends on the dims that changed ' +
      '(it reads x.shape[0] at [eval]:6:68); it is traced once per shape');
    expect(lines.filter((l) => l.includes('tracing flat'))).to.have.length(3);
    expect(lines).to.include('autograph-ts: not relaxing squeezed: its graph depends on the dims that changed ' +
      '(the Reshape has attributes computed from the dims ({"shape":[2,2]} vs {"shape":[3,3]})); it is traced once per shape');
  });
});

describe('inspect()', () => {
  it('describes the graph a plain call runs, without tracing again', () => {
    const staged = stage((x: tf.Tensor) => x.add(1));
    staged(tf.scalar(1)).dispose();
    staged.inspect(tf.scalar(2));
    expect(staged.traceCount).to.equal(1);
  });
});
