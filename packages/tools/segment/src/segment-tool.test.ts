import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkTool, runTool } from '@saccade/core';
import { decodeImage, renderSvg } from '@saccade/image';
import { decodeMaskRle, type ImageData, type SegmentationMask } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SAM_SCORES, writeTinySamModel } from '../test/tiny-sam-model';
import { drawMasks } from './draw-masks';
import { createSamSegmenter } from './sam-segmenter';
import { closeSegmenters, createSegmentTool } from './segment-tool';
import type { Segmenter, SegmentPrompt } from './segmenter';

const folder = mkdtempSync(join(tmpdir(), 'segment-'));
const modelPath = join(folder, 'tiny-sam');
const withBoxes = join(folder, 'tiny-sam-boxes');
let scene: ImageData;

beforeAll(async () => {
  writeTinySamModel(modelPath);
  writeTinySamModel(withBoxes, { boxes: true });
  // 64 × 32, black, a red square (16, 8)–(32, 24) and a green one (40, 8)–(56, 24): each fills 4 × 4 of the model's 4-pixel cells.
  scene = await renderSvg('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="64" height="32" fill="#000"/><rect x="16" y="8" width="16" height="16" fill="#f00"/><rect x="40" y="8" width="16" height="16" fill="#0f0"/></svg>');
});
afterAll(closeSegmenters);

type Answer = { masks: SegmentationMask[]; count: number };
const call = async (tool: ReturnType<typeof createSegmentTool>, input: Record<string, unknown>) => {
  const result = await runTool(tool, input, { images: [scene] });
  if (!result.ok) throw new Error(result.message);
  return { answer: JSON.parse(result.result.text!) as Answer, images: result.result.images ?? [] };
};

// A square (x, 8)–(x + 16, 24) as SAM's post-processing returns it, in COCO RLE: the bilinear
// upsampling of the 16 × 16 logits rounds its 4 corner pixels off (each is 0.375² inside), so its
// first and last columns hold 14 pixels (y 9–22) and the 14 between them 16 (y 8–23).
const square = (x: number): number[] => [x * 32 + 9, 14, 17, 16, ...Array.from({ length: 13 }, () => [16, 16]).flat(), 17, 14, (64 - x - 16) * 32 + 9];

