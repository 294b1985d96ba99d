/**
 * Errors reach the user at their own TypeScript line: a kernel error raised inside a staged While
 * body on its second iteration, and staging restrictions, name the user's .ts file and line in the
 * message and as the first stack frame — run as a user runs a project (a compiled .js file with its
 * source map next to it), with and without `node --enable-source-maps`.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { compile } from '../harness/compile';
import { onnxRuntimeAvailable } from '../../backends/engines/onnx/runtime';

const ROOT = path.resolve(__dirname, '../../..');

const SOURCE = `import * as tf from '@tensorflow/tfjs';
import { stage } from 'autograph-ts';

export function walk(xs: tf.Tensor1D, n: tf.Scalar): tf.Tensor {
  'use autograph';
  let i = tf.scalar(0, 'int32');
  let total = tf.scalar(0);
  while (i.less(n)) {
    total = total.add(tf.gather(xs, i.mul(tf.scalar(3, 'int32'))));
    i = i.add(tf.scalar(1, 'int32'));
  }
  return total;
}

export function oneBranch(x: tf.Tensor): tf.Tensor {
  'use autograph';
  let y;
  if (x.greater(0)) y = x;
  return y as unknown as tf.Tensor;
}

export function readsValue(x: tf.Tensor): tf.Tensor {
  return x.mul(x.dataSync()[0]);
}

export function changesDtype(n: tf.Tensor): tf.Tensor {
  'use autograph';
  let steps = tf.scalar(0, 'int32');
  while (n.greater(0)) {
    n = n.sub(1);
    steps = steps.add(1);
  }
  return steps;
}

export function skipNegative(xs: tf.Tensor1D): tf.Tensor {
  'use autograph';
  let total = tf.scalar(0);
  for (const x of tf.unstack(xs)) {
    if (x.less(0)) continue;
    total = tf.scalar(1, 'int32');
  }
  return total;
}

export function lastBelow(xs: tf.Tensor1D): tf.Tensor {
  'use autograph';
  let last;
  for (const x of tf.unstack(xs)) {
    if (x.greater(2)) break;
    last = x;
  }
  return last as unknown as tf.Tensor;
}

export function grow(x: tf.Tensor, w: tf.Tensor, steps: tf.Scalar): tf.Tensor {
  'use autograph';
  let k = tf.scalar(0);
  while (k.less(steps)) {
    x = x.matMul(w);
    k = k.add(1);
  }
  return x;
}

export function run(which: string): void {
  const calls: Record<string, () => unknown> = {
    kernel: () => stage(walk, { engine: 'tfjs' })(tf.tensor1d([1, 2, 3]), tf.scalar(2, 'int32')),
    kernelOnnx: () => stage(walk, { engine: 'onnx' })(tf.tensor1d([1, 2, 3]), tf.scalar(2, 'int32')),
    oneBranch: () => stage(oneBranch)(tf.scalar(1)),
    readsValue: () => stage(readsValue)(tf.scalar(1)),
    changesDtype: () => stage(changesDtype)(tf.scalar(2)),
    growTfjs: () => stage(grow, { engine: 'tfjs' })(tf.ones([2, 3]), tf.ones([3, 4]), tf.scalar(3)),
    growAuto: () => stage(grow)(tf.ones([2, 3]), tf.ones([3, 4]), tf.scalar(3)),
    continueGuard: () => stage(skipNegative)(tf.tensor1d([1, -2, 3])),
    breakGuard: () => stage(lastBelow)(tf.tensor1d([1, 2, 3])),
  };
  try {
    calls[which]();
    console.log('no error');
  } catch (error) {
    console.log(JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack }));
  }
}
`;

const lineOf = (text: string): number => SOURCE.split('\n').findIndex((l) => l.includes(text)) + 1;

describe('errors point at the user\'s TypeScript line', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    const result = compile({ 'model.ts': SOURCE }, {}, { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 });
    expect(result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error)).to.deep.equal([]);
    dir = fs.mkdtempSync(path.join(ROOT, 'spec-virtual-errors-'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.mkdirSync(path.join(dir, 'out'));
    fs.writeFileSync(path.join(dir, 'src/model.ts'), SOURCE);
    // Sources in the map are relative to the .js file, as tsc writes them for src/ → out/.
    const map = JSON.parse(result.maps['model.ts']);
    map.sources = ['../src/model.ts'];
    fs.writeFileSync(path.join(dir, 'out/model.js'), result.js['model.ts']);
    fs.writeFileSync(path.join(dir, 'out/model.js.map'), JSON.stringify(map));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const failure = (which: string, sourceMaps: boolean): { message: string; stack: string } => {
    const script = `require(${JSON.stringify(path.join(ROOT, 'dist/spec/setup.js'))});
      require('@tensorflow/tfjs').setBackend('wasm').then(() => require('./out/model.js').run(${JSON.stringify(which)}));`;
    const out = spawnSync(process.execPath, [...(sourceMaps ? ['--enable-source-maps'] : []), '-e', script],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, AUTOGRAPH_VERBOSITY: '0' } });
    const line = out.stdout.split('\n').find((l) => l.startsWith('{'));
    expect(line, `${out.stdout}\n${out.stderr}`).to.not.equal(undefined);
    return JSON.parse(line!);
  };

  const cases: [string, string, RegExp][] = [
    // (The node's position is relative to the working directory, the loop's to the project: the same in a project run from its root.)
    ['kernel', 'total = total.add(tf.gather', new RegExp('^GatherV2: the index value 3 is not in \\[0, 2\\]\n\nin user code: the staged ' +
      `GatherV2 at src/model\\.ts:\\d+:\\d+, on iteration 2 of the staged loop at model\\.ts:${lineOf('while (i.less(n)) {')}:3$`)],
    ['oneBranch', 'if (x.greater(0)) y = x;', /'y' must also be defined in the else branch \(model\.ts:/],
    // A location taken from the stack is written relative to the working directory, as the transformer's origins are.
    ['readsValue', 'return x.mul(x.dataSync()[0]);', /value was read while stage\(\) traces the function \(src\/model\.ts:/],
    ['changesDtype', 'while (n.greater(0)) {', /loop variable 'steps' changes dtype .* \(model\.ts:/],
    // The guard a lowered jump puts around the rest of the body: the user's condition and the jump, not the next line.
    ['continueGuard', 'if (x.less(0)) continue;', new RegExp("^autograph-ts: 'total' is a int32 tensor of shape \\[\\] past the " +
      '`continue` but a float32 tensor of shape \\[\\] where the `continue` is taken \\(the `continue` under the tensor ' +
      'condition at model\\.ts:\\d+:9\\); both paths must give it the same dtype and rank\\.$')],
    ['breakGuard', 'if (x.greater(2)) break;', new RegExp("^autograph-ts: 'last' must also be defined where the `break` is " +
      'taken \\(the `break` under the tensor condition at model\\.ts:\\d+:9\\): it is a float32 tensor of shape \\[\\] ' +
      'past the `break`, and a staged conditional needs a value for it on both paths\\.$')],
    // A failed ORT run is run again by the tfjs executor: the error is tfjs's, at the user's line.
    ...(onnxRuntimeAvailable() ? [['kernelOnnx', 'total = total.add(tf.gather',
      /GatherV2: the index value 3 is not in \[0, 2\].*\n\nin user code: the staged GatherV2 at src\/model\.ts:\d+:\d+, on iteration 2 of the staged loop at model\.ts:\d+:3$/s] as [string, string, RegExp]] : []),
  ];
  // x changes shape in the loop ([2,3] -> [2,4]): the body is traced with a stand-in for x's changing
  // dim, where matMul fails with shapes the user never had (2,5); eagerly it fails on the second
  // iteration. The error is that one, raised when the run reaches it: real shapes, the user's line,
  // and which iteration (runs of 0 and 1 iterations: first_contact.spec.ts).
  for (const which of ['growTfjs', 'growAuto']) {
    it(`${which}: a kernel error in a loop whose value changes shape has the real shapes, the iteration and the user's line first`, () => {
      const error = failure(which, false);
      expect(error.message).to.equal('Error in matMul: inner shapes (4) and (3) of Tensors with shapes 2,4 and 3,4 and ' +
        'transposeA=false and transposeB=false must match.\n\nin user code: the loop staged on a tensor condition at ' +
        `model.ts:${lineOf('while (k.less(steps)) {')}:3 fails on its second iteration (as eager code does), where 'x' is [2,4] ` +
        '([2,3] before the loop): stage() traced that iteration to find it, and the graph raises it when a run reaches it.');
      const frames = error.stack.split('\n').filter((l) => /^\s+at /.test(l));
      expect(frames[0], error.stack).to.match(new RegExp(`src[\\\\/]model\\.ts:${lineOf('x = x.matMul(w);')}:\\d+`));
      expect(error.stack).not.to.match(/[\\/](backends|runtime)[\\/]\w+\.(js|ts):|tfjs/);
    });
  }

  for (const sourceMaps of [false, true]) {
    for (const [which, text, message] of cases) {
      it(`${which}${sourceMaps ? ' (--enable-source-maps)' : ''}: message and first frame at model.ts:${lineOf(text)}`, () => {
        const error = failure(which, sourceMaps);
        const line = lineOf(text);
        expect(error.message).to.match(message);
        expect(error.message).to.match(new RegExp(`model\\.ts:${line}:`));
        const firstFrame = error.stack.split('\n').find((l) => /^\s+at /.test(l));
        expect(firstFrame, error.stack).to.match(new RegExp(`src[\\\\/]model\\.ts:${line}:\\d+`));
        expect(error.stack).not.to.match(/[\\/](backends|runtime)[\\/]\w+\.(js|ts):/);
      });
    }
  }
});
