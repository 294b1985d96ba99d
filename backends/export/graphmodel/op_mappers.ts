/**
 * tfjs-converter's op mappers, inverted: how a recorded tfjs kernel call becomes a GraphDef node
 * that tfjs-converter parses back into the same call.
 *
 * tfjs-converter ships, for every TF op it runs, a mapper (op_list/*.js): which node inputs are
 * which op parameters (`inputs`: start index, name, type) and which node attrs are (`attrs`: the
 * TF attr name, the parameter name, the type). A tfjs kernel's attrs are those same parameters:
 * one the mapper reads from an input (Sum's axis, Reshape's shape) becomes a Const input, one it
 * reads from an attr becomes a GraphDef attr under its TF name, encoded as the mapper decodes it.
 * Nothing here lists ops one by one, except what the mappers cannot say: the kernels whose tfjs
 * name is not the TF op name, the kernel attrs named differently from the mapper's parameter, and
 * the few attrs that tfjs-converter fixes by itself (they must have the value it assumes).
 */
import { nodeBuiltin, nodeRequire, notInNode } from '../../common/node_host';
import type { AttrValue as IrAttr, KernelNode, TensorSpec } from '../../graph/graph';

export type ParamType = 'tensor' | 'tensors' | 'number' | 'number[]' | 'bool' | 'bool[]' | 'string' | 'string[]' |
  'shape' | 'shape[]' | 'dtype' | 'dtype[]' | 'func' | 'tensor[]';

export interface InputParam { start: number; end?: number; name: string; type: ParamType; defaultValue?: unknown }
export interface AttrParam { tfName: string; name: string; type: ParamType; defaultValue?: unknown; notSupported?: boolean }
export interface OpMapper { tfOpName: string; category: string; inputs?: InputParam[]; attrs?: AttrParam[] }

let mappers: Map<string, OpMapper> | undefined;

/** Every mapper tfjs-converter registers, by TF op name (read from the installed package). */
export function opMappers(): Map<string, OpMapper> {
  if (mappers) return mappers;
  const fs = nodeBuiltin('fs');
  const path = nodeBuiltin('path');
  const hostRequire = nodeRequire();
  if (fs === undefined || path === undefined || hostRequire === undefined) throw notInNode('the GraphModel export (it reads tfjs-converter\'s op lists)');
  const dir = path.join(path.dirname(hostRequire.resolve('@tensorflow/tfjs-converter/package.json')), 'dist/operations/op_list');
  mappers = new Map();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js')).sort()) {
    const list = (hostRequire(path.join(dir, file)) as { json: OpMapper[] }).json;
    for (const mapper of list) mappers.set(mapper.tfOpName, mapper);
  }
  return mappers;
}

/** tfjs kernels whose name differs from the TF op tfjs-converter maps onto them. */
const TF_OP_OF_KERNEL: Record<string, string> = {
  Multiply: 'Mul',
  TopK: 'TopKV2',
  Reverse: 'ReverseV2',
  FusedConv2D: '_FusedConv2D',
  FusedDepthwiseConv2D: 'FusedDepthwiseConv2dNative',
  Concat: 'ConcatV2',
};

/** Kernel attrs whose name differs from the mapper parameter that carries them. */
const PARAM_OF_KERNEL_ATTR: Record<string, Record<string, string>> = {
  FusedBatchNorm: { varianceEpsilon: 'epsilon' },
  Max: { reductionIndices: 'axis' },
  Reverse: { dims: 'axis' },
  ExpandDims: { dim: 'axis' },
  PadV2: { paddings: 'padding' },
  MaxPool: { filterSize: 'kernelSize' },
  AvgPool: { filterSize: 'kernelSize' },
};

/**
 * Attrs TF spells differently from tfjs, by what the mapper reads (not op by op):
 * - window attrs of convolution ops (strides, dilations, ksize): TF lists all 4 NHWC dims, tfjs
 *   only height and width (or one number for both);
 * - padding: TF's 'SAME' / 'VALID' (explicit tfjs pad numbers have no such form);
 * - fused ops (a mapper reading `fusedOps`): tfjs's `activation` with a bias input is TF's
 *   fused_ops ['BiasAdd', activation] over the extra inputs (num_args of them).
 */
