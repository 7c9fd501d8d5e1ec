import { clipBox, crop, drawPoints, recordedImageSize } from '@saccade/image';
import { defineTool, pointInFrame, pointToOriginal, type PointFrame } from '@saccade/core';
import { InvalidArgumentError, type ImageBox, type ImageData, type Tool } from '@saccade/spec';
import { z } from 'zod';
import { checkSeenSize, formatNumber, originalImage, type SeenSize, type Size } from './seen-size';

/** Settings of {@link createPointCropTool}; the defaults are ViGoRL's on V*. */
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
  /**
   * Read [x, y] as a cell of the seen frame (column and row from 0) and centre the crop on the
   * cell's middle, instead of as a point. On a coarse frame that matches the model's patch grid
   * (8 × 8 cells for 128-px images in 16-px patches) a call names the patch the target is in;
   * as a point, the nearest grid line depends on where in its patch the target lies.
   */
  cells?: boolean;
  /**
   * Which image the coordinates are in: 'first' (default, ViGoRL's: the original, whatever was
   * cropped before) or 'latest' (the latest image of the episode, a look closer into the last crop:
   * the point is mapped back through the region of the original that crop shows, and the box
   * shrinks with it, `offset` × the region's side / the original's, so each look zooms in by the
   * same factor). An image that is no crop (the original, or one whose region is not known) is the
   * original's frame.
   */
  frame?: 'first' | 'latest';
}

const pointInput = z.object({
  coordinate: z
    .array(z.number(), { error: 'an array [x, y] of 2 numbers' })
    .length(2, { error: 'exactly 2 numbers [x, y]' })
    .describe('The point to look at closely, [x, y] in pixels of the image.'),
});

/** The point crop's arguments: `coordinate` [x, y] in pixels the model saw (or a cell, with `cells`). */
export type PointCropInput = z.infer<typeof pointInput>;

/**
 * ViGoRL's multi-turn crop: the box [x − offset, y − offset, x + offset, y + offset] around the
 * point, clipped to the original image, resized to cropSize², optionally with a red dot on the point.
 */
export function createPointCropTool({ name = 'search_coordinate', offset = 182, cropSize = 672, dot = false, seenSize, cells = false, frame = 'first' }: PointCropToolSettings = {}): Tool<PointCropInput> {
  seenSize = checkSeenSize(seenSize);
  // Settings may come from JSON (`--tool-options`): refuse what would fail at every call.
  for (const [argument, value] of [['offset', offset], ['cropSize', cropSize]] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidArgumentError({ argument, expected: 'a positive integer (pixels)', value });
  }
  if (typeof cells !== 'boolean') throw new InvalidArgumentError({ argument: 'cells', expected: 'true or false', value: cells });
  if (frame !== 'first' && frame !== 'latest') throw new InvalidArgumentError({ argument: 'frame', expected: "'first' or 'latest'", value: frame });
  const where = frame === 'latest' ? 'the latest image' : 'the image';
  return defineTool({
    name,
    description: cells
      ? `Look closely at a cell of ${where}: returns the region around cell [column, row] (counted from 0 on a grid over ${where}), enlarged to ${cropSize} × ${cropSize}.`
      : frame === 'latest'
        ? `Look closely at a point of the latest image: returns the region around coordinate [x, y] (pixels of that image), enlarged to ${cropSize} × ${cropSize}.`
        : `Look closely at a point of the original image: returns the region around coordinate [x, y] (pixels of the image), enlarged to ${cropSize} × ${cropSize}.`,
    inputSchema: pointInput,
    async execute({ coordinate }, { images, regions }) {
      const [x, y] = coordinate as [number, number];
      const { image, size } = await originalImage(images, seenSize);
      const view = await viewOf(images, regions, size);
      if (cells && !(Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < view.columns && y < view.rows)) {
        throw new Error(`expected a cell [column, row] of whole numbers from [0, 0] to [${view.columns - 1}, ${view.rows - 1}], received [${coordinate.map(formatNumber).join(', ')}]`);
      }
      const inView = pointToOriginal({ x, y }, view.points, view.size);
      const [px, py] = [view.x1 + inView.x, view.y1 + inView.y];
      // The far edges count as inside: on a coarse frame (8 × 8) the last grid line is the image's edge.
      if (!(px >= view.x1 && py >= view.y1 && px <= view.x2 && py <= view.y2)) {
        throw new Error(`expected a point inside ${where} or on its edge, received [${coordinate.map(formatNumber).join(', ')}]`);
      }
      const [offsetX, offsetY] = [(offset * (view.x2 - view.x1)) / size.width, (offset * (view.y2 - view.y1)) / size.height];
      const box = clipBox({ x1: px - offsetX, y1: py - offsetY, x2: px + offsetX, y2: py + offsetY }, size.width, size.height);
      let result = await crop(image, box, { resize: { width: cropSize, height: cropSize, fit: 'fill' } });
      if (dot !== false) {
        const { radius = 7, color = '#ff0000' } = dot === true ? {} : dot;
        const at = { x: ((px - box.x1) * cropSize) / (box.x2 - box.x1), y: ((py - box.y1) * cropSize) / (box.y2 - box.y1) };
        result = await drawPoints(result, [{ x: Math.floor(at.x), y: Math.floor(at.y), radius, color }]);
      }
      return { text: `The region around [${coordinate.map(formatNumber).join(', ')}].`, images: [result], region: [box.x1, box.y1, box.x2, box.y2] };
    },
    // The box's centre, in the pixels the model saw (whole pixels, as models write them), or the cell it lies in.
    async lookAt([x1, y1, x2, y2], { images, regions }) {
      const { size } = await originalImage(images, seenSize);
      const view = await viewOf(images, regions, size);
      const point = pointInFrame({ x: (x1 + x2) / 2 - view.x1, y: (y1 + y2) / 2 - view.y1 }, view.points, view.size);
      return { coordinate: [point.x, point.y] };
    },
  });

  /**
   * The frame the coordinates are in: the part of the original it shows (x1…y2, original pixels,
   * and its size), the point frame over it (the seen size, cells or not), and its size in cells. With frame
   * 'latest' and a latest image that is a crop of known region, that crop; else the original.
   */
  async function viewOf(images: readonly ImageData[], regions: readonly (ImageBox | undefined)[] | undefined, size: Size) {
    const last = images.length - 1;
    const region = frame === 'latest' && last > 0 ? regions?.[last] : undefined;
    const [x1, y1, x2, y2] = region ?? [0, 0, size.width, size.height];
    const shown = region === undefined ? size : await recordedImageSize(images[last]!);
    const seen = typeof seenSize === 'function' ? seenSize(shown) : (seenSize ?? shown);
    // The frame over the view's part of the original: core's mapping, the one the grounded envs score points with.
    const points: PointFrame = { seenSize: seen, cells };
    return { x1, y1, x2, y2, size: { width: x2 - x1, height: y2 - y1 }, points, columns: Math.round(seen.width), rows: Math.round(seen.height) };
  }
}


/** The point crop with ViGoRL's V* settings (offset 182, 672 px). */
export const pointCropTool: Tool<PointCropInput> = createPointCropTool();
