import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkTool, runTool } from '@saccade/core';
import { renderSvg } from '@saccade/image';
import type { ImageData } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyDetrModel, tinyYoloModel } from '../test/tiny-onnx-model';
import { closeDetectors, createDetectTool } from './detect-tool';
import { createOnnxDetector, nonMaximumSuppression, parseClassNames, readLabelsFile, readOnnxMetadata } from './onnx-detector';

const folder = mkdtempSync(join(tmpdir(), 'detect-'));
const yoloPath = join(folder, 'tiny-yolo.onnx');
const detrPath = join(folder, 'tiny-detr.onnx');
const labelsPath = join(folder, 'config.json');
let wide: ImageData;
let tall: ImageData;

const svg = (width: number, height: number, body: string) => renderSvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#000"/>${body}</svg>`);

beforeAll(async () => {
  writeFileSync(yoloPath, tinyYoloModel());
  writeFileSync(detrPath, tinyDetrModel());
  writeFileSync(labelsPath, JSON.stringify({ model_type: 'detr', id2label: { 0: 'red', 1: 'green', 2: 'blue' } }));
  // 128 × 64: letterboxed into 64 × 64 at half scale with 16 px of grey above and below.
  wide = await svg(128, 64, '<rect x="32" y="16" width="16" height="16" fill="#f00"/><rect x="96" y="32" width="16" height="16" fill="#00f"/>');
  // 64 × 96: stretched to 64 × 64 (DETR), so the 8 × 12 squares fill one 8 × 8 cell each.
  tall = await svg(64, 96, '<rect x="8" y="12" width="8" height="12" fill="#f00"/><rect x="40" y="72" width="8" height="12" fill="#0f0"/>');
});
afterAll(closeDetectors);

const call = async (tool: ReturnType<typeof createDetectTool>, input: Record<string, unknown>, image: ImageData) => {
  const result = await runTool(tool, input, { images: [image] });
  if (!result.ok) throw new Error(result.message);
  return JSON.parse(result.result.text!) as { detections: { bbox: number[]; label: string; score: number }[]; count: number };
};