function translateAttrs(node: KernelNode, mapper: OpMapper, attrs: Map<string, IrAttr>): string | undefined {
  const reads = (name: string): boolean => (mapper.attrs ?? []).some((a) => a.name === name);
  if (mapper.category === 'convolution') {
    const format = attrs.get('dataFormat');
    if (format !== undefined && format !== null && format !== 'NHWC' && format !== 'channelsLast') return `data format ${format}`;
    for (const name of ['strides', 'dilations', 'kernelSize']) {
      const v = attrs.get(name);
      if (v === undefined || v === null || !reads(name)) continue;
      if (Array.isArray(v) && v.length !== 2) return `${name} ${JSON.stringify(v)} (only 2-D windows are translated)`;
      const [h, w] = typeof v === 'number' ? [v, v] : (v as number[]);
      attrs.set(name, [1, h, w, 1]);
    }
    const pad = attrs.get('pad');
    if (pad !== undefined && pad !== null) {
      if (typeof pad !== 'string') return `explicit padding ${JSON.stringify(pad)}`;
      attrs.set('pad', pad.toUpperCase());
    }
  }
  if (reads('fusedOps')) {
    const activation = attrs.get('activation');
    attrs.delete('activation');
    if (!node.inputNames.includes('bias')) return 'a fused op without a bias (TF fuses BiasAdd first)';
    attrs.set('fusedOps', activation && activation !== 'linear' ? ['BiasAdd', activation] : ['BiasAdd']);
    attrs.set('numArgs', node.inputs.length - 2);
  }
  return undefined;
}

/** Kernel attrs tfjs-converter does not read because it fixes them: exported only at that value. */
const FIXED_KERNEL_ATTRS: Record<string, Record<string, (value: IrAttr, node: KernelNode) => boolean>> = {
  // TF's Softmax / LogSoftmax work on the last axis.
  Softmax: { dim: (v, n) => v === -1 || v === n.outputs[0].shape.length - 1 },
  LogSoftmax: { axis: (v, n) => v === -1 || v === n.outputs[0].shape.length - 1 },
};

/** How one kernel node is written: its TF op, each input in order, its attrs. */
export interface MappedKernel {
  op: string;
  /** A tensor input of the kernel (its index), or a constant holding a kernel attr's value. */
  inputs: ({ kernelInput: number } | { constant: IrAttr; param: InputParam })[];
  attrs: { tfName: string; type: ParamType; value: IrAttr }[];
}

export type MappingResult = { ok: true; mapped: MappedKernel } | { ok: false; reason: string };

const isTensorParam = (p: InputParam): boolean => p.type === 'tensor' || p.type === 'tensors';

/**
 * A kernel's attrs in the full form TF's op takes: tfjs keeps Slice's as the user gave them
 * (`x.slice(0, 1)`: numbers, a begin shorter than the rank, no size). As tfjs reads them: a
 * missing begin is 0, a missing size -1 — which TF's Slice also reads as "to the end" (so it stays
 * right where the dim is unknown).
 */
function kernelAttrs(node: KernelNode, inputSpecs: TensorSpec[]): KernelNode['attrs'] {
  if (node.op !== 'Slice') return node.attrs;
  const rank = inputSpecs[0].shape.length;
  const full = (v: unknown, fill: number): number[] => {
    const given = v === undefined || v === null ? [] : typeof v === 'number' ? [v] : (v as number[]).map(Number);
    return [...given, ...new Array<number>(Math.max(0, rank - given.length)).fill(fill)];
  };
  return { ...node.attrs, begin: full(node.attrs.begin, 0), size: full(node.attrs.size, -1) };
}

