/**
 * Constant folding: a pure kernel node whose inputs are all constants is run once, now, and
 * replaced by its result as a new constant. Random draws and variable reads are not kernels of
 * this kind (they are Random / ReadVariable nodes), so they are never folded.
 */
import * as tf from '@tensorflow/tfjs-core';
import { type Graph, hasUnknownDims, type Program, type TensorSpec, type ValueRef } from '../graph/graph';
import { SHAPE_KERNEL } from '../kernels/shape_kernel';
import { engineInternals } from '../kernels/engine_internals';
import { forEachGraph, rewriteGraph } from './rewrite';

const specOfRef = (graph: Graph, ref: ValueRef): TensorSpec => graph.nodes[ref.node].outputs[ref.output];

/** Results larger than this stay computed at run time (memory over a few saved kernel calls). */
const MAX_FOLDED_SIZE = 1 << 20;

export function foldConstants(program: Program): void {
  const backend = tf.engine().backend;
  const backendName = tf.getBackend();
  forEachGraph(program.graph, (graph: Graph) => {
    const constantOf = new Map<number, number>(); // new node index -> constant index
    rewriteGraph(graph, (node, index, r) => {
      if (node.kind === 'Constant') {
        constantOf.set(r.keep(index), node.constant);
        return;
      }
      if (node.kind !== 'Kernel' || node.multiOutput || node.inputs.length === 0) {
        r.keep(index);
        return;
      }
      if (node.op === SHAPE_KERNEL) {
        // The dims of a value are a constant wherever they are all known.
        const of = specOfRef(graph, node.inputs[0]);
        if (!hasUnknownDims(of)) {
          const t = tf.keep(tf.tensor1d(of.shape, 'int32'));
          const at = r.emit({ kind: 'Constant', constant: program.constants.push(t) - 1, outputs: node.outputs });
          constantOf.set(at, program.constants.length - 1);
          r.replace(index, [{ node: at, output: 0 }]);
          return;
        }
      }
      const inputs = node.inputs.map((x) => r.map(x));
      const constants = inputs.map((x) => constantOf.get(x.node));
      const size = node.outputs[0].shape.reduce((a, b) => a * b, 1);
      const kernel = tf.getKernel(node.op, backendName);
      if (constants.some((c) => c === undefined) || size > MAX_FOLDED_SIZE || kernel === undefined) {
        r.keep(index);
        return;
      }
      const values = constants.map((c) => program.constants[c!]);
      const kernelInputs = node.variadic ? values
        : Object.fromEntries(node.inputNames.map((name, i) => [name, values[i]]));
      const out = kernel.kernelFunc({ inputs: kernelInputs as tf.NamedTensorInfoMap,
        attrs: node.attrs as tf.NamedAttrMap, backend }) as tf.TensorInfo;
      const t = tf.keep(engineInternals().makeTensorFromTensorInfo(out, backend));
      const constant = program.constants.push(t) - 1;
      const at = r.emit({ kind: 'Constant', constant, outputs: node.outputs });
      constantOf.set(at, constant);
      r.replace(index, [{ node: at, output: 0 }]);
    });
  });
}
