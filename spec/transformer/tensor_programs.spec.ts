/**
 * Reference programs on tensors, eager: conditions are tensors, read by value by the operators.
 * (Staged runs of the same programs live with the staging engine's specs.)
 */
import { expect } from 'chai';
import * as tf from '@tensorflow/tfjs';
import { compile, formatDiagnostics, load } from '../harness/compile';
import { stage } from '../../index';

const source = `
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';

export function collatzSteps(n: tf.Scalar): tf.Scalar {
  'use autograph';
  let steps = tf.scalar(0);
  while (n.greater(1)) {
    if (n.mod(2).equal(0)) n = n.div(2).floor();
    else n = n.mul(3).add(1);
    steps = steps.add(1);
  }
  return steps;
}

export function earlyReturn(x: tf.Scalar): tf.Scalar {
  'use autograph';
  if (x.greater(10)) return x.mul(2);
  if (x.less(0)) {
    return x.neg();
  }
  return x.add(100);
}

export function nestedBreakContinue(limit: tf.Scalar): tf.Scalar {
  'use autograph';
  let total = tf.scalar(0);
  let i = tf.scalar(0);
  while (i.less(10)) {
    i = i.add(1);
    if (i.mod(2).equal(0)) continue;
    let j = tf.scalar(0);
    while (j.less(10)) {
      j = j.add(1);
      if (j.greater(i)) break;
      total = total.add(j);
    }
    if (total.greater(limit)) break;
  }
  return total;
}

export function ternaryAndLogical(x: tf.Scalar, y: tf.Scalar): tf.Tensor[] {
  'use autograph';
  const a = x.greater(0) ? x : x.neg();
  const both = x.greater(0) && y.greater(0);
  const either = x.greater(0) || y.greater(0);
  const neither = !either;
  let count = 0;
  if (both) count += 1;
  if (either) count += 10;
  if (!x.greater(0)) count += 100;
  return [a, both, either, neither, tf.scalar(count)];
}

export function continueThenReturn(x: tf.Scalar): tf.Scalar {
  'use autograph';
  for (let i = 0; i < 4; i++) { if (x.less(0)) continue; return x.mul(10); }
  return tf.scalar(-1);
}

export function unreachableLoopAfterBreak(k0: tf.Scalar, a: tf.Scalar): tf.Scalar {
  'use autograph';
  // @ts-ignore: unreachable code (issue 6, item 10: was an internal error TS99900)
  do { k0 = k0.add(1); break; for (const i0 of range(tf.scalar(3))) { continue; } } while (k0.less(2) && a);
  return k0;
}

export function breakOutOfSwitch(k: number, x: tf.Scalar): tf.Scalar {
  'use autograph';
  let y = tf.scalar(0);
  switch (k) {
    case 1:
      if (x.greater(0)) { y = y.add(1); break; }
      y = y.add(10);
    case 2:
      y = y.add(100);
      break;
    default:
      y = y.sub(1);
  }
  return y;
}

export function eitherPositive(x: tf.Scalar, y: tf.Scalar): tf.Tensor[] {
  'use autograph';
  return [x.greater(0) && y.greater(0), x.greater(0) || y.greater(0)];
}

export function sumRows(m: tf.Tensor2D): tf.Tensor {
  'use autograph';
  let acc = tf.zeros([m.shape[1]]);
  for (const row of m) {
    if (row.sum().less(0)) continue;
    acc = acc.add(row);
  }
  return acc;
}

export function staticPredicatesUntouched(xs: number[], flag: boolean): number {
  'use autograph';
  let s = 0;
  for (const x of xs) { if (flag && x > 1) s += x; }
  return s;
}
`;

