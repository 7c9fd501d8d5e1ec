import { connectedComponents, type RawImage } from '@saccade/image';

/** The colour names {@link detectShapes} gives a component (hue bands, plus black for dark pixels). */
export const COLOURS = ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'magenta', 'black'] as const;
/** One of {@link COLOURS}. */
export type Colour = (typeof COLOURS)[number];
/** The shape names {@link detectShapes} gives a component, from how it fills its box; `blob` is none of the others. */
export const SHAPES = ['circle', 'square', 'rectangle', 'triangle', 'blob'] as const;
/** One of {@link SHAPES}. */
export type Shape = (typeof SHAPES)[number];

/** A one-colour connected component found by {@link detectShapes}, with its box and names. */
export interface Detection {
  /** [x1, y1, x2, y2] in pixels, x2 and y2 exclusive. */
  bbox: [number, number, number, number];
  label: `${Colour} ${Shape}`;
  colour: Colour;
  shape: Shape;
  /** Pixels in the component. */
  area: number;
}

/** A pixel's colour name, or undefined for white, grey and washed-out pixels (the background, anti-aliased edges). */
export function colourName(r: number, g: number, b: number): Colour | undefined {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max < 60) return 'black';
  const saturation = (max - min) / max;
  if (saturation < 0.5 || max < 90) return undefined;
  const delta = max - min;
  let hue = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  hue = (hue * 60 + 360) % 360;
  if (hue < 15 || hue >= 345) return 'red';
  if (hue < 40) return 'orange';
  if (hue < 70) return 'yellow';
  if (hue < 160) return 'green';
  if (hue < 200) return 'cyan';
  if (hue < 255) return 'blue';
  if (hue < 290) return 'purple';
  return 'magenta';
}

/** A shape from how much of its box a component fills: 1 square/rectangle, π/4 circle, ½ triangle. */
export function shapeName(area: number, width: number, height: number): Shape {
  const fill = area / (width * height);
  const aspect = Math.max(width, height) / Math.min(width, height);
  if (fill > 0.9) return aspect < 1.15 ? 'square' : 'rectangle';
  if (fill > 0.7 && fill < 0.86 && aspect < 1.15) return 'circle';
  if (fill > 0.4 && fill < 0.6) return 'triangle';
  return 'blob';
}

/** Colour thresholds, then 4-connected components per colour, then a shape from the fill ratio. */
export function detectShapes(image: RawImage, minArea = 20): Detection[] {
  const { width, height, channels, data } = image;
  const labels = new Int8Array(width * height).fill(-1);
  for (let index = 0; index < width * height; index++) {
    const colour = colourName(data[index * channels]!, data[index * channels + 1]!, data[index * channels + 2]!);
    if (colour !== undefined) labels[index] = COLOURS.indexOf(colour);
  }
  const found: Detection[] = [];
  for (const { label, box, area } of connectedComponents(labels, width, height)) {
    if (area < minArea) continue;
    const colour = COLOURS[label]!;
    const shape = shapeName(area, box.x2 - box.x1, box.y2 - box.y1);
    found.push({ bbox: [box.x1, box.y1, box.x2, box.y2], label: `${colour} ${shape}`, colour, shape, area });
  }
  return found.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
}

/** Keeps detections whose colour and shape match the words of a query ("red circles", "blue"). */
export function matchQuery(detections: readonly Detection[], query: string | undefined): Detection[] {
  if (query === undefined || query.trim() === '') return [...detections];
  const terms = new Set<string>([...COLOURS, ...SHAPES, 'box']);
  // Plurals: "circles" → circle, "boxes" → box.
  const words = query
    .toLowerCase()
    .split(/[^a-z]+/)
    .map((word) => (terms.has(word) ? word : terms.has(word.slice(0, -1)) ? word.slice(0, -1) : word.slice(0, -2)));
  const colours = COLOURS.filter((colour) => words.includes(colour));
  const shapes = SHAPES.filter((shape) => words.includes(shape) || (shape === 'square' && words.includes('box')));
  return detections.filter((detection) => (colours.length === 0 || colours.includes(detection.colour)) && (shapes.length === 0 || shapes.includes(detection.shape)));
}
