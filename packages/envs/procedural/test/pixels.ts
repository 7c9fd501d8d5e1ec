// Pixel helpers for the tests' independent checks: they read the rendered PNG, never the generator's numbers.
import { decodeImage } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { hexToRgb } from '../src/common/palette';

export interface Pixels {
  /** Interleaved RGB bytes. */
  data: Uint8Array;
  width: number;
  height: number;
  rgb(x: number, y: number): [number, number, number];
  is(x: number, y: number, hex: string): boolean;
  luma(x: number, y: number): number;
}

export async function pixelsOf(image: ImageData | { data: Uint8Array }): Promise<Pixels> {
  const { data, width, height } = await decodeImage(image.data, { channels: 3 });
  const rgb = (x: number, y: number): [number, number, number] => {
    const at = (y * width + x) * 3;
    return [data[at]!, data[at + 1]!, data[at + 2]!];
  };
  return {
    data,
    width,
    height,
    rgb,
    is(x, y, hex) {
      if (x < 0 || y < 0 || x >= width || y >= height) return false;
      const [r, g, b] = rgb(x, y);
      const [er, eg, eb] = hexToRgb(hex);
      return r === er && g === eg && b === eb;
    },
    luma(x, y) {
      const [r, g, b] = rgb(x, y);
      return 0.299 * r + 0.587 * g + 0.114 * b;
    },
  };
}

export interface Component {
  count: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** 4-connected components of the pixels exactly of colour `hex` (optionally within a region). */
export function components(pixels: Pixels, hex: string, region: [number, number, number, number] = [0, 0, pixels.width, pixels.height]): Component[] {
  const [x0, y0, x1, y1] = region.map(Math.round) as [number, number, number, number];
  const seen = new Uint8Array(pixels.width * pixels.height);
  const [r, g, b] = hexToRgb(hex);
  const { data, width } = pixels;
  // Inlined colour test: this loop runs over every pixel of many images.
  const matches = (x: number, y: number) => {
    const at = (y * width + x) * 3;
    return data[at] === r && data[at + 1] === g && data[at + 2] === b;
  };
  const found: Component[] = [];
  for (let y = Math.max(0, y0); y < Math.min(pixels.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(pixels.width, x1); x++) {
      if (seen[y * pixels.width + x] || !matches(x, y)) continue;
      const component: Component = { count: 0, minX: x, minY: y, maxX: x, maxY: y };
      const stack = [[x, y] as const];
      seen[y * pixels.width + x] = 1;
      while (stack.length > 0) {
        const [cx, cy] = stack.pop()!;
        component.count++;
        component.minX = Math.min(component.minX, cx);
        component.maxX = Math.max(component.maxX, cx);
        component.minY = Math.min(component.minY, cy);
        component.maxY = Math.max(component.maxY, cy);
        for (const [nx, ny] of [[cx + 1, cy], [cx - 1, cy], [cx, cy + 1], [cx, cy - 1]] as const) {
          if (nx < x0 || ny < y0 || nx >= x1 || ny >= y1 || nx < 0 || ny < 0 || nx >= pixels.width || ny >= pixels.height) continue;
          if (seen[ny * pixels.width + nx] || !matches(nx, ny)) continue;
          seen[ny * pixels.width + nx] = 1;
          stack.push([nx, ny]);
        }
      }
      found.push(component);
    }
  }
  return found;
}

/** Seeds 0…count−1 of a split. */
export const indices = (count: number): number[] => Array.from({ length: count }, (_, index) => index);
