import { encodePng, type EncodedImage, type RawImage } from '@saccade/image';
import { MASK_COLOURS } from '@saccade/spec';
import type { SegmentPrompt } from './segmenter';


/**
 * The image with each mask blended in its colour (half opacity), the prompt's box outlined in white
 * and its points as 5 × 5 dots (green in the object, red outside), as PNG.
 */
export async function drawMasks(image: RawImage, masks: readonly Uint8Array[], prompt: SegmentPrompt = {}): Promise<EncodedImage> {
  const { width, height, channels } = image;
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) for (let c = 0; c < 3; c++) pixels[i * 3 + c] = image.data[i * channels + c]!;
  masks.forEach((mask, index) => {
    const colour = MASK_COLOURS[index % MASK_COLOURS.length]!;
    for (let i = 0; i < width * height; i++) {
      if (!mask[i]) continue;
      for (let c = 0; c < 3; c++) pixels[i * 3 + c] = Math.round((pixels[i * 3 + c]! + colour[c]!) / 2);
    }
  });
  const paint = (x: number, y: number, colour: readonly number[]): void => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    for (let c = 0; c < 3; c++) pixels[(y * width + x) * 3 + c] = colour[c]!;
  };
  if (prompt.box !== undefined) {
    const [x1, y1, x2, y2] = prompt.box.map(Math.round) as [number, number, number, number];
    for (let x = x1; x < x2; x++) [y1, y2 - 1].forEach((y) => paint(x, y, [255, 255, 255]));
    for (let y = y1; y < y2; y++) [x1, x2 - 1].forEach((x) => paint(x, y, [255, 255, 255]));
  }
  for (const point of prompt.points ?? []) {
    const colour = point.label === 1 ? [0, 255, 0] : [255, 0, 0];
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) paint(Math.floor(point.x) + dx, Math.floor(point.y) + dy, colour);
  }
  return encodePng({ data: pixels, width, height, channels: 3 });
}
