/**
 * More ports of real TensorFlow.js code (spec/fixtures/real_code_ports.ts), run eagerly, staged on
 * the tfjs executor and on the default engine: same values, same JS types; where the original
 * read values with dataSync(), the port equals it too. What cannot be staged is refused naming the
 * user's read and line.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { agreeOnEngines, typed } from '../harness/typed_results';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/real_code_ports.ts'), 'utf8');

const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(typed(x), (_k, v) => (v && typeof v === 'object' && 'tensor' in v ? v.tensor : v)));

describe('more real code as it is written: eager == staged == the dataSync original (issue 17)', () => {
  let m: Record<string, any>;
  before(() => {
    const result = compile({ 'main.ts': source });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    m = load(result.js['main.ts']);
  });

  const agree = (name: string, ...argLists: (() => unknown[])[]): unknown[] => agreeOnEngines(m[name], name, argLists);

  it('numerical methods: Newton with a tolerance break and a count, bisection, backtracking line search', () => {
    const [newton] = agree('newtonSqrt', () => [tf.tensor1d([2, 9, 16])]);
    expect(plain(newton)).to.deep.equal(plain(m.newtonSqrtOriginal(tf.tensor1d([2, 9, 16]))));
    const [bisect] = agree('bisect', () => [tf.scalar(0), tf.scalar(3)]);
    expect(plain(bisect)).to.deep.equal(plain(m.bisectOriginal(tf.scalar(0), tf.scalar(3))));
    const [step] = agree('lineSearchStep', () => [tf.tensor1d([3, -4])]);
    expect((step as { t: number }).t).to.equal(0.5);
  });

  it('a game of life run until extinct or N generations; nucleus sampling size; first row over a norm', () => {
    agree('life', () => [tf.tensor2d([[0, 1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]]), 5],
      () => [tf.tensor2d([[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]), 5]);
    const probs = () => tf.tensor1d([0.1, 0.5, 0.15, 0.25]);
    expect(agree('nucleusSize', () => [probs(), 0.8], () => [probs(), 0.3])).to.deep.equal([m.nucleusSizeOriginal(probs(), 0.8), m.nucleusSizeOriginal(probs(), 0.3)]);
    expect(agree('firstOver', () => [tf.tensor2d([[0.1, 0.2], [1, 1], [3, 4]]), 1.2], () => [tf.tensor2d([[0.1, 0.2], [1, 1], [3, 4]]), 10])).to.deep.equal([1, -1]);
  });

  it('decoders: CTC greedy collapse into a list of tensors (Viterbi is in real_code.spec.ts)', () => {
    const logits = () => tf.tensor2d([[0.9, 0.1, 0], [0.1, 0.8, 0.1], [0.1, 0.8, 0.1], [0.9, 0.05, 0.05], [0, 0.1, 0.9], [0, 0.2, 0.8]]);
    const [tokens] = agree('ctcT', () => [logits(), 0]);
    expect(plain(tokens)).to.deep.equal([1, 2]);
  });

  it('gradient clipping by global norm under a tensor if; an episode loop pushing JS rewards; a learning rate of 0.1 halved under tensor ifs', () => {
    agree('clipStep', () => [[tf.tensor1d([3, 4]), tf.tensor1d([12])], 5], () => [[tf.tensor1d([0.3, 0.4])], 5]);
    const [run] = agree('episode', () => [tf.tensor2d([[0, 0], [1, 1], [2, 2.2], [3, 3]]), tf.tensor1d([2, 2])]);
    expect(run).to.deep.equal({ rewards: [0, 0, 1], steps: 3 });
    // float32 cannot hold 0.1: carried as float32, 0.05 would come back 0.05000000074505806 (it was refused). The loop
    // over epochs is JS; each staged if merges `lr * 0.5` and `lr`, which the call computes in JS from the conditions
    // read back (runtime/js_recipes.ts): eager's 0.05.
    expect(agree('trainSchedule', () => [tf.tensor1d([5, 4, 4.5, 3]), 0.1])).to.deep.equal([{ lr: 0.05, drops: 1 }]);
    expect(agree('trainSchedule', () => [tf.tensor1d([5, 4, 4.5, 3]), 0.5])).to.deep.equal([{ lr: 0.25, drops: 1 }]);
  });

  it("whisper's greedy decoder reads the last column of a growing tensor as a JS number: refused naming the read", () => {
    const start = () => tf.tensor2d([[1], [0]], [2, 1], 'int32');
    expect(plain(m.whisperDecode(start(), 6)[0])).to.have.length(2);
    expect(() => stage(m.whisperDecode)(start(), 6)).to.throw(StagingError, /reads tokens\.shape\[1\] at .* as a JS number/);
  });
});
