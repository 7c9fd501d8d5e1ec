import type { RawImage } from './encoded-image.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';

/**
 * Bilinear resize of an image's first three channels to interleaved floats (0–255), with
 * half-pixel centres as OpenCV's INTER_LINEAR: the input of ONNX vision models (OCR, detectors)
 * that were trained on OpenCV resizes, ready to normalise. An alpha channel is dropped.
 */
export function resizeBilinear(image: RawImage, width: number, height: number): Float32Array {
  const { data, width: sourceWidth, height: sourceHeight, channels } = image;
  for (const [argument, value] of [['width', width], ['height', height]] as const) {
    if (!Number.isInteger(value) || value < 1) throw new InvalidImageArgumentError({ argument, expected: 'a positive integer', received: String(value), value });
  }
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
