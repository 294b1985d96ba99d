/**
 * Issue 8, items 3-5: JS numbers and booleans that a loop staged on a tensor condition changes are
 * promoted to tensors for the loop (int32 counters, float32 numbers, bool flags), as tf.while_loop
 * does; using one afterwards where JS needs a plain value is an error naming it and its line;
 * values created in a staged loop, and returns in one, stage. Programs:
 * spec/fixtures/promotion_programs.ts, compiled with the transformer, run eagerly and staged.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/common/errors';
import { binaryOp, markPromoted, plainValue, postfixOp, unaryOp } from '../../runtime/promoted_values';
import { compile, load } from '../harness/compile';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/promotion_programs.ts'), 'utf8');
const S = (v: number): tf.Scalar => tf.scalar(v);
const value = (x: unknown): unknown => (Array.isArray(x) ? x.map(value) : x instanceof tf.Tensor ? x.arraySync() : x);
const lineOf = (text: string): number => source.split('\n').findIndex((l) => l.includes(text)) + 1;

describe('promoted JS counters and flags in staged loops (issue 8)', () => {
  let m: Record<string, (...args: any[]) => any>;
  let js: string;
  before(() => {
    const out = compile({ 'main.ts': source });
    expect(out.diagnostics.map((d) => d.messageText)).to.deep.equal([]);
    js = out.js['main.ts'];
    m = load(js);
  });

  /** Staged results equal eager ones; returns the staged values. */
  const agree = (name: string, ...argLists: unknown[][]): unknown[] => {
    const staged = stage(m[name]);
    return argLists.map((args) => {
      const eager = value(m[name](...args));
      const got = value(staged(...args));
      expect(got, `${name}(${JSON.stringify(value(args))})`).to.deep.equal(eager);
      return got;
    });
  };
  const refuses = (name: string, args: unknown[], message: RegExp): void => {
    expect(() => stage(m[name])(...args)).to.throw(StagingError, message);
  };

  it('greedy decoding with a JS counter and a tensor break: one While, equal to eager', () => {
    expect(agree('decode', [S(0), S(3), 10], [S(0), S(1), 4], [S(0), S(1), 0], [S(20), S(1), 5])).to.deep.equal([30, 10, 0, 21]);
    const staged = stage(m.decode);
    staged(S(0), S(3), 10);
    expect(staged.inspect(S(0), S(3), 10).stats.whiles).to.equal(1);
  });

  for (const backend of ['wasm', 'cpu']) {
    it(`the issue's training loop with early stopping, written as is: staged == eager on ${backend}`, async () => {
      const previous = tf.getBackend();
      await tf.setBackend(backend);
      try {
        const [near] = agree('train', [tf.tensor1d([0, 0]), tf.tensor1d([1, 2])]);
        const [far] = agree('train', [tf.tensor1d([0.99, 1.99]), tf.tensor1d([1, 2])]);
        expect((near as number[])[1]).to.be.below(0.01);
        expect((far as number[])[1]).to.be.below(0.01);
      } finally {
        await tf.setBackend(previous);
      }
    });
  }

  it('an integer counter is carried as an int32 tensor; returned, it is the JS number eager code returns (issue 17)', () => {
    const staged = stage(m.countSteps);
    expect(staged.inspect(S(3)).program.graph.nodes.some((n: { kind: string; outputs: { dtype: string }[] }) =>
      n.kind === 'While' && n.outputs.some((o) => o.dtype === 'int32'))).to.equal(true);
    for (const x of [1, 3, 25]) {
      const [, steps] = staged(S(x));
      expect(typeof steps).to.equal('number');
      expect(steps).to.equal(m.countSteps(S(x))[1]);
    }
    expect(staged.traceCount).to.equal(1);
  });

  it('a counter that becomes non-integral is float32 from the start (never truncated)', () => {
    const staged = stage(m.halfSteps);
    expect(staged.inspect(S(0)).program.graph.nodes.some((n: { kind: string; outputs: { dtype: string }[] }) =>
      n.kind === 'While' && n.outputs.some((o) => o.dtype === 'float32'))).to.equal(true);
    expect([0, 3, 9].map((x) => staged(S(x)))).to.deep.equal([3.5, 2, 1]);
    expect([0, 3, 9].map((x) => m.halfSteps(S(x)))).to.deep.equal([3.5, 2, 1]);
  });

  it('a boolean flag set under a tensor condition is a bool tensor; `if (found)` after the loop stages', () => {
    const xs = tf.tensor1d([1, 5, 2]);
    expect(agree('findAbove', [xs, S(3)], [xs, S(7)], [tf.tensor1d([9]), S(0)])).to.deep.equal([1, -1, 1]);
  });

  it('comparisons, %, ===, ?: and unary minus on the promoted counter after the loop', () => {
    expect(agree('afterTheLoop', [S(0)], [S(4)], [S(3)])).to.deep.equal([[5, 100, 0, -10], [5, 0, 0, -2], [5, 0, 1, -4]]);
  });

  it('a promoted counter given to a tfjs op with an int32 tensor is an error (eagerly tfjs makes the number float32), not an int32 result', () => {
    expect(value(m.counterOverInt32(S(0)))).to.equal(2.5);
    expect(() => stage(m.counterOverInt32)(S(0))).to.throw(StagingError,
      /'t' is a JS number that a staged loop .* carries as an int32 tensor, and the tfjs kernel \w+ .*tf\.cast\(t, 'float32'\)/);
    agree('counterCastOverInt32', [S(0)], [S(3)]);
    const table = tf.tensor1d([10, 20, 30, 40], 'int32');
    agree('counterAsIndex', [S(0), table], [S(2), table]);
  });

  it('a promoted counter indexing a JS array of numbers inside the loop gathers from its values (was refused)', () => {
    expect(value(m.indexInside(S(0), [1, 2, 3, 4, 5]))).to.equal(6);
    expect(value(stage(m.indexInside)(S(0), [1, 2, 3, 4, 5]))).to.equal(6);
  });

  it('using the counter after the loop where JS needs a plain number is an error naming it and the line', () => {
    // A JS array of numbers indexed by it gathers from its values (issue 17).
    expect(agree('indexAfter', [S(0), [1, 2, 3, 4, 5, 6]], [S(3), [1, 2, 3, 4, 5, 6]])).to.deep.equal([6, 3]);
    const cases: [string, string][] = [['arrayOfLength', 'return Array(t).length;'],
      ['typeofAfter', 'return typeof t;'], ['templateAfter', 'return `${t} steps`;'],
      ['strictEqualAfter', 'return label[Number(t === 5)];']];
    // Math.max of the counter is computed on the promoted value and read back (issue 17).
    expect(agree('mathMaxAfter', [S(0)], [S(9)])).to.deep.equal([5, 1]);
    for (const [name, text] of cases) {
      refuses(name, [S(0), [1, 2, 3, 4, 5, 6]], new RegExp(`'t( === 5)?' is an? (int32|bool) tensor here ` +
        `\\(main\\.ts:${lineOf(text)}:\\d+\\).*changes in a loop staged on a tensor condition \\(main\\.ts:\\d+:3\\)`));
    }
    // Eagerly (and when the loop is not staged) they are plain JS.
    expect([m.indexAfter(S(0), [1, 2, 3, 4, 5, 6]), m.arrayOfLength(S(2)), m.typeofAfter(S(0)), m.templateAfter(S(0)),
      m.mathMaxAfter(S(9)), m.strictEqualAfter(S(0))]).to.deep.equal([6, 3, 'number', '5 steps', 1, 'five']);
  });

  it('a nested function reading the counter reads it as a plain value (error when promoted, JS otherwise)', () => {
    refuses('closureAfter', [S(0)], new RegExp(`'t' is an int32 tensor here \\(main\\.ts:${lineOf('v === t')}:\\d+\\)`));
    expect([m.closureAfter(S(0)), m.closureAfter(S(1))]).to.deep.equal([true, false]);
    // (The comparison goes through the operators, exact on JS numbers; its read of t is the plain one.)
    expect(js).to.contain('const isT = (v) => ag__.binaryOp("===", v, ag__.plainValue(t, "t", "main.ts:');
  });

  it('a converted callee may return a promoted counter: the caller\'s ===, ?: and + on its result are staged', () => {
    expect(agree('callerOfCounter', [S(0)], [S(1)], [S(9)])).to.deep.equal([16, 25, 21]);
    refuses('callerIndexes', [S(0), ['a']], new RegExp(`'stepsTo5\\(x\\)' is an int32 tensor here \\(main\\.ts:${lineOf('return table[stepsTo5(x)];')}:\\d+\\)`));
    expect(m.callerIndexes(S(4), ['a', 'b'])).to.equal('b');
  });

  it('postfix t++ / t-- used as a value give the old value, staged (was refused through the toPrimitive backstop)', () => {
    const table = tf.tensor1d([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(agree('postfixValues', [S(0), table], [S(4), table], [S(9), table]))
      .to.deep.equal([[40, 4, 5, 5], [10, 0, 1, 9], [0, 0, 0, 10]]);
    expect(js).to.match(/previous = ag__\.postfixOp\("\+\+", t, (t_next\w*) => t = \1\);/);
    // Where JS needs the plain value: the named error at the read, with the expression's text.
    // `table[t++]` on a JS array of numbers: the old value's element, gathered (was refused).
    expect(agree('postfixIndex', [S(0), [1, 2, 3, 4, 5, 6]])).to.deep.equal([6]);
  });

  it('a for counter captured by a closure in the body is promoted under its own name (not its outer copy\'s)', () => {
    expect(agree('capturedCounter', [S(5)], [S(1.5)], [S(-1)])).to.deep.equal([3, 1, 0]);
    expect(js).to.match(/\["break_\w*", "last", "j"\], \{ origin: "main\.ts:\d+:3", flags: \["break_\w*"\], promote: \["last", "j"\]/);
    // Refusals never name the outer copy (`i_outer`).
    expect(m.capturedCounterCalled(S(1.5))).to.deep.equal([0, 10, 20]);
    const named = (name: string, pattern: RegExp): void => {
      let message = '';
      try { stage(m[name])(S(1.5)); } catch (error) { message = (error as Error).message; }
      expect(message).to.match(pattern);
      expect(message).not.to.match(/_outer/);
    };
    // The closure reads it as JS: the loop is a counted one (transformer/analysis/counted_loops.ts), so it runs on in JS
    // with i a JS number, each iteration under a staged "no break yet" test (it was refused: "'i' is an int32 tensor").
    expect(agree('capturedCounterCalled', [S(1.5)], [S(5)], [S(-1)])).to.deep.equal([[0, 10, 20], [0, 10, 20, 30], [0]]);
    // The reproduction: the JS functions pushed in the staged loop are refused, by their array's name.
    expect(m.capturedCounterFunctions(S(1.5))).to.deep.equal([0, 1, 2]);
    named('capturedCounterFunctions', /'fns' changes structure in a loop staged on a tensor condition/);
  });

  it('reads that JS makes without ToPrimitive (Object.is, includes, JSON, destructuring, switch, a JS callee...) are named errors', () => {
    const eager = [true, true, '{"t":3}', 3, 3, true, 3, 'three', 3, 'three', '3'];
    eager.forEach((expected, which) => {
      expect(m.auditReads(S(0), which), `case ${which}`).to.deep.equal(expected);
      // Case 8 (`o.v = t; return o.v`): a number field assigned the counter is promoted too, and
      // the returned field is read back (issue 17). Case 5 (`sameNumber(t, 3)`): the project's
      // function gets t as a promoted parameter, and its `a === b` gives a promoted boolean back.
      if (which === 8 || which === 5) expect(stage(m.auditReads)(S(0), which)).to.equal(expected);
      else refuses('auditReads', [S(0), which], /'t' is an int32 tensor here \(main\.ts:\d+:\d+\), not a JS number/);
    });
    // `t ?? 1` is t (a number is never nullish), staged too.
    expect(agree('auditNullish', [S(0)], [S(5)])).to.deep.equal([3, 0]);
  });

  it('the emitted code reads the counter through the operators (a number table through ag__.arrayItem)', () => {
    expect(js).to.contain(`ag__.arrayItem(table, t, "table[t]", "main.ts:`);
    expect(js).to.contain('t = ag__.unaryOp("++", t);');
    expect(js).to.contain('promote: ["t"]');
  });

  it('a value created in a staged loop is its value after the loop; zero iterations is a named error', () => {
    expect(agree('createdInLoop', [S(1)], [S(4)])).to.deep.equal([8, 8]);
    const line = lineOf('while (x.less(5)) {\n    y = x.mul(2);') || source.split('\n').findIndex((l, i, all) =>
      l.includes('while (x.less(5))') && all[i + 1].includes('y = x.mul(2)')) + 1;
    refuses('createdInLoop', [S(7)], new RegExp(`'y' is assigned only inside a loop staged on a tensor condition ` +
      `\\(main\\.ts:${line}:3\\) and read after it, but the loop ran zero times`));
  });

  it('an unconditional return inside a loop staged on a tensor range stages (was refused)', () => {
    expect(agree('returnInLoop', [S(1), S(3)], [S(1), S(0)], [S(5), tf.scalar(2, 'int32')])).to.deep.equal([2, 1, 6]);
  });

  it('a do-while whose body always returns, in a tensor if: the flag it sets is known true, so the guards after it stay static (fuzzer seed 20261125 #704 was refused)', () => {
    expect(agree('doWhileAlwaysReturns', [S(1), S(4)], [S(-1), S(2)], [S(0), S(0)])).to.deep.equal([[1, 4, 1], [1, -1, 2], [1, 0, 0]]);
  });
});

describe('ag__.binaryOp / unaryOp / plainValue (runtime/promoted_values.ts)', () => {
  it('on plain values, exactly the JS operators (strings, NaN, -0, coercions)', () => {
    const values: unknown[] = [0, -0, 1, -7, 2.5, NaN, Infinity, '3', '', true, false, null, undefined, 2 ** 31];
    const ops = ['+', '-', '*', '/', '%', '**', '<', '<=', '>', '>=', '==', '!=', '===', '!==', '&', '|', '^', '<<', '>>', '>>>'] as const;
    for (const a of values) {
      for (const b of values) {
        for (const op of ops) {
          // eslint-disable-next-line no-new-func
          const expected = new Function('a', 'b', `return a ${op} b;`)(a, b);
          expect(Object.is(binaryOp(op, a, b), expected), `${String(a)} ${op} ${String(b)}`).to.equal(true);
        }
      }
      expect(Object.is(unaryOp('-', a), -(a as number))).to.equal(true);
      expect(Object.is(unaryOp('+', a), +(a as number))).to.equal(true);
      let [inc, dec] = [a as number, a as number];
      expect(Object.is(unaryOp('++', a), ++inc), `++${String(a)}`).to.equal(true);
      expect(Object.is(unaryOp('--', a), --dec)).to.equal(true);
      expect(Object.is(plainValue(a, 'a'), a)).to.equal(true);
      let post = a as number;
      let assigned: unknown;
      expect(Object.is(postfixOp('++', a, (v) => { assigned = v; }), post++), `${String(a)}++`).to.equal(true);
      expect(Object.is(assigned, post)).to.equal(true);
      post = a as number;
      expect(Object.is(postfixOp('--', a, (v) => { assigned = v; }), post--), `${String(a)}--`).to.equal(true);
      expect(Object.is(assigned, post)).to.equal(true);
    }
  });

  it('on tensors, the JS semantics: int32 stays int32 with integers, / and % are real, % takes the dividend\'s sign', () => {
    const i = tf.scalar(7, 'int32');
    expect(binaryOp('+', i, 1).dtype).to.equal('int32');
    expect(unaryOp('++', i).dtype).to.equal('int32');
    expect(unaryOp('--', tf.scalar(0.5)).arraySync()).to.equal(-0.5);
    expect(binaryOp('+', i, 1.5).arraySync()).to.equal(8.5);
    expect(binaryOp('/', i, 2).arraySync()).to.equal(3.5);
    expect([binaryOp('%', tf.scalar(-7, 'int32'), 3), binaryOp('%', 7, tf.scalar(-3)), binaryOp('%', tf.scalar(5), Infinity)]
      .map((t) => t.arraySync())).to.deep.equal([-1, 1, 5]);
    expect(binaryOp('===', tf.scalar(true, 'bool'), 1).arraySync()).to.equal(0);
    expect(binaryOp('==', tf.scalar(true, 'bool'), 1).arraySync()).to.equal(1);
    expect(binaryOp('<', 2, i).arraySync()).to.equal(1);
    expect(() => binaryOp('+', 'a', i)).to.throw(StagingError, /between a tensor and string/);
    // plainValue refuses a promoted value (a JS number eagerly); a tensor that is not one is what
    // eager code holds there too, and passes (issue 17: `(c > 1 ? a : b).sub(x)` with tensors a, b).
    expect(plainValue(i, 'k', 'f.ts:1:2')).to.equal(i);
    const promoted = markPromoted(tf.scalar(7, 'int32'), 'k', 'f.ts:1:1');
    expect(() => plainValue(promoted, 'k', 'f.ts:1:2')).to.throw(StagingError, /'k' is an int32 tensor here \(f\.ts:1:2\)/);
  });
});
