import { describe, expect, it } from 'vitest';
import { connectedComponents } from './connected-components.js';
import { InvalidImageArgumentError } from './invalid-image-argument-error.js';

/** A label map from rows of characters: '.' background, a digit that label. */
function labelMap(rows: string[]): { labels: Int8Array; width: number; height: number } {
  const width = rows[0]!.length;
  const labels = Int8Array.from(rows.join(''), (character) => (character === '.' ? -1 : Number(character)));
  return { labels, width, height: rows.length };
}

describe('connectedComponents', () => {
  it('finds the 4-connected regions of each label in order of their first pixel, with box and area', () => {
    const { labels, width, height } = labelMap([
      '11..2', //
      '.1.22',
      '.1...',
      '3.1.2', // a diagonal neighbour is not connected; the 2 at the right edge is another component
      '33.00',
    ]);
    expect(connectedComponents(labels, width, height)).toEqual([
      { label: 1, box: { x1: 0, y1: 0, x2: 2, y2: 3 }, area: 4 },
      { label: 2, box: { x1: 3, y1: 0, x2: 5, y2: 2 }, area: 3 },
      { label: 3, box: { x1: 0, y1: 3, x2: 2, y2: 5 }, area: 3 },
      { label: 1, box: { x1: 2, y1: 3, x2: 3, y2: 4 }, area: 1 },
      { label: 2, box: { x1: 4, y1: 3, x2: 5, y2: 4 }, area: 1 },
      { label: 0, box: { x1: 3, y1: 4, x2: 5, y2: 5 }, area: 2 },
    ]);
  });

  it('keeps touching regions of different labels apart and does not wrap around a row', () => {
    const { labels, width, height } = labelMap(['1122', '2211']);
    expect(connectedComponents(labels, width, height).map(({ label, box, area }) => [label, box.x1, box.y1, area])).toEqual([
      [1, 0, 0, 2],
      [2, 2, 0, 2],
      [2, 0, 1, 2],
      [1, 2, 1, 2],
    ]);
  });

  it('follows a component of a million pixels without running out of stack', () => {
    const labels = new Int8Array(1000 * 1000);
    const [component] = connectedComponents(labels, 1000, 1000);
    expect(component).toEqual({ label: 0, box: { x1: 0, y1: 0, x2: 1000, y2: 1000 }, area: 1_000_000 });
    expect(connectedComponents(new Int8Array(0), 0, 0)).toEqual([]);
  });

  it('refuses a label map whose length is not width × height', () => {
    expect(() => connectedComponents(new Int8Array(5), 2, 3)).toThrow(InvalidImageArgumentError);
    expect(() => connectedComponents(new Int8Array(5), 2, 3)).toThrow('Invalid labels: expected one label a pixel (2 × 3 = 6), received 5 labels.');
    expect(() => connectedComponents(new Int8Array(0), -1, 0)).toThrow('Invalid size: expected a whole width and height ≥ 0, received -1 × 0.');
  });
});
