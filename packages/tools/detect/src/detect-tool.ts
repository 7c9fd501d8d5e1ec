import { defineTool } from '@saccade/core';
import { decodeImage } from '@saccade/image';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { detectShapes, matchQuery } from './detect-shapes';

export interface DetectToolSettings {
  /** The name the model calls (default `detect`). */
  name?: string;
  /** Components smaller than this many pixels are ignored (default 20). */
  minArea?: number;
  /** The most boxes returned (default 50). */
  maxDetections?: number;
}

const input = z.object({
  caption: z.string().max(200).optional().describe('What to find, e.g. "red circles" or "blue square"; empty finds every coloured shape.'),
});

/**
 * A classical detector for drawn scenes (procedural envs, diagrams): colour thresholds and
 * connected components on the pixels, labelled "red circle", "blue square", … Returns
 * `{"detections": [{"bbox", "label", "area"}], "count"}` in the Grounding DINO tool's spirit.
 */
export function createDetectTool({ name = 'detect', minArea = 20, maxDetections = 50 }: DetectToolSettings = {}): Tool<z.infer<typeof input>> {
  return defineTool({
    name,
    description: 'Find coloured shapes in the original image: boxes [x1, y1, x2, y2] in pixels with labels like "red circle". caption filters by colour and shape.',
    inputSchema: input,
    async execute({ caption }, { images }) {
      const image = images[0];
      if (image === undefined) throw new Error('expected an image in the episode to search, but the episode has none');
      const found = matchQuery(detectShapes(await decodeImage(image, { channels: 3 }), minArea), caption).slice(0, maxDetections);
      return { text: JSON.stringify({ detections: found.map(({ bbox, label, area }) => ({ bbox, label, area })), count: found.length }) };
    },
  });
}

/** The detector with default settings. */
export const detectTool = createDetectTool();
