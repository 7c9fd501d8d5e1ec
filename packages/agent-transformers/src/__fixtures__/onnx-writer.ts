/**
 * A small writer of ONNX model files (the protobuf messages of onnx.proto that a graph of a few
 * nodes needs), so tests can make real, tiny models offline. Field numbers are onnx.proto's; the
 * wire format is @saccade/onnx's.
 */
import { bytesField, concatBytes, stringField, varintField } from '@saccade/onnx';

/** ONNX element types used here. */
export const ELEMENT_TYPE = { float: 1, int64: 7, bool: 9 } as const;
/** The name of an ONNX element type {@link ELEMENT_TYPE} knows. */
export type ElementType = keyof typeof ELEMENT_TYPE;

/** An initializer tensor of a graph: its name, shape and values. */
export interface TensorSpec {
  name: string;
  dims: readonly number[];
  /** float32 values, row-major. */
  values: Float32Array | readonly number[];
  type?: 'float' | 'int64';
}

function tensor({ name, dims, values, type = 'float' }: TensorSpec): Uint8Array {
  const raw =
    type === 'float'
      ? new Uint8Array(Float32Array.from(values).buffer)
      : new Uint8Array(BigInt64Array.from(Array.from(values, (value) => BigInt(value))).buffer);
  return concatBytes([...dims.map((dim) => varintField(1, dim)), varintField(2, ELEMENT_TYPE[type]), stringField(8, name), bytesField(9, raw)]);
}

/** A graph input or output: its name, element type and shape. */
export interface ValueSpec {
  name: string;
  type: ElementType;
  /** A number for a fixed size, a string for a named free dimension. */
  shape: readonly (number | string)[];
}

function valueInfo({ name, type, shape }: ValueSpec): Uint8Array {
  const dims = shape.map((dim) => bytesField(1, typeof dim === 'number' ? varintField(1, dim) : stringField(2, dim)));
  const tensorType = concatBytes([varintField(1, ELEMENT_TYPE[type]), bytesField(2, concatBytes(dims))]);
  return concatBytes([stringField(1, name), bytesField(2, bytesField(1, tensorType))]);
}

/** A node attribute: an integer, a list of integers or a string. */
export type AttributeValue = number | readonly number[] | string;

/** One operator of a graph: its op type, the value names it reads and writes, its attributes. */
export interface NodeSpec {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  /** Integer attributes (a number) or integer lists (an array). */
  attributes?: Record<string, AttributeValue>;
}

function attribute(name: string, value: AttributeValue): Uint8Array {
  if (typeof value === 'number') return concatBytes([stringField(1, name), varintField(3, value), varintField(20, 2)]);
  if (typeof value === 'string') return concatBytes([stringField(1, name), stringField(4, value), varintField(20, 3)]);
  return concatBytes([stringField(1, name), ...value.map((item) => varintField(8, item)), varintField(20, 7)]);
}

function node({ op, inputs, outputs, attributes = {} }: NodeSpec, index: number): Uint8Array {
  return concatBytes([
    ...inputs.map((input) => stringField(1, input)),
    ...outputs.map((output) => stringField(2, output)),
    stringField(3, `${op}_${index}`),
    stringField(4, op),
    ...Object.entries(attributes).map(([name, value]) => bytesField(5, attribute(name, value))),
  ]);
}

/** A whole ONNX graph: inputs, outputs, nodes in order, initializers and the opset. */
export interface GraphSpec {
  name: string;
  inputs: readonly ValueSpec[];
  outputs: readonly ValueSpec[];
  nodes: readonly NodeSpec[];
  initializers?: readonly TensorSpec[];
  /** Default opset 13. */
  opset?: number;
}

/** The bytes of an ONNX model (IR version 8) holding one graph. */
export function writeOnnxModel({ name, inputs, outputs, nodes, initializers = [], opset = 13 }: GraphSpec): Uint8Array {
  const graph = concatBytes([
    ...nodes.map((item, index) => bytesField(1, node(item, index))),
    stringField(2, name),
    ...initializers.map((item) => bytesField(5, tensor(item))),
    ...inputs.map((item) => bytesField(11, valueInfo(item))),
    ...outputs.map((item) => bytesField(12, valueInfo(item))),
  ]);
  return concatBytes([varintField(1, 8), stringField(2, 'saccade-test'), bytesField(7, graph), bytesField(8, concatBytes([stringField(1, ''), varintField(2, opset)]))]);
}
