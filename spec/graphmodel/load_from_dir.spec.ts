/**
 * loadGraphModelFromDir(dir): an exported GraphModel loads in Node without tfjs-node (whose
 * `file://` handler tf.loadGraphModel would need) and runs equal to the staged and eager calls;
 * a directory without a model is a named error at the user's call.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../backends/stage';
import { exportGraphModel } from '../../backends/export/graphmodel/export';
import { graphModelFiles, loadGraphModelFromDir } from '../../backends/export/graphmodel/load_from_dir';
import * as ag__ from '../../runtime/operators';

/** `while (n.greater(1)) { n = n.div(2).floor(); steps = steps.add(1); }`, as the transformer emits it. */
function halvings(n: tf.Tensor): tf.Tensor {
  let steps: tf.Tensor = tf.scalar(0);
  ag__.whileStmt(() => n.greater(1), () => { n = n.div(2).floor(); steps = steps.add(1); }, () => [n, steps],
    ([a, b]) => { n = a as tf.Tensor; steps = b as tf.Tensor; }, ['n', 'steps'], { origin: 'halvings.ts:3:3' });
  return steps;
}

describe('graph model: loadGraphModelFromDir', () => {
  let dir: string;
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-load-dir-')); });
  after(() => dir !== undefined && fs.rmSync(dir, { recursive: true, force: true }));

  it('loads an exported model with control flow; executeAsync equals the staged and the eager call', async () => {
    const out = path.join(dir, 'halvings');
    await exportGraphModel(stage(halvings), [tf.scalar(1000)], out);
    const model = await loadGraphModelFromDir(out);
    expect(model).to.be.instanceOf(tf.GraphModel);
    expect(model.inputNodes).to.deep.equal(['n']);
    for (const n of [1000, 1, 7]) {
      const got = await model.executeAsync({ n: tf.scalar(n) }) as tf.Tensor;
      expect(got.dataSync()[0]).to.equal(halvings(tf.scalar(n)).dataSync()[0]);
      expect(got.dataSync()[0]).to.equal(stage(halvings)(tf.scalar(n)).dataSync()[0]);
    }
    // The handler alone, for tf.loadGraphModel itself.
    const again = await tf.loadGraphModel(graphModelFiles(out));
    expect((await again.executeAsync({ n: tf.scalar(1000) }) as tf.Tensor).dataSync()[0]).to.equal(9);
  });

  it('a directory without model.json: a named error whose first frame is the caller', async () => {
    const missing = path.join(dir, 'nothing-here');
    let error: Error | undefined;
    try {
      await (async function loadsMissing() { return loadGraphModelFromDir(missing); })();
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).to.equal(`autograph-ts: no GraphModel in ${missing}: ${path.join(missing, 'model.json')} does not ` +
      'exist (exportGraphModel(staged, args, dir) writes model.json and weights.bin there)');
    const frames = error!.stack!.split('\n').filter((l) => /^\s+at /.test(l));
    expect(frames[0]).to.match(/at loadsMissing \(.*load_from_dir\.spec\.ts:\d+:\d+\)/);
  });
});
