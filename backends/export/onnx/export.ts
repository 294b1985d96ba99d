/**
 * `exportOnnx(staged, args, path)`: writes the graph `staged` traces for `args` as an ONNX model.
 *
 * The model's graph is named after the function; its inputs after the function's parameters
 * (`xs`, or `w_wx` for the tensor at `w.wx` of an object argument) and its outputs after the
 * returned structure (`output`, or `length` / `checksum` for `{ length, checksum }`). Variables
 * the function reads are extra inputs named after the variable (their value at call time), and
 * variables it assigns extra outputs `<name>_assigned`. Non-tensor arguments are fixed to the
 * values given (they are part of the traced signature).
 */
import { nodeBuiltin, notInNode } from '../../common/node_host';
import type { LoweredModel } from '../../onnx_model/lower';
import { describeProblems, lowerProgram } from '../../onnx_model/lower';
import { type AnyStaged, exportNames } from '../naming';

export interface OnnxExport {
  path: string;
  model: LoweredModel;
}

export function exportOnnx(staged: AnyStaged, args: unknown[], path: string): OnnxExport {
  const { name, info, inputs, outputs, variables } = exportNames(staged, args);
  const lowered = lowerProgram(info.program, {
    graph: name, inputs, outputs, variables, doc: `${name}, staged by autograph-ts for ${info.signature}`,
  });
  if (!lowered.ok) throw new Error(`autograph-ts: ${name} does not export to ONNX: ${describeProblems(lowered.problems)}`);
  const fs = nodeBuiltin('fs');
  if (fs === undefined) throw notInNode('exportOnnx (it writes a file)');
  fs.writeFileSync(path, lowered.model.bytes);
  return { path, model: lowered.model };
}
