import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORCED_ANSWER_PREFIX, getAnswerChecker, type VisionQATask } from '@saccade/core';
import { createGuiGroundingSource, createVisualSearchSource } from '@saccade/env-procedural';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreGroundedEpisode } from '@saccade/env-grounded';
import { createNoisyGroundingAgent } from '../agents/noisy-grounding-agent';
import { TaskLookup } from '../agents/task-lookup';
import { GroundingFileError } from '../errors/grounding-file-error';
import { readTreeFile } from '../search/tree-file';
import { readSftFile, type SftFileRecord } from '../sft/sft-file';
import { generateSftData } from './generate-sft-data';
import { selectExamples } from './select-examples';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-generate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const source = createVisualSearchSource({ split: 'test' });
let tasks: VisionQATask[];
let lookup: TaskLookup;
beforeAll(async () => {
  tasks = [await source.get(0), await source.get(1)];
  lookup = await TaskLookup.fromTasks(tasks);
});

const size = { width: 2048, height: 2048 };
const checker = getAnswerChecker('V*Bench');
const assistantTurns = (record: SftFileRecord) => record.messages.filter((message) => message.role === 'assistant').map((message) => message.content);
const taskOf = (record: SftFileRecord) => tasks.find((task) => task.id === record.taskId)!;

