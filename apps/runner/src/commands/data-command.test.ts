import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderSvg } from '@saccade/image';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-data-cli-'));
const split = join(scratch, 'ChartQA Dataset', 'test');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
beforeAll(async () => {
  mkdirSync(join(split, 'png'), { recursive: true });
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#4a7bd0"/></svg>';
  writeFileSync(join(split, 'png', 'bars.png'), (await renderSvg(svg)).data);
  writeFileSync(
    join(split, 'test_human.json'),
    JSON.stringify([
      { imgname: 'bars.png', query: 'What is the highest value?', label: '45' },
      { imgname: 'missing.png', query: 'What is the lowest value?', label: '3' },
      { imgname: 'bars.png', query: 'Is the first bar the tallest?', label: 'No' },
    ]),
  );
});

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

describe('saccade data', () => {
  test('convert stops at a missing image with a usage error naming the file, record and field, and writes nothing', async () => {
    const output = capture();
    const tasks = join(scratch, 'stopped.jsonl');
    const { exitCode } = await runCli(['data', 'convert', 'chartqa', '--input', join(split, 'test_human.json'), '--output', tasks], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain(`${join(split, 'test_human.json')} record 2: field "imgname": expected an image file that exists, received "missing.png"`);
    expect(output.err.join('\n')).toContain('nothing was written');
    expect(existsSync(tasks)).toBe(false);
  });

  test('convert --skip-invalid reports the skipped record and the counts; export writes verl Parquet', async () => {
    const output = capture();
    const tasks = join(scratch, 'tasks.jsonl');
    const { exitCode } = await runCli(['data', 'convert', 'ChartQA', '--input', join(split, 'test_human.json'), '--output', tasks, '--skip-invalid'], output);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(output.err).toEqual([expect.stringContaining('skipped: ') as string]);
    expect(output.out).toEqual([`ChartQA: read 3 records, wrote 2 tasks to ${tasks}, skipped 1`]);
    const lines = readFileSync(tasks, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; images: string[]; answerType: string });
    expect(lines.map(({ id, images, answerType }) => ({ id, images, answerType }))).toEqual([
      { id: 'chartqa-test_human-1', images: ['ChartQA Dataset/test/png/bars.png'], answerType: 'number' },
      { id: 'chartqa-test_human-3', images: ['ChartQA Dataset/test/png/bars.png'], answerType: 'yes-no' },
    ]);

    const exported = capture();
    const parquet = join(scratch, 'verl', 'train.parquet');
    expect((await runCli(['data', 'export', '--input', tasks, '--output', parquet, '--json'], exported)).exitCode).toBe(EXIT_SUCCESS);
    expect(JSON.parse(exported.out.join(''))).toMatchObject({ read: 2, written: 2, skipped: 0 });
    expect(readFileSync(parquet).subarray(0, 4).toString()).toBe('PAR1');
  });

  test("convert takes the dataset's folder as downloaded: ChartQA Dataset/ finds test/test_human.json and its png/", async () => {
    const output = capture();
    const tasks = join(scratch, 'from-folder.jsonl');
    const { exitCode } = await runCli(['data', 'convert', 'chartqa', '--input', join(scratch, 'ChartQA Dataset'), '--output', tasks, '--skip-invalid'], output);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(output.out).toEqual([`ChartQA: read 3 records, wrote 2 tasks to ${tasks}, skipped 1`]);
  });

  test('convert from a folder that is not the dataset names where it looked, what it holds and what to do', async () => {
    const output = capture();
    const folder = join(split, 'png');
    expect((await runCli(['data', 'convert', 'chartqa', '--input', folder, '--output', join(scratch, 'none.jsonl')], output)).exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toBe(
      `${folder}: field "(folder)": expected ChartQA's \`ChartQA Dataset/<split>/<split>_human.json\` (or \`_augmented.json\`): an array of \`{imgname, query, label}\`, or a folder holding it as published (looked for <split>/<split>_human.json, <split>_human.json, <split>/<split>_augmented.json, <split>_augmented.json), received a folder holding bars.png\n` +
        "nothing was written; point --input at the dataset's file or its folder as downloaded (saccade data list shows each layout)",
    );
  });

  test('a malformed JSONL line is named by file and line', async () => {
    const input = join(scratch, 'vlmgym.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'a', dataset: 'chartqa', image_path: 'ChartQA Dataset/test/png/bars.png', question: 'Q?', answer: '1', task: 'chart' })}\n{"id": "b",\n`);
    const output = capture();
    expect((await runCli(['data', 'convert', 'vlmgym', '--input', input, '--output', join(scratch, 'v.jsonl')], output)).exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain(`${input}:2: field "(line)": expected a JSON object, received text that is not JSON`);
  });

  test.each([
    [['convert', 'imagenet', '--input', 'x', '--output', 'y.jsonl'], 'unknown dataset "imagenet"; expected one of: ChartQA, PlotQA'],
    [['convert', 'chartqa', '--input', 'x.json', '--output', 'y.parquet'], '--output: expected a .jsonl task file'],
    [['convert', 'a-okvqa', '--input', 'x.json', '--output', 'y.jsonl'], 'Invalid argument images: expected the images folder for A-OKVQA'],
    [['export', '--input', 'x.jsonl', '--output', 'y.parquet', '--format', 'hf'], 'data export: expected the layout verl or vagen, received hf'],
  ])('%j is a usage error', async (args, message) => {
    const output = capture();
    expect((await runCli(['data', ...args], output)).exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain(message);
  });

  test('list names every dataset with its layout', async () => {
    const output = capture();
    expect((await runCli(['data', 'list', '--json'], output)).exitCode).toBe(EXIT_SUCCESS);
    const names = (JSON.parse(output.out.join('')) as { name: string }[]).map((adapter) => adapter.name);
    expect(names).toHaveLength(24);
    expect(names).toContain('V*Bench');
  });
});

describe('data export vagen', () => {
  test("writes VAGEN's train and test Parquet from its env-config YAML; a missing --config or a bad entry is a usage error", async () => {
    const yaml = join(scratch, 'env_config.yaml');
    writeFileSync(yaml, 'env1:\n    env_name: frozenlake\n    env_config:\n        render_mode: vision\n        prompt_format: free_think\n    train_size: 3\n    test_size: 2\n');
    const output = capture();
    const train = join(scratch, 'vagen', 'train.parquet');
    const test = join(scratch, 'vagen', 'test.parquet');
    expect((await runCli(['data', 'export', 'vagen', '--config', yaml, '--train', train, '--test', test, '--json'], output)).exitCode).toBe(EXIT_SUCCESS);
    expect(JSON.parse(output.out.join(''))).toEqual({ train: 3, test: 2, trainFile: train, testFile: test });
    expect(existsSync(train) && existsSync(test)).toBe(true);

    const missing = capture();
    expect((await runCli(['data', 'export', 'vagen', '--train', train], missing)).exitCode).toBe(EXIT_USAGE);
    expect(missing.err.join('')).toContain('--config <env_config.yaml> is required');
    writeFileSync(yaml, 'env1:\n    env_config: {}\n');
    const bad = capture();
    expect((await runCli(['data', 'export', 'vagen', '--config', yaml, '--train', train, '--test', test], bad)).exitCode).toBe(EXIT_USAGE);
    expect(bad.err.join('')).toContain('env1.env_name');
  });
});
