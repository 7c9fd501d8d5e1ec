import { InvalidArgumentError } from '@saccade/spec';

/** A grayscale image: one byte-range value per pixel, row-major. */
export interface GrayImage {
  data: Float64Array | Uint8Array;
  width: number;
  height: number;
}

/** Luma (ITU-R BT.601) of interleaved RGB or RGBA pixels, alpha ignored. */
export function toGray(pixels: { data: Uint8Array; width: number; height: number; channels: number }): GrayImage {
  const { data, width, height, channels } = pixels;
  const gray = new Float64Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = 0.299 * data[i * channels]! + 0.587 * data[i * channels + 1]! + 0.114 * data[i * channels + 2]!;
  return { data: gray, width, height };
}

/** Options of {@link ssim}: the window and the value range. */
export interface SsimOptions {
  /** Side of the square window (odd, default 7, as scikit-image). */
  window?: number;
  /** The range of pixel values (default 255). */
  dataRange?: number;
}

/** Sums over every window × window square, from a summed-area table (O(pixels) whatever the window). */
function windowSums(values: Float64Array, width: number, height: number, window: number): Float64Array {
  const stride = width + 1;
  const table = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += values[y * width + x]!;
      table[(y + 1) * stride + x + 1] = table[y * stride + x + 1]! + row;
    }
  }
  const outWidth = width - window + 1;
  const outHeight = height - window + 1;
  const sums = new Float64Array(outWidth * outHeight);
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      sums[y * outWidth + x] = table[(y + window) * stride + x + window]! - table[y * stride + x + window]! - table[(y + window) * stride + x]! + table[y * stride + x]!;
    }
  }
  return sums;
}

/**
 * Mean structural similarity (Wang et al. 2004) of two grayscale images of one size, over uniform
 * window × window squares with the sample covariance, K1 = 0.01, K2 = 0.03: scikit-image's
 * `structural_similarity` defaults. 1 for identical images; can fall below 0 for inverted ones.
 */
export function ssim(a: GrayImage, b: GrayImage, { window = 7, dataRange = 255 }: SsimOptions = {}): number {
  if (a.width !== b.width || a.height !== b.height) {
    throw new InvalidArgumentError({ argument: 'b', expected: `an image of ${a.width} × ${a.height} (the size of a)`, value: `${b.width} × ${b.height}` });
  }
  if (!Number.isInteger(window) || window < 3 || window % 2 === 0 || window > Math.min(a.width, a.height)) {
    throw new InvalidArgumentError({ argument: 'window', expected: `an odd integer from 3 to ${Math.min(a.width, a.height)}`, value: window });
  }
  const count = a.width * a.height;
  const x = Float64Array.from(a.data);
  const y = Float64Array.from(b.data);
  const xx = new Float64Array(count);
  const yy = new Float64Array(count);
  const xy = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    xx[i] = x[i]! * x[i]!;
    yy[i] = y[i]! * y[i]!;
    xy[i] = x[i]! * y[i]!;
  }
  const [sx, sy, sxx, syy, sxy] = [x, y, xx, yy, xy].map((values) => windowSums(values, a.width, a.height, window)) as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  const n = window * window;
  const covarianceNorm = n / (n - 1);
  const c1 = (0.01 * dataRange) ** 2;
  const c2 = (0.03 * dataRange) ** 2;
  let total = 0;
  for (let i = 0; i < sx.length; i++) {
    const mx = sx[i]! / n;
    const my = sy[i]! / n;
    const vx = covarianceNorm * (sxx[i]! / n - mx * mx);
    const vy = covarianceNorm * (syy[i]! / n - my * my);
    const vxy = covarianceNorm * (sxy[i]! / n - mx * my);
    total += ((2 * mx * my + c1) * (2 * vxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
  }
  return total / sx.length;
}
