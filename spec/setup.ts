/**
 * Mocha root hooks: every spec runs on the project's default backend, wasm, unless
 * AUTOGRAPH_BACKEND names another registered one (e.g. `AUTOGRAPH_BACKEND=cpu npm test`).
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

export const mochaHooks = {
  async beforeAll(): Promise<void> {
    const backend = process.env.AUTOGRAPH_BACKEND ?? 'wasm';
    if (!(await tf.setBackend(backend))) throw new Error(`could not initialize tfjs backend '${backend}'`);
    await tf.ready();
  },
};
