import { MockAgent } from '@saccade/agents';
import { checkTool, ToolUseWrapper } from '@saccade/core';
import { VisionQAEnv } from '@saccade/env-vqa';
import type { ImageData } from '@saccade/spec';
import { decodeImage } from '@saccade/image';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastObservation, runEpisode } from '../test/run-episode';
import { textImage } from '../test/text-image';
import { createOcrEngine, defaultOcrModelPaths, readingOrder } from './ocr-engine';
import { createPaddleDetector, createPaddleRecognizer, toHalfWidth } from './paddle-ocr';
import { closeOcrEngines, createOcrTool, ocrTool } from './ocr-tool';

let receipt: ImageData;
beforeAll(async () => {
  receipt = await textImage(
    [
      { text: 'Total: 42.50 USD', x: 10, y: 40 },
      { text: 'Invoice 2024-07', x: 10, y: 90, size: 20, color: '#333333' },
      { text: 'Ship to Berlin', x: 240, y: 90, size: 20 },
    ],
    420,
    120,
  );
});
afterAll(() => closeOcrEngines());

const read = async (args: Record<string, unknown>, images = [receipt]) => JSON.parse((await ocrTool.execute(args as never, { images })).text!);

describe('ocr (PP-OCRv4 on onnxruntime-node)', () => {
  it('detect_and_recognize: every line, its box and the text in reading order', async () => {
    const result = await read({});
    expect(result.text).toBe('Total: 42.50 USD\nInvoice 2024-07\nShip to Berlin');
    expect(result.detections.map((line: { bbox: number[] }) => line.bbox)).toEqual([[9, 19, 211, 44], [8, 71, 173, 95], [239, 70, 376, 97]]);
    for (const line of result.detections) expect(line.confidence).toBeGreaterThan(0.9);
  });

  it('detect_only, region and recognize_only', async () => {
    expect((await read({ task: 'detect_only' })).detections.map((line: { bbox: number[] }) => line.bbox)).toEqual([[9, 19, 211, 44], [8, 71, 173, 95], [239, 70, 376, 97]]);
    const region = await read({ task: 'region', region: [0, 60, 230, 120] });
    expect(region).toMatchObject({ text: 'Invoice 2024-07', detections: [{ bbox: [9, 72, 171, 95], text: 'Invoice 2024-07' }] });
    const line = await textImage([{ text: 'Gate B12', x: 6, y: 30, size: 26 }], 140, 40);
    expect(await read({ task: 'recognize_only' }, [line])).toMatchObject({ text: 'Gate B12' });
  });

  it('reads white-on-blue text and refuses bad calls with a reason', async () => {
    const button = await textImage([{ text: 'Sign in', x: 20, y: 38, size: 24, color: '#ffffff' }], 140, 56, '#1f5fbf');
    expect((await read({}, [button])).text).toBe('Sign in');
    await expect(ocrTool.execute({ task: 'region' }, { images: [receipt] })).rejects.toThrow('expected "region": [x1, y1, x2, y2] with task "region"');
    await expect(createOcrTool({ models: { detectionPath: '/nowhere/det.onnx', recognitionPath: '/nowhere/rec.onnx', dictionaryPath: '/nowhere/keys.txt' } }).execute({ task: 'detect_only' }, { images: [receipt] })).rejects.toThrow(
      /^expected (an ONNX model at \/nowhere\/det\.onnx, could not load it|a character dictionary at \/nowhere\/keys\.txt)/,
    );
  });

  it('sorts lines into reading order', () => {
    const boxes = [{ box: [200, 52, 300, 80] }, { box: [10, 50, 100, 80] }, { box: [10, 10, 100, 40] }] as Array<{ box: [number, number, number, number] }>;
    expect(readingOrder(boxes).map(({ box }) => box[0] + box[1])).toEqual([20, 60, 252]);
  });

  it('passes checkTool', async () => {
    expect(await checkTool(ocrTool, { sampleInput: { task: 'detect_and_recognize' }, images: [receipt], abortGraceMs: 5_000 })).toEqual({ ok: true, toolName: 'ocr', failures: [] });
  });

  it('a scripted agent answers an OCR-dependent question only through the OCR tool', async () => {
    const codes = ['7391', '5026'];
    const tasks = await Promise.all(
      codes.map(async (code, index) => ({
        id: `code-${index}`,
        dataset: 'docvqa-like',
        taskFamily: 'document',
        images: [await textImage([{ text: 'Boarding pass', x: 12, y: 34 }, { text: `Code: ${code}`, x: 12, y: 84, size: 22 }], 300, 110)],
        question: 'What is the code on the pass?',
        answer: code,
        answerType: 'number' as const,
      })),
    );
    for (const [seed, code] of codes.entries()) {
      // Never looks at pixels: calls OCR, then reads the code from the tool's JSON.
      const agent = new MockAgent({
        responses: [
          '<tool_call>{"name": "ocr", "arguments": {"task": "detect_and_recognize"}}</tool_call>',
          ({ messages }) => {
            const response = lastObservation(messages).text.match(/<tool_response>\n([\s\S]*)\n<\/tool_response>/)![1]!;
            const found = /Code:\s*(\d+)/.exec(JSON.parse(response).text)?.[1] ?? 'unknown';
            return `<answer>${found}</answer>`;
          },
        ],
      });
      const env = new ToolUseWrapper(new VisionQAEnv({ tasks }), { tools: [ocrTool], maxTurns: 3 });
      const steps = await runEpisode(env, agent, seed);
      expect(steps[0]!.info.valid).toBe(true);
      expect(steps.at(-1)).toMatchObject({ reward: 1, terminated: true, info: { prediction: code, toolCallCount: 1 } });
    }
  });
});

describe('recogniser settings', () => {
  it('reads each line at its own width as PaddleOCR reads padded batches of six', async () => {
    const paths = defaultOcrModelPaths();
    const detector = await createPaddleDetector({ modelPath: paths.detectionPath });
    const image = await textImage(
      [
        { text: 'Q1', x: 10, y: 30, size: 12 },
        { text: 'Total: 42.50 USD', x: 80, y: 30 },
        { text: 'Revenue grew 12.5% in Q3', x: 10, y: 70, size: 16, color: '#333333' },
        { text: 'Sign in', x: 300, y: 70, size: 14 },
      ],
      420,
      90,
    );
    const pixels = await decodeImage(image, { channels: 3 });
    const ours = createOcrEngine({ detector, recognizer: await createPaddleRecognizer({ modelPath: paths.recognitionPath, dictionaryPath: paths.dictionaryPath }) });
    const paddle = createOcrEngine({ detector, recognizer: await createPaddleRecognizer({ modelPath: paths.recognitionPath, dictionaryPath: paths.dictionaryPath, batchSize: 6, minWidth: 320 }) });
    const texts = (lines: Array<{ text: string }>) => lines.map((line) => line.text);
    expect(texts(await ours.read(pixels))).toEqual(['Q1', 'Total: 42.50 USD', 'Revenue grew 12.5% in Q3', 'Sign in']);
    expect(texts(await paddle.read(pixels))).toEqual(texts(await ours.read(pixels)));
    await Promise.all([ours.recognizer.close?.(), paddle.recognizer.close?.(), detector.close?.()]);
  });

  it('reads full-width forms as ASCII', () => {
    expect(['（', '）', '％', '：', '，', '＄', '　', 'A', '中', '。'].map(toHalfWidth)).toEqual(['(', ')', '%', ':', ',', '$', ' ', 'A', '中', '。']);
  });
});
