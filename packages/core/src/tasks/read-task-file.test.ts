import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTaskFolder, SAMPLE_TASKS, writeJsonLines } from '../testing';
import { ArrayTaskSource } from './array-task-source';
import { TaskFileSource } from './task-file-source';
import { readTaskFile } from './read-task-file';
import { TaskFileError } from './task-file-error';
import { writeTaskFile } from './write-task-file';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function errorOf(promise: Promise<unknown>): Promise<TaskFileError> {
  try {
    await promise;
  } catch (error) {
    if (TaskFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a TaskFileError');
}

describe('readTaskFile', () => {
  it('streams valid lines, skips blank ones, resolves image paths against the file', async () => {
    const folder = makeTaskFolder();
    const file = writeJsonLines(folder, [SAMPLE_TASKS[0], '', '   ', SAMPLE_TASKS[1]]);
    const tasks = await collect(readTaskFile(file));
    expect(tasks.map((task) => task.id)).toEqual(['chart-1', 'ai2d-1']);
    expect(tasks[0]!.images).toEqual([join(folder, 'images', 'red.png')]);
    expect(tasks[1]!.location).toEqual({ file, line: 4 });
    expect(tasks[1]!.choices).toEqual(['Mercury', 'Venus', 'Mars']);
  });

  it('names the file, line, field, what was expected and what came', async () => {
    const folder = makeTaskFolder();
    const cases: [object | string, string][] = [
      [{ ...SAMPLE_TASKS[0], answerType: 'essay' }, 'field "answerType": expected one of multiple-choice | yes-no | number | text | list | point | box, received "essay"'],
      ['{"id": "x", "dataset": ', 'field "(line)": expected a JSON object, received text that is not JSON'],
      ['[1, 2]', 'field "(line)": expected a JSON object, received [1,2]'],
      [{ ...SAMPLE_TASKS[0], question: undefined }, 'field "question": expected a string (the question), received nothing (the field is missing)'],
      [{ ...SAMPLE_TASKS[0], images: ['ok.png', 7] }, 'field "images[1]": expected a non-empty string (an image path), received 7'],
      [{ ...SAMPLE_TASKS[1], answer: 'Jupiter', metadata: {} }, 'field "answer": expected one of the choices, its letter, or its 0-based index (or metadata.answer_index), received "Jupiter"'],
      [{ ...SAMPLE_TASKS[1], choices: undefined }, 'field "choices": expected an array of options (answerType is multiple-choice), received nothing (the field is missing)'],
      [{ ...SAMPLE_TASKS[0], answer: 'many' }, 'field "answer": expected a number (answerType is number), received "many"'],
      [{ ...SAMPLE_TASKS[3], answer: [1, 2] }, 'field "answer": expected a box [x1, y1, x2, y2] of four numbers (answerType is point), received [1,2]'],
    ];
    for (const [broken, message] of cases) {
      const file = writeJsonLines(folder, [SAMPLE_TASKS[0], '', broken, SAMPLE_TASKS[1]]);
      const error = await errorOf(collect(readTaskFile(file)));
      expect(error.message.startsWith(`${file}:3: ${message}`), `${error.message}\n  should start with\n${file}:3: ${message}`).toBe(true);
      expect(error.line).toBe(3);
      expect(error.name).toBe('Saccade_TaskFileError');
    }
  });

  it('skips invalid lines on request and reports each one', async () => {
    const folder = makeTaskFolder();
    const file = writeJsonLines(folder, [SAMPLE_TASKS[0], 'not json', { ...SAMPLE_TASKS[2], answer: 'maybe' }, SAMPLE_TASKS[4]]);
    const skipped: string[] = [];
    const tasks = await collect(readTaskFile(file, { skipInvalid: true, onInvalid: (error) => skipped.push(`${error.line} ${error.field}`) }));
    expect(tasks.map((task) => task.id)).toEqual(['chart-1', 'vizwiz-1']);
    expect(skipped).toEqual(['2 (line)', '3 answer']);
  });

  it('checks that images exist when asked, and says when the file is missing', async () => {
    const folder = makeTaskFolder();
    const file = writeJsonLines(folder, [SAMPLE_TASKS[0], { ...SAMPLE_TASKS[0], id: 'gone', images: ['images/gone.png'] }]);
    const error = await errorOf(collect(readTaskFile(file, { checkImages: true })));
    expect(error.message).toBe(`${file}:2: field "images[0]": expected an image file that exists, received "${join(folder, 'images', 'gone.png')}" (not found)`);
    const missing = await errorOf(collect(readTaskFile(join(folder, 'nothing.jsonl'))));
    expect(missing.message).toMatch(/nothing\.jsonl: field "\(file\)": expected a readable JSONL task file, received ENOENT/);
  });

  it('writeTaskFile writes what readTaskFile reads, through a temporary file', async () => {
    const folder = makeTaskFolder();
    const source = new ArrayTaskSource(SAMPLE_TASKS.map((task) => ({ ...task })) as never, { baseDirectory: folder });
    const tasks = (await collect(source)).map((task) => ({ ...task, images: task.images.map((image) => (image as string).slice(folder.length + 1)) }));
    const file = join(folder, 'out.jsonl');
    expect(await writeTaskFile(file, tasks)).toBe(5);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe(
      '{"id":"chart-1","dataset":"ChartQA","taskFamily":"chart","images":["images/red.png"],"question":"What is the highest value?","answer":"45","answerType":"number"}',
    );
    const again = await collect(readTaskFile(file));
    expect(again.map(({ location: _location, ...task }) => ({ ...task, images: task.images.map((image) => (image as string).slice(folder.length + 1)) }))).toEqual(tasks);
    await expect(writeTaskFile(join(folder, 'bad.jsonl'), [{ ...tasks[0]!, answerType: 'essay' as never }])).rejects.toThrow(/bad\.jsonl:1: field "answerType"/);
    expect(() => readFileSync(join(folder, 'bad.jsonl'))).toThrow(/ENOENT/);
  });

  it('writeTaskFile rejects (never an unhandled stream error) when the file cannot be created', async () => {
    const folder = makeTaskFolder();
    // Tasks that take a while to come, as a dataset conversion's do: the open fails meanwhile.
    async function* slowly() {
      await new Promise((resolve) => setTimeout(resolve, 50));
      yield { ...SAMPLE_TASKS[0]!, images: ['images/red.png'] } as never;
    }
    writeFileSync(join(folder, 'a-file'), 'x');
    await expect(writeTaskFile(join(folder, 'a-file', 'out.jsonl'), slowly())).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(writeTaskFile('/proc/saccade-write-test.jsonl', slowly())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('TaskFileSource', () => {
  it('indexes lines once and reads any one on demand, with its line number', async () => {
    const folder = makeTaskFolder();
    const file = join(folder, 'crlf.jsonl');
    writeFileSync(file, [SAMPLE_TASKS[0], SAMPLE_TASKS[1], SAMPLE_TASKS[2]].map((task) => JSON.stringify(task)).join('\r\n\r\n') + '\r\n');
    const source = new TaskFileSource(file);
    expect(await source.size()).toBe(3);
    expect((await source.get(2)).id).toBe('figure-1');
    expect((await source.get(0)).location).toEqual({ file, line: 1 });
    expect((await source.get(1)).location).toEqual({ file, line: 3 });
    expect((await collect(source)).map((task) => task.id)).toEqual(['chart-1', 'ai2d-1', 'figure-1']);
    await expect(source.get(3)).rejects.toThrow('Invalid argument index: expected an integer from 0 to 2');
    await source.close();
    await source.close();
  });

  it('ends lines where the streaming read does: a lone \\r as well as \\n and \\r\\n', async () => {
    const folder = makeTaskFolder();
    const file = join(folder, 'mixed.jsonl');
    const [a, b, c] = [SAMPLE_TASKS[0], SAMPLE_TASKS[1], SAMPLE_TASKS[2]].map((task) => JSON.stringify(task));
    writeFileSync(file, `${a}\r${b}\r\n\r${c}\n`);
    const source = new TaskFileSource(file);
    expect(await source.size()).toBe(3);
    const streamed = await collect(source);
    expect(streamed.map((task) => task.id)).toEqual(['chart-1', 'ai2d-1', 'figure-1']);
    for (let index = 0; index < 3; index++) expect(await source.get(index)).toEqual(streamed[index]);
    expect(streamed.map((task) => task.location?.line)).toEqual([1, 2, 4]);
    await source.close();
  });

  it('reports a broken line only when it is read, and an empty file at once', async () => {
    const folder = makeTaskFolder();
    const source = new TaskFileSource(writeJsonLines(folder, [SAMPLE_TASKS[0], { ...SAMPLE_TASKS[0], dataset: '' }]));
    expect((await source.get(0)).id).toBe('chart-1');
    await expect(source.get(1)).rejects.toThrow(/tasks\.jsonl:2: field "dataset": expected a non-empty string \(the dataset name, e\.g\. "ChartQA"\), received ""/);
    await source.close();
    const empty = join(folder, 'empty.jsonl');
    writeFileSync(empty, '\n\n');
    await expect(new TaskFileSource(empty).size()).rejects.toThrow(/empty\.jsonl: field "\(file\)": expected at least one task line, received an empty file/);
    rmSync(folder, { recursive: true });
  });
});

describe('ArrayTaskSource', () => {
  it('validates tasks at the boundary and names the index and field', () => {
    expect(() => new ArrayTaskSource([{ ...SAMPLE_TASKS[0], answerType: 'essay' } as never])).toThrow(
      'Invalid argument tasks[0].answerType: expected one of multiple-choice | yes-no | number | text | list | point | box, received "essay".',
    );
    expect(() => new ArrayTaskSource([])).toThrow('Invalid argument tasks: expected a non-empty array of tasks, received [].');
  });
});
