import { describeMask } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { toolResponses } from './marks';
import { maskLayer, segmentationMasks } from './masks';

// A 4 × 3 image; the mask is the 3 × 2 block x 1–3, y 0–1 (row-major).
const block = [0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0];

describe('segmentationMasks', () => {
  it('decodes the masks of a segment response (column-major COCO RLE) and skips what is not a mask', () => {
    const segment = describeMask(block, 4, 3, 0.8766);
    expect(segment.rle).toEqual({ size: [3, 4], counts: [3, 2, 1, 2, 1, 2, 1] });
    const text = [
      `<tool_response>\n${JSON.stringify({ masks: [segment, { rle: { size: [3, 4], counts: [5, 99] } }, { rle: 'none' }, { rle: { size: [1, 2], counts: [0, 2] } }], count: 4 })}\n<image>\n</tool_response>`,
      '<tool_response>\nZoomed.\n</tool_response>',
      '<tool_response>\n{"detections": [], "count": 0}\n</tool_response>',
    ].join('\n');
    const masks = segmentationMasks(toolResponses(text));
    expect(masks.map(({ pixels, ...rest }) => ({ ...rest, pixels: [...pixels] }))).toEqual([
      { call: 0, index: 0, width: 4, height: 3, pixels: block, score: 0.877, area: 6, coverage: 0.5 },
      // The counts past 12 pixels do not decode; 'none' is not an RLE; a mask without a score still draws.
      { call: 0, index: 3, width: 2, height: 1, pixels: [1, 1], area: 2, coverage: 1 },
    ]);
  });
});

describe('maskLayer', () => {
  it('paints the edge opaque and the inside translucent, in the colour given, outside transparent', () => {
    // A 3 × 3 mask, all set: only the centre pixel has all four neighbours inside.
    const layer = maskLayer({ width: 3, height: 3, pixels: new Uint8Array(9).fill(1) }, [30, 144, 255]);
    expect([...layer.subarray(0, 4)]).toEqual([30, 144, 255, 255]);
    expect([...layer.subarray(16, 20)]).toEqual([30, 144, 255, 102]);
    const alphas = (rgba: Uint8ClampedArray) => [...rgba].filter((_, index) => index % 4 === 3);
    expect(alphas(layer)).toEqual([255, 255, 255, 255, 102, 255, 255, 255, 255]);
    expect(alphas(maskLayer({ width: 4, height: 3, pixels: Uint8Array.from(block) }, [1, 2, 3]))).toEqual([0, 255, 255, 255, 0, 255, 255, 255, 0, 0, 0, 0]);
  });
});
