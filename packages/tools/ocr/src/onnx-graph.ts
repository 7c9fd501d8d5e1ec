import { bytesField, bytesOf, concatBytes, floatField, readMessage, stringField, textOf, varintField, type WireField } from '@saccade/onnx';

// ONNX field numbers (onnx.proto3).
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const GRAPH_OUTPUT = 12;
const VALUE_INFO_NAME = 1;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_NAME = 3;
const NODE_OP_TYPE = 4;
const NODE_ATTRIBUTE = 5;
const NODE_DOMAIN = 7;
const ATTRIBUTE_NAME = 1;
const ATTRIBUTE_FLOAT = 2;
const ATTRIBUTE_INT = 3;
const ATTRIBUTE_TENSOR = 5;
const ATTRIBUTE_GRAPH = 6;
const ATTRIBUTE_INTS = 8;
const ATTRIBUTE_GRAPHS = 11;
const ATTRIBUTE_TYPE = 20;
const ATTRIBUTE_TYPE_FLOAT = 1;
const ATTRIBUTE_TYPE_TENSOR = 4;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_RAW_DATA = 9;
const TENSOR_FLOAT = 1;

/** A node of the main graph: what the rewrites look at, and its attributes' fields to copy. */
export interface OnnxNode {
  opType: string;
  /** '' for the standard operators. */
  domain: string;
  inputs: string[];
  outputs: string[];
  /** Attributes by name, each as its AttributeProto fields. */
  attributes: Map<string, WireField[]>;
  /** The encoded attributes, to write the node again with other inputs. */
  encodedAttributes: Uint8Array[];
  /** Subgraphs (If, Loop, Scan) may use any name of the outer graph. */
  hasSubgraph: boolean;
}

/** An ONNX model's main graph, read to be rewritten; `write` puts it back with nodes replaced or removed. */
export interface OnnxGraph {
  nodes: OnnxNode[];
  /** The node that makes each value. */
  producer: Map<string, number>;
  /** How many inputs use each value (graph outputs count as used forever). */
  uses: Map<string, number>;
  write(replaced: ReadonlyMap<number, readonly Uint8Array[]>, removed: ReadonlySet<number>): Uint8Array;
}

export function readGraph(model: Uint8Array): OnnxGraph {
  const modelFields = readMessage(model);
  const graphField = modelFields.find((field) => field.field === MODEL_GRAPH);
  if (graphField === undefined) throw new Error('expected an ONNX model with a graph (ModelProto field 7), found none');
  const graphFields = readMessage(bytesOf(graphField));
  const nodes = graphFields.filter((field) => field.field === GRAPH_NODE).map((field) => readNode(bytesOf(field)));
  const producer = new Map<string, number>();
  const uses = new Map<string, number>();
  nodes.forEach((node, index) => node.outputs.forEach((output) => producer.set(output, index)));
  for (const node of nodes) for (const input of node.inputs) uses.set(input, (uses.get(input) ?? 0) + 1);
  for (const field of graphFields.filter((entry) => entry.field === GRAPH_OUTPUT)) {
    const name = readMessage(bytesOf(field)).find((entry) => entry.field === VALUE_INFO_NAME);
    if (name !== undefined) uses.set(textOf(name), Infinity);
  }
  return {
    nodes,
    producer,
    uses,
    write(replaced, removed) {
      let index = 0;
      const graph = concatBytes(
        graphFields.flatMap((field) => {
          if (field.field !== GRAPH_NODE) return [field.encoded];
          const at = index++;
          if (removed.has(at)) return [];
          return replaced.get(at)?.map((node) => bytesField(GRAPH_NODE, node)) ?? [field.encoded];
        }),
      );
      return concatBytes(modelFields.map((field) => (field.field === MODEL_GRAPH ? bytesField(MODEL_GRAPH, graph) : field.encoded)));
    },
  };
}

function readNode(bytes: Uint8Array): OnnxNode {
  const fields = readMessage(bytes);
  const text = (number: number) => fields.filter((field) => field.field === number).map(textOf);
  const attributes = new Map<string, WireField[]>();
  const encodedAttributes: Uint8Array[] = [];
  let hasSubgraph = false;
  for (const field of fields.filter((entry) => entry.field === NODE_ATTRIBUTE)) {
    const attribute = readMessage(bytesOf(field));
    const name = attribute.find((entry) => entry.field === ATTRIBUTE_NAME);
    if (name !== undefined) attributes.set(textOf(name), attribute);
    hasSubgraph ||= attribute.some((entry) => entry.field === ATTRIBUTE_GRAPH || entry.field === ATTRIBUTE_GRAPHS);
    encodedAttributes.push(field.encoded);
  }
  return { opType: text(NODE_OP_TYPE)[0] ?? '', domain: text(NODE_DOMAIN)[0] ?? '', inputs: text(NODE_INPUT), outputs: text(NODE_OUTPUT), attributes, encodedAttributes, hasSubgraph };
}

