import { checkTool, ToolUseWrapper } from '@saccade/core';
import { MockAgent } from '@saccade/agents';
import { VisionQAEnv } from '@saccade/env-vqa';
import { decodeImage, encodePng, type RawImage } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastObservation, playEpisode } from '@saccade/rollout/testing';
import { createPointCropTool, pointCropTool } from './point-crop-tool';
import { rotateTool } from './rotate-tool';
import { createZoomTool, zoomTool } from './zoom-tool';

/** Pixels that say where they are: red = x, green = y, blue = 7 (200 × 100). */
function coordinateImage(width = 200, height = 100): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x, y, 7], (y * width + x) * 3);
  return { data, width, height, channels: 3 };
}

const pixel = (image: RawImage, x: number, y: number) => [...image.data.subarray((y * image.width + x) * image.channels, (y * image.width + x + 1) * image.channels)];

let original: ImageData;
beforeAll(async () => {
  original = await encodePng(coordinateImage());
});

const decodeFirst = async (result: { images?: ImageData[] }) => decodeImage(result.images![0]!, { channels: 3 });

describe('zoom (DeepEyes bbox_2d)', () => {
  it('crops the box from the original, pixel for pixel', async () => {
    const result = await zoomTool.execute({ bbox_2d: [10, 20, 50, 70], label: 'the corner' }, { images: [original] });
    expect(result.text).toBe('Zoomed in on [10, 20, 50, 70] (the corner).');
    const crop = await decodeFirst(result);
    expect([crop.width, crop.height]).toEqual([40, 50]);
    expect(pixel(crop, 0, 0)).toEqual([10, 20, 7]);
    expect(pixel(crop, 39, 49)).toEqual([49, 69, 7]);
  });

  it('always crops from the original, even after earlier crops', async () => {
    const first = await zoomTool.execute({ bbox_2d: [100, 0, 200, 100] }, { images: [original] });
    const second = await decodeFirst(await zoomTool.execute({ bbox_2d: [0, 0, 40, 40] }, { images: [original, ...first.images!] }));
    expect(pixel(second, 0, 0)).toEqual([0, 0, 7]);
  });

  it('scales coordinates back when the model saw a resized image, and clips to the image', async () => {
    const halved = createZoomTool({ seenSize: ({ width, height }) => ({ width: width / 2, height: height / 2 }) });
    const crop = await decodeFirst(await halved.execute({ bbox_2d: [5, 10, 40, 45] }, { images: [original] }));
    expect([crop.width, crop.height, ...pixel(crop, 0, 0)]).toEqual([70, 70, 10, 20, 7]);
    const clipped = await decodeFirst(await zoomTool.execute({ bbox_2d: [180, 60, 240, 130] }, { images: [original] }));
    expect([clipped.width, clipped.height, ...pixel(clipped, 19, 39)]).toEqual([20, 40, 199, 99, 7]);
  });

  it('refuses boxes that are too small, too thin, or outside the image', async () => {
    await expect(zoomTool.execute({ bbox_2d: [0, 0, 30, 80] }, { images: [original] })).rejects.toThrow('expected a box with both sides longer than 30 px, received [0, 0, 30, 80] (30 × 80)');
    await expect(createZoomTool({ minSide: 1 }).execute({ bbox_2d: [0, 0, 2, 300] }, { images: [original] })).rejects.toThrow('expected a box with an aspect ratio of at most 100, received 2 × 300');
    await expect(zoomTool.execute({ bbox_2d: [300, 0, 400, 90] }, { images: [original] })).rejects.toThrow('a box overlapping the 200 × 100 image');
    await expect(zoomTool.execute({ bbox_2d: [0, 0, 40, 40] }, { images: [] })).rejects.toThrow('expected an image in the episode to work on');
  });
});

