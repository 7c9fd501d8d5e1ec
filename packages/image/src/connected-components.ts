import type { Box } from './clip-box.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';

/** A 4-connected region of pixels that share a label. */
export interface ConnectedComponent {
  /** The label its pixels share. */
  label: number;
  /** Its bounding box in pixels; x2 and y2 exclusive. */
  box: Box;
  /** How many pixels it has. */
  area: number;
}

/**
 * The 4-connected components of a label map (one label a pixel, row by row; a negative label is
 * background), each with its box and pixel count, in the order of their first pixel row by row.
 * A flood fill with an explicit stack: no recursion limit however large a component is.
 *
 * @example
 * // The text regions of a probability map: one label above the threshold, background below.
 * const labels = Int8Array.from(probabilities, (p) => (p > 0.3 ? 0 : -1));
 * for (const { box, area } of connectedComponents(labels, width, height)) console.log(box, area);
 */
export function connectedComponents(labels: ArrayLike<number>, width: number, height: number): ConnectedComponent[] {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new InvalidImageArgumentError({ argument: 'size', expected: 'a whole width and height ≥ 0', received: `${width} × ${height}`, value: { width, height } });
  }
  if (labels.length !== width * height) {
    throw new InvalidImageArgumentError({ argument: 'labels', expected: `one label a pixel (${width} × ${height} = ${width * height})`, received: `${labels.length} labels`, value: labels.length });
  }
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  const found: ConnectedComponent[] = [];
  let label = 0;
  const visit = (next: number): void => {
    if (!seen[next] && labels[next] === label) {
      seen[next] = 1;
      stack.push(next);
    }
  };
  for (let start = 0; start < labels.length; start++) {
    label = labels[start]!;
    if (label < 0 || seen[start]) continue;
    let [left, top, right, bottom, area] = [width, height, 0, 0, 0];
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const index = stack.pop()!;
      const x = index % width;
      const y = (index - x) / width;
      area++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      // Left, right, up, down: a neighbour past an edge is none.
      if (x > 0) visit(index - 1);
      if (x < width - 1) visit(index + 1);
      if (y > 0) visit(index - width);
      if (y < height - 1) visit(index + width);
    }
    found.push({ label, box: { x1: left, y1: top, x2: right + 1, y2: bottom + 1 }, area });
  }
  return found;
}
