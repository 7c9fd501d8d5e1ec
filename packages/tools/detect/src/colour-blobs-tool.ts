import { defineTool } from '@saccade/core';
import { decodeImage } from '@saccade/image';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { detectShapes, matchQuery } from './detect-shapes';

/** Settings of {@link createColourBlobsTool}. */
export interface ColourBlobsToolSettings {
  /** The name the model calls (default `colour_blobs`). */
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
 * Colour blobs, not an object detector: colour thresholds and connected components on the pixels of
 * drawn scenes (the procedural envs, diagrams), labelled "red circle", "blue square", … Returns
 * `{"detections": [{"bbox", "label", "area"}], "count"}`. On photos it finds colour patches, not
 * objects: `detect` (createDetectTool) runs a real detector from an ONNX file.
 */
export function createColourBlobsTool({ name = 'colour_blobs', minArea = 20, maxDetections = 50 }: ColourBlobsToolSettings = {}): Tool<z.infer<typeof input>> {
  return defineTool({
    name,
    description: 'Colour blobs in a drawn image (flat colours on a plain background, not photos): find coloured shapes in the original image, boxes [x1, y1, x2, y2] in pixels with labels like "red circle". caption filters by colour and shape.',
    inputSchema: input,
    async execute({ caption }, { images }) {
      const image = images[0];
      if (image === undefined) throw new Error('expected an image in the episode to search, but the episode has none');
      const found = matchQuery(detectShapes(await decodeImage(image, { channels: 3 }), minArea), caption).slice(0, maxDetections);
      return { text: JSON.stringify({ detections: found.map(({ bbox, label, area }) => ({ bbox, label, area })), count: found.length }) };
    },
  });
}

/** The colour-blob finder with default settings, named `colour_blobs`. */
export const colourBlobsTool = createColourBlobsTool();
