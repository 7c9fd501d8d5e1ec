import type { RawImage } from '@saccade/image';

/** The pixels inside a box (clipped to the image), as a new 3-channel image. */
export function cropPixels(image: RawImage, [x1, y1, x2, y2]: [number, number, number, number]): RawImage {
  const left = Math.max(0, Math.floor(x1));
  const top = Math.max(0, Math.floor(y1));
  const right = Math.min(image.width, Math.ceil(x2));
  const bottom = Math.min(image.height, Math.ceil(y2));
  const width = Math.max(1, right - left);
  const height = Math.max(1, bottom - top);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (Math.min(image.height - 1, top + y) * image.width + Math.min(image.width - 1, left + x)) * image.channels;
      data.set(image.data.subarray(from, from + 3), (y * width + x) * 3);
    }
  }
  return { data, width, height, channels: 3 };
}