describe('point crop (ViGoRL search_coordinate) and rotate', () => {
  it('crops [x ± offset, y ± offset], resizes to cropSize and marks the point', async () => {
    const exact = await decodeFirst(await createPointCropTool({ offset: 20, cropSize: 40 }).execute({ coordinate: [100, 50] }, { images: [original] }));
    expect([exact.width, exact.height, ...pixel(exact, 0, 0), ...pixel(exact, 39, 39)]).toEqual([40, 40, 80, 30, 7, 119, 69, 7]);
    const dotted = await decodeFirst(await createPointCropTool({ offset: 20, cropSize: 40, dot: true }).execute({ coordinate: [100, 50] }, { images: [original] }));
    expect(pixel(dotted, 20, 20)).toEqual([255, 0, 0]);
    expect(pixel(dotted, 0, 0)).toEqual([80, 30, 7]);
    const corner = await decodeFirst(await pointCropTool.execute({ coordinate: [0, 0] }, { images: [original] }));
    expect([corner.width, corner.height]).toEqual([672, 672]);
    await expect(pointCropTool.execute({ coordinate: [250, 10] }, { images: [original] })).rejects.toThrow('expected a point inside the image or on its edge, received [250, 10]');
    expect((await pointCropTool.execute({ coordinate: [200, 100] }, { images: [original] })).region).toEqual([18, 0, 200, 100]);
  });

  it('say which region of the original they show, and look at a box in the coordinates the model writes', async () => {
    const halved = ({ width, height }: { width: number; height: number }) => ({ width: width / 2, height: height / 2 });
    const options = { images: [original] };
    expect((await createPointCropTool({ offset: 20, cropSize: 40 }).execute({ coordinate: [100, 50] }, options)).region).toEqual([80, 30, 120, 70]);
    expect((await pointCropTool.execute({ coordinate: [10, 90] }, options)).region).toEqual([0, 0, 192, 100]);
    expect((await zoomTool.execute({ bbox_2d: [180.5, 60, 240, 130] }, options)).region).toEqual([180, 60, 200, 100]);
    // The box's centre, rounded; halved for a model that saw the image at half size.
    expect(await pointCropTool.lookAt!([10, 20, 31, 40], options)).toEqual({ coordinate: [21, 30] });
    expect(await createPointCropTool({ seenSize: halved }).lookAt!([10, 20, 31, 40], options)).toEqual({ coordinate: [10, 15] });
    // A fixed seen size (JSON settings): a model that sees every image at 100 × 50.
    const fixed = createPointCropTool({ seenSize: { width: 100, height: 50 }, offset: 20, cropSize: 40 });
    expect(await fixed.lookAt!([10, 20, 31, 40], options)).toEqual({ coordinate: [10, 15] });
    expect((await fixed.execute({ coordinate: [50, 25] }, options)).region).toEqual([80, 30, 120, 70]);
    expect(() => createZoomTool({ seenSize: { width: 0, height: 50 } })).toThrow(/seenSize: expected a function of the original size, or \{width, height\}/);
    // A small target grows to the smallest box the zoom takes (more than 30 px a side), about its centre.
    const box = (await zoomTool.lookAt!([100, 40, 110, 50], options)).bbox_2d;
    expect(box).toEqual([89, 29, 121, 61]);
    await expect(zoomTool.execute({ bbox_2d: box }, options)).resolves.toMatchObject({ region: [89, 29, 121, 61] });
    expect(await zoomTool.lookAt!([20, 10, 120, 90], options)).toEqual({ bbox_2d: [20, 10, 120, 90] });
    expect(await createZoomTool({ seenSize: halved }).lookAt!([20, 10, 120, 90], options)).toEqual({ bbox_2d: [10, 5, 60, 45] });
    expect(() => createPointCropTool({ offset: 0 })).toThrow(/offset: expected a positive integer \(pixels\)/);
  });

  it('read a point as a cell of a coarse frame when asked, and name the cell a box lies in', async () => {
    const options = { images: [original] };
    // 200 × 100 seen as 4 × 2 cells of 50 px: cell [1, 0] is centred at (75, 25).
    const cells = createPointCropTool({ seenSize: { width: 4, height: 2 }, offset: 20, cropSize: 40, cells: true });
    expect((await cells.execute({ coordinate: [1, 0] }, options)).region).toEqual([55, 5, 95, 45]);
    expect((await cells.execute({ coordinate: [3, 1] }, options)).region).toEqual([155, 55, 195, 95]);
    expect(await cells.lookAt!([160, 60, 190, 90], options)).toEqual({ coordinate: [3, 1] });
    // A box on a cell's far edge belongs to the next cell, the image's far edge to the last.
    expect(await cells.lookAt!([40, 40, 60, 60], options)).toEqual({ coordinate: [1, 1] });
    expect(await cells.lookAt!([190, 90, 200, 100], options)).toEqual({ coordinate: [3, 1] });
    await expect(cells.execute({ coordinate: [4, 0] }, options)).rejects.toThrow('expected a cell [column, row] of whole numbers from [0, 0] to [3, 1], received [4, 0]');
    await expect(cells.execute({ coordinate: [1.5, 0] }, options)).rejects.toThrow(/received \[1\.5, 0\]/);
    expect(() => createPointCropTool({ cells: 'yes' as unknown as boolean })).toThrow(/cells: expected true or false/);
  });

  it("frame 'latest': a call names a cell of the latest crop, mapped back through its region, and the box shrinks with it", async () => {
    // 200 × 100 seen as 4 × 2 cells; each look crops offset 20 of the frame's width (and height) around the cell.
    const closer = createPointCropTool({ seenSize: { width: 4, height: 2 }, offset: 20, cropSize: 40, cells: true, frame: 'latest' });
    const first = await closer.execute({ coordinate: [1, 0] }, { images: [original] });
    expect(first.region).toEqual([55, 5, 95, 45]);
    // The crop shows [55, 5, 95, 45] at 40 × 40: its 4 × 2 cells are 10 × 20 px of the original,
    // cell [2, 1] is centred at (80, 35), and the box is 20 × 40/200 = 4 by 20 × 40/100 = 8 px about it.
    const options = { images: [original, first.images![0]!], regions: [undefined, first.region] };
    expect((await closer.execute({ coordinate: [2, 1] }, options)).region).toEqual([76, 27, 84, 43]);
    expect(await closer.lookAt!([78, 30, 82, 34], options)).toEqual({ coordinate: [2, 1] });
    await expect(closer.execute({ coordinate: [4, 1] }, options)).rejects.toThrow('expected a cell [column, row] of whole numbers from [0, 0] to [3, 1], received [4, 1]');
    // A latest image of no known region is the original's frame; frame 'first' ignores the regions.
    expect((await closer.execute({ coordinate: [1, 0] }, { images: [original, first.images![0]!] })).region).toEqual([55, 5, 95, 45]);
    const firstFrame = createPointCropTool({ seenSize: { width: 4, height: 2 }, offset: 20, cropSize: 40, cells: true });
    expect((await firstFrame.execute({ coordinate: [2, 1] }, options)).region).toEqual([105, 55, 145, 95]);
    expect(closer.description).toContain('a cell of the latest image');
    expect(() => createPointCropTool({ frame: 'last' as never })).toThrow(/frame: expected 'first' or 'latest'/);
  });

  it('rotates the original counter-clockwise', async () => {
    const turned = await decodeFirst(await rotateTool.execute({ angle: 90 }, { images: [original] }));
    expect([turned.width, turned.height, ...pixel(turned, 0, 0), ...pixel(turned, 99, 199)]).toEqual([100, 200, 199, 0, 7, 0, 99, 7]);
  });

  it('every tool passes checkTool', async () => {
    for (const [tool, sampleInput] of [[zoomTool, { bbox_2d: [0, 0, 40, 40] }], [pointCropTool, { coordinate: [10, 10] }], [rotateTool, { angle: 45 }]] as const) {
      expect(await checkTool(tool, { sampleInput, images: [original] })).toEqual({ ok: true, toolName: tool.name, failures: [] });
    }
  });
});

