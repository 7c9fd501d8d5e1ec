import { existsSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Scratch } from '../../test/dataset-files';
import { DatasetFormatError } from '../dataset-format-error';
import { convertDataset } from './convert-dataset';

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.remove());

/** A V*Bench JSONL file: line 2 is not JSON, line 3 names a missing image, line 4 lacks its label. */
async function brokenVstar(): Promise<string> {
  const good = (id: number) => ({ image: 'direct_attributes/a.jpg', text: 'What colour is the cup?\n(A) red\n(B) blue', category: 'direct_attributes', question_id: id, label: 'A' });
  await scratch.png('vstar/direct_attributes/a.jpg');
  return scratch.jsonl('vstar/test_questions.jsonl', [good(0), '{"image": "direct_attributes/a.jpg", "text": ', { ...good(2), image: 'direct_attributes/missing.jpg' }, { ...good(3), label: undefined }, good(4)]);
}

describe('convertDataset errors', () => {
  test('by default the first bad line stops the run, naming the file, line and field; no output is left', async () => {
    const input = await brokenVstar();
    const output = scratch.path('out.jsonl');
    const error = await convertDataset({ dataset: 'vstar', input, output }).catch((caught: unknown) => caught);
    expect(DatasetFormatError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ file: input, line: 2, field: '(line)', expected: 'a JSON object' });
    expect((error as Error).message).toMatch(new RegExp(`^${input.replaceAll('/', '\\/')}:2: field "\\(line\\)": expected a JSON object, received text that is not JSON`));
    expect(existsSync(output)).toBe(false);
    expect(readdirSync(scratch.root).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('--skip-invalid skips and reports each bad record, and counts read, written and skipped', async () => {
    const input = await brokenVstar();
    const problems: string[] = [];
    const summary = await convertDataset({ dataset: 'vstar', input, output: scratch.path('out.jsonl'), skipInvalid: true, onInvalid: (error) => problems.push(error.message) });
    expect(summary).toMatchObject({ read: 5, written: 2, skipped: 3, leftOut: 0 });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain(`${input}:2: field "(line)": expected a JSON object, received text that is not JSON`);
    expect(problems[1]).toBe(`${input}:3: field "image": expected an image file that exists, received "direct_attributes/missing.jpg" (not found at ${scratch.path('vstar/direct_attributes/missing.jpg')})`);
    expect(problems[2]).toBe(`${input}:4: field "label": expected a non-empty string (the letter of the right option), received nothing (the field is missing)`);
    expect((scratch.tasks('out.jsonl') as { id: string }[]).map((task) => task.id)).toEqual(['vstar-0', 'vstar-4']);
  });

  test('records of a JSON document are named by their position', async () => {
    const input = scratch.json('test/test_human.json', [{ imgname: 'a.png', query: 'Q?', label: '1' }, { imgname: 'a.png', query: 'Q2?' }]);
    await scratch.png('test/png/a.png');
    await expect(convertDataset({ dataset: 'ChartQA', input, output: scratch.path('out.jsonl') })).rejects.toThrow(`${input} record 2: field "label": expected a string or a number (the answer), received nothing (the field is missing)`);
  });

  test('an answer that does not fit its answer type names the task field', async () => {
    const input = scratch.json('vlmgym.json', [{ id: 'x', dataset: 'chartqa', image_path: 'a.png', question: 'Q?', answer: 'many', task: 'chart', metadata: { answer_type: 'number' } }]);
    await scratch.png('a.png');
    await expect(convertDataset({ dataset: 'vlmgym', input, output: scratch.path('out.jsonl') })).rejects.toThrow(`${input} record 1: field "(task) answer": expected a number (answerType is number), received "many"`);
  });

  test('a repeated task id is an error, not a silent duplicate', async () => {
    const sample = { id: 'same', dataset: 'chartqa', image_path: 'a.png', question: 'Q?', answer: '1', task: 'chart' };
    const input = scratch.json('vlmgym.json', [sample, sample]);
    await scratch.png('a.png');
    await expect(convertDataset({ dataset: 'vlmgym', input, output: scratch.path('out.jsonl') })).rejects.toThrow(`${input} record 2: field "id": expected a task id not used before in this file, received "same"`);
  });

  test('an unknown dataset, a missing input and a file that is not JSON are clear errors', async () => {
    await expect(convertDataset({ dataset: 'imagenet', input: scratch.root, output: scratch.path('out.jsonl') })).rejects.toThrow('Invalid argument dataset: expected one of ChartQA, PlotQA, FigureQA');
    await expect(convertDataset({ dataset: 'chartqa', input: scratch.path('nope.json'), output: scratch.path('out.jsonl') })).rejects.toThrow(`${scratch.path('nope.json')}: field "(file)": expected ChartQA's`);
    const input = scratch.write('bad.json', '[\n  {"imgname": "a.png",\n  oops\n]');
    await expect(convertDataset({ dataset: 'chartqa', input, output: scratch.path('out.jsonl') })).rejects.toThrow(`${input}:3: field "(file)": expected a JSON document, received text that is not JSON`);
  });

  test('an image path must resolve inside the images folder (after links) and be an image', async () => {
    await scratch.png('test/png/a.png');
    scratch.write('test/png/notes.png', 'plain text, not an image');
    scratch.write('secret.png', 'outside the images folder');
    symlinkSync(scratch.path('secret.png'), scratch.path('test/png/link.png'));
    const input = scratch.json('test/test_human.json', [
      { imgname: 'a.png', query: 'Q?', label: '1' },
      { imgname: '../../../../../../etc/passwd', query: 'Q?', label: '1' },
      { imgname: '/etc/hostname', query: 'Q?', label: '1' },
      { imgname: 'link.png', query: 'Q?', label: '1' },
      { imgname: 'notes.png', query: 'Q?', label: '1' },
      { imgname: '../../secret.png', query: 'Q?', label: '1' },
    ]);
    const images = realpathSync(scratch.path('test/png'));
    const problems: string[] = [];
    const summary = await convertDataset({ dataset: 'ChartQA', input, output: scratch.path('out.jsonl'), skipInvalid: true, onInvalid: (error) => problems.push(error.message) });
    expect(summary).toMatchObject({ read: 6, written: 1, skipped: 5 });
    const outside = (record: number, given: string, real: string) => `${input} record ${record}: field "imgname": expected an image inside the images folder ${images}, received ${JSON.stringify(given)} (resolves to ${real}, outside it)`;
    expect(problems).toEqual([
      outside(2, relative(scratch.path('test/png'), '/etc/passwd'), '/etc/passwd'),
      outside(3, relative(scratch.path('test/png'), '/etc/hostname'), '/etc/hostname'),
      outside(4, 'link.png', realpathSync(scratch.path('secret.png'))),
      `${input} record 5: field "imgname": expected a PNG, JPEG or WebP image, received "notes.png" (${images}/notes.png is not one: its first bytes are no image signature)`,
      outside(6, '../../secret.png', realpathSync(scratch.path('secret.png'))),
    ]);
    // vlmgym: an absolute image_path outside the file's folder.
    const vlmgym = scratch.json('vlmgym.json', [{ id: 'x', dataset: 'chartqa', image_path: '/etc/passwd', question: 'Q?', answer: '1', task: 'chart' }]);
    await expect(convertDataset({ dataset: 'vlmgym', input: vlmgym, output: scratch.path('v.jsonl') })).rejects.toThrow(`field "image_path": expected an image inside the images folder ${realpathSync(scratch.root)}, received`);
    expect(existsSync(scratch.path('v.jsonl'))).toBe(false);
    // Every record skipped: no task, so no file (not a 0-byte one).
    expect(await convertDataset({ dataset: 'vlmgym', input: vlmgym, output: scratch.path('v.jsonl'), skipInvalid: true })).toMatchObject({ read: 1, written: 0, skipped: 1 });
    expect(existsSync(scratch.path('v.jsonl'))).toBe(false);
  });
});
