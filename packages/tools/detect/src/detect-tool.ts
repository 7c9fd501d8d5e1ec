import { defineTool } from '@saccade/core';
import { decodeImage } from '@saccade/image';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { createOnnxDetector, type OnnxDetector, type OnnxDetectorSettings } from './onnx-detector';

/** What `detect` is configured with (`saccade eval --tool-options '{"detect": {…}}'`); all but the model optional. */
export interface DetectToolSettings extends Partial<OnnxDetectorSettings> {
  /** The name the model calls (default `detect`). */
  name?: string;
  /** Short for modelPath (the CLI's spelling). */
  model?: string;
  /** Short for labelsPath. */
  labels?: string;
}

const settingsSchema = z
  .object({
    name: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    modelPath: z.string().min(1).optional(),
    labels: z.string().min(1).optional(),
    labelsPath: z.string().min(1).optional(),
    layout: z.enum(['auto', 'yolo', 'yolov5', 'detr', 'rtdetr']).optional(),
    scoreThreshold: z.number().min(0).max(1).optional(),
    iouThreshold: z.number().min(0).max(1).optional(),
    maxDetections: z.number().int().positive().optional(),
    inputSize: z.number().int().positive().optional(),
    threads: z.number().int().positive().optional(),
  })
  .strict();

const input = z.object({
  caption: z.string().max(300).optional().describe('Object classes to keep, comma-separated (e.g. "person, dog"); empty keeps every class.'),
  score_threshold: z.number().min(0).max(1).optional().describe('Lowest score kept (default the tool\'s, 0.25).'),
});

/** Detectors loaded by the detect tools, by model and settings: loaded once, shared, closed by closeDetectors. */
const loaded = new Map<string, Promise<OnnxDetector>>();

/** Releases every loaded detector (their onnxruntime sessions). */
export async function closeDetectors(): Promise<void> {
  const all = [...loaded.values()];
  loaded.clear();
  await Promise.all(all.map(async (detector) => (await detector.catch(() => undefined))?.close()));
}

/**
 * `detect`: an object detector exported to ONNX (YOLO or DETR/RT-DETR layout; see createOnnxDetector)
 * on onnxruntime-node, loaded on the first call and kept. The model comes from the settings or the
 * `SACCADE_DETECT_MODEL` environment variable (labels: `SACCADE_DETECT_LABELS`). Returns
 * `{"detections": [{"bbox": [x1, y1, x2, y2], "label", "score"}], "count"}` in the original image's
 * pixels, best first.
 */
export function createDetectTool(settings: DetectToolSettings = {}): Tool<z.infer<typeof input>> {
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error(`expected detect settings {model, labels?, layout?, scoreThreshold?, iouThreshold?, maxDetections?, inputSize?, threads?}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`).join('; ')}`);
  const { name = 'detect', model, labels, ...rest } = parsed.data;
  const open = (): Promise<OnnxDetector> => {
    const modelPath = rest.modelPath ?? model ?? process.env['SACCADE_DETECT_MODEL'];
    if (modelPath === undefined || modelPath === '') {
      throw new Error('expected an ONNX detector for detect: give its path as --tool-options \'{"detect": {"model": "yolo11n.onnx"}}\' or SACCADE_DETECT_MODEL');
    }
    const labelsPath = rest.labelsPath ?? labels ?? (process.env['SACCADE_DETECT_LABELS'] || undefined);
    const full: OnnxDetectorSettings = { ...rest, modelPath, ...(labelsPath === undefined ? {} : { labelsPath }) };
    const key = JSON.stringify(full);
    let detector = loaded.get(key);
    if (detector === undefined) {
      detector = createOnnxDetector(full);
      loaded.set(key, detector);
      // A model that failed to load is tried again on the next call.
      detector.catch(() => loaded.delete(key));
    }
    return detector;
  };
  return defineTool({
    name,
    description: 'Detect objects in the original image with an object detector: boxes [x1, y1, x2, y2] in pixels, class labels and scores. caption keeps only the named classes.',
    inputSchema: input,
    async execute({ caption, score_threshold }, { images }) {
      const image = images[0];
      if (image === undefined) throw new Error('expected an image in the episode to search, but the episode has none');
      const detector = await open();
      let classes: number[] | undefined;
      const wanted = (caption ?? '').split(/[,;]|\band\b/).map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
      if (wanted.length > 0) {
        const names = detector.labels.map((label) => label.toLowerCase());
        // "dogs" finds "dog": a trailing s is dropped when the plural is not a class itself.
        classes = names.flatMap((label, id) => (wanted.some((word) => word === label || word.replace(/e?s$/, '') === label) ? [id] : []));
      }
      const found = await detector.detect(await decodeImage(image, { channels: 3 }), { ...(score_threshold === undefined ? {} : { scoreThreshold: score_threshold }), ...(classes === undefined ? {} : { classes }) });
      return { text: JSON.stringify({ detections: found.map(({ bbox, label, score }) => ({ bbox, label, score })), count: found.length }) };
    },
  });
}

/** `detect` with its model from SACCADE_DETECT_MODEL (or configured with createDetectTool). */
export const detectTool = createDetectTool();
