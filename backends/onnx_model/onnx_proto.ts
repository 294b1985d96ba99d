/**
 * ONNX's ModelProto as plain TypeScript data, and its encoding (field numbers from onnx.proto,
 * IR version 8 / opset 18). Only the fields the lowering writes.
 */
import { ProtoWriter } from './protobuf';

export const IR_VERSION = 8;
export const OPSET = 18;

/** TensorProto.DataType */
export const enum OnnxType {
  FLOAT = 1,
  UINT8 = 2,
  INT32 = 6,
  INT64 = 7,
  BOOL = 9,
  DOUBLE = 11,
}

export interface TensorProto {
  name: string;
  dataType: OnnxType;
  dims: number[];
  /** Little-endian element bytes (bool: one byte each). */
  raw: Uint8Array;
}

export type Attribute =
  | { name: string; kind: 'float'; value: number }
  | { name: string; kind: 'int'; value: number }
  | { name: string; kind: 'string'; value: string }
  | { name: string; kind: 'ints'; value: number[] }
  | { name: string; kind: 'floats'; value: number[] }
  | { name: string; kind: 'tensor'; value: TensorProto }
  | { name: string; kind: 'graph'; value: GraphProto };

export interface NodeProto {
  opType: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  attributes: Attribute[];
  docString?: string;
}

export interface ValueInfo {
  name: string;
  /** The element type (of the tensor, or of a sequence's tensors). */
  type: OnnxType;
  /** Omitted: rank and dims unknown. */
  shape?: number[];
  /** A sequence of tensors of this type and shape (ONNX seq(tensor)). */
  sequence?: boolean;
}

export interface GraphProto {
  name: string;
  nodes: NodeProto[];
  initializers: TensorProto[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
  docString?: string;
}

export interface ModelProto {
  graph: GraphProto;
  producerName: string;
  producerVersion: string;
  docString?: string;
  metadata?: Record<string, string>;
}

// ---- encoding -----------------------------------------------------------------------------------

const AttributeType = { float: 1, int: 2, string: 3, tensor: 4, graph: 5, floats: 6, ints: 7 } as const;

function tensor(w: ProtoWriter, t: TensorProto): void {
  w.packedInts(1, t.dims).int(2, t.dataType).string(8, t.name).bytes(9, t.raw);
}

function attribute(w: ProtoWriter, a: Attribute): void {
  w.string(1, a.name);
  switch (a.kind) {
    case 'float': w.float(2, a.value); break;
    case 'int': w.int(3, a.value); break;
    case 'string': w.string(4, a.value); break;
    case 'tensor': w.message(5, a.value, tensor); break;
    case 'graph': w.message(6, a.value, graph); break;
    case 'floats': w.packedFloats(7, a.value); break;
    case 'ints': w.packedInts(8, a.value); break;
  }
  w.int(20, AttributeType[a.kind]);
}

function node(w: ProtoWriter, n: NodeProto): void {
  w.strings(1, n.inputs).strings(2, n.outputs).string(3, n.name).string(4, n.opType)
    .messages(5, n.attributes, attribute).string(6, n.docString);
}

/** TypeProto { tensor_type (1): { elem_type, shape: { dim: [{ dim_value }] } } }. */
function tensorTypeProto(typeProto: ProtoWriter, info: ValueInfo): void {
  typeProto.message(1, info, (tensorType, i) => {
    tensorType.int(1, i.type);
    tensorType.message(2, i.shape, (shape, dims) => shape.messages(1, dims, (dim, d) => {
      if (d >= 0) dim.int(1, d);
    }));
  });
}

function valueInfo(w: ProtoWriter, v: ValueInfo): void {
  w.string(1, v.name);
  // A sequence: TypeProto { sequence_type (4): { elem_type (1): TypeProto { tensor_type } } }.
  w.message(2, v, (typeProto, info) => (info.sequence
    ? typeProto.message(4, info, (sequenceType, i) => sequenceType.message(1, i, tensorTypeProto))
    : tensorTypeProto(typeProto, info)));
}

function graph(w: ProtoWriter, g: GraphProto): void {
  w.messages(1, g.nodes, node).string(2, g.name).messages(5, g.initializers, tensor).string(10, g.docString)
    .messages(11, g.inputs, valueInfo).messages(12, g.outputs, valueInfo);
}

export function encodeModel(m: ModelProto): Uint8Array {
  const w = new ProtoWriter();
  w.int(1, IR_VERSION).string(2, m.producerName).string(3, m.producerVersion).string(6, m.docString);
  w.message(7, m.graph, graph);
  w.message(8, { domain: '', version: OPSET }, (o, v) => o.string(1, v.domain).int(2, v.version));
  for (const [key, value] of Object.entries(m.metadata ?? {})) {
    w.message(14, { key, value }, (e, kv) => e.string(1, kv.key).string(2, kv.value));
  }
  return w.finish();
}
