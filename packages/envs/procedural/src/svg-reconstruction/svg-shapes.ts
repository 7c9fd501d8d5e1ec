/**
 * Reads the drawn shapes of an SVG document (rect, circle, ellipse, polygon, polyline, line, path)
 * with their fill colour and bounding box in canvas pixels, for the structural part of the SVG
 * reconstruction score. Not a full SVG engine: fills inherit through <g>, `translate(…)` and
 * `scale(…)` transforms apply, a path's box is taken from its absolute coordinates; anything it does
 * not understand is still counted as a shape (so extra marks cost), with no box.
 */

export type SvgShapeFamily = 'rect' | 'ellipse' | 'polygon' | 'line' | 'path';

/** A shape an SVG document draws, as read by {@link readSvgShapes}: its family, colour and box. */
export interface DrawnShape {
  /** rect; ellipse (circle or ellipse); polygon (polygon, polyline); line; path. */
  family: SvgShapeFamily;
  /** The painted colour (fill, or stroke when the fill is none) as RGB, undefined when unreadable. */
  colour: [number, number, number] | undefined;
  /** [x0, y0, x1, y1] in canvas pixels, undefined when it could not be worked out. */
  box: [number, number, number, number] | undefined;
}

const NAMED: Record<string, [number, number, number]> = {
  black: [0, 0, 0], white: [255, 255, 255], red: [255, 0, 0], lime: [0, 255, 0], green: [0, 128, 0], blue: [0, 0, 255],
  yellow: [255, 255, 0], cyan: [0, 255, 255], aqua: [0, 255, 255], magenta: [255, 0, 255], fuchsia: [255, 0, 255],
  silver: [192, 192, 192], gray: [128, 128, 128], grey: [128, 128, 128], maroon: [128, 0, 0], olive: [128, 128, 0],
  purple: [128, 0, 128], teal: [0, 128, 128], navy: [0, 0, 128], orange: [255, 165, 0], brown: [165, 42, 42],
  pink: [255, 192, 203], gold: [255, 215, 0], violet: [238, 130, 238], indigo: [75, 0, 130], darkgreen: [0, 100, 0],
  darkblue: [0, 0, 139], darkred: [139, 0, 0], lightblue: [173, 216, 230], lightgreen: [144, 238, 144], lightgray: [211, 211, 211],
  lightgrey: [211, 211, 211], darkgray: [169, 169, 169], darkgrey: [169, 169, 169], crimson: [220, 20, 60], tomato: [255, 99, 71],
  skyblue: [135, 206, 235], royalblue: [65, 105, 225], steelblue: [70, 130, 180], forestgreen: [34, 139, 34], turquoise: [64, 224, 208],
  salmon: [250, 128, 114], coral: [255, 127, 80], khaki: [240, 230, 140], beige: [245, 245, 220], tan: [210, 180, 140], chocolate: [210, 105, 30],
  sienna: [160, 82, 45], orchid: [218, 112, 214], plum: [221, 160, 221], limegreen: [50, 205, 50], seagreen: [46, 139, 87], darkorange: [255, 140, 0],
};

