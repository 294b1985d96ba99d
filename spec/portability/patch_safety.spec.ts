/**
 * Issue 18 item 3: what a trace changes in tfjs is all undone, whatever fails. A failure is
 * injected before each property the trace patches installs (trace_patches.ts setBeforePatchHook),
 * and traces fail in the ways user code makes them fail; after each, every patched object has
 * exactly the properties it had (same descriptors, same functions), eager tfjs works, and no
 * tensor is left behind.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { setBeforePatchHook } from '../../backends/staging/trace_patches';
import { compile, load } from '../harness/compile';

const SOURCE = `
import * as tf from '@tensorflow/tfjs';
export function decode(start: tf.Tensor, table: tf.Tensor2D, maxLen: number, failAt: string): tf.Tensor {
  'use autograph';
  let tok = start;
  const tokens = [tok];
  console.log(tok);
  tok.print();
  for (let t = 0; t < maxLen; t++) {
    tok = table.gather(tok).argMax(-1);
    tokens.push(tok);
    if (failAt === 'body') throw new TypeError('failure in a staged loop body');
    if (tok.equal(0)) break;
  }
  const noise = tf.randomUniform([1]);
  if (failAt === 'iterate') return tf.stack(Array.from(tokens).map((t) => t.add(noise)));
  if (failAt === 'read') tok.dataSync();
  if (failAt === 'after') throw new RangeError('failure after the loop');
  return tf.stack(tokens);
}`;

/** Everything a trace may patch: the engine instance, the prototypes, console, tfjs-core's exports. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const TARGETS: Record<string, object> = { engine: tf.engine(), 'Tensor.prototype': tf.Tensor.prototype,
  'Variable.prototype': tf.Variable.prototype, console, 'tfjs-core': require('@tensorflow/tfjs-core') };

type Snapshot = Map<string, PropertyDescriptor>;

function snapshot(): Snapshot {
  const all: Snapshot = new Map();
  for (const [name, target] of Object.entries(TARGETS)) {
    for (const key of Reflect.ownKeys(target)) all.set(`${name}.${String(key)}`, Object.getOwnPropertyDescriptor(target, key)!);
  }
  return all;
}

function expectRestored(before: Snapshot, what: string): void {
  const now = snapshot();
  expect([...now.keys()].filter((k) => !before.has(k)), `${what}: properties added`).to.deep.equal([]);
  expect([...before.keys()].filter((k) => !now.has(k)), `${what}: properties removed`).to.deep.equal([]);
  const changed = [...before].filter(([k, d]) => {
    const n = now.get(k)!;
    return n.value !== d.value || n.get !== d.get || n.set !== d.set || n.writable !== d.writable ||
      n.enumerable !== d.enumerable || n.configurable !== d.configurable;
  }).map(([k]) => k);
  expect(changed, `${what}: properties changed`).to.deep.equal([]);
}

/** Eager tfjs as it is without autograph-ts: values read, printed, drawn, stacked, assigned. */
function expectEagerWorks(what: string): void {
  tf.tidy(() => {
    expect(tf.add(tf.scalar(1), tf.scalar(2)).dataSync()[0], what).to.equal(3);
    expect(tf.stack([tf.scalar(1), tf.scalar(2)]).arraySync(), what).to.deep.equal([1, 2]);
    expect(tf.tensor1d([7, 8]).toString(), what).to.contain('[7, 8]');
    const draws = [tf.randomUniform([4]).dataSync().join(), tf.randomUniform([4]).dataSync().join()];
    expect(draws[0], `${what}: random draws`).to.not.equal(draws[1]);
    const printed: unknown[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => printed.push(...args);
    try {
      tf.print(tf.scalar(5));
      tf.scalar(6).print();
    } finally {
      console.log = log;
    }
    expect(printed.join('\n'), `${what}: printing`).to.match(/5[\s\S]*6/);
  });
  const [one, four] = [tf.scalar(1), tf.scalar(4)];
  const v = tf.variable(one);
  v.assign(four);
  expect(v.dataSync()[0], `${what}: Variable.assign`).to.equal(4);
  tf.dispose([v, one, four]);
}

describe('portability: a failed trace leaves tfjs exactly as it was (backends/staging/trace_patches.ts)', () => {
  let decode: (start: tf.Tensor, table: tf.Tensor2D, maxLen: number, failAt: string) => tf.Tensor;
  let start: tf.Tensor;
  let table: tf.Tensor2D;

  before(() => {
    decode = load(compile({ 'main.ts': SOURCE }).js['main.ts']).decode;
    start = tf.scalar(1, 'int32');
    table = tf.oneHot(tf.tensor1d([0, 2, 3, 0, 4], 'int32'), 5).mul(10) as tf.Tensor2D;
  });

  after(() => {
    setBeforePatchHook(undefined);
    tf.dispose([start, table]);
  });

  const quietly = <T>(fn: () => T): T => {
    const log = console.log;
    console.log = () => {};
    try {
      return fn();
    } finally {
      console.log = log;
    }
  };

  it('a failure injected before each patch: the install is undone, eager tfjs works, no tensor is left', () => {
    const patched: string[] = [];
    setBeforePatchHook((_target, key) => patched.push(key));
    try {
      const ok = quietly(() => stage(decode)(start, table, 10, 'none'));
      expect(Array.from(ok.dataSync())).to.deep.equal([1, 2, 3, 0]);
      ok.dispose();
    } finally {
      setBeforePatchHook(undefined);
    }
    // The engine's methods, the prototypes, console; tfjs-core's exports where they are writable.
    expect(patched).to.include.members(['readSync', 'runKernel', 'disposeTensor', 'trackTensor', 'print', 'log', 'assign']);

    const before = snapshot();
    const tensors = tf.memory().numTensors;
    for (let i = 0; i < patched.length; i++) {
      let seen = 0;
      setBeforePatchHook((_target, key) => {
        if (seen++ === i) throw new Error(`injected failure before patching ${key}`);
      });
      try {
        expect(() => stage(decode)(start, table, 10, 'none'), `patch ${i}`).to.throw(`injected failure before patching ${patched[i]}`);
      } finally {
        setBeforePatchHook(undefined);
      }
      expectRestored(before, `failure at patch ${i} (${patched[i]})`);
      expectEagerWorks(`failure at patch ${i} (${patched[i]})`);
      expect(tf.memory().numTensors, `failure at patch ${i}: tensors left`).to.equal(tensors);
    }
  });

  for (const [failAt, error] of [['body', /failure in a staged loop body/], ['iterate', /iterating .*'tokens'|'tokens'.*iterating/],
    ['read', /a tensor's value was read while stage\(\) traces/], ['after', /failure after the loop/]] as const) {
    it(`a trace that fails (${failAt}): tfjs as it was, eager works, no tensor left`, () => {
      const before = snapshot();
      const tensors = tf.memory().numTensors;
      expect(() => quietly(() => stage(decode)(start, table, 10, failAt))).to.throw(error);
      expectRestored(before, failAt);
      expectEagerWorks(failAt);
      expect(tf.memory().numTensors, `${failAt}: tensors left`).to.equal(tensors);
    });
  }

  it('a staged function that returns a Promise is refused, and tfjs is as it was', () => {
    const before = snapshot();
    const tensors = tf.memory().numTensors;
    const x = tf.scalar(1);
    expect(() => stage((t: tf.Tensor) => Promise.resolve(t.add(1)))(x)).to.throw(/needs a synchronous function/);
    x.dispose();
    expect(tf.memory().numTensors, 'async: tensors left').to.equal(tensors);
    expectRestored(before, 'async');
    expectEagerWorks('async');
  });
});
