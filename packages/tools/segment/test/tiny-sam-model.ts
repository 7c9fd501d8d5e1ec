// Writes a tiny SAM model folder byte by byte (onnx.proto3 field numbers, @saccade/onnx's wire
// format): the two ONNX graphs with the input and output names of a transformers.js SAM export,
// config.json and preprocessor_config.json. No Python, no download; onnxruntime loads and runs the graphs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesField, concatBytes, stringField, varintField } from '@saccade/onnx';

const FLOAT = 1;
const INT64 = 7;

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  /** Integer-list attributes by name. */
  ints?: Record<string, number[]>;
  /** Integer attributes by name. */
  int?: Record<string, number>;
}

// AttributeProto: name 1, ints 8, type 20 (INTS = 7); NodeProto.attribute 5.
const intsAttribute = (name: string, values: readonly number[]): Uint8Array => bytesField(5, concatBytes([stringField(1, name), ...values.map((value) => varintField(8, value)), varintField(20, 7)]));
// AttributeProto: i 3, type 20 (INT = 2).
const intAttribute = (name: string, value: number): Uint8Array => bytesField(5, concatBytes([stringField(1, name), varintField(3, value), varintField(20, 2)]));
interface Value {
  name: string;
  type?: typeof FLOAT | typeof INT64;
  dims: readonly (number | string)[];
}

function valueInfo({ name, type = FLOAT, dims }: Value): Uint8Array {
  const shape = concatBytes(dims.map((dim) => bytesField(1, typeof dim === 'number' ? varintField(1, dim) : stringField(2, dim))));
  return concatBytes([stringField(1, name), bytesField(2, bytesField(1, concatBytes([varintField(1, type), bytesField(2, shape)])))]);
}

function tensor(name: string, dims: readonly number[], type: typeof FLOAT | typeof INT64, values: readonly number[]): Uint8Array {
  const raw = type === FLOAT ? new Uint8Array(Float32Array.from(values).buffer) : new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer);
  return concatBytes([...dims.map((dim) => varintField(1, dim)), varintField(2, type), stringField(8, name), bytesField(9, raw)]);
}

function model(inputs: Value[], outputs: Value[], nodes: Node[], initializers: Uint8Array[]): Uint8Array {
  const graph = concatBytes([
    ...nodes.map(({ op, inputs: from, outputs: to, ints = {}, int = {} }, index) =>
      bytesField(
        1,
        concatBytes([
          ...from.map((name) => stringField(1, name)),
          ...to.map((name) => stringField(2, name)),
          stringField(3, `n${index}`),
          stringField(4, op),
          ...Object.entries(ints).map(([name, values]) => intsAttribute(name, values)),
          ...Object.entries(int).map(([name, value]) => intAttribute(name, value)),
        ]),
      ),
    ),
    stringField(2, 'tiny-sam'),
    ...initializers.map((item) => bytesField(5, item)),
    ...inputs.map((input) => bytesField(11, valueInfo(input))),
    ...outputs.map((output) => bytesField(12, valueInfo(output))),
  ]);
  return concatBytes([varintField(1, 8), stringField(2, 'saccade-test'), bytesField(7, graph), bytesField(8, concatBytes([stringField(1, ''), varintField(2, 13)]))]);
}

/**
 * The candidates' predicted IoU, in channel order (red, green, blue), before the prompt's share: the
 * decoder adds 0.01 × the sum of the input labels and, when it takes boxes, 0.001 × the sum of the
 * box's coordinates, so that a test sees what reached it.
 */
export const TINY_SAM_SCORES = [0.9, 0.5, 0.25];

/**
 * Writes the folder: a 64 × 64 input (longest side 64, padded), whose "encoder" averages 4 × 4
 * pixels into 16 × 16 embeddings of the 3 normalised colour channels, and whose "decoder" returns
 * each channel as a candidate mask's logits (so a mask is where that colour is bright) with the
 * scores {@link TINY_SAM_SCORES} shifted by the prompt. `boxes`: the decoder takes input_boxes too
 * (as transformers.js' SAM exports do; the original segment-anything export does not).
 */
