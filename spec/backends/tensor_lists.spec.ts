/**
 * Tensor lists (issue 8 item 1): an array of tensors that a staged loop grows is a list value of
 * the graph, carried as loop state (List nodes: EmptyTensorList, TensorListPushBack, ...). Each
 * program of spec/fixtures/tensor_list_programs.ts runs eagerly and staged and the two agree, on
 * inputs whose trip counts differ from the trace's; misuses are StagingErrors naming the array.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import { stage } from '../../index';
import { StagingError } from '../../backends/errors';
import type { Graph } from '../../backends/graph';
import { compile, load } from '../harness/compile';

const source = fs.readFileSync(path.resolve(__dirname, '../../../spec/fixtures/tensor_list_programs.ts'), 'utf8');
const S = (v: number, dtype: 'float32' | 'int32' = 'float32'): tf.Scalar => tf.scalar(v, dtype);
const value = (x: unknown): unknown => (x instanceof tf.Tensor ? x.arraySync() : x);

/** Node kinds (List nodes by op) of a graph and its sub-graphs, with the depth of the While they sit in. */
function kinds(graph: Graph, out: string[] = []): string[] {
  for (const node of graph.nodes) {
    out.push(node.kind === 'List' ? node.op : node.kind);
    if (node.kind === 'While') {
      kinds(node.cond, out);
      kinds(node.body, out);
    }
    if (node.kind === 'If') {
      kinds(node.then, out);
      kinds(node.else, out);
    }
  }
  return out;
}

describe('tensor lists: arrays of tensors grown by staged loops (backends/staged_lists.ts)', () => {
  let m: Record<string, (...args: any[]) => any>;
  before(() => {
    const js = compile({ 'main.ts': source }).js['main.ts'];
    m = load(js.replace(/require\("autograph-ts"\)/, `require(${JSON.stringify(path.resolve(__dirname, '../../index.js'))})`));
  });

  /** Eager and staged results on each argument list; returns the eager values. */
  const agree = (name: string, ...argLists: unknown[][]): unknown[] => {
    const staged = stage(m[name]);
    const results = argLists.map((args) => {
      const eager = value(m[name](...args));
      expect(value(staged(...args)), `${name}(${JSON.stringify(args.map(value))})`).to.deep.equal(eager);
      return eager;
    });
    expect(staged.traceCount, `${name} traces`).to.equal(1);
    return results;
  };
  const refuses = (name: string, args: unknown[], message: RegExp): void => {
    expect(() => stage(m[name])(...args)).to.throw(StagingError, message);
  };

  it('push in a while that starts empty, tf.stack after', () => {
    expect(agree('squares', [S(4)], [S(1)], [S(6)])).to.deep.equal([[0, 1, 4, 9], [0], [0, 1, 4, 9, 16, 25]]);
  });
  it('the While carries the list: EmptyTensorList before it, one PushBack in its body, a Stack after', () => {
    const graph = stage(m.squares).inspect(S(3)).program.graph;
    const ops = kinds(graph);
    expect(ops.filter((k) => k === 'While')).to.have.length(1);
    expect(ops.filter((k) => k === 'TensorListPushBack')).to.have.length(1);
    expect(ops).to.include.members(['EmptyTensorList', 'TensorListStack']);
  });
});
