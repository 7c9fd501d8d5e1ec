import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { decodeMaskRle, describeMask, encodeMaskRle } from './mask';

// 4 wide, 3 high, row-major:
// . X X .
// . X X .
// . . X .
const mask = Uint8Array.from([0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0]);

describe('mask RLE (COCO, column-major)', () => {
  it('encodes runs down the columns, starting with a run of 0s', () => {
    // Column-major: col 0 = 000, col 1 = 110, col 2 = 111, col 3 = 000 → 0×3, 1×2, 0×1, 1×3, 0×3.
    expect(encodeMaskRle(mask, 4, 3)).toEqual({ size: [3, 4], counts: [3, 2, 1, 3, 3] });
    expect(encodeMaskRle([1, 1], 2, 1)).toEqual({ size: [1, 2], counts: [0, 2] });
    expect(encodeMaskRle([], 0, 0)).toEqual({ size: [0, 0], counts: [0] });
  });

  it('decodes what it encodes', () => {
    expect([...decodeMaskRle({ size: [3, 4], counts: [3, 2, 1, 3, 3] })]).toEqual([...mask]);
    const random = Uint8Array.from({ length: 7 * 5 }, (_, i) => ((i * 2654435761) >>> 28) & 1);
    expect([...decodeMaskRle(encodeMaskRle(random, 7, 5))]).toEqual([...random]);
  });

  it('describes a mask: area, coverage, bbox (exclusive end), centroid of pixel centres', () => {
    expect(describeMask(mask, 4, 3, 0.91234)).toEqual({
      rle: { size: [3, 4], counts: [3, 2, 1, 3, 3] },
      score: 0.912,
      area: 5,
      coverage: 0.4167,
      bbox: [1, 0, 3, 3],
      // x: (1.5 + 2.5 + 1.5 + 2.5 + 2.5) / 5, y: (0.5 + 0.5 + 1.5 + 1.5 + 2.5) / 5
      centroid: [2.1, 1.3],
    });
    expect(describeMask(new Uint8Array(6), 3, 2, 0)).toMatchObject({ area: 0, coverage: 0, bbox: [0, 0, 0, 0], centroid: null });
  });

  it('refuses a mask of the wrong length and counts that do not cover the image', () => {
    expect(() => encodeMaskRle([1, 0, 1], 2, 2)).toThrow(/expected a mask of 2 × 2 = 4 values, received 3/);
    expect(() => decodeMaskRle({ size: [2, 2], counts: [1, 2] })).toThrow(/expected RLE counts to sum to 4 \(2 × 2\), they sum to 3/);
    expect(() => decodeMaskRle({ size: [2, 2], counts: [1, 5] })).toThrow(InvalidArgumentError);
    expect(() => decodeMaskRle({ size: [2, 2], counts: [1, -1, 4] })).toThrow(/whole, non-negative numbers, received -1 at 1/);
    expect(() => encodeMaskRle([], 1.5, 0)).toThrow(/expected size to be a whole, non-negative width and height/);
  });
});
