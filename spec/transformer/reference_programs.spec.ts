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
import { stage } from '../../runtime/index';
import { compile, load } from '../harness/compile';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/reference_programs.ts'), 'utf8');

const S = (v: number, dtype: 'float32' | 'int32' = 'float32'): tf.Scalar => tf.scalar(v, dtype);
const cases = (): Record<string, tf.Tensor[][]> => ({
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
});

const CASES = ['ifNoVars', 'ifElseOneVar', 'ifMultipleVars', 'ifLocalVar', 'nestedIf', 'whileBasic', 'whileLocalVar',
  'forRange', 'forRangeStartStep', 'forTensor', 'nestedLoops', 'whileBreak', 'whileContinue', 'forBreakContinue',
  'continueInNestedIfs', 'earlyReturnInLoop', 'earlyReturnNested', 'earlyReturnInWhile', 'logical', 'ternaries',
  'whileWithLogicalTest', 'doWhileBasic', 'forLoopTensorCounter', 'vectorState', 'userFunctionCall',
  'ifInLoopDefinesVarUsedInLoop'];

const value = (x: unknown): unknown => (Array.isArray(x) ? x.map(value) : x instanceof tf.Tensor ? x.arraySync() : x);

describe('AutoGraph reference programs: eager and staged agree', () => {
  let programs: Record<string, (...args: tf.Tensor[]) => unknown>;
  const originalPrint = console.log;
  before(() => {
    const js = compile({ 'reference_programs.ts': source }).js['reference_programs.ts'];
    programs = load(js.replace(/require\("autograph-ts"\)/, `require(${JSON.stringify(path.resolve(__dirname, '../../runtime/index.js'))})`));
    console.log = () => {};   // ifNoVars prints its tensor
  });
  after(() => { console.log = originalPrint; });

  // Tensors are made inside the tests, once the backend is ready (spec/setup.ts).
  for (const name of CASES) {
    it(name, () => {
      const staged = stage(programs[name]);
      for (const args of cases()[name]) {
        expect(value(staged(...args)), `${name}(${JSON.stringify(value(args))})`).to.deep.equal(value(programs[name](...args)));
      }
      expect(staged.traceCount).to.be.at.most(2);
    });
  }
});
