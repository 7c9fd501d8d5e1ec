// Writes small ONNX models byte by byte (onnx.proto3 field numbers), for the detector tests: no
// Python, no model download. The models are real: onnxruntime loads and runs them.
import { bytesField, concatBytes, floatField, stringField, varintField } from '@saccade/onnx';

const FLOAT = 1;
const INT64 = 7;

/** A TensorProto with raw little-endian data. */
function tensor(name: string, dims: readonly number[], type: typeof FLOAT | typeof INT64, values: readonly number[]): Uint8Array {
  const raw = type === FLOAT ? new Uint8Array(Float32Array.from(values).buffer) : new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer);
  return concatBytes([...dims.map((dim) => varintField(1, dim)), varintField(2, type), stringField(8, name), bytesField(9, raw)]);
}

type Attribute = { name: string; int: number } | { name: string; ints: readonly number[] } | { name: string; float: number };

function attribute(value: Attribute): Uint8Array {
  const parts = [stringField(1, value.name)];
  if ('int' in value) parts.push(varintField(3, value.int), varintField(20, 2));
  else if ('ints' in value) parts.push(...value.ints.map((item) => varintField(8, item)), varintField(20, 7));
  else parts.push(floatField(2, value.float), varintField(20, 1));
  return bytesField(5, concatBytes(parts));
}

export interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Attribute[];
}

function node({ op, inputs, outputs, attributes = [] }: Node, index: number): Uint8Array {
  return concatBytes([...inputs.map((name) => stringField(1, name)), ...outputs.map((name) => stringField(2, name)), stringField(3, `n${index}`), stringField(4, op), ...attributes.map(attribute)]);
}

function valueInfo(name: string, dims: readonly (number | string)[]): Uint8Array {
  const shape = concatBytes(dims.map((dim) => bytesField(1, typeof dim === 'number' ? varintField(1, dim) : stringField(2, dim))));
  const tensorType = concatBytes([varintField(1, FLOAT), bytesField(2, shape)]);
  return concatBytes([stringField(1, name), bytesField(2, bytesField(1, tensorType))]);
}

export interface TinyModel {
  input: { name: string; dims: readonly (number | string)[] };
  outputs: { name: string; dims: readonly (number | string)[] }[];
  nodes: Node[];
  floats?: Record<string, { dims: number[]; values: number[] }>;
  int64s?: Record<string, { dims: number[]; values: number[] }>;
  metadata?: Record<string, string>;
}

/** An ONNX ModelProto (IR 8, opset 13). */
export function onnxModel(model: TinyModel): Uint8Array {
  const initializers = [
    ...Object.entries(model.floats ?? {}).map(([name, { dims, values }]) => tensor(name, dims, FLOAT, values)),
    ...Object.entries(model.int64s ?? {}).map(([name, { dims, values }]) => tensor(name, dims, INT64, values)),
  ];
  const graph = concatBytes([
    ...model.nodes.map((item, index) => bytesField(1, node(item, index))),
    stringField(2, 'tiny'),
    ...initializers.map((item) => bytesField(5, item)),
    bytesField(11, valueInfo(model.input.name, model.input.dims)),
    ...model.outputs.map((output) => bytesField(12, valueInfo(output.name, output.dims))),
  ]);
  return concatBytes([
    varintField(1, 8),
    stringField(2, 'saccade-test'),
    bytesField(7, graph),
    bytesField(8, concatBytes([stringField(1, ''), varintField(2, 13)])),
    ...Object.entries(model.metadata ?? {}).map(([key, value]) => bytesField(14, concatBytes([stringField(1, key), stringField(2, value)]))),
  ]);
}

/**
 * A "detector" on a 64 × 64 input that sees an 8 × 8 grid: each cell's score for class c (red,
 * green, blue) is the mean of channel c over the cell, and its box is the cell. On a black image a
 * flat red square filling a cell scores 1 for red there and 0 elsewhere.
 */
const CELLS = 8;
const cellBoxes = (normalised: boolean): number[][] =>
  Array.from({ length: CELLS * CELLS }, (_, index) => {
    const [row, col] = [Math.floor(index / CELLS), index % CELLS];
    const size = normalised ? 1 / CELLS : 64 / CELLS;
    return [(col + 0.5) * size, (row + 0.5) * size, size, size];
  });

const pooled: Node[] = [
  { op: 'AveragePool', inputs: ['images'], outputs: ['pooled'], attributes: [{ name: 'kernel_shape', ints: [8, 8] }, { name: 'strides', ints: [8, 8] }] },
  { op: 'Reshape', inputs: ['pooled', 'flat'], outputs: ['scores'] },
];

/** Ultralytics layout: output0 [1, 4 + 3, 64], boxes in input pixels, names in the metadata. */
export function tinyYoloModel(): Uint8Array {
  const boxes = cellBoxes(false);
  return onnxModel({
    input: { name: 'images', dims: [1, 3, 64, 64] },
    outputs: [{ name: 'output0', dims: [1, 7, 64] }],
    nodes: [...pooled, { op: 'Concat', inputs: ['boxes', 'scores'], outputs: ['output0'], attributes: [{ name: 'axis', int: 1 }] }],
    floats: { boxes: { dims: [1, 4, 64], values: [0, 1, 2, 3].flatMap((k) => boxes.map((box) => box[k]!)) } },
    int64s: { flat: { dims: [3], values: [1, 3, 64] } },
    metadata: { task: 'detect', imgsz: '[64, 64]', names: "{0: 'red thing', 1: 'green thing', 2: 'blue thing'}" },
  });
}

/**
 * DETR layout: logits [1, 64, 3 + 1] (the channel values after ImageNet normalisation, then a
 * "no object" logit of 0) and pred_boxes [1, 64, 4] (the cells, 0–1); no names in the model.
 */
export function tinyDetrModel(): Uint8Array {
  return onnxModel({
    input: { name: 'pixel_values', dims: ['batch', 3, 64, 64] },
    outputs: [
      { name: 'logits', dims: ['batch', 64, 4] },
      { name: 'pred_boxes', dims: ['batch', 64, 4] },
    ],
    nodes: [
      { ...pooled[0]!, inputs: ['pixel_values'] },
      pooled[1]!,
      { op: 'Transpose', inputs: ['scores'], outputs: ['perQuery'], attributes: [{ name: 'perm', ints: [0, 2, 1] }] },
      { op: 'Concat', inputs: ['perQuery', 'noObject'], outputs: ['logits'], attributes: [{ name: 'axis', int: 2 }] },
      { op: 'Identity', inputs: ['boxes'], outputs: ['pred_boxes'] },
    ],
    floats: { noObject: { dims: [1, 64, 1], values: new Array(64).fill(0) }, boxes: { dims: [1, 64, 4], values: cellBoxes(true).flat() } },
    int64s: { flat: { dims: [3], values: [1, 3, 64] } },
  });
}
