import type { RawImage } from '@saccade/image';

/** Bilinear resize of 3-channel pixels to floats (half-pixel centres, as OpenCV's INTER_LINEAR). */
export function resizeBilinear(image: RawImage, width: number, height: number): Float32Array {
  const { data, width: sourceWidth, height: sourceHeight, channels } = image;
  const out = new Float32Array(width * height * 3);
  const scaleX = sourceWidth / width;
  const scaleY = sourceHeight / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(sourceHeight - 1, Math.max(0, (y + 0.5) * scaleY - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(sourceHeight - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(sourceWidth - 1, Math.max(0, (x + 0.5) * scaleX - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(sourceWidth - 1, x0 + 1);
      const wx = fx - x0;
      const a = (y0 * sourceWidth + x0) * channels;
      const b = (y0 * sourceWidth + x1) * channels;
      const c = (y1 * sourceWidth + x0) * channels;
      const d = (y1 * sourceWidth + x1) * channels;
      const o = (y * width + x) * 3;
      for (let k = 0; k < 3; k++) {
        out[o + k] = (data[a + k]! * (1 - wx) + data[b + k]! * wx) * (1 - wy) + (data[c + k]! * (1 - wx) + data[d + k]! * wx) * wy;
      }
    }
  }
  return out;
}

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