export function writeTinySamModel(folder: string, { boxes = false }: { boxes?: boolean } = {}): void {
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  const embeddings = (name: string): Value => ({ name, dims: ['batch', 3, 16, 16] });
  const encoder = model(
    [{ name: 'pixel_values', dims: ['batch', 3, 64, 64] }],
    [embeddings('image_embeddings'), embeddings('image_positional_embeddings')],
    [
      { op: 'AveragePool', inputs: ['pixel_values'], outputs: ['image_embeddings'], ints: { kernel_shape: [4, 4], strides: [4, 4] } },
      { op: 'Identity', inputs: ['image_embeddings'], outputs: ['image_positional_embeddings'] },
    ],
    [],
  );
  writeFileSync(join(folder, 'onnx', 'vision_encoder.onnx'), encoder);
  const decoder = model(
    [
      embeddings('image_embeddings'),
      embeddings('image_positional_embeddings'),
      { name: 'input_points', dims: ['batch', 'point_batch', 'points', 2] },
      { name: 'input_labels', type: INT64, dims: ['batch', 'point_batch', 'points'] },
      ...(boxes ? [{ name: 'input_boxes', dims: ['batch', 'boxes', 4] }] : []),
    ],
    [
      { name: 'iou_scores', dims: [1, 1, 3] },
      { name: 'pred_masks', dims: [1, 1, 3, 16, 16] },
    ],
    [
      { op: 'Reshape', inputs: ['image_embeddings', 'mask_shape'], outputs: ['pred_masks'] },
      // ONNX Cast to FLOAT (1); ReduceSum without axes sums everything, keeping [1, 1, 1].
      { op: 'Cast', inputs: ['input_labels'], outputs: ['labels_float'], int: { to: FLOAT } },
      { op: 'ReduceSum', inputs: ['labels_float'], outputs: ['labels_sum'] },
      { op: 'Mul', inputs: ['labels_sum', 'label_weight'], outputs: ['labels_share'] },
      ...(boxes
        ? [
            { op: 'ReduceSum', inputs: ['input_boxes'], outputs: ['boxes_sum'] },
            { op: 'Mul', inputs: ['boxes_sum', 'box_weight'], outputs: ['boxes_share'] },
            { op: 'Add', inputs: ['labels_share', 'boxes_share'], outputs: ['prompt_share'] },
          ]
        : [{ op: 'Identity', inputs: ['labels_share'], outputs: ['prompt_share'] }]),
      { op: 'Add', inputs: ['scores', 'prompt_share'], outputs: ['iou_scores'] },
    ],
    [tensor('mask_shape', [5], INT64, [1, 1, 3, 16, 16]), tensor('scores', [1, 1, 3], FLOAT, TINY_SAM_SCORES), tensor('label_weight', [1], FLOAT, [0.01]), tensor('box_weight', [1], FLOAT, [0.001])],
  );
  writeFileSync(join(folder, 'onnx', 'prompt_encoder_mask_decoder.onnx'), decoder);
  writeFileSync(join(folder, 'config.json'), JSON.stringify({ model_type: 'sam', architectures: ['SamModel'] }));
  writeFileSync(
    join(folder, 'preprocessor_config.json'),
    JSON.stringify({
      do_convert_rgb: true,
      do_normalize: true,
      do_pad: true,
      do_rescale: true,
      do_resize: true,
      image_mean: [0.485, 0.456, 0.406],
      image_std: [0.229, 0.224, 0.225],
      image_processor_type: 'SamImageProcessor',
      pad_size: { height: 64, width: 64 },
      processor_class: 'SamProcessor',
      resample: 2,
      rescale_factor: 1 / 255,
      size: { longest_edge: 64 },
    }),
  );
}

