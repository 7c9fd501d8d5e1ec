import { defineTool } from '@saccade/core';
import { decodeImage } from '@saccade/image';
import { describeMask, type SegmentationMask, type Tool } from '@saccade/spec';
import { z } from 'zod';
import { drawMasks } from './draw-masks';
import { createSamSegmenter } from './sam-segmenter';
import type { Segmenter, SegmentPrompt } from './segmenter';

/** What `segment` is configured with (`--tool-options '{"segment": {"model": "<folder>"}}'`). */
export interface SegmentToolSettings {
  /** The name the model calls (default `segment`). */
  name?: string;
  /** The SAM model folder (default SACCADE_SEGMENT_MODEL). */
  model?: string;
  /** Mask logits above this are in the mask (default 0). */
  maskThreshold?: number;
  /** A segmenter made in code instead of a model folder (tests, other backends). */
  segmenter?: Segmenter;
}

const settingsSchema = z
  .object({
    name: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    maskThreshold: z.number().optional(),
    segmenter: z.custom<Segmenter>((value) => typeof (value as Segmenter | undefined)?.segment === 'function', 'expected an object with segment(image, prompt)').optional(),
  })
  .strict();

const xy = z.tuple([z.number(), z.number()]);
const input = z
  .object({
    points: z.array(xy).max(16).optional().describe('Points [x, y] in the original image\'s pixels on the object to segment.'),
    negative_points: z.array(xy).max(16).optional().describe('Points [x, y] outside the object (to exclude a neighbour).'),
    box: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional().describe('A box [x1, y1, x2, y2] in pixels around the object.'),
    multimask: z.boolean().optional().describe('Return every candidate mask (SAM gives 3: part, object, whole), best first; default only the best.'),
  })
  .refine((value) => (value.points?.length ?? 0) > 0 || value.box !== undefined, { message: 'expected points or a box to prompt the segmenter' });

/** Segmenters loaded by the segment tools, by folder and threshold: loaded once, shared, closed by closeSegmenters. */
const loaded = new Map<string, Promise<Segmenter>>();

/** Releases every loaded segmenter (their onnxruntime sessions). */
export async function closeSegmenters(): Promise<void> {
  const all = [...loaded.values()];
  loaded.clear();
  await Promise.all(all.map(async (segmenter) => (await segmenter.catch(() => undefined))?.close()));
}

const WHERE = 'give a SAM ONNX model folder (config.json, preprocessor_config.json, onnx/vision_encoder.onnx, onnx/prompt_encoder_mask_decoder.onnx, e.g. Xenova/slimsam-77-uniform) as --tool-options \'{"segment": {"model": "<folder>"}}\' or SACCADE_SEGMENT_MODEL';

const DESCRIPTION = 'Segment an object in the original image from points on it and/or a box around it (SAM): returns an image with the mask drawn over it and, per mask, its COCO RLE (column-major), score, area in pixels, coverage, bbox [x1, y1, x2, y2] and centroid [x, y].';

/**
 * `segment`: a SAM-family model (point or box prompts → masks) from a model folder on disk, run by
 * transformers.js; loaded on the first call and kept. Returns the overlay image and
 * `{"masks": [SegmentationMask…], "count"}`. Without a model folder the tool says so in its
 * description (not usable) and each call answers where to put one.
 */
export function createSegmentTool(settings: SegmentToolSettings = {}): Tool<z.output<typeof input>> {
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error(`expected segment settings {model?, maskThreshold?, segmenter?}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`).join('; ')}`);
  const { name = 'segment', model, maskThreshold, segmenter } = parsed.data;
  const folder = (): string | undefined => model ?? (process.env['SACCADE_SEGMENT_MODEL'] || undefined);
  const open = (): Promise<Segmenter> => {
    if (segmenter !== undefined) return Promise.resolve(segmenter);
    const modelPath = folder();
    if (modelPath === undefined) throw new Error(`expected a SAM model for segment, none is configured: ${WHERE}`);
    const key = JSON.stringify([modelPath, maskThreshold]);
    let opened = loaded.get(key);
    if (opened === undefined) {
      opened = createSamSegmenter({ modelPath, ...(maskThreshold === undefined ? {} : { maskThreshold }) });
      loaded.set(key, opened);
      // A folder that failed to load is tried again on the next call.
      opened.catch(() => loaded.delete(key));
    }
    return opened;
  };
  const usable = segmenter !== undefined || folder() !== undefined;
  return defineTool({
    name,
    description: usable ? DESCRIPTION : `Not usable: no SAM model is configured (${WHERE}). ${DESCRIPTION}`,
    inputSchema: input,
    async execute({ points = [], negative_points = [], box, multimask = false }, { images }) {
      const image = images[0];
      if (image === undefined) throw new Error('expected an image in the episode to segment, but the episode has none');
      const loadedSegmenter = await open();
      const raw = await decodeImage(image, { channels: 3 });
      const prompt: SegmentPrompt = { points: [...points.map(([x, y]) => ({ x, y, label: 1 as const })), ...negative_points.map(([x, y]) => ({ x, y, label: 0 as const }))] };
      if (box !== undefined) {
        const [x1, y1, x2, y2] = box;
        if (!(x2 > x1 && y2 > y1)) throw new Error(`expected box [x1, y1, x2, y2] with x2 > x1 and y2 > y1, received ${JSON.stringify(box)}`);
        prompt.box = box;
      }
      const outside = [...points, ...negative_points].find(([x, y]) => x < 0 || y < 0 || x >= raw.width || y >= raw.height);
      if (outside !== undefined) throw new Error(`expected points inside the ${raw.width} × ${raw.height} image, received ${JSON.stringify(outside)}`);
      const found = await loadedSegmenter.segment(raw, prompt);
      const kept = multimask ? found : found.slice(0, 1);
      const masks: SegmentationMask[] = kept.map(({ mask, score }) => describeMask(mask, raw.width, raw.height, score));
      const overlay = await drawMasks(raw, kept.map(({ mask }) => mask), prompt);
      return { text: JSON.stringify({ masks, count: masks.length }), images: [overlay] };
    },
  });
}

/** `segment` with its model folder from SACCADE_SEGMENT_MODEL (or configured with createSegmentTool). */
export const segmentTool = createSegmentTool();
