/**
 * How a node of a function body (FunctionDef) refers to another node's output.
 *
 * In a GraphDef an input is `node:k`, k counting all of node's outputs. In a FunctionDef TF wants
 * `node:out_arg:k`: the name of the op's output argument (from TF's op registry, ops.pbtxt) and k
 * counting within that argument; a bare name is one of the function's own input args.
 * tfjs-converter reads both forms: of `node:out_arg:k` it takes k (or, for the two ops whose mapper
 * lists output names, the position of out_arg) — the same output, as long as the op has ONE output
 * argument (a single tensor, or a list like Unpack's). For ops with several output arguments
 * (TopKV2's values and indices, ...) the two readings differ beyond output 0, and tfjs-converter,
 * which must run the model, gets the form it reads: `node:k` (TF C++ then rejects the function; the
 * README lists this).
 */
import { opMappers } from './op_mappers';

/** The output argument of every op the exporter writes that has one (a tensor, or a list of them). */
const ONE_OUTPUT_ARG: Record<string, string> = {
  ...Object.fromEntries(['Abs', 'Acos', 'Acosh', 'Asin', 'Asinh', 'Atan', 'Atanh', 'Cast', 'Ceil', 'ComplexAbs', 'Cos', 'Cosh',
    'Erf', 'Exp', 'Expm1', 'Floor', 'IsFinite', 'IsInf', 'IsNan', 'Log', 'Log1p', 'LogicalNot', 'Neg', 'OnesLike', 'Reciprocal',
    'Round', 'Rsqrt', 'Sigmoid', 'Sign', 'Sin', 'Sinh', 'Sqrt', 'Square', 'Tan', 'Tanh', 'Transpose', 'ZerosLike'].map((op) => [op, 'y'])),
  ...Object.fromEntries(['Add', 'AddV2', 'Atan2', 'BitwiseAnd', 'Equal', 'FloorDiv', 'Greater', 'GreaterEqual', 'Less',
    'LessEqual', 'LogicalAnd', 'LogicalOr', 'Maximum', 'Minimum', 'Mod', 'Mul', 'NotEqual', 'Pow', 'RealDiv',
    'SquaredDifference', 'Sub'].map((op) => [op, 'z'])),
  ...Object.fromEntries(['Elu', 'LeakyRelu', 'Prelu', 'Relu', 'Relu6', 'Selu', 'Softplus'].map((op) => [op, 'activations'])),
  ...Object.fromEntries(['Complex', 'Cumprod', 'Cumsum'].map((op) => [op, 'out'])),
  ...Object.fromEntries(['MatMul', '_FusedMatMul'].map((op) => [op, 'product'])),
  ...Object.fromEntries(['ResizeBilinear', 'ResizeNearestNeighbor'].map((op) => [op, 'resized_images'])),
  AddN: 'sum',
  EmptyTensorList: 'handle',
  TensorListGetItem: 'item',
  TensorListLength: 'length',
  TensorListPushBack: 'output_handle',
  TensorListResize: 'output_handle',
  TensorListStack: 'tensor',
  Bincount: 'bins',
  BroadcastArgs: 'r0',
  CropAndResize: 'crops',
  NonMaxSuppressionV3: 'selected_indices',
  RaggedTensorToTensor: 'result',
  Softmax: 'softmax',
  SparseToDense: 'dense',
};

/** Ops with several output arguments (each one tensor), in order. */
const OUTPUT_ARGS: Record<string, string[]> = {
  TopKV2: ['values', 'indices'],
  TensorListConcat: ['tensor', 'lengths'],
  Unique: ['y', 'idx'],
  MaxPoolWithArgmax: ['output', 'argmax'],
  FusedBatchNorm: ['y', 'batch_mean', 'batch_variance', 'reserve_space_1', 'reserve_space_2'],
  NonMaxSuppressionV4: ['selected_indices', 'valid_outputs'],
  NonMaxSuppressionV5: ['selected_indices', 'selected_scores', 'valid_outputs'],
  SparseFillEmptyRows: ['output_indices', 'output_values', 'empty_row_indicator', 'reverse_index_map'],
  SparseReshape: ['output_indices', 'output_shape'],
  RaggedGather: ['output_nested_splits', 'output_dense_values'],
  RaggedRange: ['rt_nested_splits', 'rt_dense_values'],
  StringNGrams: ['ngrams', 'ngrams_splits'],
  StringSplit: ['indices', 'values', 'shape'],
};

/**
 * `output` of `node` (an op of type `op`; undefined: one of the function's input args) as an
 * input of another node of the same function body.
 */
export function functionInputRef(node: string, op: string | undefined, output: number): string {
  if (op === undefined) return output === 0 ? node : `${node}:${output}`;
  const args = OUTPUT_ARGS[op];
  if (args === undefined) return `${node}:${ONE_OUTPUT_ARG[op] ?? 'output'}:${output}`;
  // tfjs-converter reads out_arg only where the op's mapper names its outputs; elsewhere only k.
  const mapperNamesOutputs = (opMappers().get(op) as { outputs?: string[] } | undefined)?.outputs !== undefined;
  return output === 0 || mapperNamesOutputs ? `${node}:${args[output]}:0` : `${node}:${output}`;
}
