import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { resizeBilinear, type RawImage } from '@saccade/image';
import { bytesOf, openSession, readMessage, textOf } from '@saccade/onnx';
import * as ort from 'onnxruntime-node';

/**
 * How a model lays out its detections:
 * - `yolo`: Ultralytics YOLOv8/v11 export, one output [1, 4 + classes, boxes] (or transposed),
 *   boxes as centre x, centre y, width, height in input pixels, then one score per class;
 * - `yolov5`: one output [1, boxes, 5 + classes], an objectness score before the class scores;
 * - `detr`: DETR (Hugging Face export), outputs `logits` [1, queries, classes + 1] (softmax; the last
 *   class is "no object") and `pred_boxes` [1, queries, 4] (centre x, centre y, width, height, 0–1);
 * - `rtdetr`: RT-DETR, the same two outputs with one sigmoid score per class and no "no object" class.
 * `auto` (default): two outputs → `detr`, one → `yolo`.
 */
export const DETECTOR_LAYOUTS = ['yolo', 'yolov5', 'detr', 'rtdetr'] as const;
/** One of {@link DETECTOR_LAYOUTS}. */
export type DetectorLayout = (typeof DETECTOR_LAYOUTS)[number];

/** Settings of {@link createOnnxDetector}: the model file and how its outputs are read and filtered. */
export interface OnnxDetectorSettings {
  /** The .onnx file. */
  modelPath: string;
  /** `auto` (default) or one of DETECTOR_LAYOUTS. */
  layout?: DetectorLayout | 'auto';
  /**
   * Class names: a file with one name a line, or JSON (an array, an `{id: name}` object, or a
   * Hugging Face config.json with `id2label`). Default: the model's metadata `names` (Ultralytics),
   * else `class <id>`.
   */
  labelsPath?: string;
  /** Detections scoring below this are dropped (default 0.25, Ultralytics' default). */
  scoreThreshold?: number;
  /** Non-maximum suppression: a box overlapping a better one of its class by more IoU is dropped (default 0.45). */
  iouThreshold?: number;
  /** The most detections returned (default 100). */
  maxDetections?: number;
  /** The model's input side when its input shape does not fix it (default: metadata `imgsz`, else 640). */
  inputSize?: number;
  /** Intra-op threads (default 1). */
  threads?: number;
}

/** One object an ONNX detector found, after thresholding and non-maximum suppression. */
export interface ObjectDetection {
  /** [x1, y1, x2, y2] in the original image's pixels, to 0.1 px. */
  bbox: [number, number, number, number];
  label: string;
  classId: number;
  /** 0–1, to 0.001. */
  score: number;
}

/** A loaded ONNX detection model (from {@link createOnnxDetector}); `close()` frees its session. */
export interface OnnxDetector {
  readonly layout: DetectorLayout;
  readonly labels: readonly string[];
  readonly inputWidth: number;
  readonly inputHeight: number;
  detect(image: RawImage, options?: { scoreThreshold?: number; classes?: readonly number[] }): Promise<ObjectDetection[]>;
  close(): Promise<void>;
}

// ONNX field numbers: ModelProto.metadata_props, StringStringEntryProto.key/value.
const MODEL_METADATA = 14;

/** The model's metadata_props as a map (Ultralytics: names, imgsz, task, stride …). */
export function readOnnxMetadata(model: Uint8Array): Map<string, string> {
  const metadata = new Map<string, string>();
  for (const field of readMessage(model)) {
    if (field.field !== MODEL_METADATA) continue;
    const entry = readMessage(bytesOf(field));
    const key = entry.find((item) => item.field === 1);
    const value = entry.find((item) => item.field === 2);
    if (key !== undefined) metadata.set(textOf(key), value === undefined ? '' : textOf(value));
  }
  return metadata;
}

/** Ultralytics writes `names` as a Python dict: `{0: 'person', 1: 'bicycle'}`; JSON also accepted. */
export function parseClassNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/["']?(\d+)["']?\s*:\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g)) names[Number(match[1])] = match[2] ?? match[3] ?? '';
  if (names.length === 0) throw new Error(`expected class names as {0: 'name', …}, received ${JSON.stringify(text.slice(0, 80))}`);
  return Array.from(names, (name, id) => name ?? `class ${id}`);
}

