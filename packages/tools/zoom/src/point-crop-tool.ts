import { clipBox, crop, drawPoints } from '@saccade/image';
import { defineTool } from '@saccade/core';
import { InvalidArgumentError, type Tool } from '@saccade/spec';
import { z } from 'zod';
import { checkSeenSize, formatNumber, originalImage, type SeenSize } from './seen-size';

export interface PointCropToolSettings {
  /** The name the model calls (default ViGoRL's `search_coordinate`). */
  name?: string;
  /** Half the side of the box around the point, in original pixels (default 182: ViGoRL on V*; 100 for web). */
  offset?: number;
  /** The crop is resized to cropSize × cropSize (default 672: V*; 512 for web). */
  cropSize?: number;
  /** Mark the point with a red dot (ViGoRL's web setting: radius 7). Default false. */
  dot?: boolean | { radius?: number; color?: string };
  /** The size the model saw the original at; the point is scaled back (default: the original size). */
  seenSize?: SeenSize;
}

const pointInput = z.object({
  coordinate: z
    .array(z.number(), { error: 'an array [x, y] of 2 numbers' })
    .length(2, { error: 'exactly 2 numbers [x, y]' })
    .describe('The point to look at closely, [x, y] in pixels of the image.'),
});

export type PointCropInput = z.infer<typeof pointInput>;

/**
 * ViGoRL's multi-turn crop: the box [x − offset, y − offset, x + offset, y + offset] around the
 * point, clipped to the original image, resized to cropSize², optionally with a red dot on the point.
 */
export function createPointCropTool({ name = 'search_coordinate', offset = 182, cropSize = 672, dot = false, seenSize }: PointCropToolSettings = {}): Tool<PointCropInput> {
  seenSize = checkSeenSize(seenSize);
  // Settings may come from JSON (`--tool-options`): refuse what would fail at every call.
  for (const [argument, value] of [['offset', offset], ['cropSize', cropSize]] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidArgumentError({ argument, expected: 'a positive integer (pixels)', value });
  }
  return defineTool({
    name,
    description: `Look closely at a point of the original image: returns the region around coordinate [x, y] (pixels of the image), enlarged to ${cropSize} × ${cropSize}.`,
    inputSchema: pointInput,
    async execute({ coordinate }, { images }) {
      const [x, y] = coordinate as [number, number];
      const { image, size, scaleX, scaleY } = await originalImage(images, seenSize);
      const px = x * scaleX;
      const py = y * scaleY;
      // The far edges count as inside: on a coarse frame (8 × 8) the last grid line is the image's edge.
      if (!(px >= 0 && py >= 0 && px <= size.width && py <= size.height)) {
        throw new Error(`expected a point inside the image or on its edge, received [${coordinate.map(formatNumber).join(', ')}]`);
      }
      const box = clipBox({ x1: px - offset, y1: py - offset, x2: px + offset, y2: py + offset }, size.width, size.height);
      let result = await crop(image, box, { resize: { width: cropSize, height: cropSize, fit: 'fill' } });
      if (dot !== false) {
        const { radius = 7, color = '#ff0000' } = dot === true ? {} : dot;
        const at = { x: ((px - box.x1) * cropSize) / (box.x2 - box.x1), y: ((py - box.y1) * cropSize) / (box.y2 - box.y1) };
        result = await drawPoints(result, [{ x: Math.floor(at.x), y: Math.floor(at.y), radius, color }]);
      }
      return { text: `The region around [${coordinate.map(formatNumber).join(', ')}].`, images: [result], region: [box.x1, box.y1, box.x2, box.y2] };
    },
    // The box's centre, in the pixels the model saw (whole pixels, as models write them).
    async lookAt([x1, y1, x2, y2], { images }) {
      const { scaleX, scaleY } = await originalImage(images, seenSize);
      return { coordinate: [Math.round((x1 + x2) / 2 / scaleX), Math.round((y1 + y2) / 2 / scaleY)] };
    },
  });
}

/** The point crop with ViGoRL's V* settings (offset 182, 672 px). */
export const pointCropTool: Tool<PointCropInput> = createPointCropTool();
