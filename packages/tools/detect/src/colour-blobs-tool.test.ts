import { checkTool } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { colourBlobsTool } from './colour-blobs-tool';

let scene: ImageData;
beforeAll(async () => {
  scene = await renderSvg(
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120">' +
      '<rect width="200" height="120" fill="#ffffff"/>' +
      '<circle cx="40" cy="40" r="20" fill="#ff0000"/>' +
      '<rect x="100" y="20" width="40" height="40" fill="#0000ff"/>' +
      '<polygon points="20,110 60,110 40,75" fill="#00c000"/>' +
      '<rect x="150" y="80" width="40" height="20" fill="#ff0000"/>' +
      '<circle cx="120" cy="95" r="15" fill="#ff0000"/>' +
      '</svg>',
  );
});

const detect = async (caption?: string) => JSON.parse((await colourBlobsTool.execute(caption === undefined ? {} : { caption }, { images: [scene] })).text!);

describe('colour_blobs (colour + connected components)', () => {
  it('finds every shape with its box and label', async () => {
    expect((await detect()).detections.map(({ bbox, label }: { bbox: number[]; label: string }) => [label, bbox])).toEqual([
      ['red circle', [20, 20, 60, 60]],
      ['blue square', [100, 20, 140, 60]],
      // The apex of the triangle is anti-aliased thinner than a pixel: its first full row is y = 76.
      ['green triangle', [20, 76, 60, 110]],
      ['red circle', [105, 80, 135, 110]],
      ['red rectangle', [150, 80, 190, 100]],
    ]);
  });

  it('filters by the caption', async () => {
    expect(await detect('find the red circles')).toMatchObject({ count: 2, detections: [{ label: 'red circle', bbox: [20, 20, 60, 60] }, { label: 'red circle', bbox: [105, 80, 135, 110] }] });
    expect((await detect('blue')).count).toBe(1);
    expect(await detect('purple star')).toEqual({ detections: [], count: 0 });
  });

  it('passes checkTool', async () => {
    expect(await checkTool(colourBlobsTool, { sampleInput: { caption: 'red' }, images: [scene] })).toEqual({ ok: true, toolName: 'colour_blobs', failures: [] });
  });
});