/** Class names from a labels file: one per line, or JSON (array, {id: name}, or {id2label: {…}}). */
export async function readLabelsFile(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new Error(`expected a labels file at ${path}, could not read it: ${(error as Error).message}`, { cause: error });
  });
  if (extname(path).toLowerCase() !== '.json') return text.split(/\r?\n/).map((line) => line.trim()).filter((line, index, all) => line !== '' || index < all.length - 1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`expected JSON class names in ${path}: ${(error as Error).message}`, { cause: error });
  }
  const table = (parsed as { id2label?: unknown }).id2label ?? parsed;
  if (Array.isArray(table) && table.every((name) => typeof name === 'string')) return table;
  if (typeof table === 'object' && table !== null && Object.entries(table).every(([id, name]) => /^\d+$/.test(id) && typeof name === 'string')) {
    const names: string[] = [];
    for (const [id, name] of Object.entries(table)) names[Number(id)] = name as string;
    return Array.from(names, (name, id) => name ?? `class ${id}`);
  }
  throw new Error(`expected ${path} to hold an array of names, an {"<id>": "<name>"} object or a config with id2label, received ${JSON.stringify(parsed).slice(0, 80)}`);
}

const iou = (a: readonly number[], b: readonly number[]): number => {
  const w = Math.min(a[2]!, b[2]!) - Math.max(a[0]!, b[0]!);
  const h = Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((a[2]! - a[0]!) * (a[3]! - a[1]!) + (b[2]! - b[0]!) * (b[3]! - b[1]!) - inter);
};

/**
 * Greedy non-maximum suppression per class: highest score first, a box is dropped when it overlaps a
 * kept box of its class by more than `iouThreshold`. Returns the kept candidates, best first.
 */
export function nonMaximumSuppression<T extends { box: readonly number[]; classId: number; score: number }>(candidates: readonly T[], iouThreshold: number, maxDetections = Infinity): T[] {
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  const kept: T[] = [];
  for (const candidate of sorted) {
    if (kept.length >= maxDetections) break;
    if (kept.some((other) => other.classId === candidate.classId && iou(other.box, candidate.box) > iouThreshold)) continue;
    kept.push(candidate);
  }
  return kept;
}

interface Candidate {
  /** x1, y1, x2, y2 in the model's input pixels. */
  box: [number, number, number, number];
  classId: number;
  score: number;
}

const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));

function positive(value: number | undefined, name: string, fallback: number, max = Infinity): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || value > max) throw new Error(`expected ${name} to be a number from 0 to ${max}, received ${String(value)}`);
  return value;
}

/**
 * An object detector exported to ONNX (YOLO or DETR layout), on onnxruntime-node. YOLO models get
 * the image letterboxed (scaled to fit, padded with grey 114, as Ultralytics); DETR and RT-DETR models
 * get it stretched to the input size (DETR also normalised with ImageNet's mean and deviation). Boxes
 * come back in the original image's pixels, after per-class non-maximum suppression.
 */
