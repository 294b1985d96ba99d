/**
 * Loading an exported GraphModel from its directory with tfjs's public API: `tf.loadGraphModel`
 * given an IOHandler that reads model.json and the weight files it lists (the `file://` handler
 * needs tfjs-node; this one needs only fs).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';

export function fileHandler(dir: string): tf.io.IOHandler {
  return {
    load: async () => {
      const modelJson = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8')) as tf.io.ModelJSON;
      return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
        const specs = manifest.flatMap((group) => group.weights);
        const buffers = manifest.flatMap((group) => group.paths.map((p) => {
          const bytes = fs.readFileSync(path.join(dir, p));
          return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
        }));
        return [specs, tf.io.concatenateArrayBuffers(buffers)];
      });
    },
  };
}

export const loadExported = (dir: string): Promise<tf.GraphModel> => tf.loadGraphModel(fileHandler(dir));
