import { InvalidArgumentError } from '@saccade/spec';
import { readSvgShapes, type DrawnShape } from './svg-shapes';

/** Interleaved RGB pixels (3 channels), row-major. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** How close an answer's rendering is to the target: the score and its parts. */
export interface ReconstructionScore {
  /** The reward's similarity: the mean of `structural` and `perceptual`, from 0 to 1. */
  score: number;
  /** Shapes of the two documents matched by kind, colour and box (extra or missing shapes cost). */
  structural: number;
  /** Multi-scale colour distance of the renders, 0 for a blank canvas, 1 for the same pixels. */
  perceptual: number;
}

const MAX_DISTANCE = Math.sqrt(3) * 255;

/** Average-pools an RGB image by `factor` (the side must divide). */
function pool(data: Float64Array, side: number, factor: number): Float64Array {
  const out = side / factor;
  const pooled = new Float64Array(out * out * 3);
  for (let y = 0; y < side; y++) {
    const row = Math.floor(y / factor) * out;
    for (let x = 0; x < side; x++) {
      const to = (row + Math.floor(x / factor)) * 3;
      const from = (y * side + x) * 3;
      pooled[to] = pooled[to]! + data[from]!;
      pooled[to + 1] = pooled[to + 1]! + data[from + 1]!;
      pooled[to + 2] = pooled[to + 2]! + data[from + 2]!;
    }
  }
  const area = factor * factor;
  for (let i = 0; i < pooled.length; i++) pooled[i] = pooled[i]! / area;
  return pooled;
}

/** The image pooled to 64, 32, 16 and 8 pixels a side (coarser scales forgive small shifts). */
function pyramid(image: RgbImage): Float64Array[] {
  if (image.width !== image.height || image.width % 64 !== 0) {
    throw new InvalidArgumentError({ argument: 'image', expected: 'a square RGB image whose side is a multiple of 64', value: `${image.width} × ${image.height}` });
  }
  const levels = [pool(Float64Array.from(image.data), image.width, image.width / 64)];
  for (let side = 64; side > 8; side /= 2) levels.push(pool(levels.at(-1)!, side, 2));
  return levels;
}

/** Mean over the scales of the mean RGB distance per pixel, from 0 to 1. */
function distance(a: Float64Array[], b: Float64Array[]): number {
  let total = 0;
  for (let level = 0; level < a.length; level++) {
    const x = a[level]!;
    const y = b[level]!;
    let sum = 0;
    for (let i = 0; i < x.length; i += 3) sum += Math.hypot(x[i]! - y[i]!, x[i + 1]! - y[i + 1]!, x[i + 2]! - y[i + 2]!);
    total += sum / (x.length / 3) / MAX_DISTANCE;
  }
  return total / a.length;
}

/**
 * Colour-aware perceptual similarity normalised by a blank canvas: 1 − d(render, target) / d(white, target),
 * clamped to [0, 1], where d is the mean RGB distance over the renders pooled to 64, 32, 16 and 8 pixels
 * a side. An empty canvas scores 0, as does anything farther from the target than an empty canvas.
 */
export function perceptualSimilarity(target: RgbImage, render: RgbImage): number {
  if (target.width !== render.width || target.height !== render.height) {
    throw new InvalidArgumentError({ argument: 'render', expected: `an image of ${target.width} × ${target.height} (the size of the target)`, value: `${render.width} × ${render.height}` });
  }
  const t = pyramid(target);
  const baseline = distance(t, pyramid({ data: new Uint8Array(target.data.length).fill(255), width: target.width, height: target.height }));
  const apart = distance(t, pyramid(render));
  if (baseline === 0) return apart === 0 ? 1 : 0;
  return Math.max(0, Math.min(1, 1 - apart / baseline));
}

/** A white shape covering (nearly) the whole canvas is background, not a shape to match. */
function isBackground(shape: DrawnShape, canvas: number): boolean {
  if (shape.box === undefined || shape.colour === undefined) return false;
  const [x0, y0, x1, y1] = shape.box;
  return (x1 - x0) * (y1 - y0) >= 0.95 * canvas * canvas && Math.min(...shape.colour) >= 245;
}

function boxIoU(a: [number, number, number, number], b: [number, number, number, number]): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const inter = w > 0 && h > 0 ? w * h : 0;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * How well one drawn shape stands for another: the IoU of their boxes, times 1 for the same kind
 * (a circle and an ellipse are one kind) or 0.5 for another, times 0.5 + 0.5 × colour closeness
 * (1 − RGB distance / 160, at least 0): the right place in the wrong colour keeps half.
 */
export function shapeMatch(target: DrawnShape, drawn: DrawnShape): number {
  if (target.box === undefined || drawn.box === undefined) return 0;
  const kind = target.family === drawn.family ? 1 : 0.5;
  const colour = target.colour === undefined || drawn.colour === undefined ? 0 : Math.max(0, 1 - Math.hypot(target.colour[0] - drawn.colour[0], target.colour[1] - drawn.colour[1], target.colour[2] - drawn.colour[2]) / 160);
  return boxIoU(target.box, drawn.box) * kind * (0.5 + 0.5 * colour);
}

/**
 * Structural similarity of two SVG documents: their shapes (white full-canvas backgrounds left out)
 * paired greedily by `shapeMatch`, best pairs first, each shape used once; the sum of the pairs'
 * matches over the larger of the two shape counts, so missing and extra shapes both cost. 1 when both
 * draw nothing.
 */
export function structuralSimilarity(targetSvg: string, drawnSvg: string, canvas: number): number {
  const target = readSvgShapes(targetSvg, canvas).filter((shape) => !isBackground(shape, canvas));
  const drawn = readSvgShapes(drawnSvg, canvas).filter((shape) => !isBackground(shape, canvas));
  const count = Math.max(target.length, drawn.length);
  if (count === 0) return 1;
  const pairs: { t: number; d: number; match: number }[] = [];
  target.forEach((t, i) => drawn.forEach((d, j) => pairs.push({ t: i, d: j, match: shapeMatch(t, d) })));
  pairs.sort((a, b) => b.match - a.match || a.t - b.t || a.d - b.d);
  const usedT = new Set<number>();
  const usedD = new Set<number>();
  let total = 0;
  for (const pair of pairs) {
    if (pair.match <= 0 || usedT.has(pair.t) || usedD.has(pair.d)) continue;
    usedT.add(pair.t);
    usedD.add(pair.d);
    total += pair.match;
  }
  return total / count;
}

/**
 * The SVG reconstruction score: the mean of the structural similarity of the two documents and the
 * perceptual similarity of their renders (both 256-style square RGB renders of one size).
 */
export function reconstructionScore(target: { svg: string; image: RgbImage }, drawn: { svg: string; image: RgbImage }): ReconstructionScore {
  const structural = structuralSimilarity(target.svg, drawn.svg, target.image.width);
  const perceptual = perceptualSimilarity(target.image, drawn.image);
  return { score: (structural + perceptual) / 2, structural, perceptual };
}
