import { existsSync, readFileSync } from 'node:fs';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import { exportVerlParquet } from './export-verl-parquet';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

const SYSTEM = 'You answer questions about images. Look carefully at every image, reason step by step, then give your final answer.\nPut your final answer, and nothing else, inside <answer>…</answer>.';

describe('exportVerlParquet', () => {
  test("writes verl's RL layout: chat prompt, embedded images, rule ground truth, the full target in extra_info", async () => {
    const red = await scratch.png('images/red.png', 4, 3);
    scratch.jsonl('tasks.jsonl', [
      { id: 'ai2d-1', dataset: 'AI2D', taskFamily: 'science', images: ['images/red.png'], question: 'Which planet is shown?', choices: ['Mercury', 'Venus'], answer: 'Venus', answerType: 'multiple-choice', metadata: { answer_letter: 'B', answer_index: 1 } },
      { id: 'ss-1', dataset: 'ScreenSpot', taskFamily: 'grounding', images: ['images/red.png'], question: 'search button', answer: [1, 1, 3, 2], answerType: 'point' },
    ]);
    const summary = await exportVerlParquet({ input: scratch.path('tasks.jsonl'), output: scratch.path('verl/train.parquet'), split: 'train', rowGroupSize: 1 });
    expect(summary).toMatchObject({ read: 2, written: 2, skipped: 0 });
    const file = await asyncBufferFromFile(scratch.path('verl/train.parquet'));
    expect((await parquetMetadataAsync(file)).row_groups).toHaveLength(2);
    const rows = (await parquetReadObjects({ file, utf8: false })) as Record<string, unknown>[];
    const image = { bytes: new Uint8Array(readFileSync(red)), path: red };
    expect(rows).toEqual([
      {
        data_source: 'AI2D',
        prompt: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: '<image>\nWhich planet is shown?\nChoices:\n(A) Mercury\n(B) Venus\nAnswer with the letter of the correct option.\nPut your final answer, and nothing else, inside <answer>…</answer>.' },
        ],
        images: [image],
        ability: 'science',
        reward_model: { style: 'rule', ground_truth: 'B' },
        extra_info: { split: 'train', index: 0n, id: 'ai2d-1', question: 'Which planet is shown?', answer: 'Venus', answer_type: 'multiple-choice', target: '{"answer":"Venus","choices":["Mercury","Venus"],"metadata":{"answer_letter":"B","answer_index":1}}' },
      },
      {
        data_source: 'ScreenSpot',
        prompt: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: '<image>\nsearch button\nAnswer with the point (x, y) in pixels of the image.\nPut your final answer, and nothing else, inside <answer>…</answer>.' },
        ],
        images: [image],
        ability: 'grounding',
        reward_model: { style: 'rule', ground_truth: '[1,1,3,2]' },
        extra_info: { split: 'train', index: 1n, id: 'ss-1', question: 'search button', answer: '[1,1,3,2]', answer_type: 'point', target: '{"answer":[1,1,3,2]}' },
      },
    ]);
  });

  test('a task whose image is missing stops the export (file, line, field), or is skipped and counted', async () => {
    await scratch.png('images/red.png');
    const input = scratch.jsonl('tasks.jsonl', [
      { id: 'a', dataset: 'ChartQA', taskFamily: 'chart', images: ['images/red.png'], question: 'Q?', answer: '1', answerType: 'number' },
      { id: 'b', dataset: 'ChartQA', taskFamily: 'chart', images: ['images/gone.png'], question: 'Q?', answer: '1', answerType: 'number' },
    ]);
    await expect(exportVerlParquet({ input, output: scratch.path('out.parquet') })).rejects.toThrow(`${input}:2: field "images[0]": expected an image file that exists`);
    const skipped: string[] = [];
    const summary = await exportVerlParquet({ input, output: scratch.path('out.parquet'), skipInvalid: true, systemPrompt: false, onInvalid: (error) => skipped.push(error.field) });
    expect(summary).toMatchObject({ read: 2, written: 1, skipped: 1 });
    expect(skipped).toEqual(['images[0]']);
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(scratch.path('out.parquet')) })) as { prompt: unknown[] }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.prompt).toHaveLength(1);
  });

  test('a task whose image is not an image (/etc/passwd) is refused, not embedded', async () => {
    await scratch.png('images/red.png');
    const input = scratch.jsonl('tasks.jsonl', [
      { id: 'a', dataset: 'ChartQA', taskFamily: 'chart', images: ['images/red.png'], question: 'Q?', answer: '1', answerType: 'number' },
      { id: 'b', dataset: 'ChartQA', taskFamily: 'chart', images: ['/etc/passwd'], question: 'Q?', answer: '1', answerType: 'number' },
    ]);
    await expect(exportVerlParquet({ input, output: scratch.path('out.parquet') })).rejects.toThrow(`${input}: field "images[0]": expected a PNG, JPEG or WebP image, received /etc/passwd, whose bytes are not one (task "b")`);
    expect(existsSync(scratch.path('out.parquet'))).toBe(false);
    const summary = await exportVerlParquet({ input, output: scratch.path('out.parquet'), skipInvalid: true });
    expect(summary).toMatchObject({ read: 2, written: 1, skipped: 1 });
    // Nothing valid: no row, so no file.
    const onlyBad = scratch.jsonl('bad.jsonl', [{ id: 'b', dataset: 'ChartQA', taskFamily: 'chart', images: ['/etc/passwd'], question: 'Q?', answer: '1', answerType: 'number' }]);
    expect(await exportVerlParquet({ input: onlyBad, output: scratch.path('none.parquet'), skipInvalid: true })).toMatchObject({ read: 1, written: 0, skipped: 1 });
    expect(existsSync(scratch.path('none.parquet'))).toBe(false);
  });
});
