/**
 * A port of AutoGraph's reference tests (cond_basic, loop_basic, loop_control_flow,
 * early_return, logical_expression, call_to_user_function, ...): each program compiled by the
 * transformer runs eagerly and through stage(), on inputs that take different branches and trip
 * counts, and both must agree; one trace per input signature.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { compile, load } from '../harness/compile';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/reference_programs.ts'), 'utf8');

const S = (v: number, dtype: 'float32' | 'int32' = 'float32'): tf.Scalar => tf.scalar(v, dtype);
const cases = (): Record<string, unknown[][]> => ({
  ifNoVars: [[S(1)], [S(-1)]], ifElseOneVar: [[S(3)], [S(-3)]], ifMultipleVars: [[S(2)], [S(-2)]],
  ifLocalVar: [[S(2)], [S(-2)]], nestedIf: [[S(20)], [S(5)], [S(-20)], [S(-5)]],
  whileBasic: [[S(5)], [S(0)], [S(1)]], whileLocalVar: [[S(4)], [S(0)]],
  forRange: [[S(5, 'int32')], [S(0, 'int32')]], forRangeStartStep: [[S(9)], [S(1)]],
  forTensor: [[tf.tensor1d([1, 2, 3])]], nestedLoops: [[S(4)], [S(0)]], whileBreak: [[S(5)], [S(500)]],
  whileContinue: [[S(10)], [S(2)]], forBreakContinue: [[tf.tensor1d([1, -2, 3, 200, 5])], [tf.tensor1d([4, 5])]],
  continueInNestedIfs: [[S(8)], [S(1)]], earlyReturnInLoop: [[tf.tensor1d([1, 7, 9])], [tf.tensor1d([1, 2])]],
  earlyReturnNested: [[S(20)], [S(5)], [S(-1)]], earlyReturnInWhile: [[S(10)], [S(3)]],
  logical: [[S(1), S(1)], [S(1), S(-1)], [S(-10), S(-1)]], ternaries: [[S(20)], [S(3)], [S(-3)]],
  whileWithLogicalTest: [[S(5)], [S(1)]], doWhileBasic: [[S(3)], [S(20)]], forLoopTensorCounter: [[S(4)], [S(0)]],
  vectorState: [[S(3)], [S(0)]], userFunctionCall: [[S(6, 'int32')], [S(0, 'int32')]],
  ifInLoopDefinesVarUsedInLoop: [[S(5, 'int32')]],
  fib: [[S(10)], [S(1)]], objState: [[S(4, 'int32')], [S(0, 'int32')]], oneBranchInLoop: [[S(7)]],
  continueForCounter: [[S(5)], [S(1)]], doWhileBreak: [[S(3)], [S(30)]],
  returnInForOfRange: [[S(10, 'int32')], [S(3, 'int32')]], breakInRangeInWhile: [[S(5, 'int32')], [S(1, 'int32')]],
  localInBody: [[S(5)]], condExprInLoop: [[S(6, 'int32')]], nestedReturnInNestedLoops: [[S(5)], [S(2)]],
  matrixLoop: [[tf.tensor2d([[1, 2], [-3, -4], [5, -1]])]], whileNotCond: [[S(4)], [S(0)]],
});

const CASES = ['ifNoVars', 'ifElseOneVar', 'ifMultipleVars', 'ifLocalVar', 'nestedIf', 'whileBasic', 'whileLocalVar',
  'forRange', 'forRangeStartStep', 'forTensor', 'nestedLoops', 'whileBreak', 'whileContinue', 'forBreakContinue',
  'continueInNestedIfs', 'earlyReturnInLoop', 'earlyReturnNested', 'earlyReturnInWhile', 'logical', 'ternaries',
  'whileWithLogicalTest', 'doWhileBasic', 'forLoopTensorCounter', 'vectorState', 'userFunctionCall',
  'ifInLoopDefinesVarUsedInLoop', 'fib', 'objState', 'oneBranchInLoop', 'continueForCounter', 'doWhileBreak',
  'returnInForOfRange', 'breakInRangeInWhile', 'localInBody', 'condExprInLoop', 'nestedReturnInNestedLoops',
  'matrixLoop', 'whileNotCond'];

const value = (x: unknown): unknown => (Array.isArray(x) ? x.map(value) : x instanceof tf.Tensor ? x.arraySync() : x);

describe('AutoGraph reference programs: eager and staged agree', () => {
  let programs: Record<string, (...args: any[]) => any>;
  const originalPrint = console.log;
  before(() => {
    const js = compile({ 'reference_programs.ts': source }).js['reference_programs.ts'];
    programs = load(js);
    console.log = () => {};   // ifNoVars prints its tensor
  });
  after(() => { console.log = originalPrint; });

  // Tensors are made inside the tests, once the backend is ready (spec/setup.ts).
  for (const name of CASES) {
    it(name, () => {
      const staged = stage(programs[name] as (...args: unknown[]) => unknown);
      for (const args of cases()[name]) {
        expect(value(staged(...args)), `${name}(${JSON.stringify(value(args))})`).to.deep.equal(value(programs[name](...args)));
      }
      expect(staged.traceCount).to.be.at.most(2);
    });
  }

  it('staticUnroll: a JS number bound unrolls the loop, one trace per bound', () => {
    const staged = stage(programs.staticUnroll);
    for (const [x, n] of [[2, 4], [10, 4], [10, 2]] as const) {
      expect(value(staged(S(x), n))).to.deep.equal(value(programs.staticUnroll(S(x), n)));
    }
    expect(staged.traceCount).to.equal(2);
  });

  it('variableUpdate: Variable.assign in a staged loop persists across calls, like eager', () => {
    const eagerVar = tf.variable(S(0));
    const stagedVar = tf.variable(S(0));
    const staged = stage(programs.variableUpdate);
    const eager = [programs.variableUpdate(eagerVar, S(3)), programs.variableUpdate(eagerVar, S(3))].map(value);
    const graph = [staged(stagedVar, S(3)), staged(stagedVar, S(3))].map(value);
    expect(graph).to.deep.equal(eager);
    expect(eager).to.deep.equal([6, 12]);
  });
});