describe('generateSftData', () => {
  it('MCTS, single turn: saves a tree per task and writes linearised, correct, grounded chains', async () => {
    const output = join(scratch, 'mcts', 'sft.jsonl');
    const result = await generateSftData({ method: 'mcts', source, taskIndices: [0, 1], agent: createNoisyGroundingAgent({ lookup, seed: 1 }), output, treesFolder: join(scratch, 'mcts', 'trees'), maxPerTask: 6 });
    expect(result.tasks).toBe(2);
    expect(result.perTask.map((task) => task.treeFile)).toEqual([join(scratch, 'mcts', 'trees', `${tasks[0]!.id}.json`), join(scratch, 'mcts', 'trees', `${tasks[1]!.id}.json`)]);
    const tree = readTreeFile(result.perTask[0]!.treeFile!);
    expect(tree.usage.generations).toBe(result.perTask[0]!.generations);
    expect(tree.settings).toMatchObject({ simulations: 8, childrenPerExpansion: 3, rolloutsPerChild: 2, maxDepth: 10, explorationConstant: 2 });
    const records = await readSftFile(output);
    expect(records).toHaveLength(result.records);
    expect(result.records).toBeGreaterThan(2);
    for (const record of records) {
      expect(record).toMatchObject({ method: 'mcts', form: 'single-turn', dataset: 'Procedural-VisualSearch' });
      expect(record.images).toHaveLength(1);
      expect(existsSync(record.images[0]!)).toBe(true);
      const reward = scoreGroundedEpisode('vigorl-single-turn', { responses: assistantTurns(record), imageSize: size, target: taskOf(record), answerType: 'multiple-choice', checker });
      expect(reward.reward).toBe(1);
    }
    expect(records.some((record) => record.metadata?.backtracks === 1 && assistantTurns(record)[0]!.includes("Wait, this seems off. Let's try something else."))).toBe(true);
    expect(Math.max(...result.perTask.map((task) => task.kept))).toBeLessThanOrEqual(6);
    // One image file for the two tasks' many records.
    expect(readdirSync(join(scratch, 'mcts', 'images'))).toHaveLength(2);
  });

  it('MCTS, multi turn: chains become crop dialogues that the multi-turn reward set scores as correct and well formed', async () => {
    const output = join(scratch, 'mcts-multi', 'sft.jsonl');
    await generateSftData({ method: 'mcts', source, taskIndices: [0], agent: createNoisyGroundingAgent({ lookup, seed: 2 }), output, form: 'multi-turn', maxPerTask: 4 });
    const records = await readSftFile(output);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      const turns = assistantTurns(record);
      expect(record.images).toHaveLength(turns.length);
      const reward = scoreGroundedEpisode('vigorl-multi-turn', { responses: turns, imageSize: size, target: taskOf(record), answerType: 'multiple-choice', checker });
      expect(reward.signals).toMatchObject({ accuracy: 1, format: 1, crops: turns.length - 1 });
    }
  });

  it('best-of-n, single and multi turn: keeps the correct samples, deduplicated and balanced', async () => {
    const single = await generateSftData({ method: 'best-of-n', source, taskIndices: [0, 1], agent: createNoisyGroundingAgent({ lookup, seed: 3 }), output: join(scratch, 'bon', 'sft.jsonl'), n: 12, maxPerTask: 3 });
    expect(single.generations).toBe(24);
    expect(single.perTask.every((task) => task.kept === Math.min(3, task.correct))).toBe(true);
    for (const record of await readSftFile(single.output)) {
      expect(scoreGroundedEpisode('vigorl-single-turn', { responses: assistantTurns(record), imageSize: size, target: taskOf(record), checker }).reward).toBe(1);
    }
    const multi = await generateSftData({ method: 'best-of-n', source, taskIndices: [0], agent: createNoisyGroundingAgent({ lookup, seed: 4 }), output: join(scratch, 'bon-multi', 'sft.jsonl'), n: 6, form: 'multi-turn' });
    for (const record of await readSftFile(multi.output)) {
      const turns = assistantTurns(record);
      expect(record.messages[0]!.content).toContain('search_coordinate');
      expect(scoreGroundedEpisode('vigorl-multi-turn', { responses: turns, imageSize: size, target: taskOf(record), checker }).signals).toMatchObject({ accuracy: 1, format: 1 });
      expect(turns.length <= 4 || turns.at(-1)!.startsWith(FORCED_ANSWER_PREFIX)).toBe(true);
    }
  });

  it('works on the GUI-grounding generator too: clicks answered as points, crops with the web preset', async () => {
    const gui = createGuiGroundingSource({ split: 'test' });
    const guiTasks = [await gui.get(0)];
    const guiLookup = await TaskLookup.fromTasks(guiTasks);
    const output = join(scratch, 'gui', 'sft.jsonl');
    const result = await generateSftData({ method: 'mcts', source: gui, taskIndices: [0], agent: createNoisyGroundingAgent({ lookup: guiLookup, seed: 5 }), output, form: 'multi-turn', maxPerTask: 3 });
    expect(result.records).toBeGreaterThan(0);
    for (const record of await readSftFile(output)) {
      expect(record.answer).toMatch(/^\(\d+, \d+\)$/);
      expect(record.messages.filter((message) => message.role === 'user').slice(1).every((message) => message.content.includes('with a red dot at the coordinate location'))).toBe(true);
      const { width, height } = guiTasks[0]!.images[0] as { width: number; height: number };
      const reward = scoreGroundedEpisode('vigorl-multi-turn', { responses: assistantTurns(record), imageSize: { width, height }, target: guiTasks[0]!, answerType: 'point', checker: getAnswerChecker('ScreenSpot') });
      expect(reward.signals).toMatchObject({ accuracy: 1, format: 1 });
    }
  });

  it('selectExamples dedupes by the assistant text and caps each task with a seeded draw', () => {
    const record = (id: string, text: string) => ({ id, taskId: 't', dataset: 'd', method: 'mcts' as const, form: 'single-turn' as const, messages: [{ role: 'assistant' as const, content: text }], images: [], answer: 'B' });
    const candidates = [record('a', 'x  y'), record('b', 'x y'), record('c', 'z'), record('d', 'w')];
    expect(selectExamples('t', candidates).map((kept) => kept.id)).toEqual(['a', 'c', 'd']);
    const two = selectExamples('t', candidates, { maxPerTask: 2, seed: 5 }).map((kept) => kept.id);
    expect(two).toHaveLength(2);
    expect(selectExamples('t', candidates, { maxPerTask: 2, seed: 5 }).map((kept) => kept.id)).toEqual(two);
  });

  it('readSftFile names the line and field of a broken record', async () => {
    const file = join(scratch, 'broken.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'x', taskId: 't', dataset: 'd', method: 'mcts', form: 'single-turn', messages: [{ role: 'user', content: '<image>Q' }, { role: 'assistant', content: 'A' }], images: [], answer: 'A' })}\n`);
    const error = await readSftFile(file).catch((caught: unknown) => caught);
    expect(GroundingFileError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`${file}:1: field "images": expected one image per <image> placeholder in the messages (1), received []`);
  });
});
