import { readFile } from 'node:fs/promises';
import { connectedComponents, resizeBilinear, type RawImage } from '@saccade/image';
import { openSession } from '@saccade/onnx';
import * as ort from 'onnxruntime-node';
import { optimizeOnnxModel } from './optimize-onnx-model';
import { openModelRunner } from './model-runner';
import type { DetectedText, OcrRunOptions, RecognizedText, TextBox, TextDetector, TextRecognizer } from './ocr-models';

/** How an ONNX session of an OCR model runs. */
export interface OnnxSessionSettings {
  /**
   * Threads a model may use (default 1 here; loadOcrEngine and the OCR tool: DEFAULT_OCR_THREADS). The
   * detector gets them as onnxruntime's intra-op threads (not spinning while idle, so a busy machine
   * loses nothing); the recogniser reads that many lines at once, one single-threaded session per
   * worker thread, shared by concurrent calls.
   */
  threads?: number;
}

/** Settings of {@link createPaddleDetector}: the PaddleOCR DB text detector's model file and post-processing. */
export interface PaddleDetectorSettings extends OnnxSessionSettings {
  modelPath: string;
  /** Longest side the image is shrunk to before detection (PaddleOCR: 960). */
  maxSide?: number;
  /** Pixels above this probability are text (PaddleOCR: 0.3). */
  threshold?: number;
  /** Boxes whose mean probability is below this are dropped (PaddleOCR: 0.6). */
  boxThreshold?: number;
  /** How far a box grows past its text core, as PaddleOCR's unclip ratio (1.5). */
  unclipRatio?: number;
  /**
   * Pixels of border added on every side before detection, copies of the edge pixels (default 16):
   * the DB detector misses or splits a line whose letters touch the image's edge, as a line at the
   * bottom of a tight crop or screenshot does. 0 turns it off.
   */
  padding?: number;
}

/** Settings of {@link createPaddleRecognizer}: the PaddleOCR CTC recogniser's model file and character dictionary. */
export interface PaddleRecognizerSettings extends OnnxSessionSettings {
  modelPath: string;
  dictionaryPath: string;
  /** The model's input height (PP-OCRv3/v4: 48). */
  height?: number;
  /**
   * The Chinese PP-OCR recognisers rarely let the space class win for Latin text, but it peaks in
   * the gap between words: a blank run whose space probability tops this becomes a space.
   */
  spaceThreshold?: number;
  /**
   * Lines per model run (default 1; PaddleOCR: 6). A batch shares the width of its widest line, so on
   * the CPU batching pads without saving time: one line per run was the fastest measured.
   */
  batchSize?: number;
  /**
   * Narrowest input the recogniser gets, in pixels at `height`; narrower lines are padded (default 0;
   * PaddleOCR pads to 320). Time grows with the width, so short labels ("Q1", "0") cost a sixth.
   */
  minWidth?: number;
  /**
   * Read full-width forms (（ ） ： ， ％ …, U+FF01–U+FF5E) as their ASCII characters (default true): the
   * Chinese dictionary has both, and Latin text comes out with either. Set false for Chinese text.
   */
  halfWidth?: boolean;
}

// ImageNet statistics, applied in BGR order as PaddleOCR (OpenCV) feeds its models.
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/**
 * A model file's bytes, rewritten by optimizeOnnxModel. Bytes it cannot read as an ONNX graph go to
 * onnxruntime as they are, which says what is wrong with them.
 */
async function readModel(modelPath: string): Promise<Uint8Array> {
  const bytes = await readFile(modelPath).catch((error: unknown) => {
    throw new Error(`expected an ONNX model at ${modelPath}, could not load it: ${(error as Error).message}`, { cause: error });
  });
  try {
    return optimizeOnnxModel(bytes).model;
  } catch {
    return bytes;
  }
}

