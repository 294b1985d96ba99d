/**
 * `exportOnnx(staged, args, path?, options?)`: the graph `staged` traces for `args` as an ONNX
 * model: its bytes (a Uint8Array, also where there is no file system, e.g. in a page), written to
 * `path` when one is given.
 *
 * The model's graph is named after the function; its inputs after the staged signature's names
 * (`stage(fn, { inputSignature: [{ name: 'xs', ... }] })`) or `options.inputNames`, else the
 * function's parameters (`xs`, or `w_wx` for the tensor at `w.wx` of an object argument: read
 * from the function's source, so a minified build needs one of the first two); its outputs after
 * the returned structure (`output`, or `length` / `checksum` for `{ length, checksum }`).
 * Variables the function reads are extra inputs named after the variable (their value at call
 * time), and variables it assigns extra outputs `<name>_assigned`. Non-tensor arguments are fixed
 * to the values given (they are part of the traced signature).
 *
 * Precision: float32 by default (no float64 arithmetic, whatever backend traced the graph: the
 * model loads in onnxruntime-web, whose kernels lack doubles); `precision: 'float64'` keeps the
 * exact float64 arithmetic of a tfjs-cpu trace.
 */
import type { LoweredModel } from '../../onnx_model/lower';
import { describeProblems, lowerProgram } from '../../onnx_model/lower';
import { type AnyStaged, exportNames } from '../naming';
import { writeFileBytes } from '../write_file';

export interface OnnxExportOptions {
  /** 'float32' (the default) or 'float64' (exact tfjs-cpu arithmetic; onnxruntime-web cannot load it). */
  precision?: 'float32' | 'float64';
  /** Names of the model's tensor inputs, in the order of the graph's parameters. */
  inputNames?: string[];
}

export interface OnnxExport {
  /** Where the model was written, when a path was given. */
  path?: string;
  /** The model (ONNX protobuf). */
  bytes: Uint8Array;
  model: LoweredModel;
}

export function exportOnnx(staged: AnyStaged, args: unknown[], path?: string, options: OnnxExportOptions = {}): OnnxExport {
  const { name, info, inputs, outputs, variables } = exportNames(staged, args, options.inputNames);
  const lowered = lowerProgram(info.program, {
    graph: name, inputs, outputs, variables, doc: `${name}, staged by autograph-ts for ${info.signature}`,
    precision: options.precision ?? 'float32',
  });
  if (!lowered.ok) throw new Error(`autograph-ts: ${name} does not export to ONNX: ${describeProblems(lowered.problems)}`);
  const bytes = lowered.model.bytes;
  if (path !== undefined) writeFileBytes(path, bytes);
  return { ...(path !== undefined && { path }), bytes, model: lowered.model };
}
