/**
 * assert(cond, msg) from node:assert and console.assert(cond, ...) on tensor conditions: checked by
 * value eagerly, and as a check in the graph on every staged call — with the original's behaviour.
 */
import { AssertionError } from 'assert';
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { compile, formatDiagnostics, load } from '../harness/compile';

const source = `
import * as tf from '@tensorflow/tfjs';
import assert from 'node:assert';
export function checked(x: tf.Scalar): tf.Scalar {
  'use autograph';
  assert(x.greater(0), 'x must be positive');
  console.assert(x.less(10), 'x is big');
  return x.sqrt();
}`;

describe('assert conversion', () => {
  let checked: (x: tf.Scalar) => tf.Scalar;
  let errors: unknown[][];
  const originalWarn = console.warn;
  before(() => {
    const result = compile({ 'main.ts': source }, {}, { types: ['node'] });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    expect(result.js['main.ts']).to.contain('ag__.assert(x.greater(0)');
    checked = load(result.js['main.ts']).checked;
  });
  beforeEach(() => {
    errors = [];
    console.warn = (...args: unknown[]) => { errors.push(args); };
  });
  afterEach(() => { console.warn = originalWarn; });

  it('eager: node assert throws its AssertionError with the message; console.assert only reports', () => {
    expect(checked(tf.scalar(4)).arraySync()).to.equal(2);
    expect(() => checked(tf.scalar(-1))).to.throw(AssertionError, 'x must be positive');
    expect(checked(tf.scalar(16)).arraySync()).to.equal(4);
    expect(errors.map((e) => e.join(' '))).to.deep.equal(['Assertion failed: x is big']);
  });

  it('staged: the check runs on every call, with the same error class and message', () => {
    const staged = stage(checked);
    const printed: string[] = [];
    const originalLog = console.log;
    console.log = (...args: unknown[]) => { printed.push(args.join(' ')); };
    try {
      expect(staged(tf.scalar(9)).arraySync()).to.equal(3);
      for (let i = 0; i < 2; i++) expect(() => staged(tf.scalar(-4))).to.throw(AssertionError, 'x must be positive');
      expect(printed).to.deep.equal([]);
      expect(staged(tf.scalar(25)).arraySync()).to.equal(5);    // console.assert fails: reported, not thrown
      expect(staged(tf.scalar(36)).arraySync()).to.equal(6);
    } finally {
      console.log = originalLog;
    }
    expect(printed).to.deep.equal(['Assertion failed: x is big', 'Assertion failed: x is big']);
    expect(staged.traceCount).to.equal(1);
  });
});
