/**
 * The public API of autograph-ts: `stage`, `range`, `exportOnnx`, and the Tensor iteration augmentation.
 */
import './tensor_iteration';

export { range, TensorRange } from './range';
export { Undefined, UndefinedReturnValue } from './undefined_values';
export { stage } from '../backends/stage';
export type { Staged, StageOptions, StagedGraphInfo } from '../backends/stage';
export { exportOnnx } from '../backends/onnx/export';
export { onnxRuntimeAvailable } from '../backends/onnx/runtime';
