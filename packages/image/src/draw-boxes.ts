import type { Box } from './clip-box.js';
import type { EncodedImage, ImageSource, OutputOptions } from './encoded-image.js';
import { finishImage } from './finish-image.js';
import { openImage } from './open-image.js';
import { checkColour, checkNumber, escapeXml, overlaySvg } from './svg-markup.js';

/**
 * A box for drawBoxes, in pixel edges as crop takes them, with its optional label, colour and line
 * width.
 */
export interface LabelledBox extends Box {
  /** Text drawn on a tab of the box's colour above its top-left corner (inside when there is no room). */
  label?: string;
  /** CSS colour; default '#ff0000'. */
  color?: string;
  /** Outline width in pixels, drawn inside the box; default 2. */
  lineWidth?: number;
}

/** The label size and output encoding of drawBoxes. */
export interface DrawBoxesOptions extends OutputOptions {
  /** Label text size in pixels; default 14. */
  fontSize?: number;
}

/** Draws box outlines (pixel edges, as crop takes them) with optional labels, in one composite. */
export async function drawBoxes(
  source: ImageSource,
  boxes: readonly LabelledBox[],
  options: DrawBoxesOptions = {},
): Promise<EncodedImage> {
  const opened = await openImage(source, options);
  const fontSize = checkNumber(options.fontSize ?? 14, 'fontSize', 1);
  const shapes = boxes.map((box, index) => {
    const name = `boxes[${index}]`;
    const x1 = checkNumber(box.x1, `${name}.x1`);
    const y1 = checkNumber(box.y1, `${name}.y1`);
    const width = checkNumber(box.x2, `${name}.x2`, x1) - x1;
    const height = checkNumber(box.y2, `${name}.y2`, y1) - y1;
    const line = checkNumber(box.lineWidth ?? 2, `${name}.lineWidth`, 0);
    const color = checkColour(box.color ?? '#ff0000', `${name}.color`);
    // SVG strokes straddle the path; inset by half the line so the outline stays inside the box.
    const outline = `<rect x="${x1 + line / 2}" y="${y1 + line / 2}" width="${Math.max(0, width - line)}" height="${Math.max(0, height - line)}" fill="none" stroke="${color}" stroke-width="${line}"/>`;
    if (box.label === undefined || box.label === '') return outline;
    const tabHeight = Math.ceil(fontSize * 1.3);
    const tabWidth = Math.ceil(fontSize * 0.62 * box.label.length + fontSize * 0.6);
    const tabTop = y1 >= tabHeight ? y1 - tabHeight : y1;
    return (
      outline +
      `<rect x="${x1}" y="${tabTop}" width="${tabWidth}" height="${tabHeight}" fill="${color}"/>` +
      `<text x="${x1 + fontSize * 0.3}" y="${tabTop + fontSize}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#ffffff">${escapeXml(box.label)}</text>`
    );
  });
  const pipeline =
    shapes.length === 0
      ? opened.pipeline
      : opened.pipeline.composite([{ input: overlaySvg(opened.width, opened.height, shapes.join('')) }]);
  // Compositing adds an alpha channel; an opaque input stays opaque (RGB) on the way out.
  if (!opened.hasAlpha) pipeline.removeAlpha();
  return finishImage(opened, pipeline, options);
}