/** A float attribute's value (FLOAT), else undefined. */
export function floatAttribute(node: OnnxNode, name: string): number | undefined {
  const value = node.attributes.get(name)?.find((entry) => entry.field === ATTRIBUTE_FLOAT);
  return value?.value instanceof Uint8Array ? new DataView(value.value.buffer, value.value.byteOffset, 4).getFloat32(0, true) : undefined;
}

/** An integer or integer-list attribute's values (INT or INTS), else undefined. */
export function intsAttribute(node: OnnxNode, name: string): number[] | undefined {
  const attribute = node.attributes.get(name);
  if (attribute === undefined) return undefined;
  const single = attribute.find((entry) => entry.field === ATTRIBUTE_INT);
  if (single !== undefined) return [Number(BigInt.asIntN(64, single.value as bigint))];
  const values: number[] = [];
  for (const entry of attribute.filter((item) => item.field === ATTRIBUTE_INTS)) {
    if (typeof entry.value === 'bigint') values.push(Number(BigInt.asIntN(64, entry.value)));
    else for (const packed of readPackedVarints(entry.value)) values.push(Number(BigInt.asIntN(64, packed)));
  }
  return values;
}

function readPackedVarints(bytes: Uint8Array): bigint[] {
  const values: bigint[] = [];
  let value = 0n;
  let shift = 0n;
  for (const byte of bytes) {
    value |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if (byte < 0x80) {
      values.push(value);
      value = 0n;
      shift = 0n;
    }
  }
  return values;
}

/** A float tensor held by a standard Constant node (its `value` attribute), else undefined. */
export function floatConstant(node: OnnxNode | undefined): { dims: number[]; data: Float32Array } | undefined {
  if (node === undefined || node.opType !== 'Constant' || node.domain !== '') return undefined;
  const tensorField = node.attributes.get('value')?.find((entry) => entry.field === ATTRIBUTE_TENSOR);
  if (tensorField === undefined) return undefined;
  const tensor = readMessage(bytesOf(tensorField));
  if (Number(tensor.find((field) => field.field === TENSOR_DATA_TYPE)?.value ?? 0) !== TENSOR_FLOAT) return undefined;
  const dims = tensor.filter((field) => field.field === TENSOR_DIMS).map((field) => Number(field.value));
  const count = dims.reduce((product, dim) => product * dim, 1);
  const raw = tensor.find((field) => field.field === TENSOR_RAW_DATA);
  const packed = tensor.filter((field) => field.field === TENSOR_FLOAT_DATA);
  let data: Float32Array;
  if (raw !== undefined) data = new Float32Array(Uint8Array.from(bytesOf(raw)).buffer);
  else if (packed.length === 1 && packed[0]!.wireType === 2) data = new Float32Array(Uint8Array.from(bytesOf(packed[0]!)).buffer);
  else data = Float32Array.from(packed.map((field) => new DataView((field.value as Uint8Array).buffer, (field.value as Uint8Array).byteOffset, 4).getFloat32(0, true)));
  return data.length === count ? { dims, data } : undefined;
}

/** The one float of a Constant node holding a single element, else undefined. */
export function scalarConstant(node: OnnxNode | undefined): number | undefined {
  const constant = floatConstant(node);
  return constant?.data.length === 1 ? constant.data[0] : undefined;
}

/** An encoded NodeProto. */
export function nodeBytes(opType: string, inputs: readonly string[], outputs: readonly string[], name: string, attributes: readonly Uint8Array[] = []): Uint8Array {
  return concatBytes([
    ...inputs.map((input) => stringField(NODE_INPUT, input)),
    ...outputs.map((output) => stringField(NODE_OUTPUT, output)),
    stringField(NODE_NAME, name),
    stringField(NODE_OP_TYPE, opType),
    ...attributes,
  ]);
}

/** An encoded float attribute, for nodeBytes. */
export function floatAttributeBytes(name: string, value: number): Uint8Array {
  return bytesField(NODE_ATTRIBUTE, concatBytes([stringField(ATTRIBUTE_NAME, name), floatField(ATTRIBUTE_FLOAT, value), varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_FLOAT)]));
}

/** An encoded Constant node holding a float tensor. */
export function constantNodeBytes(output: string, dims: readonly number[], data: Float32Array): Uint8Array {
  const tensor = concatBytes([
    ...dims.map((dim) => varintField(TENSOR_DIMS, dim)),
    varintField(TENSOR_DATA_TYPE, TENSOR_FLOAT),
    stringField(8, output),
    bytesField(TENSOR_RAW_DATA, new Uint8Array(data.buffer, data.byteOffset, data.byteLength)),
  ]);
  const attribute = bytesField(NODE_ATTRIBUTE, concatBytes([stringField(ATTRIBUTE_NAME, 'value'), bytesField(ATTRIBUTE_TENSOR, tensor), varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_TENSOR)]));
  return nodeBytes('Constant', [], [output], output, [attribute]);
}
