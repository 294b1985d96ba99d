/**
 * autograph-ts: the public API, above the layers (AutoGraph's impl/api.py). What a user imports
 * from 'autograph-ts' is here and only here:
 *   - `stage(fn)`: trace fn into a graph per input signature (backends/); `staged.run(...)` its Promise form;
 *   - `range(...)`: Python's range, a staged counted loop over tensor bounds (runtime/);
 *   - `StagingError`: what stage() throws when code cannot be staged exactly;
 *   - `exportOnnx(staged, args, path?, options?)`: the traced graph as an ONNX model (its bytes,
 *     written to path when given); `onnxRuntimeAvailable()`;
 *   - `exportGraphModel(staged, args, dir)`: the traced graph as a TensorFlow.js GraphModel;
 *     `loadGraphModelFromDir(dir)` loads it in Node without tfjs-node (`graphModelFiles(dir)`: its IOHandler);
 *   - the typing (and behaviour) of `for (const row of tensor)`.
 * Emitted code imports the operators from 'autograph-ts/runtime' (runtime/operators.ts) instead.
 */
import './runtime/tensor_iteration';

export { range, TensorRange } from './runtime/range';
export { Undefined, UndefinedReturnValue } from './runtime/undefined_values';
export { stage } from './backends/stage';
export type { Staged, StageOptions, StagedGraphInfo } from './backends/stage';
export type { InputSpec } from './backends/cache/signatures';
export { StagingError } from './backends/common/errors';
export { exportOnnx } from './backends/export/onnx/export';
export type { OnnxExport, OnnxExportOptions } from './backends/export/onnx/export';
export { exportGraphModel } from './backends/export/graphmodel/export';
export { graphModelFiles, loadGraphModelFromDir } from './backends/export/graphmodel/load_from_dir';
export { onnxRuntimeAvailable } from './backends/engines/onnx/runtime';
