import { clipBox, crop } from '@saccade/image';
import { defineTool } from '@saccade/core';
import type { Tool } from '@saccade/spec';
import { z } from 'zod';
import { checkSeenSize, formatNumber, originalImage, type SeenSize } from './seen-size';

/** Settings of {@link createZoomTool}; every field has DeepEyes' value as its default. */
export interface ZoomToolSettings {
  /** The name the model calls (default DeepEyes' `image_zoom_in_tool`). */
  name?: string;
  /** Both sides of the box must be longer than this, in the model's pixels (default 30, as DeepEyes). */
  minSide?: number;
  /** Longest side over shortest side at most (default 100, as DeepEyes). */
  maxAspectRatio?: number;
  /** The size the model saw the original at; coordinates are scaled back (default: the original size). */
  seenSize?: SeenSize;
}

const zoomInput = z.object({
  bbox_2d: z
    .array(z.number(), { error: 'an array [x1, y1, x2, y2] of 4 numbers' })
    .length(4, { error: 'exactly 4 numbers [x1, y1, x2, y2]' })
    .describe('The region to zoom in on, [x1, y1, x2, y2] in pixels of the original image (x right, y down).'),
  label: z.string().max(200).optional().describe('What the region shows, e.g. "the red car".'),
});

/** The zoom's arguments as the model writes them: `bbox_2d` (pixels of the image it saw) and an optional `label`. */
export type ZoomInput = z.infer<typeof zoomInput>;

/**
 * DeepEyes' zoom: crops `bbox_2d` from the original image (never from an earlier crop) and returns
 * the crop at full resolution. Boxes are clipped to the image; a box too small, too thin or
 * outside the image is an error the model reads.
 */
export function createZoomTool({ name = 'image_zoom_in_tool', minSide = 30, maxAspectRatio = 100, seenSize }: ZoomToolSettings = {}): Tool<ZoomInput> {
  seenSize = checkSeenSize(seenSize);
  return defineTool({
    name,
    description: 'Zoom in on a region of the original image: returns the crop of bbox_2d [x1, y1, x2, y2] (pixels of the image) at full resolution.',
    inputSchema: zoomInput,
    async execute({ bbox_2d, label }, { images }) {
      const [x1, y1, x2, y2] = bbox_2d as [number, number, number, number];
      const width = x2 - x1;
      const height = y2 - y1;
      if (!(width > minSide && height > minSide)) {
        throw new Error(`expected a box with both sides longer than ${minSide} px, received [${bbox_2d.join(', ')}] (${formatNumber(width)} × ${formatNumber(height)})`);
      }
      if (Math.max(width, height) / Math.min(width, height) > maxAspectRatio) {
        throw new Error(`expected a box with an aspect ratio of at most ${maxAspectRatio}, received ${formatNumber(width)} × ${formatNumber(height)}`);
      }
      const { image, size, scaleX, scaleY } = await originalImage(images, seenSize);
      const region = clipBox({ x1: x1 * scaleX, y1: y1 * scaleY, x2: x2 * scaleX, y2: y2 * scaleY }, size.width, size.height);
      const zoomed = await crop(image, region);
      const what = label === undefined || label.length === 0 ? '' : ` (${label})`;
      return { text: `Zoomed in on [${bbox_2d.map(formatNumber).join(', ')}]${what}.`, images: [zoomed], region: [region.x1, region.y1, region.x2, region.y2] };
    },
    // The box in the model's pixels, grown about its centre to the smallest box the tool takes.
    async lookAt([x1, y1, x2, y2], { images }) {
      const { scaleX, scaleY } = await originalImage(images, seenSize);
      const side = minSide + 2;
      const grow = (low: number, high: number, scale: number): [number, number] => {
        const centre = (low + high) / 2 / scale;
        const half = Math.max((high - low) / scale, side) / 2;
        return [Math.floor(centre - half), Math.ceil(centre + half)];
      };
      const [left, right] = grow(x1, x2, scaleX);
      const [top, bottom] = grow(y1, y2, scaleY);
      return { bbox_2d: [left, top, right, bottom] };
    },
  });
}

/** The zoom tool with DeepEyes' settings. */
export const zoomTool: Tool<ZoomInput> = createZoomTool();
