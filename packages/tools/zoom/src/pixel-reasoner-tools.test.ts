import { checkTool, ToolUseWrapper } from '@saccade/core';
import { decodeImage, encodePng, type RawImage } from '@saccade/image';
import type { Env, ImageData } from '@saccade/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { cropImageTool, selectFramesTool, zoomInTool } from './pixel-reasoner-tools';

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

describe("verl-tool's pixel-reasoner tools", () => {
  it('crop_image pads pixel boxes by 10% of the image on each side, as Pixel-Reasoner', async () => {
    // [50, 20, 100, 60] on 200 × 100: padding 20 px across, 10 px down → [30, 10, 120, 70].
    const result = await cropImageTool.execute({ bbox_2d: [50, 20, 100, 60], target_image: 1 }, { images: [original] });
    expect(result.text).toBe('Here is the cropped image. (Image Size: 90x60)');
    const crop = await decodeImage(result.images![0]!, { channels: 3 });
    expect([crop.width, crop.height]).toEqual([90, 60]);
    expect(pixel(crop, 0, 0)).toEqual([30, 10, 7]);
    expect(pixel(crop, 89, 59)).toEqual([119, 69, 7]);
  });

  it('reads boxes below 1 as fractions, clips at the edges and picks target_image among the crops', async () => {
    const first = await zoomInTool.execute({ bbox_2d: [0.5, 0.5, 0.95, 0.9], target_image: 1 }, { images: [original] });
    // 0.4–1.0 across, 0.4–1.0 down: [80, 40, 200, 100].
    expect(first.text).toBe('Here is the cropped image. (Image Size: 120x60)');
    const second = await cropImageTool.execute({ bbox_2d: [0, 0, 0.5, 0.5], target_image: 2 }, { images: [original, ...first.images!] });
    // Of the 120 × 60 crop: 0–0.6 → [0, 0, 72, 36]; its top left is (80, 40) of the original.
    expect(second.text).toBe('Here is the cropped image. (Image Size: 72x36)');
    expect(pixel(await decodeImage(second.images![0]!, { channels: 3 }), 0, 0)).toEqual([80, 40, 7]);
  });

  it('answers a target_image out of range with the message Pixel-Reasoner gives, through the tool wrapper', async () => {
    const env: Env = {
      specificationVersion: 'v1',
      id: 'test/Image-v1',
      reset: async () => ({ observation: { text: '<image>', images: [original] }, info: {} }),
      step: async () => ({ observation: { text: '', images: [] }, reward: 0, terminated: true, truncated: false, info: {} }),
      systemPrompt: () => '',
      close: async () => {},
    };
    const wrapped = new ToolUseWrapper(env, { tools: [cropImageTool] });
    await wrapped.reset();
    const step = await wrapped.step('<tool_call>{"name": "crop_image", "arguments": {"bbox_2d": [0, 0, 10, 10], "target_image": 3}}</tool_call>');
    expect(step.observation.text).toContain('Invalid target_image index. It should be an integer between 1 and the number of previous images (1), received 3.');
    expect(step.info.valid).toBe(false);
  });

  it('select_frames shows the chosen images again', async () => {
    const result = await selectFramesTool.execute({ target_frames: [1, 1] }, { images: [original] });
    expect(result.text).toBe('Here are the selected frames. (Frame Size: 200x100, Numbered 1 to 2):');
    expect(result.images).toEqual([original, original]);
  });

  it('passes checkTool', async () => {
    for (const tool of [cropImageTool, zoomInTool, selectFramesTool]) await checkTool(tool);
  });
});
