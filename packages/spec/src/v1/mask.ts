import { InvalidArgumentError } from '../errors/invalid-argument-error';

/**
 * A binary mask in COCO's uncompressed run-length encoding: `size` is [height, width] and `counts`
 * alternates runs of 0s and 1s over the pixels in column-major order (down the first column, then
 * the next), starting with a run of 0s (0 when the first pixel is set). pycocotools'
 * `mask.frPyObjects` reads it as is.
 */
export interface MaskRle {
  size: [height: number, width: number];
  counts: number[];
}

/** One mask a segmenter returned (REFERENCE §4, segmentation): the mask and what the agent reads of it. */
export interface SegmentationMask {
  rle: MaskRle;
  /** The model's quality estimate (SAM's predicted IoU), 0–1, to 0.001. */
  score: number;
  /** Pixels in the mask. */
  area: number;
  /** area / (width × height), to 0.0001. */
  coverage: number;
  /** [x1, y1, x2, y2] in pixels, x2 and y2 exclusive; [0, 0, 0, 0] for an empty mask. */
  bbox: [number, number, number, number];
  /** The mean of the mask's pixel centres, [x, y], to 0.1 px; null for an empty mask. */
  centroid: [number, number] | null;
}

const invalid = (argument: string, expected: string, value: unknown, message: string): InvalidArgumentError => new InvalidArgumentError({ argument, expected, value, message });

const checkSize = (width: number, height: number, argument: string): void => {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw invalid(argument, 'a whole, non-negative width and height', [width, height], `expected ${argument} to be a whole, non-negative width and height, received ${String(width)} × ${String(height)}`);
  }
};

/** COCO RLE of a row-major mask (`mask[y * width + x]`, non-zero = in the mask). */
export function encodeMaskRle(mask: ArrayLike<number>, width: number, height: number): MaskRle {
  checkSize(width, height, 'size');
  if (mask.length !== width * height) throw invalid('mask', `${width * height} values`, mask.length, `expected a mask of ${width} × ${height} = ${width * height} values, received ${mask.length}`);
  const counts: number[] = [];
  let value = 0;
  let run = 0;
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const bit = mask[y * width + x] ? 1 : 0;
      if (bit !== value) {
        counts.push(run);
        value = bit;
        run = 0;
      }
      run++;
    }
  }
  counts.push(run);
  return { size: [height, width], counts };
}

/** The row-major 0/1 mask of a COCO RLE; throws when the counts do not cover exactly height × width pixels. */
export function decodeMaskRle(rle: MaskRle): Uint8Array {
  const [height, width] = rle.size;
  checkSize(width, height, 'rle.size');
  const mask = new Uint8Array(width * height);
  let index = 0;
  rle.counts.forEach((run, runIndex) => {
    if (!Number.isInteger(run) || run < 0) throw invalid('rle.counts', 'whole, non-negative numbers', run, `expected RLE counts to be whole, non-negative numbers, received ${String(run)} at ${runIndex}`);
    if (index + run > width * height) throw invalid('rle.counts', `counts summing to ${width * height}`, rle.counts.length, `expected RLE counts to sum to ${width * height} (${height} × ${width}), they pass it at run ${runIndex}`);
    if (runIndex % 2 === 1) {
      for (let i = index; i < index + run; i++) mask[(i % height) * width + Math.floor(i / height)] = 1;
    }
    index += run;
  });
  if (index !== width * height) throw invalid('rle.counts', `counts summing to ${width * height}`, index, `expected RLE counts to sum to ${width * height} (${height} × ${width}), they sum to ${index}`);
  return mask;
}

/** The {@link SegmentationMask} of a row-major mask and its score. */
export function describeMask(mask: ArrayLike<number>, width: number, height: number, score: number): SegmentationMask {
  const rle = encodeMaskRle(mask, width, height);
  let area = 0;
  let sumX = 0;
  let sumY = 0;
  let [x1, y1, x2, y2] = [width, height, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      area++;
      sumX += x + 0.5;
      sumY += y + 0.5;
      if (x < x1) x1 = x;
      if (y < y1) y1 = y;
      if (x + 1 > x2) x2 = x + 1;
      if (y + 1 > y2) y2 = y + 1;
    }
  }
  const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;
  return {
    rle,
    score: round(score, 3),
    area,
    coverage: width * height === 0 ? 0 : round(area / (width * height), 4),
    bbox: area === 0 ? [0, 0, 0, 0] : [x1, y1, x2, y2],
    centroid: area === 0 ? null : [round(sumX / area, 1), round(sumY / area, 1)],
  };
}

/**
 * The colours masks are drawn in, by their place in a result: the segment tool's overlay and the
 * viewer use the same list, so a mask has one colour wherever it is shown.
 */
export const MASK_COLOURS: readonly (readonly [number, number, number])[] = [
  [30, 144, 255],
  [255, 140, 0],
  [50, 205, 50],
  [220, 20, 60],
  [148, 0, 211],
];