describe('visual search through the ToolUseWrapper', () => {
  /** 800 × 600 white, with a 6 × 6 square of the answer colour somewhere. */
  async function scene(x: number, y: number, rgb: [number, number, number]): Promise<ImageData> {
    const width = 800;
    const height = 600;
    const data = new Uint8Array(width * height * 3).fill(255);
    for (let dy = 0; dy < 6; dy++) for (let dx = 0; dx < 6; dx++) data.set(rgb, ((y + dy) * width + x + dx) * 3);
    return encodePng({ data, width, height, channels: 3 });
  }

  /** Where the first non-white pixel of a crop is, or undefined. */
  const findInk = (image: RawImage) => {
    for (let index = 0; index < image.width * image.height; index++) {
      if (image.data[index * 3]! < 250 || image.data[index * 3 + 1]! < 250 || image.data[index * 3 + 2]! < 250) return { x: index % image.width, y: Math.floor(index / image.width) };
    }
    return undefined;
  };

  const quadrants = [[0, 0, 400, 300], [400, 0, 800, 300], [0, 300, 400, 600], [400, 300, 800, 600]] as const;

  /**
   * Looks only at what the zoom tool returns, never at the original: zooms into the four
   * quadrants, then onto the square it found, and names the colour of the crop's centre.
   */
  const searcher = () =>
    new MockAgent({
      responses: [
        () => quadrants.map((box) => `<tool_call>{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [${box.join(', ')}]}}</tool_call>`).join('\n'),
        async ({ messages }) => {
          const crops = await Promise.all(lastObservation(messages).images.map((image) => decodeImage(image, { channels: 3 })));
          const found = crops.map(findInk).findIndex((ink) => ink !== undefined);
          const ink = findInk(crops[found]!)!;
          const [qx, qy] = quadrants[found]!;
          const [cx, cy] = [qx + ink.x + 3, qy + ink.y + 3];
          return `<tool_call>{"name": "image_zoom_in_tool", "arguments": {"bbox_2d": [${cx - 20}, ${cy - 20}, ${cx + 20}, ${cy + 20}], "label": "the square"}}</tool_call>`;
        },
        async ({ messages }) => {
          const crop = await decodeImage(lastObservation(messages).images[0]!, { channels: 3 });
          const rgb = pixel(crop, 20, 20);
          const letter = 'ABC'[rgb.indexOf(Math.max(...rgb))];
          return `<think>The square is in the crop.</think><answer>${letter}</answer>`;
        },
      ],
    });

  it('finds a 6-pixel square in an 800 × 600 image only by zooming', async () => {
    const tasks = [
      { id: 'green', image: await scene(613, 421, [0, 200, 0]), answer: 'Green' },
      { id: 'blue', image: await scene(97, 55, [0, 0, 230]), answer: 'Blue' },
    ].map(({ id, image, answer }) => ({
      id,
      dataset: 'vstar-like',
      taskFamily: 'visual-search',
      images: [image],
      question: 'What colour is the small square?',
      choices: ['Red', 'Green', 'Blue'],
      answer,
      answerType: 'multiple-choice' as const,
    }));
    for (const seed of [0, 1]) {
      const env = new ToolUseWrapper(new VisionQAEnv({ tasks }), { tools: [zoomTool], maxTurns: 4 });
      expect(env.systemPrompt()).toContain('"name":"image_zoom_in_tool"');
      const steps = await playEpisode(env, searcher(), { seed });
      expect(steps.map((step) => step.info.valid ?? step.info.metrics?.success)).toEqual([true, true, true]);
      expect(steps[0]!.observation.images).toHaveLength(4);
      expect(steps.at(-1)).toMatchObject({ reward: 1, terminated: true, info: { toolCallCount: 5 } });
      await env.close();
    }
  });
});
