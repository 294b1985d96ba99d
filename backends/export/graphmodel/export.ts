/**
 * `exportGraphModel(staged, args, dir)`: writes the graph `staged` traces for `args` as a
 * TensorFlow.js GraphModel: `dir/model.json` (format 'graph-model', the TensorFlow GraphDef with its
 * function library, a signature naming inputs and outputs) and `dir/weights.bin` (the constants
 * and the values variables have now). `tf.loadGraphModel` loads it; `executeAsync` runs it (its
 * control flow needs the async executor).
 *
 * Names are exportOnnx's: inputs after the function's parameters (`w_wx` for `w.wx`), outputs
 * after the returned structure (`output`, or `length` / `checksum`). Non-tensor arguments are fixed
 * to the values given. A graph with nodes a GraphModel cannot express (random draws, host prints
 * and checks, lists, variable assignments, kernels tfjs-converter does not map) is refused with
 * an error naming each of them.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describeProblems } from '../../onnx_model/lower';
import { type AnyStaged, exportNames } from '../naming';
import { GraphDefExport, toGraphDef } from './graph_def';
import { typedArrayFor, typedData } from '../../common/typed_data';
import { nodeBuiltin, notInNode } from '../../common/node_host';

export const WEIGHTS_FILE = 'weights.bin';

export interface GraphModelExport {
  /** The written model.json. */
  path: string;
  modelJson: tf.io.ModelJSON;
  /** Signature keys: the function's parameter names, its results' names. */
  inputs: string[];
  outputs: string[];
}

export async function exportGraphModel(staged: AnyStaged, args: unknown[], dir: string): Promise<GraphModelExport> {
  const fs = nodeBuiltin('fs');
  const path = nodeBuiltin('path');
  if (fs === undefined || path === undefined) throw notInNode('exportGraphModel (it writes files)');
  const { name, info, inputs, outputs } = exportNames(staged, args);
  const written = toGraphDef(info.program, { scope: name, inputs, outputs });
  if (!written.ok) throw new Error(`autograph-ts: ${name} does not export to a GraphModel: ${describeProblems(written.problems)}`);
  const model = written.export;
  // Each weight written from an array of its dtype (typed_data.ts: on tfjs-cpu tf.norm's float32
  // exponent 2 is held in an Int32Array, and its bytes read back as 2.8e-45: the exported Newton
  // sample ran 1 CG step for eager's 22).
  const retyped: tf.Tensor[] = [];
  const weights = model.weights.map((w) => {
    const Typed = typedArrayFor(w.tensor.dtype);
    if (Typed === undefined || w.tensor.dataSync() instanceof Typed) return { name: w.name, tensor: w.tensor };
    const tensor = tf.tensor(typedData(w.tensor), w.tensor.shape, w.tensor.dtype);
    retyped.push(tensor);
    return { name: w.name, tensor };
  });
  const { data, specs } = await tf.io.encodeWeights(weights)
    .finally(() => tf.dispose([...retyped, ...model.weights.filter((w) => w.made).map((w) => w.tensor)]));
  const modelJson = {
    format: 'graph-model',
    generatedBy: `autograph-ts: ${name} for ${info.signature}`,
    convertedBy: 'autograph-ts exportGraphModel',
    modelTopology: model.graphDef,
    signature: { inputs: model.inputs, outputs: model.outputs },
    // predict() returns the results by these names.
    userDefinedMetadata: { structuredOutputKeys: outputs },
    weightsManifest: [{ paths: [WEIGHTS_FILE], weights: specs }],
  } as unknown as tf.io.ModelJSON;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'model.json');
  fs.writeFileSync(file, JSON.stringify(modelJson));
  fs.writeFileSync(path.join(dir, WEIGHTS_FILE), new Uint8Array(data as ArrayBuffer));
  return { path: file, modelJson, inputs, outputs };
}

export type { GraphDefExport };