describe('detect (ONNX detectors on onnxruntime-node)', () => {
  it('runs a YOLO-layout model: letterbox, class names from its metadata, boxes in the image’s pixels', async () => {
    const tool = createDetectTool({ model: yoloPath, scoreThreshold: 0.5 });
    expect(await call(tool, {}, wide)).toEqual({
      detections: [
        { bbox: [32, 16, 48, 32], label: 'red thing', score: 1 },
        { bbox: [96, 32, 112, 48], label: 'blue thing', score: 1 },
      ],
      count: 2,
    });
    expect(await call(tool, { caption: 'blue things' }, wide)).toMatchObject({ count: 1, detections: [{ label: 'blue thing' }] });
    // The letterbox's grey (114) scores 0.447 in every class: a lower threshold finds its 4 rows of 8
    // cells (one detection a cell, its best class), as a trained YOLO would not.
    expect((await call(tool, { score_threshold: 0.4 }, wide)).count).toBe(2 + 4 * 8);
  });

  it('runs a DETR-layout model: stretched, ImageNet-normalised, softmax with "no object", names from a labels file', async () => {
    const detector = await createOnnxDetector({ modelPath: detrPath, labelsPath, scoreThreshold: 0.5 });
    expect([detector.layout, detector.labels, detector.inputWidth, detector.inputHeight]).toEqual(['detr', ['red', 'green', 'blue'], 64, 64]);
    await detector.close();
    const tool = createDetectTool({ model: detrPath, labels: labelsPath, scoreThreshold: 0.5 });
    expect(await call(tool, {}, tall)).toEqual({
      detections: [
        { bbox: [40, 72, 48, 84], label: 'green', score: 0.898 },
        { bbox: [8, 12, 16, 24], label: 'red', score: 0.88 },
      ],
      count: 2,
    });
    // RT-DETR: the same outputs, pixels in 0–1 without normalising, a sigmoid per class and no "no object"
    // class: a full red cell scores sigmoid(1) = 0.731, a black one sigmoid(0) = 0.5.
    const rt = createDetectTool({ model: detrPath, labels: labelsPath, layout: 'rtdetr', scoreThreshold: 0.6 });
    expect((await call(rt, {}, tall)).detections.map(({ bbox, label, score }) => [label, score, bbox])).toEqual([['red', 0.731, [8, 12, 16, 24]], ['green', 0.731, [40, 72, 48, 84]]]);
  });

  it('suppresses overlapping boxes of one class, best first, and keeps other classes', () => {
    const kept = nonMaximumSuppression(
      [
        { box: [0, 0, 10, 10], classId: 0, score: 0.8 },
        { box: [1, 0, 11, 10], classId: 0, score: 0.9 }, // IoU 0.818 with the first
        { box: [5, 0, 15, 10], classId: 0, score: 0.7 }, // IoU 60/140 = 0.429 with the second: kept
        { box: [6, 0, 16, 10], classId: 0, score: 0.6 }, // IoU 90/110 = 0.818 with the third: dropped
        { box: [0, 0, 10, 10], classId: 1, score: 0.5 }, // another class
      ],
      0.45,
    );
    expect(kept.map(({ box, classId, score }) => [box[0], classId, score])).toEqual([[1, 0, 0.9], [5, 0, 0.7], [0, 1, 0.5]]);
    expect(nonMaximumSuppression([{ box: [0, 0, 1, 1], classId: 0, score: 1 }, { box: [5, 5, 6, 6], classId: 0, score: 0.5 }], 0.45, 1)).toHaveLength(1);
  });

  it('reads class names from metadata, label files and JSON', async () => {
    expect(readOnnxMetadata(tinyYoloModel()).get('names')).toBe("{0: 'red thing', 1: 'green thing', 2: 'blue thing'}");
    expect(parseClassNames("{0: 'person', 1: \"traffic light\", 3: 'dog'}")).toEqual(['person', 'traffic light', 'class 2', 'dog']);
    const lines = join(folder, 'labels.txt');
    writeFileSync(lines, 'cat\ndog\n');
    expect(await readLabelsFile(lines)).toEqual(['cat', 'dog']);
    const array = join(folder, 'labels.json');
    writeFileSync(array, '["a", "b"]');
    expect(await readLabelsFile(array)).toEqual(['a', 'b']);
    writeFileSync(array, '{"labels": 3}');
    await expect(readLabelsFile(array)).rejects.toThrow(/expected .*labels.json to hold an array of names/);
  });

  it('says what is missing or wrong', async () => {
    const saved = process.env['SACCADE_DETECT_MODEL'];
    delete process.env['SACCADE_DETECT_MODEL'];
    try {
      const result = await runTool(createDetectTool(), {}, { images: [wide] });
      expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/expected an ONNX detector for detect: give its path as --tool-options/) });
    } finally {
      if (saved !== undefined) process.env['SACCADE_DETECT_MODEL'] = saved;
    }
    await expect(createOnnxDetector({ modelPath: join(folder, 'missing.onnx') })).rejects.toThrow(/expected an ONNX detector at .*missing.onnx, could not read it/);
    await expect(createOnnxDetector({ modelPath: yoloPath, layout: 'detr' })).rejects.toThrow(/expected a detr model to have two outputs \(logits, pred_boxes\)/);
    expect(() => createDetectTool({ model: yoloPath, scoreThreshold: 2 })).toThrow(/expected detect settings .*scoreThreshold/);
  });

  it('passes checkTool', async () => {
    expect(await checkTool(createDetectTool({ model: yoloPath }), { sampleInput: { caption: 'red thing' }, images: [wide] })).toEqual({ ok: true, toolName: 'detect', failures: [] });
  });
});