/** Inverts tfjs-converter's mapper for `node`'s kernel, or says why it cannot be expressed. */
export function mapKernel(node: KernelNode, inputSpecs: TensorSpec[]): MappingResult {
  const op = TF_OP_OF_KERNEL[node.op] ?? node.op;
  const mapper = opMappers().get(op);
  if (!mapper) return { ok: false, reason: `tfjs-converter has no op ${op}` };
  const renamed = PARAM_OF_KERNEL_ATTR[node.op] ?? {};
  const fixed = FIXED_KERNEL_ATTRS[node.op] ?? {};
  const attrValue = new Map<string, IrAttr>();
  for (const [key, value] of Object.entries(kernelAttrs(node, inputSpecs))) {
    if (fixed[key]) {
      if (!fixed[key](value, node)) return { ok: false, reason: `attr ${key}=${JSON.stringify(value)} is not the value TF's ${op} has` };
      continue;
    }
    attrValue.set(renamed[key] ?? key, value);
  }
  const untranslatable = translateAttrs(node, mapper, attrValue);
  if (untranslatable) return { ok: false, reason: `${untranslatable} has no TF ${op} form` };
  const params = mapper.inputs ?? [];
  const tensorParams = params.filter(isTensorParam);
  const variadic = tensorParams.find((p) => p.type === 'tensors');
  const fixedTensorParams = tensorParams.filter((p) => p.type === 'tensor');
  // Which mapper parameter each kernel input is: by name where the kernel's input names are the
  // mapper's (FusedBatchNorm orders them differently from TF), else by position.
  const byName = fixedTensorParams.length > 0 && node.inputNames.length === fixedTensorParams.length && !variadic &&
    node.inputNames.every((n) => fixedTensorParams.some((p) => p.name === n));
  const variadicCount = node.inputs.length - fixedTensorParams.length;
  if (variadicCount < 0 || (variadicCount > 0 && !variadic)) {
    return { ok: false, reason: `${node.inputs.length} tensor inputs, TF's ${op} takes ${fixedTensorParams.length}` };
  }
  const fixedCount = params.filter((p) => p.type !== 'tensors').length;
  const total = fixedCount + (variadic ? variadicCount : 0);
  const slots: MappedKernel['inputs'] = new Array(total);
  const at = (start: number): number => (start < 0 ? total + start : start);
  let nextTensor = 0;
  for (const param of params) {
    if (param.type === 'tensors') {
      const first = at(param.start);
      for (let k = 0; k < variadicCount; k++) slots[first + k] = { kernelInput: nextTensor + k };
      nextTensor += variadicCount;
    } else if (param.type === 'tensor') {
      const index = byName ? node.inputNames.indexOf(param.name) : nextTensor++;
      slots[at(param.start)] = { kernelInput: index };
    } else {
      let value = attrValue.has(param.name) ? attrValue.get(param.name) : param.defaultValue as IrAttr;
      attrValue.delete(param.name);
      // tfjs reads an absent reduction axis as every axis; TF needs them listed.
      if ((value === null || value === undefined) && param.name === 'axis' && param.type === 'number[]') {
        value = inputSpecs[0].shape.map((_, k) => k);
      }
      if (value === undefined || value === null) return { ok: false, reason: `no value for its input ${param.name}` };
      slots[at(param.start)] = { constant: value, param };
    }
  }
  if (slots.some((s) => s === undefined)) return { ok: false, reason: `its inputs do not fill TF's ${op} signature` };
  const attrs: MappedKernel['attrs'] = [];
  for (const param of mapper.attrs ?? []) {
    if (!attrValue.has(param.name)) continue;
    const value = attrValue.get(param.name);
    attrValue.delete(param.name);
    if (value === undefined || value === null) continue;
    // An attr tfjs-converter ignores: only types it infers, and data formats checked above.
    if (param.notSupported) {
      if (param.type === 'dtype' || param.name === 'dataFormat') continue;
      return { ok: false, reason: `tfjs-converter's ${op} ignores attr ${param.name}` };
    }
    // tfjs-converter lowercases string attrs (padding and data formats it re-cases itself).
    if (param.type === 'string' && typeof value === 'string' && value !== value.toLowerCase() &&
        param.name !== 'pad' && param.name !== 'dataFormat') {
      return { ok: false, reason: `tfjs-converter would read attr ${param.name}=${JSON.stringify(value)} lowercased` };
    }
    attrs.push({ tfName: param.tfName, type: param.type, value });
  }
  // A kernel attr tfjs-converter would not read back: the loaded model would differ.
  const unread = [...attrValue.entries()].filter(([, v]) => v !== undefined && v !== null);
  if (unread.length) return { ok: false, reason: `tfjs-converter's ${op} does not read attr ${unread.map(([k]) => k).join(', ')}` };
  return { ok: true, mapped: { op, inputs: slots, attrs } };
}