describe('segment (SAM through transformers.js)', () => {
  it('runs a SAM-layout model folder: processor resize and pad, both graphs, masks back in the image’s pixels', async () => {
    const tool = createSegmentTool({ model: modelPath });
    expect(tool.description).toMatch(/^Segment an object/);
    const { answer, images } = await call(tool, { points: [[24, 16]] });
    // The best candidate (score 0.9, + 0.01 for the one label 1) is the red channel: the red square.
    expect(answer).toEqual({
      masks: [{ rle: { size: [32, 64], counts: square(16) }, score: 0.91, area: 252, coverage: 0.123, bbox: [16, 8, 32, 24], centroid: [24, 16] }],
      count: 1,
    });
    expect(images).toHaveLength(1);
    const overlay = await decodeImage(images[0]!, { channels: 3 });
    const at = (x: number, y: number) => [...overlay.data.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
    // Inside the mask: red blended half with the first mask colour (30, 144, 255); the point a green dot; outside untouched.
    expect([at(18, 10), at(24, 16), at(2, 2), at(48, 16)]).toEqual([[143, 72, 128], [0, 255, 0], [0, 0, 0], [0, 255, 0]]);

    const all = await call(tool, { points: [[24, 16]], negative_points: [[48, 16]], multimask: true });
    // Labels 1 and 0: + 0.01.
    expect(all.answer.masks.map(({ score, area, bbox }) => [score, area, bbox])).toEqual([
      [TINY_SAM_SCORES[0]! + 0.01, 252, [16, 8, 32, 24]],
      [TINY_SAM_SCORES[1]! + 0.01, 252, [40, 8, 56, 24]],
      [TINY_SAM_SCORES[2]! + 0.01, 0, [0, 0, 0, 0]],
    ]);
    expect(all.answer.masks[1]!.rle.counts).toEqual(square(40));
    // The RLE decodes to the mask: the green square's centre is in, its corner (40, 8) out.
    const green = decodeMaskRle(all.answer.masks[1]!.rle);
    expect([green[16 * 64 + 48], green[8 * 64 + 40], green[9 * 64 + 40]]).toEqual([1, 0, 1]);
    // A box, to a decoder without input_boxes: its corners as points labelled 2 and 3 (+ 0.05).
    expect((await call(tool, { box: [14, 6, 34, 26] })).answer.masks[0]).toMatchObject({ score: 0.95, bbox: [16, 8, 32, 24] });
    // To a decoder with input_boxes: the box (+ 0.001 × 80) and SAM's padding point, label -10 (- 0.1).
    expect((await call(createSegmentTool({ model: withBoxes }), { box: [14, 6, 34, 26] })).answer.masks[0]).toMatchObject({ score: 0.88, bbox: [16, 8, 32, 24] });
    // Points and a box: the labels (1) and the box (+ 0.08).
    expect((await call(createSegmentTool({ model: withBoxes }), { points: [[24, 16]], box: [14, 6, 34, 26] })).answer.masks[0]!.score).toBe(0.99);
  });

  it('tells a wrong model folder from a good one', async () => {
    await expect(createSamSegmenter({ modelPath: join(folder, 'none') })).rejects.toThrow(/expected a SAM model folder at .*none with config.json, preprocessor_config.json and the ONNX files, found no such folder/);
    await expect(createSamSegmenter({ modelPath: folder })).rejects.toThrow(/with config.json, found only tiny-sam/);
  });

  it('without a model: not usable in its description, and a call says where to put one', async () => {
    const saved = process.env['SACCADE_SEGMENT_MODEL'];
    delete process.env['SACCADE_SEGMENT_MODEL'];
    try {
      const tool = createSegmentTool();
      expect(tool.description).toMatch(/^Not usable: no SAM model is configured \(give a SAM ONNX model folder .* as --tool-options '\{"segment": \{"model": "<folder>"\}\}' or SACCADE_SEGMENT_MODEL\)/);
      expect(await runTool(tool, { points: [[1, 1]] }, { images: [scene] })).toMatchObject({ ok: false, message: expect.stringMatching(/expected a SAM model for segment, none is configured: give a SAM ONNX model folder/) });
    } finally {
      if (saved !== undefined) process.env['SACCADE_SEGMENT_MODEL'] = saved;
    }
  });

  it('refuses prompts it cannot use, with what came', async () => {
    const tool = createSegmentTool({ model: modelPath });
    expect(await runTool(tool, {}, { images: [scene] })).toMatchObject({ ok: false, kind: 'invalid-arguments', message: expect.stringMatching(/expected points or a box/) });
    expect(await runTool(tool, { points: [[64, 3]] }, { images: [scene] })).toMatchObject({ ok: false, message: expect.stringMatching(/expected points inside the 64 × 32 image, received \[64,3\]/) });
    expect(await runTool(tool, { box: [10, 10, 5, 20] }, { images: [scene] })).toMatchObject({ ok: false, message: expect.stringMatching(/expected box \[x1, y1, x2, y2\] with x2 > x1 and y2 > y1, received \[10,10,5,20\]/) });
    expect(() => createSegmentTool({ model: modelPath, threads: 2 } as never)).toThrow(/expected segment settings .*Unrecognized key/);
  });

  it('takes a segmenter made in code and draws its masks, box and points', async () => {
    const prompts: SegmentPrompt[] = [];
    const segmenter: Segmenter = {
      async segment(image, prompt) {
        prompts.push(prompt);
        const mask = new Uint8Array(image.width * image.height);
        mask[0] = 1;
        mask[1] = 1;
        return [{ mask, score: 0.42 }];
      },
      async close() {},
    };
    const { answer } = await call(createSegmentTool({ segmenter }), { points: [[5, 6]], negative_points: [[7, 8]], box: [1, 2, 30, 20] });
    expect(prompts).toEqual([{ points: [{ x: 5, y: 6, label: 1 }, { x: 7, y: 8, label: 0 }], box: [1, 2, 30, 20] }]);
    expect(answer.masks[0]).toEqual({ rle: { size: [32, 64], counts: [0, 1, 31, 1, 64 * 32 - 33] }, score: 0.42, area: 2, coverage: 0.001, bbox: [0, 0, 2, 1], centroid: [1, 0.5] });
    const raw = await decodeImage(scene, { channels: 3 });
    const drawn = await decodeImage(await drawMasks(raw, [], { box: [1, 2, 30, 20], points: [{ x: 7, y: 8, label: 0 }] }), { channels: 3 });
    const at = (x: number, y: number) => [...drawn.data.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
    expect([at(1, 2), at(29, 19), at(7, 8), at(3, 5)]).toEqual([[255, 255, 255], [255, 255, 255], [255, 0, 0], [0, 0, 0]]);
  });

  it('passes checkTool', async () => {
    expect(await checkTool(createSegmentTool({ model: modelPath }), { sampleInput: { points: [[24, 16]] }, images: [scene] })).toEqual({ ok: true, toolName: 'segment', failures: [] });
  });
});