describe('tensor programs, eager', () => {
  let m: Record<string, any>;
  let js: string;
  before(() => {
    const result = compile({ 'main.ts': source });
    // `const neither = !either` stores a Tensor in a boolean-typed variable: a warning, converted anyway.
    expect(formatDiagnostics(result.diagnostics)).to.match(/^main\.ts:\d+:\d+ AG99101: [^\n]*$/);
    js = result.js['main.ts'];
    m = load(js);
  });
  const value = (t: tf.Tensor) => t.arraySync();

  it('collatz(27) takes 111 steps', () => {
    expect(value(m.collatzSteps(tf.scalar(27)))).to.equal(111);
    expect(value(m.collatzSteps(tf.scalar(1)))).to.equal(0);
  });
  it('early returns take the path of the value', () => {
    expect(value(m.earlyReturn(tf.scalar(20)))).to.equal(40);
    expect(value(m.earlyReturn(tf.scalar(-3)))).to.equal(3);
    expect(value(m.earlyReturn(tf.scalar(5)))).to.equal(105);
  });
  it('break and continue in nested tensor loops', () => {
    // odd i: adds 1..i; stops once total > limit
    const expected = (limit: number) => {
      let total = 0;
      for (let i = 1; i <= 10; i++) {
        if (i % 2 === 0) continue;
        for (let j = 1; j <= Math.min(i, 10); j++) total += j;
        if (total > limit) break;
      }
      return total;
    };
    for (const limit of [0, 5, 100]) expect(value(m.nestedBreakContinue(tf.scalar(limit)))).to.equal(expected(limit));
  });
  it('ternary, &&, || and ! on tensors use values, not object truthiness', () => {
    const [a, both, either, neither, count] = m.ternaryAndLogical(tf.scalar(-2), tf.scalar(3));
    expect(value(a)).to.equal(2);
    expect(value(both)).to.equal(0);           // false: x > 0 is false, returned as the tensor
    expect(!!value(either)).to.equal(true);
    expect(!!value(neither)).to.equal(false);
    expect(value(count)).to.equal(110);
  });
  it('a return after a continue under a tensor condition, in a static loop (issue 6, item 1)', () => {
    expect(value(m.continueThenReturn(tf.scalar(2)))).to.equal(20);
    expect(value(m.continueThenReturn(tf.scalar(-2)))).to.equal(-1);
  });
  it('an unreachable loop after a break converts and runs (issue 6, item 10)', () => {
    expect(value(m.unreachableLoopAfterBreak(tf.scalar(0), tf.scalar(1)))).to.equal(1);
  });
  it('a break out of a switch under a tensor condition (issue 6, item 4)', () => {
    const results = [[1, 1], [1, -1], [2, 1], [3, 1]].map(([k, x]) => value(m.breakOutOfSwitch(k, tf.scalar(x))));
    expect(results).to.deep.equal([1, 110, 100, -1]);
  });
  it('for...of over a tensor iterates rows', () => {
    expect(value(m.sumRows(tf.tensor2d([[1, 2], [-5, 1], [3, 4]])))).to.deep.equal([4, 6]);
  });
  it('static predicates are emitted unchanged', () => {
    expect(js).to.contain('for (const x of xs) {\n        if (flag && x > 1)\n            s += x;\n    }');
    expect(m.staticPredicatesUntouched([1, 2, 3], true)).to.equal(5);
  });
});

describe('tensor programs, staged (same programs through stage())', () => {
  let m: Record<string, any>;
  before(() => {
    m = load(compile({ 'main.ts': source }).js['main.ts']);
  });
  const value = (t: tf.Tensor) => t.arraySync();

  it('collatz: one trace serves inputs with different trip counts', () => {
    const staged = stage(m.collatzSteps);
    for (const [n, steps] of [[27, 111], [1, 0], [6, 8], [97, 118]]) {
      expect(value(staged(tf.scalar(n))), `collatz(${n})`).to.equal(steps);
    }
    expect(staged.traceCount).to.equal(1);
  });
  it('early returns: one trace, every branch', () => {
    const staged = stage(m.earlyReturn);
    for (const x of [20, -3, 5]) expect(value(staged(tf.scalar(x)))).to.equal(value(m.earlyReturn(tf.scalar(x))));
    expect(staged.traceCount).to.equal(1);
  });
  it('nested loops with break and continue', () => {
    const staged = stage(m.nestedBreakContinue);
    for (const limit of [0, 5, 100]) {
      expect(value(staged(tf.scalar(limit)))).to.equal(value(m.nestedBreakContinue(tf.scalar(limit))));
    }
  });
  it('ternary and logical operators; a JS number set under a tensor if is promoted, and tf.scalar(count) stages (issue 17)', () => {
    const staged = stage(m.ternaryAndLogical);
    for (const [x, y] of [[-2, 3], [1, 1], [-1, -1], [2, -5]]) {
      const eager = m.ternaryAndLogical(tf.scalar(x), tf.scalar(y)).map(value);
      expect(staged(tf.scalar(x), tf.scalar(y)).map(value), `(${x}, ${y})`).to.deep.equal(eager);
    }
    expect(staged.traceCount).to.equal(1);
  });
  it('the If nodes of && and || name the user\'s line', () => {
    const staged = stage(m.eitherPositive);
    const [and, or] = staged(tf.scalar(1), tf.scalar(-1));
    expect([value(and), value(or)]).to.deep.equal([0, 1]);
    const line = source.split('\n').findIndex((l) => l.includes('return [x.greater(0) && y')) + 1;
    const origins = staged.inspect(tf.scalar(1), tf.scalar(-1)).program.graph.nodes
      .filter((n: { kind: string }) => n.kind === 'If').map((n: { origin?: string }) => n.origin);
    expect(origins).to.deep.equal([`main.ts:${line}:11`, `main.ts:${line}:41`]);
  });
  it('a return after a continue under a tensor condition; an unreachable loop after a break', () => {
    // The JS counter `i` of a loop that a tensor-dependent return must leave is promoted to an int32
    // tensor for the staged loop (issue 8, item 3; it was a named error).
    const staged = stage(m.continueThenReturn);
    expect([2, -2].map((x) => value(staged(tf.scalar(x))))).to.deep.equal([20, -1]);
    expect(value(stage(m.unreachableLoopAfterBreak)(tf.scalar(0), tf.scalar(1)))).to.equal(1);
  });
  it('a break out of a switch under a tensor condition', () => {
    const staged = stage(m.breakOutOfSwitch);
    const results = [[1, 1], [1, -1], [2, 1], [3, 1]].map(([k, x]) => value(staged(k, tf.scalar(x))));
    expect(results).to.deep.equal([1, 110, 100, -1]);
  });
  it('for...of over tensor rows', () => {
    const staged = stage(m.sumRows);
    const input = tf.tensor2d([[1, 2], [-5, 1], [3, 4]]);
    expect(value(staged(input))).to.deep.equal(value(m.sumRows(input)));
  });
  it('no tensors leak across repeated staged calls', () => {
    const staged = stage(m.collatzSteps);
    const x = tf.scalar(27);
    tf.dispose(staged(x));
    const before = tf.memory().numTensors;
    for (let i = 0; i < 50; i++) tf.dispose(staged(x));
    expect(tf.memory().numTensors).to.equal(before);
  });
});

