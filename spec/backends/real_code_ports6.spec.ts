/**
 * A sixth red team of real TensorFlow.js code (spec/fixtures/real_code_ports6.ts), aimed at the
 * patterns of issue #17 in model, training-loop, decoding and RL code, ported as its authors wrote
 * it: eager == the dataSync original, staged (tfjs executor and 'auto') == eager, values and JS
 * types, on the default backend and on cpu (AUTOGRAPH_BACKEND=cpu). Ports that stage are tests; ports
 * refused by design are tests of the refusal; ports that fail for a missing mechanism (or stage
 * silently wrong) are `it.skip` with their smallest reproduction and today's error, for the lead to
 * fix and unskip.
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { useFixture } from '../harness/fixtures';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { plain, redTeam, values } from '../harness/red_team';


const engines = ['tfjs', 'auto'] as const;

const bigram = () => tf.tensor2d([[1, 2, 0, 0, 3], [0, 0, 2, 1, 0], [0, 1, 0, 0, 2], [0, 0, 0, 2, 1], [3, 0, 0, 0, 0]]);
const exitWeights = () => [tf.tensor2d([[1, 0], [0, 1]]), tf.tensor2d([[2, 0], [0, 1]]), tf.tensor2d([[1, 0], [0, 1]])];
const haarStages = [
  { threshold: 0.5, nodes: [{ rects: [[0, 0, 1, 2, -1], [1, 0, 1, 2, 1]], threshold: 0.05, left: 0, right: 1 }, { rects: [[0, 0, 2, 1, 1], [0, 1, 2, 1, -1]], threshold: -0.1, left: 0.3, right: 0.6 }] },
  { threshold: 0.9, nodes: [{ rects: [[0, 0, 2, 2, 1]], threshold: 0.3, left: 0.2, right: 1 }] },
];
const affine = (a: number, b: number) => ({ a: tf.variable(tf.scalar(a)), b: tf.variable(tf.scalar(b)) });

describe('real code, sixth red team: eager == staged == the dataSync original', () => {
  const fixture = useFixture('real_code_ports6.ts');
  const { agree } = fixture;
  const { withOriginal, refused, at } = redTeam(fixture);

  describe('stages as written', () => {
    it('Adaptive Computation Time: an abstract cell pondered while a halting sum < 1 - eps && n < max, tf.tensor1d([n === 0 ? 1 : 0]), n returned in a list', () => {
      withOriginal('actSequence', () => [tf.tensor2d([[1, 0], [0, 1], [-1, 2], [0.5, 0.5]]), tf.tensor2d([[0.5, -0.2, 0.1], [0.3, 0.4, -0.5], [-0.1, 0.2, 0.3]]),
        tf.tensor2d([[0.4, -0.3, 0.2], [0.1, 0.5, -0.4], [1, -1, 0.5]]), tf.tensor1d([0.8, -1.5, 0.3]), 5]);
    });

    it('a GAN balanced on its losses: one of two optimizers minimizes variables under a tensor test, JS step counters', () => {
      const a = (ratio: number) => () => [tf.tensor1d([2, 2.5, 1.5, 2, 3, 2.2]), tf.tensor1d([0.1, -0.5, 0.3, 0.9, -0.2, 0.4]), affine(1, 0), affine(0.5, -0.5), ratio];
      withOriginal('trainBalancedGan', a(1), a(3));
    });

    it('Euclid\'s gcd, recursive with a tensor base case, and its step count returned as a JS number', () => {
      const a = (x: number, y: number) => () => [tf.scalar(x, 'int32'), tf.scalar(y, 'int32')];
      withOriginal('gcdPair', a(48, 18), a(17, 5), a(7, 0));
    });
  });

  describe('refused by design, naming the line', () => {
    it('fastai lr_find: lr grown in a loop broken on the smoothed loss, optimizer.setLearningRate(lr), Math.log10(lr) pushed', () => {
      // Today's refusal is a missing mechanism (see decayLrUntilConverged below): the tensor is the SGD optimizer's `c`,
      // made by setLearningRate(lr) and read by the next minimize(); the "if branch" is the guard the break lowering put
      // around the rest of the body. Behind it the refusal by design: 'lr' is a float32 tensor at Math.log10(lr) (what
      // `optimizer.learningRate = lr` gives at once).
      const a = () => [tf.tensor2d([[1, 0], [0, 1], [1, 1]]), tf.tensor2d([[1], [2], [3]]), tf.variable(tf.zeros([2, 1])), 0.01, 10, 20];
      // The loop's counter stays a JS number (a counted loop: its iterations after the staged break run in JS under a
      // staged test that no break was taken), so the refusal speaks of that loop body.
      refused('lrFind', a, new RegExp(`a tensor computed in the if branch of the conditional \\(${at('if (smoothedLoss.less(bestLoss)')}\\) is used outside it, in the body of the loop \\(${at('for (let batchNum = 1;')}\\), which runs in JS after a \`break\` or \`return\` staged on a tensor, under a staged test that none was taken \\(${at('const loss = optimizer.minimize')}\\)`));
    });

    it('cart-pole train + discountRewards: tf.buffer([rewards.length]) of a list whose length a tensor break decides', () => {
      refused('collectGames', () => [tf.tensor2d([[0, 0.1, 1], [-5, 0, 5]]), [[0.45, 0.01], [0.3, 0.0], [-1.19, -0.02]], 6, 0.9],
        new RegExp(`'(gameRewards|rewards)\\.length' is used as a JS number \\(${at('const discountedBuffer = tf.buffer')}\\)`));
    });

    it('snake-dqn playStep: step() returns {reward, done} early under a tensor test, {state, reward, done, fruitEaten} otherwise', () => {
      // fruitEaten is undefined on one path and a boolean on the other: its JS type depends on the tensor. Past it (the
      // early return given every key), 'this.position' is int32 at reset and float32 after `position.sub(1)` (tfjs
      // upcasts int32 - number), refused by design; past that, sumOfCalleeRewards below.
      const q = () => tf.tensor2d([[1, 0], [1, 0], [0, 1], [0, 2], [0, 3]]);
      refused('playCorridor', () => [q(), 14, 7], new RegExp(`has a different structure in the two branches of a tensor conditional \\(the \`return\` under the tensor condition at ${at('if (newPosition.less(0) ||')}\\)`));
    });

    it('a token-streaming generator: refused at compile time with the directive; without it a warning, and stage() refuses it', () => {
      const body = (directive: string) => `import * as tf from '@tensorflow/tfjs';
export function* streamGreedy(bigram: tf.Tensor2D, start: tf.Tensor, eos: number, maxNew: number): Generator<tf.Tensor> {
  ${directive}
  let token: tf.Tensor = start;
  for (let i = 0; i < maxNew; i++) {
    token = bigram.gather(token).argMax();
    yield token;
    if (token.equal(eos)) {
      return;
    }
  }
}`;
      expect(formatDiagnostics(compile({ 'main.ts': body("'use autograph';") }).diagnostics)).to.match(/main\.ts:7:5 AG99001: .*'yield' inside a tensor-dependent statement cannot be converted/);
      const plainGenerator = compile({ 'main.ts': body('') });
      expect(formatDiagnostics(plainGenerator.diagnostics)).to.match(/main\.ts:8:9 AG99103: .*always treats as true/);
      expect(() => stage(load(plainGenerator.js['main.ts']).streamGreedy)).to.throw(StagingError, /it is a generator function/);
    });

    it('facemesh updateRegionsOfInterest\'s `previousBox && previousBox.startPoint`: a presence test of a Tensor1D field is a value test, an error eagerly', () => {
      // The port tests `if (previousBox)`. With a scalar field the test silently reads its value (0 is false) where the
      // original JS tested presence; the compiler warns (AG99102) only where the type admits null/undefined.
      const box = () => ({ startPoint: tf.tensor1d([0, 0]), endPoint: tf.tensor1d([1, 1]) });
      expect(() => fixture.m.presenceTest(box())).to.throw(`a tensor used as a condition must be a scalar, got shape [2] (main.ts:${fixture.lineOf('if (box && box.startPoint) n = 1;')}:3)`);
    });
  });

  describe('missing mechanisms (skipped until fixed; reproductions in comments)', () => {
    // Fixed: a loop with a JS bound (i < this.blocks.length, i < k, w < stages.length) holding a `return` or `break`
    // under a tensor condition was staged as a while loop, so its counter became a tensor and could not index the JS
    // list it walks: "'i' is an int32 tensor here (main.ts:L:9), not a JS number". Such a counted loop now runs on in
    // JS once its while trace fails, each iteration under a staged "no jump yet" test (counted_loops.ts), as Python
    // AutoGraph runs a loop over a Python range.
    it('BranchyNet/DeeBERT early exit: return {logits, exitLayer: i} at the first confident head, blocks dispatched to overrides', () => {
      const a = (x: number[][], t: number) => () => [exitWeights(), tf.tensor2d(x), t];
      withOriginal('earlyExit', a([[3, 0]], 0.1), a([[3, 0]], 0.001), a([[10, 0]], 0.1), a([[0.5, 0.4]], 0.1));
    });
    it('greedy speculative decoding: the target checks k draft tokens in order, break at the first disagreement', () => {
      const t = (rows: number[][]) => tf.tensor2d(rows);
      const cycle = [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 0]];
      withOriginal('speculativeDecode', () => [t(cycle), t([[0, 1, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]), tf.scalar(0, 'int32'), 3, 7],
        () => [t(cycle), t(cycle), tf.scalar(0, 'int32'), 2, 5]);
    });
    // Past the counted loop, Viola-Jones is refused by design: stageSum sums the nodes' JS fractions (0.3, 0.6) chosen
    // by tensor tests, in float32 where eager JS sums in float64, and is compared with the stage threshold.
    it('tracking.js ViolaJones.evalStages_: refused by design, a float64 sum of JS fractions compared under tensor tests', () => {
      refused('detectWindows', () => [tf.tensor2d([[0, 0, 1, 1, 0, 0], [0, 0, 1, 1, 0, 0], [1, 1, 0, 0, 1, 1], [1, 1, 0, 0, 1, 1], [0, 1, 0, 1, 0, 1], [1, 0, 1, 0, 1, 0]]), haarStages, 2, 1],
        new RegExp(`a condition on a tensor \\(${at('if (stageSum < stageThreshold)')}\\) computed from 'stageSum' is computed in float32`));
    });
    it('the reproduction: the index of the first element above t', () => {
      agree('firstAbove', () => [[tf.scalar(1), tf.scalar(5), tf.scalar(9)], 4], () => [[tf.scalar(1)], 4]);
    });

    // Fixed: a list made by a JS array method (prompt.map(...)) and grown in a staged loop was not a list of the graph
    // ("StructureChange: 'ids' changes structure in a loop staged on a tensor condition"): an array a method makes
    // (map, filter, slice, concat, Array.from) is new, as a literal is, and becomes a list (analysis/plan.ts isNewArray).
    // Past it, a SILENTLY WRONG answer the earlier refusal hid: StoppingCriteriaList's `isDone[i] ||= criterionDone[i]`
    // (an element target) was left native, so a promoted `ids.length >= maxLength` tensor in isDone[i] was truthy and
    // the EOS criterion was never applied: the staged generate ran on to maxLength ([0, 4, 0, 4, ...] for [0, 4]).
    // `a[i] ||= b` is converted now (ag__.or with the array as a composite). Past that, refused by design: isDone[i] is
    // a JS boolean on one path and a Tensor on the other, depending on a tensor.
    it('transformers.js generate: LogitsProcessorList / StoppingCriteriaList overrides, is_done[i] ||=, stop.every(x => x)', () => {
      refused('generate', () => [bigram(), [0], 4, 2, 10], new RegExp(`'isDone' is a JS number or boolean in the if branch but a tensor in the else branch of a conditional on a tensor \\(${at('isDone[i] ||= criterionDone[i]')}\\)`));
    });
    it('the reproduction: a list made by prompt.map grown in a staged loop', () => {
      agree('growFromMap', () => [tf.tensor2d([[0, 1, 0], [0, 0, 1], [1, 0, 0]]), [0], 2]);
    });

    // SILENTLY WRONG. A typed array (Uint32Array, Float32Array) written under a tensor condition is not state of
    // the branch: the staged call returns what the last traced branch wrote, on both engines, with no error.
    //   export function typedArrayUnderIf(x: tf.Scalar): number {
    //     'use autograph';
    //     const a = new Uint32Array(1);
    //     if (x.greater(0)) a[0] = 1;
    //     else a[0] = 2;
    //     return a[0];
    //   }
    // typedArrayUnderIf(tf.scalar(1)): eager 1, staged 2. typedArrayArgument(tf.scalar(-1), new Float32Array(1)) writes
    // a[0] = 1 only when x > 0: eager {0: 0}, staged {0: 1}. (A number[] in the same place stages correctly.)
    // Fixed: refused, naming the array (control_flow.ts typedArrayChanged).
    it('a typed array written under a tensor if is refused naming it (was silently the last traced branch\'s value)', () => {
      for (const engine of ['tfjs', 'auto'] as const) {
        expect(() => stage(fixture.m.typedArrayUnderIf, { engine })(tf.scalar(1))).to.throw(StagingError, /'a' is a typed array that a statement staged/);
        expect(() => stage(fixture.m.typedArrayArgument, { engine })(tf.scalar(-1), new Float32Array(1))).to.throw(StagingError, /'a' is a typed array/);
      }
    });

    // SILENTLY WRONG. A callback stored in a list on an object (WildEmitter's on/emit, hark's 'speaking' events)
    // and called under a tensor condition pushes at trace time whatever the condition:
    //   e.on((f) => events.push(f));                       // Emitter.emit(f): for (const fn of this.callbacks) fn(f)
    //   for (let f = 0; f < xs.shape[0]; f++) if (xs.gather(f).greater(0)) e.emit(f);
    //   return events;
    // emitUnderIf(tf.tensor1d([1, -1, 2])): eager [0, 2], staged [0, 1, 2] on both engines, no error.
    // Fixed: the stored callback's push is a composite of the statement whose call may run it (closure_writes.ts).
    it('an event handler called through a stored callback list under a tensor if (was silently wrong)', () => {
      agree('emitUnderIf', () => [tf.tensor1d([1, -1, 2])]);
    });

    // Writes made by a nested function called in a tensor branch (magenta's endPitch pushing to ns.notes) are not
    // carried as the branch's state (the same push written in the branch stages):
    //   const ns = { notes: [] as number[] };
    //   function end(p: number) { ns.notes.push(p); }
    //   for (let i = 0; i < xs.shape[0]; i++) if (xs.gather(i).greater(0)) end(i);
    // → StructureChange: 'ns' has a different structure in the two branches of a tensor conditional (main.ts:L:5):
    //   {"notes":[*]} vs {"notes":[]}.
    // pianorollToNotes also keeps pitchStartStepPlusOne in a Uint32Array written under the tests (silently wrong above).
    it.skip('magenta.js pianorollToNoteSequence: nested endPitch/processOnset write a Uint32Array and push notes under tensor tests', () => {
      withOriginal('pianorollToNotes', () => [tf.tensor2d([[0.9, 0.1, 0.6], [0.8, 0.7, 0.2], [0.2, 0.9, 0.9], [0.9, 0.1, 0.8]]),
        tf.tensor2d([[0.9, 0.1, 0.6], [0.1, 0.7, 0.1], [0.1, 0.6, 0.1], [0.8, 0.1, 0.1]])]);
    });
    it.skip('the reproduction: a push through a nested function under a tensor if', () => {
      agree('pushThroughNestedFunction', () => [tf.tensor1d([1, -1, 2])]);
    });

    // A number list filled by push in a JS loop, read element by element in a tensor branch, then shift()-ed and
    // pushed a promoted 0/1 (the same list written as a literal [0, 0, 0] stages):
    //   const h: number[] = []; for (let i = 0; i < 3; i++) h.push(0);
    //   for (...) { if (xs.gather(f).greater(0)) { let s = 0; for (let i = 0; i < 3; i++) s += h[i]; if (s >= 2) on = true; }
    //               h.shift(); h.push(xs.gather(f).greater(0) ? 1 : 0); }
    // → 'h' is read as a JS array (main.ts:L:5), but its element 2 is an int32 tensor here, not a JS number: a staged
    //   statement changed it (main.ts:L:12) ... (L:5 is the shift())
    // And a JS `if` on a promoted element inside a tensor branch, `if (h[2] >= 1) on = true;` (literal h):
    // → '<conditional expression>' is an int32 tensor here (main.ts:L:15), not a JS number: it changes in a conditional
    //   staged on a tensor condition ... Use tfjs ops on it (e.g. tf.gather(xs, <conditional expression>) ...)
    it.skip('hark: speaking set/cleared on the harker under tensor volume tests from a 0/1 history (shift, push), events emitted', () => {
      withOriginal('hark', () => [tf.tensor2d([[0, 1], [5, 1], [6, 2], [7, 1], [6, 6], [1, 0], [0, 2], [1, 1], [0, 0], [1, 0], [6, 0], [7, 7], [8, 1]]), 3, 4]);
    });
    it.skip('the reproductions: a pushed history read in a tensor branch; a JS if on a promoted element', () => {
      agree('pushedHistory', () => [tf.tensor1d([1, 1, 2, 3])]);
      agree('promotedElementTest', () => [tf.tensor1d([1, 1, 2, 3])]);
    });

    // A list (of tensors or of records) whose length a tensor branch changes by reassignment — facemesh's
    // clearRegionOfInterest: `this.regionsOfInterest = [...rois.slice(0, index), ...rois.slice(index + 1)]` — then
    // written at an index:
    //   let rois = xs.slice();
    //   if (flag.less(0.5)) rois = [...rois.slice(0, 0), ...rois.slice(1)];
    //   rois[0] = rois[0].add(1);
    // → StructureChange: 'rois' has a different structure in the two branches of a tensor conditional (main.ts:L:3):
    //   [*] vs [*,*]. Its length depends on the condition (a push under it). ... (there is no push)
    // In the port (a field): "assigning '0' of 'this.regionsOfInterest' (main.ts:L:34): 'this.regionsOfInterest' is a
    // list of tensors in the staged graph (a staged loop changes its length ...)" (a staged if did).
    it.skip('facemesh pipeline: ROIs replaced under an IoU test and cleared (spread of slices) under a face-flag test', () => {
      withOriginal('trackFaces', () => [[[[0, 0, 4, 4], [10, 10, 14, 14]], [[1, 1, 5, 5]], [], [[0, 0, 2, 2], [9, 9, 12, 12]], [[3, 3, 6, 6], [1, 1, 2, 2]]],
        tf.tensor2d([[0, 0], [1, 0], [0, 1], [0, 0], [1, 1]]), tf.tensor2d([[0.9, 0.8], [0.9, 0.2], [0.7, 0.9], [0.9, 0.9], [0.3, 0.9]]), 2]);
    });
    it.skip('the reproduction: a list shortened under a tensor if, then written at 0', () => {
      agree('spliceThenWrite', () => [[tf.scalar(1), tf.scalar(2)], tf.scalar(0)], () => [[tf.scalar(1), tf.scalar(2)], tf.scalar(1)]);
    });

    // A JS index chosen by tensor comparisons (an argmin) used to read and write JS arrays (visited[u] = true,
    // dist[u], prev[v] = u); and a stack of [y, x] pairs pushed under a tensor test and popped while non-empty:
    //   let u = -1; let best: tf.Tensor = tf.scalar(Infinity);
    //   for (let v = 0; v < 3; v++) if (xs.gather(v).less(best)) { best = xs.gather(v); u = v; }
    //   visited[u] = true;
    // → 'u' is an int32 tensor here (main.ts:L:11), not a JS number: it changes in a conditional staged on a tensor
    //   condition (main.ts:L:5) ...
    // labelBlobs: StructureChange: 'stack' has a different structure in the two branches of a tensor conditional
    //   (main.ts:L:13): [[*,*]] vs []. Its length depends on the condition (a push under it).
    it.skip('Dijkstra on a weight tensor: the unvisited vertex of least distance marks visited[u] and relaxes dist[v]', () => {
      withOriginal('dijkstra', () => [tf.tensor2d([[0, 4, 1, 0, 0], [4, 0, 2, 5, 0], [1, 2, 0, 8, 0], [0, 5, 8, 0, 0], [0, 0, 0, 0, 0]]), 0]);
    });
    it.skip('flood-fill blob labelling: a stack of [y, x] pushed under a tensor pixel test, popped while non-empty', () => {
      withOriginal('labelBlobs', () => [tf.tensor2d([[1, 1, 0, 0, 1], [0, 1, 0, 1, 1], [0, 0, 0, 0, 0], [1, 0, 1, 1, 0]]), 0.5]);
    });
    it.skip('the reproduction: an argmin index written into a JS array', () => {
      agree('argminThenMark', () => [tf.tensor1d([3, 1, 2])]);
    });

    // WRONG REFUSAL, wasm only, and it depends on the first call's values: traced first on b = 0, the recursive
    // branch (not taken) runs `a.mod(b)` on int32 zeros, the wasm kernel fails, and the trace reports the user's
    // function as missing a return. Traced first on other values, the same staged function then returns 0 for b = 0.
    //   export function gcd(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
    //     'use autograph';
    //     if (b.equal(0)) return a;
    //     return gcd(b, a.mod(b));
    //   }
    // stage(gcd)(tf.scalar(7, 'int32'), tf.scalar(0, 'int32')) → 'a value is returned in one branch of a conditional on
    // a tensor but not in the other (main.ts:L:3). A value must also be returned from the else branch' (cpu: 7).
    it.skip('recursive gcd traced first on b = 0', () => {
      agree('gcdPair', () => [tf.scalar(7, 'int32'), tf.scalar(0, 'int32')], () => [tf.scalar(48, 'int32'), tf.scalar(18, 'int32')]);
    });

    // Fixed: 'auto' keeps an engine other than the tfjs executor only if it gives the executor's (eager's) numbers to the
    // last bit on the calls it is timed on (backends/engines/choice.ts runMeasured). Was:
    // NOT BIT-IDENTICAL. On 'auto' the same staged call alternates engines on its first calls, and ONNX Runtime's
    // Sigmoid of a scalar differs from tfjs-wasm's in the last bit for some inputs: x = 0.5124735236167908 gives
    // 0.6253861784934998 eagerly and on calls 1 and 3, 0.625386118888855 on calls 2 and 4 (trainBalancedGan with
    // ratio 0.5 ends with d.a 0.8052254915 instead of 0.8052254319). 2 in 200 random scalars in [0.01, 3) differ; vectors
    // of 2000 did not; on cpu the same calls are bit-identical.
    it('was NOT BIT-IDENTICAL: scalar sigmoid on \'auto\' equals eager on every call', () => {
      const x = tf.scalar(0.5124735236167908);
      const want = fixture.m.scalarSigmoid(x).dataSync()[0];
      const staged = stage(fixture.m.scalarSigmoid, { engine: 'auto' });
      for (let call = 0; call < 4; call++) expect(staged(x).dataSync()[0], `call ${call}`).to.equal(want);
    });

    // A field of a library object written in a staged loop body — SGDOptimizer.setLearningRate(lr) keeps
    // `this.c = keep(scalar(-lr))` — and read by the next iteration's minimize() is not carried as loop state:
    //   let lr = 0.1;
    //   for (let i = 0; i < n; i++) {
    //     const loss = optimizer.minimize(() => w.square().sum() as tf.Scalar, true)!;
    //     if (loss.less(0.01)) break;
    //     lr *= 0.5;
    //     optimizer.setLearningRate(lr);
    //   }
    // → 'a tensor computed in the if branch of the conditional (main.ts:L:5) is used outside it, in the body of the loop
    //   (main.ts:L:3) (main.ts:L:22)': L:5 is `lr *= 0.5` (the break's synthesized guard), L:22 the minimize call; no
    //   name of the user's. (Without setLearningRate the loop stages.)
    it.skip('an lr decayed with optimizer.setLearningRate in a loop broken on the loss', () => {
      agree('decayLrUntilConverged', () => [tf.variable(tf.tensor1d([1, 2])), 10]);
    });

    // A promoted number destructured from a callee's result and added into a JS number in code that is not staged
    // (snake-dqn's `this.cumulativeReward_ += reward`; the port, past its refusal by design, stops at the same
    // number passed in an array literal to replayMemory.append). Returning `reward` itself stages.
    //   function rewardOf(x) { if (x.less(0)) return { reward: -10 }; let reward = -0.5; if (x.equal(3)) reward = 10; return { reward }; }
    //   let sum = 0;
    //   for (let i = 0; i < xs.shape[0]; i++) { const { reward } = rewardOf(xs.gather(i)); sum += reward; }
    //   return sum;
    // → 'the returned value is a float32 tensor here (main.ts:L:12), not a JS number: it changes in a conditional staged on
    //   a tensor condition (main.ts:L:3) ... Use tfjs ops on it (e.g. tf.gather(xs, retval_) for xs[retval_])'
    it.skip('a callee\'s promoted reward summed into a JS number', () => {
      agree('sumOfCalleeRewards', () => [tf.tensor1d([1, 3, -1])], () => [tf.tensor1d([3, 3])]);
    });

    // The message names an internal variable: the `return` of a callee (snake_game's step) is 'retval__2'.
    it.skip('a refusal about a callee\'s returned object names the function, not retval__N', () => {
      expect(() => stage(fixture.m.stepWithOptionalKey)(tf.scalar(1))).to.throw(StagingError, /^(?!.*retval_).*corridorStep/s);
    });
  });
});