export async function createOnnxDetector(settings: OnnxDetectorSettings): Promise<OnnxDetector> {
  const scoreThreshold = positive(settings.scoreThreshold, 'scoreThreshold', 0.25, 1);
  const iouThreshold = positive(settings.iouThreshold, 'iouThreshold', 0.45, 1);
  const maxDetections = positive(settings.maxDetections, 'maxDetections', 100);
  const bytes = await readFile(settings.modelPath).catch((error: unknown) => {
    throw new Error(`expected an ONNX detector at ${settings.modelPath}, could not read it: ${(error as Error).message}`, { cause: error });
  });
  let metadata = new Map<string, string>();
  try {
    metadata = readOnnxMetadata(bytes);
  } catch {
    // Not readable as protobuf: onnxruntime says what is wrong below.
  }
  const session = await openSession(bytes, settings.modelPath, settings.threads ?? 1);
  const inputName = session.inputNames[0]!;
  const inputMeta = (session.inputMetadata as readonly { isTensor: boolean; shape?: readonly (number | string)[] }[] | undefined)?.[0];
  const shape = inputMeta?.isTensor ? inputMeta.shape : undefined;
  const metaSize = metadata.has('imgsz') ? (metadata.get('imgsz')!.match(/\d+/g) ?? []).map(Number) : [];
  const fixed = (dim: number | string | undefined) => (typeof dim === 'number' && dim > 0 ? dim : undefined);
  const inputHeight = fixed(shape?.[2]) ?? settings.inputSize ?? metaSize[0] ?? 640;
  const inputWidth = fixed(shape?.[3]) ?? settings.inputSize ?? metaSize[1] ?? metaSize[0] ?? 640;
  if (shape !== undefined && shape.length !== 4) throw new Error(`expected ${settings.modelPath} to take one image tensor [1, 3, height, width], its input ${inputName} has shape [${shape.join(', ')}]`);

  const outputs = session.outputNames;
  let layout: DetectorLayout;
  if (settings.layout !== undefined && settings.layout !== 'auto') {
    if (!DETECTOR_LAYOUTS.includes(settings.layout)) throw new Error(`expected layout to be auto or one of ${DETECTOR_LAYOUTS.join(', ')}, received ${String(settings.layout)}`);
    layout = settings.layout;
  } else layout = outputs.length >= 2 ? 'detr' : 'yolo';
  if ((layout === 'detr' || layout === 'rtdetr') && outputs.length < 2) throw new Error(`expected a ${layout} model to have two outputs (logits, pred_boxes), ${settings.modelPath} has ${outputs.join(', ')}`);
  const logitsName = outputs.find((name) => /logit|score/i.test(name)) ?? outputs[0]!;
  const boxesName = outputs.find((name) => name !== logitsName && /box/i.test(name)) ?? outputs.find((name) => name !== logitsName)!;

  let labels: string[] = [];
  if (settings.labelsPath !== undefined) labels = await readLabelsFile(settings.labelsPath);
  else if (metadata.has('names')) labels = parseClassNames(metadata.get('names')!);
  const labelOf = (id: number) => labels[id] ?? `class ${id}`;

  function prepare(image: RawImage): { tensor: ort.Tensor; toOriginal: (box: [number, number, number, number]) => [number, number, number, number] } {
    const plane = inputWidth * inputHeight;
    const input = new Float32Array(3 * plane);
    if (layout === 'yolo' || layout === 'yolov5') {
      const scale = Math.min(inputWidth / image.width, inputHeight / image.height);
      const width = Math.max(1, Math.round(image.width * scale));
      const height = Math.max(1, Math.round(image.height * scale));
      const left = Math.floor((inputWidth - width) / 2);
      const top = Math.floor((inputHeight - height) / 2);
      input.fill(114 / 255);
      const resized = resizeBilinear(image, width, height);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const from = (y * width + x) * 3;
          const to = (y + top) * inputWidth + x + left;
          input[to] = resized[from]! / 255;
          input[plane + to] = resized[from + 1]! / 255;
          input[2 * plane + to] = resized[from + 2]! / 255;
        }
      }
      return {
        tensor: new ort.Tensor('float32', input, [1, 3, inputHeight, inputWidth]),
        toOriginal: ([x1, y1, x2, y2]) => [(x1 - left) / scale, (y1 - top) / scale, (x2 - left) / scale, (y2 - top) / scale],
      };
    }
    const resized = resizeBilinear(image, inputWidth, inputHeight);
    const mean = layout === 'detr' ? [0.485, 0.456, 0.406] : [0, 0, 0];
    const std = layout === 'detr' ? [0.229, 0.224, 0.225] : [1, 1, 1];
    for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) input[c * plane + i] = (resized[i * 3 + c]! / 255 - mean[c]!) / std[c]!;
    const sx = image.width / inputWidth;
    const sy = image.height / inputHeight;
    return { tensor: new ort.Tensor('float32', input, [1, 3, inputHeight, inputWidth]), toOriginal: ([x1, y1, x2, y2]) => [x1 * sx, y1 * sy, x2 * sx, y2 * sy] };
  }

  function decode(results: ort.InferenceSession.ReturnType, threshold: number): Candidate[] {
    const candidates: Candidate[] = [];
    const push = (cx: number, cy: number, w: number, h: number, classId: number, score: number) => {
      if (score >= threshold) candidates.push({ box: [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], classId, score });
    };
    if (layout === 'yolo' || layout === 'yolov5') {
      const output = results[outputs[0]!]!;
      const data = output.data as Float32Array;
      const dims = output.dims;
      if (dims.length !== 3 || dims[0] !== 1) throw new Error(`expected a ${layout} output [1, rows, boxes], received [${dims.join(', ')}]`);
      const extra = layout === 'yolov5' ? 5 : 4;
      // Ultralytics v8+ puts the attributes first ([1, 4 + classes, boxes]); v5 and transposed exports last.
      const attributesFirst = layout === 'yolo' ? dims[1]! < dims[2]! : false;
      const attributes = attributesFirst ? dims[1]! : dims[2]!;
      const count = attributesFirst ? dims[2]! : dims[1]!;
      if (attributes <= extra) throw new Error(`expected a ${layout} output with more than ${extra} values a box, received [${dims.join(', ')}]`);
      const at = attributesFirst ? (box: number, k: number) => data[k * count + box]! : (box: number, k: number) => data[box * attributes + k]!;
      for (let box = 0; box < count; box++) {
        let best = 0;
        let bestClass = 0;
        for (let c = extra; c < attributes; c++) {
          const score = at(box, c);
          if (score > best) [best, bestClass] = [score, c - extra];
        }
        const score = layout === 'yolov5' ? best * at(box, 4) : best;
        push(at(box, 0), at(box, 1), at(box, 2), at(box, 3), bestClass, score);
      }
      return candidates;
    }
    const logits = results[logitsName]!;
    const boxes = results[boxesName]!;
    if (logits.dims.length !== 3 || boxes.dims.length !== 3 || boxes.dims[2] !== 4 || logits.dims[1] !== boxes.dims[1]) {
      throw new Error(`expected ${layout} outputs logits [1, queries, classes] and boxes [1, queries, 4], received [${logits.dims.join(', ')}] and [${boxes.dims.join(', ')}]`);
    }
    const scores = logits.data as Float32Array;
    const coords = boxes.data as Float32Array;
    const queries = logits.dims[1]!;
    const classes = logits.dims[2]!;
    const real = layout === 'detr' ? classes - 1 : classes;
    for (let q = 0; q < queries; q++) {
      const row = scores.subarray(q * classes, (q + 1) * classes);
      let best = -Infinity;
      let bestClass = 0;
      for (let c = 0; c < real; c++) if (row[c]! > best) [best, bestClass] = [row[c]!, c];
      let score: number;
      if (layout === 'detr') {
        const top = Math.max(...row);
        let sum = 0;
        for (const value of row) sum += Math.exp(value - top);
        score = Math.exp(best - top) / sum;
      } else score = sigmoid(best);
      const [cx, cy, w, h] = [0, 1, 2, 3].map((k) => coords[q * 4 + k]!) as [number, number, number, number];
      push(cx * inputWidth, cy * inputHeight, w * inputWidth, h * inputHeight, bestClass, score);
    }
    return candidates;
  }

  const round = (value: number, step: number) => Math.round(value / step) * step;
  return {
    layout,
    labels,
    inputWidth,
    inputHeight,
    async detect(image, options = {}) {
      const threshold = positive(options.scoreThreshold, 'scoreThreshold', scoreThreshold, 1);
      const { tensor, toOriginal } = prepare(image);
      const results = await session.run({ [inputName]: tensor });
      let candidates = decode(results, threshold);
      if (options.classes !== undefined) candidates = candidates.filter((candidate) => options.classes!.includes(candidate.classId));
      return nonMaximumSuppression(candidates, iouThreshold, maxDetections).map(({ box, classId, score }) => {
        const [x1, y1, x2, y2] = toOriginal(box);
        const clip = (value: number, max: number) => Number(round(Math.max(0, Math.min(max, value)), 0.1).toFixed(1));
        return { bbox: [clip(x1, image.width), clip(y1, image.height), clip(x2, image.width), clip(y2, image.height)], label: labelOf(classId), classId, score: Number(score.toFixed(3)) };
      });
    },
    async close() {
      await session.release();
    },
  };
}
