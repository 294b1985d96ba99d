/**
 * Loading an exported GraphModel from its directory in Node without tfjs-node: `tf.loadGraphModel`
 * needs an IOHandler there (its `file://` handler comes with tfjs-node). `graphModelFiles(dir)` is
 * that handler — model.json and the weight files its manifest lists, read with Node's fs (reached
 * at call time, common/node_host.ts) — and `loadGraphModelFromDir(dir)` loads with it.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import * as tfc from '@tensorflow/tfjs-core';
import { nodeBuiltin, nodeRequire, notInNode } from '../../common/node_host';
import { userError } from '../../common/errors';

/** The IOHandler of the GraphModel written to `dir` (exportGraphModel's model.json and weights). */
export function graphModelFiles(dir: string): tf.io.IOHandler {
  const fs = nodeBuiltin('fs');
  const path = nodeBuiltin('path');
  if (fs === undefined || path === undefined) throw notInNode('graphModelFiles (reading a model from a directory)');
  const modelPath = path.join(dir, 'model.json');
  if (!fs.existsSync(modelPath)) {
    throw userError(new Error(`autograph-ts: no GraphModel in ${dir}: ${modelPath} does not exist ` +
      '(exportGraphModel(staged, args, dir) writes model.json and weights.bin there)'));
  }
  return {
    load: async () => {
      const modelJson = JSON.parse(fs.readFileSync(modelPath, 'utf8')) as tf.io.ModelJSON;
      return tfc.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
        const specs = manifest.flatMap((group) => group.weights);
        const buffers = manifest.flatMap((group) => group.paths.map((p) => {
          const bytes = fs.readFileSync(path.join(dir, p));
          return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
        }));
        return [specs, tfc.io.concatenateArrayBuffers(buffers)];
      });
    },
  };
}

/**
 * `tf.loadGraphModel` of the GraphModel in `dir` (run it with `executeAsync` where it has control
 * flow). Uses the `loadGraphModel` of the project's @tensorflow/tfjs, the copy autograph-ts runs on.
 */
export async function loadGraphModelFromDir(dir: string): Promise<GraphModel> {
  const handler = graphModelFiles(dir);
  const tfjs = nodeRequire()?.('@tensorflow/tfjs') as { loadGraphModel(handler: tf.io.IOHandler): Promise<GraphModel> } | undefined;
  if (tfjs === undefined) throw notInNode('loadGraphModelFromDir');
  return tfjs.loadGraphModel(handler);
}