/** CSS colour text (#rgb, #rrggbb, rgb(…), a common name) as RGB; 'none' as null; undefined when unreadable. */
export function parseColour(text: string | undefined): [number, number, number] | null | undefined {
  if (text === undefined) return undefined;
  const value = text.trim().toLowerCase();
  if (value === 'none' || value === 'transparent') return null;
  let match = /^#([0-9a-f]{3})$/.exec(value);
  if (match) return [...match[1]!].map((digit) => Number.parseInt(digit + digit, 16)) as [number, number, number];
  match = /^#([0-9a-f]{6})([0-9a-f]{2})?$/.exec(value);
  if (match) return [0, 2, 4].map((at) => Number.parseInt(match![1]!.slice(at, at + 2), 16)) as [number, number, number];
  match = /^rgba?\(\s*([\d.]+%?)\s*[, ]\s*([\d.]+%?)\s*[, ]\s*([\d.]+%?)/.exec(value);
  if (match) return [match[1]!, match[2]!, match[3]!].map((part) => Math.min(255, Math.round(part.endsWith('%') ? (Number.parseFloat(part) * 255) / 100 : Number.parseFloat(part)))) as [number, number, number];
  return NAMED[value];
}

function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(/([a-zA-Z_:][\w:.-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) found.set(match[1]!.toLowerCase(), match[3] ?? match[4] ?? '');
  const style = found.get('style');
  if (style !== undefined) {
    for (const declaration of style.split(';')) {
      const colon = declaration.indexOf(':');
      if (colon > 0) found.set(declaration.slice(0, colon).trim().toLowerCase(), declaration.slice(colon + 1).trim());
    }
  }
  return found;
}

const numberOf = (value: string | undefined, fallback = 0): number => {
  const parsed = Number.parseFloat(value ?? '');
  return Number.isFinite(parsed) ? parsed : fallback;
};

const numbers = (text: string | undefined): number[] => [...(text ?? '').matchAll(/-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?/gi)].map((match) => Number(match[0]));

/** An affine map restricted to scale and translation: x' = sx·x + tx. */
interface Frame {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
  fill: string | undefined;
  stroke: string | undefined;
}

function applyTransform(frame: Frame, transform: string | undefined): Frame {
  if (transform === undefined) return frame;
  let next = frame;
  for (const match of transform.matchAll(/(translate|scale)\s*\(([^)]*)\)/gi)) {
    const [a = 0, b] = numbers(match[2]);
    if (match[1]!.toLowerCase() === 'translate') next = { ...next, tx: next.tx + next.sx * a, ty: next.ty + next.sy * (b ?? 0) };
    else next = { ...next, sx: next.sx * a, sy: next.sy * (b ?? a) };
  }
  return next;
}

function boxOf(name: string, attrs: Map<string, string>): [number, number, number, number] | undefined {
  switch (name) {
    case 'rect': {
      const x = numberOf(attrs.get('x'));
      const y = numberOf(attrs.get('y'));
      return [x, y, x + numberOf(attrs.get('width')), y + numberOf(attrs.get('height'))];
    }
    case 'circle': {
      const r = numberOf(attrs.get('r'));
      const [cx, cy] = [numberOf(attrs.get('cx')), numberOf(attrs.get('cy'))];
      return [cx - r, cy - r, cx + r, cy + r];
    }
    case 'ellipse': {
      const [rx, ry] = [numberOf(attrs.get('rx')), numberOf(attrs.get('ry'))];
      const [cx, cy] = [numberOf(attrs.get('cx')), numberOf(attrs.get('cy'))];
      return [cx - rx, cy - ry, cx + rx, cy + ry];
    }
    case 'line': {
      const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((key) => numberOf(attrs.get(key)));
      return [Math.min(x1!, x2!), Math.min(y1!, y2!), Math.max(x1!, x2!), Math.max(y1!, y2!)];
    }
    case 'polygon':
    case 'polyline':
    case 'path': {
      const text = name === 'path' ? attrs.get('d') : attrs.get('points');
      // A path with relative commands or arcs has no box read from its numbers alone.
      if (name === 'path' && (text === undefined || /[a-z]/.test(text.replace(/e-?\d/gi, '')) || /[AHV]/.test(text))) return undefined;
      const values = numbers(text);
      if (values.length < 2) return undefined;
      const xs = values.filter((_, index) => index % 2 === 0);
      const ys = values.filter((_, index) => index % 2 === 1);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    }
    default:
      return undefined;
  }
}

const DEFINITIONS = new Set(['defs', 'clippath', 'mask', 'symbol', 'pattern', 'marker', 'lineargradient', 'radialgradient']);

const FAMILY: Record<string, SvgShapeFamily> = { rect: 'rect', circle: 'ellipse', ellipse: 'ellipse', polygon: 'polygon', polyline: 'polygon', line: 'line', path: 'path' };

/**
 * The shapes an SVG document draws, in document order, with boxes in the pixels of a
 * `canvas` × `canvas` render (the document's viewBox, or its width and height, mapped onto it).
 */
export function readSvgShapes(svg: string, canvas: number): DrawnShape[] {
  const shapes: DrawnShape[] = [];
  const stack: Frame[] = [];
  let frame: Frame = { sx: 1, sy: 1, tx: 0, ty: 0, fill: undefined, stroke: undefined };
  const body = svg.replace(/<!--[\s\S]*?-->/g, '');
  // Definitions (defs, clipPath, mask, symbol, pattern) draw nothing where they stand: skipped with what they hold.
  let skipping = 0;
  for (const match of body.matchAll(/<(\/?)([a-zA-Z][\w:-]*)([^>]*?)(\/?)>/g)) {
    const [, closing, rawName, rest, selfClosing] = match;
    const name = rawName!.toLowerCase();
    if (DEFINITIONS.has(name)) {
      if (closing) skipping = Math.max(0, skipping - 1);
      else if (!selfClosing) skipping++;
      continue;
    }
    if (skipping > 0) continue;
    if (closing) {
      if ((name === 'g' || name === 'svg' || name === 'a') && stack.length > 0) frame = stack.pop()!;
      continue;
    }
    const attrs = attributes(rest!);
    if (name === 'svg' || name === 'g' || name === 'a') {
      let next: Frame = { ...frame, fill: attrs.get('fill') ?? frame.fill, stroke: attrs.get('stroke') ?? frame.stroke };
      if (name === 'svg' && stack.length === 0) {
        const viewBox = numbers(attrs.get('viewbox'));
        const width = viewBox.length === 4 ? viewBox[2]! : numberOf(attrs.get('width'), canvas);
        const height = viewBox.length === 4 ? viewBox[3]! : numberOf(attrs.get('height'), canvas);
        const scale = width > 0 && height > 0 ? Math.min(canvas / width, canvas / height) : 1;
        next = { ...next, sx: scale, sy: scale, tx: viewBox.length === 4 ? -viewBox[0]! * scale : 0, ty: viewBox.length === 4 ? -viewBox[1]! * scale : 0 };
      }
      next = applyTransform(next, attrs.get('transform'));
      if (!selfClosing) {
        stack.push(frame);
        frame = next;
      }
      continue;
    }
    const family = FAMILY[name];
    if (family === undefined) continue;
    const local = applyTransform(frame, attrs.get('transform'));
    const fill = parseColour(attrs.get('fill') ?? local.fill ?? (family === 'line' ? 'none' : 'black'));
    const stroke = parseColour(attrs.get('stroke') ?? local.stroke);
    if (fill === null && (stroke === null || stroke === undefined)) continue;
    const colour = fill === null ? stroke! : fill;
    const raw = boxOf(name, attrs);
    const box = raw === undefined ? undefined : ([local.sx * raw[0] + local.tx, local.sy * raw[1] + local.ty, local.sx * raw[2] + local.tx, local.sy * raw[3] + local.ty].map((value) => Math.max(0, Math.min(canvas, value))) as [number, number, number, number]);
    shapes.push({ family, colour, box });
  }
  return shapes;
}