/** PaddleOCR's DB text detector on onnxruntime: probability map, threshold, connected components, unclip. */
export async function createPaddleDetector(settings: PaddleDetectorSettings): Promise<TextDetector> {
  const { maxSide = 960, threshold = 0.3, boxThreshold = 0.6, unclipRatio = 1.5, padding = 16 } = settings;
  const session = await openSession(await readModel(settings.modelPath), settings.modelPath, settings.threads);
  const input = session.inputNames[0]!;
  const output = session.outputNames[0]!;
  return {
    async detect(original: RawImage, { signal }: OcrRunOptions = {}): Promise<DetectedText[]> {
      signal?.throwIfAborted();
      const image = padEdges(original, padding);
      const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
      const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
      const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
      const resized = resizeBilinear(image, width, height);
      const plane = width * height;
      const tensor = new Float32Array(3 * plane);
      for (let index = 0; index < plane; index++) {
        for (let channel = 0; channel < 3; channel++) tensor[channel * plane + index] = (resized[index * 3 + (2 - channel)]! / 255 - MEAN[channel]!) / STD[channel]!;
      }
      const results = await session.run({ [input]: new ort.Tensor('float32', tensor, [1, 3, height, width]) });
      const map = results[output]!;
      const probabilities = map.data as Float32Array;
      const boxes = components(probabilities, width, height, threshold, boxThreshold, unclipRatio);
      map.dispose();
      const scaleX = image.width / width;
      const scaleY = image.height / height;
      return boxes
        .map(({ box: [x1, y1, x2, y2], score }) => ({
          box: [
            Math.max(0, Math.round(x1 * scaleX) - padding),
            Math.max(0, Math.round(y1 * scaleY) - padding),
            Math.min(original.width, Math.round(x2 * scaleX) - padding),
            Math.min(original.height, Math.round(y2 * scaleY) - padding),
          ] as TextBox,
          score,
        }))
        .filter(({ box: [x1, y1, x2, y2] }) => x2 - x1 >= 2 && y2 - y1 >= 2);
    },
    close: () => session.release(),
  };
}

/** The image with `border` pixels added on every side, each a copy of the nearest edge pixel. */
function padEdges(image: RawImage, border: number): RawImage {
  if (border <= 0) return image;
  const width = image.width + 2 * border;
  const height = image.height + 2 * border;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const sourceY = Math.min(image.height - 1, Math.max(0, y - border));
    for (let x = 0; x < width; x++) {
      const from = (sourceY * image.width + Math.min(image.width - 1, Math.max(0, x - border))) * image.channels;
      const to = (y * width + x) * 3;
      data[to] = image.data[from]!;
      data[to + 1] = image.data[from + 1]!;
      data[to + 2] = image.data[from + 2]!;
    }
  }
  return { data, width, height, channels: 3 };
}

/**
 * Text regions of a DB probability map as axis-aligned boxes (PaddleOCR fits rotated rectangles;
 * horizontal text, the case of charts, documents and UIs, gives the same boxes).
 */
function components(map: Float32Array, width: number, height: number, threshold: number, boxThreshold: number, unclipRatio: number): DetectedText[] {
  const found: DetectedText[] = [];
  // One label above the threshold, background below: the text regions are its components.
  const labels = Int8Array.from(map, (probability) => (probability > threshold ? 0 : -1));
  for (const { box } of connectedComponents(labels, width, height)) {
    const boxWidth = box.x2 - box.x1;
    const boxHeight = box.y2 - box.y1;
    if (Math.min(boxWidth, boxHeight) < 3) continue;
    let sum = 0;
    for (let y = box.y1; y < box.y2; y++) for (let x = box.x1; x < box.x2; x++) sum += map[y * width + x]!;
    const score = sum / (boxWidth * boxHeight);
    if (score < boxThreshold) continue;
    // Unclip: grow by area × ratio / perimeter, as PaddleOCR's polygon offset does for a rectangle.
    const grow = (boxWidth * boxHeight * unclipRatio) / (2 * (boxWidth + boxHeight));
    found.push({ box: [box.x1 - grow, box.y1 - grow, box.x2 + grow, box.y2 + grow], score: Math.round(score * 1e4) / 1e4 });
  }
  return found;
}

