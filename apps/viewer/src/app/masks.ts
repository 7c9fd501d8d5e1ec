import { decodeMaskRle, MASK_COLOURS, type MaskRle } from '@saccade/spec';

/** A mask a tool returned (`{"masks": [{"rle", "score", "area", "coverage", "bbox"}]}`), decoded for drawing. */
export interface MaskOverlay {
  /** The call whose response held it (0-based) and its place in that response. */
  call: number;
  index: number;
  width: number;
  height: number;
  /** Row-major 0/1 pixels. */
  pixels: Uint8Array;
  score?: number;
  area: number;
  coverage: number;
}


/** A mask's colour: the segment tool's for its place in the result (spec's MASK_COLOURS). */
export const maskColour = (mask: Pick<MaskOverlay, 'index'>): readonly [number, number, number] => MASK_COLOURS[mask.index % MASK_COLOURS.length]!;

/** The JSON object in a tool response (from its first `{` to its last `}`), or undefined for a text result. */
export function responseJson(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  if (start === -1) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(start, text.lastIndexOf('}') + 1));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isRle = (value: unknown): value is MaskRle => {
  const rle = value as Partial<MaskRle> | undefined;
  return Array.isArray(rle?.size) && rle.size.length === 2 && rle.size.every((side) => Number.isInteger(side) && side >= 0) && Array.isArray(rle.counts) && rle.counts.every((run) => Number.isInteger(run) && run >= 0);
};

/**
 * The masks of a turn's tool responses: each `masks` entry whose `rle` is a COCO RLE that decodes
 * (counts covering exactly height × width pixels); anything else in a response is not a mask.
 */
export function segmentationMasks(responses: readonly string[]): MaskOverlay[] {
  const overlays: MaskOverlay[] = [];
  responses.forEach((text, call) => {
    const masks = responseJson(text)?.masks;
    if (!Array.isArray(masks)) return;
    masks.forEach((entry: { rle?: unknown; score?: unknown; coverage?: unknown } | null, index) => {
      if (!isRle(entry?.rle)) return;
      let pixels: Uint8Array;
      try {
        pixels = decodeMaskRle(entry.rle);
      } catch {
        return;
      }
      const [height, width] = entry.rle.size;
      const area = pixels.reduce((sum, bit) => sum + bit, 0);
      overlays.push({
        call,
        index,
        width,
        height,
        pixels,
        ...(typeof entry.score === 'number' ? { score: entry.score } : {}),
        area,
        coverage: width * height === 0 ? 0 : area / (width * height),
      });
    });
  });
  return overlays;
}

/**
 * The RGBA layer of a mask in its colour: its edge pixels (a 4-neighbour outside the mask or the
 * image) opaque, so the outline reads on any picture, the inside at 40% so the object shows through.
 */
export function maskLayer(mask: Pick<MaskOverlay, 'width' | 'height' | 'pixels'>, [r, g, b]: readonly [number, number, number]): Uint8ClampedArray<ArrayBuffer> {
  const { width, height, pixels } = mask;
  const rgba = new Uint8ClampedArray(width * height * 4);
  const inside = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < width && y < height && pixels[y * width + x] === 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!inside(x, y)) continue;
      const edge = !inside(x - 1, y) || !inside(x + 1, y) || !inside(x, y - 1) || !inside(x, y + 1);
      rgba.set([r, g, b, edge ? 255 : 102], (y * width + x) * 4);
    }
  }
  return rgba;
}