describe('expressions on tensors, staged', () => {
  const exprSource = `
import * as tf from '@tensorflow/tfjs';
export function exprs(x: tf.Scalar, y: tf.Scalar): tf.Tensor[] {
  'use autograph';
  const a = x.greater(0) ? x : x.neg();
  const both = x.greater(0) && y.greater(0);
  const either = x.greater(0) || y.greater(0);
  let count = tf.scalar(0);
  if (both) count = count.add(1);
  if (either) count = count.add(10);
  if (!x.greater(0)) count = count.add(100);
  return [a, both, either, count];
}`;
  it('gives the eager results for every combination, from one trace', () => {
    const { exprs } = load(compile({ 'main.ts': exprSource }).js['main.ts']);
    const staged = stage(exprs);
    for (const [x, y] of [[-2, 3], [2, 3], [-1, -1], [4, -5]]) {
      const eager = exprs(tf.scalar(x), tf.scalar(y)).map((t: tf.Tensor) => Number(t.arraySync()));
      const graph = staged(tf.scalar(x), tf.scalar(y)).map((t: tf.Tensor) => Number(t.arraySync()));
      expect(graph, `x=${x} y=${y}`).to.deep.equal(eager);
    }
    expect(staged.traceCount).to.equal(1);
  });
});

describe('staged restrictions reported on transformer output', () => {
  it('returning a JS value under a tensor condition names the value and the line', () => {
    const { label } = load(compile({ 'main.ts': `import * as tf from '@tensorflow/tfjs';
export function label(x: tf.Scalar) {
  'use autograph';
  if (x.greater(0)) return 'positive';
  return 'not positive';
}` }).js['main.ts']);
    expect(label(tf.scalar(2))).to.equal('positive');        // eager: fine, the value is read
    expect(() => stage(label)(tf.scalar(2))).to.throw(/returns the JS string "positive" under a condition on a tensor \(main\.ts:4:3\)/);
  });
});

describe('switch on a value that may be a tensor', () => {
  const switchSource = `
import * as tf from '@tensorflow/tfjs';
export function classify(code: any): string {
  'use autograph';
  switch (code) {
    case 0: return 'zero';
    case 1: return 'one';
    default: return 'other';
  }
}`;
  it('reads a scalar tensor eagerly, keeps plain values, and refuses to be staged', () => {
    const result = compile({ 'main.ts': switchSource });
    expect(result.js['main.ts']).to.contain('switch (ag__.switchValue(code, { origin: "main.ts:5:11" }))');
    const { classify } = load(result.js['main.ts']);
    expect([classify(1), classify('1'), classify(tf.scalar(1)), classify(tf.scalar(0, 'int32')), classify(tf.scalar(7))])
      .to.deep.equal(['one', 'other', 'one', 'zero', 'other']);
    expect(() => stage((t: tf.Tensor) => tf.scalar(classify(t).length))(tf.scalar(1))).to.throw(/switch on a tensor cannot be staged \(main\.ts:5:11\)/);
  });
});

describe('a long else-if chain on tensors', () => {
  it('compiles flat (no nesting per branch) and gives the same branch eagerly and staged', () => {
    const branches = Array.from({ length: 300 }, (_, i) => `${i ? 'else ' : ''}if (x.equal(${i})) y = tf.scalar(${i * 10});`);
    const result = compile({ 'main.ts': `import * as tf from '@tensorflow/tfjs';
export function pick(x: tf.Scalar): tf.Scalar {
  'use autograph';
  let y = tf.scalar(-1);
  ${branches.join('\n  ')}
  else y = tf.scalar(999);
  return y;
}` });
    expect(formatDiagnostics(result.diagnostics)).to.equal('');
    expect(result.js['main.ts']).to.contain('let branch_taken = false;');
    const { pick } = load(result.js['main.ts']);
    const staged = stage(pick);
    for (const [x, y] of [[0, 0], [7, 70], [299, 2990], [300, 999]]) {
      expect(pick(tf.scalar(x)).arraySync(), `eager ${x}`).to.equal(y);
      expect(staged(tf.scalar(x)).arraySync(), `staged ${x}`).to.equal(y);
    }
  });
});