/** PaddleOCR's CTC line recogniser on onnxruntime, with greedy decoding and space recovery. */
export async function createPaddleRecognizer(settings: PaddleRecognizerSettings): Promise<TextRecognizer> {
  const { height = 48, spaceThreshold = 0.02, batchSize = 1, minWidth = 0, halfWidth = true } = settings;
  const dictionary = await readFile(settings.dictionaryPath, 'utf8').catch((error: unknown) => {
    throw new Error(`expected a character dictionary at ${settings.dictionaryPath}: ${(error as Error).message}`, { cause: error });
  });
  const lines = dictionary.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const characters = ['', ...(halfWidth ? lines.map(toHalfWidth) : lines), ' '];
  const runner = await openModelRunner(await readModel(settings.modelPath), settings.modelPath, settings.threads);

  async function batch(images: readonly RawImage[]): Promise<RecognizedText[]> {
    // One width for the batch: the widest line's, at least minWidth.
    const widths = images.map((image) => Math.max(1, Math.ceil((height * image.width) / image.height)));
    const width = Math.max(minWidth, ...widths);
    const plane = height * width;
    const tensor = new Float32Array(images.length * 3 * plane);
    images.forEach((image, item) => {
      const lineWidth = Math.min(width, widths[item]!);
      const resized = resizeBilinear(image, lineWidth, height);
      const base = item * 3 * plane;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < lineWidth; x++) {
          for (let channel = 0; channel < 3; channel++) tensor[base + channel * plane + y * width + x] = (resized[(y * lineWidth + x) * 3 + (2 - channel)]! / 255 - 0.5) / 0.5;
        }
      }
    });
    const { data, dims } = await runner.run(tensor, [images.length, 3, height, width]);
    const [, steps, classes] = dims as [number, number, number];
    if (classes !== characters.length) {
      throw new Error(`expected the recognition model to output ${characters.length} classes (the dictionary's ${lines.length} characters, blank and space), it outputs ${classes}`);
    }
    return images.map((_, item) => decode(data, item * steps * classes, steps, classes, characters, spaceThreshold));
  }

  return {
    async recognize(images: readonly RawImage[], { signal }: OcrRunOptions = {}): Promise<RecognizedText[]> {
      const order = images.map((image, index) => ({ index, ratio: image.width / image.height })).sort((a, b) => a.ratio - b.ratio);
      const texts: RecognizedText[] = new Array(images.length);
      // Lines of similar shape share a batch, so little of each batch is padding. Widest first, so that
      // with several threads the last batch to start is a short one.
      const groups: (typeof order)[] = [];
      for (let start = 0; start < order.length; start += batchSize) groups.push(order.slice(start, start + batchSize));
      groups.reverse();
      // One lane per thread of the runner, each taking the next batch when its last one is read.
      const lane = async () => {
        for (let group = groups.shift(); group !== undefined; group = groups.shift()) {
          signal?.throwIfAborted();
          const read = await batch(group.map(({ index }) => images[index]!));
          group.forEach(({ index }, position) => (texts[index] = read[position]!));
        }
      };
      await Promise.all(Array.from({ length: runner.concurrency }, lane));
      return texts;
    },
    close: () => runner.close(),
  };
}

/** A full-width form (U+FF01–U+FF5E) or the ideographic space as its ASCII character; anything else unchanged. */
export function toHalfWidth(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  if (character.length === 1 && code >= 0xff01 && code <= 0xff5e) return String.fromCharCode(code - 0xfee0);
  return code === 0x3000 ? ' ' : character;
}

/** Greedy CTC: best class per step, repeats merged, blanks dropped; a space where the gap's space class peaks. */
function decode(data: Float32Array, offset: number, steps: number, classes: number, characters: string[], spaceThreshold: number): RecognizedText {
  const space = classes - 1;
  let text = '';
  let sum = 0;
  let count = 0;
  let previous = -1;
  let gapSpace = 0;
  for (let step = 0; step < steps; step++) {
    const row = offset + step * classes;
    let best = 0;
    let bestValue = data[row]!;
    for (let index = 1; index < classes; index++) {
      if (data[row + index]! > bestValue) {
        bestValue = data[row + index]!;
        best = index;
      }
    }
    if (best === 0) {
      gapSpace = Math.max(gapSpace, data[row + space]!);
    } else if (best !== previous) {
      if (gapSpace > spaceThreshold && text.length > 0 && !text.endsWith(' ') && best !== space) text += ' ';
      text += characters[best]!;
      sum += bestValue;
      count++;
      gapSpace = 0;
    }
    previous = best;
  }
  return { text: tidyNumbers(text.trim()), confidence: count === 0 ? 0 : Math.round((sum / count) * 1e4) / 1e4 };
}

/**
 * Two fixes for numbers, where the recogniser's Chinese dictionary and its spaces go wrong on clean
 * Latin text: o/O read between digits is 0, l/I is 1 (`7o.5%` → `70.5%`, `1l0` → `110`; a letter at
 * the start of a word, as in the code `O0-12`, stays); a space the gap detector put inside a number is
 * dropped (`10 . 0%` → `10.0%`, `1, 024` → `1,024`: a comma only before exactly three digits).
 */
export function tidyNumbers(text: string): string {
  const numberish = (char: string | undefined) => char !== undefined && /[\d.,%]/.test(char);
  const digit = (char: string | undefined) => char !== undefined && /\d/.test(char);
  const chars = [...text];
  for (let i = 1; i < chars.length - 1; i++) {
    const [before, after] = [chars[i - 1], chars[i + 1]];
    if (!/[oOlI]/.test(chars[i]!) || !numberish(before) || !numberish(after) || !(digit(before) || digit(after))) continue;
    // Only inside a run of digits: the letter's neighbours on both sides lead to a digit.
    chars[i] = /[oO]/.test(chars[i]!) ? '0' : '1';
  }
  return chars
    .join('')
    .replace(/(\d) ?\. ?(?=\d)/g, (match, digitBefore: string) => (match.includes(' ') ? `${digitBefore}.` : match))
    .replace(/(\d), (?=\d{3}(?!\d))/g, '$1,');
}
