import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSftFile, readTreeFile } from '@saccade/datagen';
import { renderSvg } from '@saccade/image';
import { saveCheckpoint, VisionLanguageModel } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registerBuiltinEnvs } from '../builtin-envs';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';
import { dataGenerateCommand } from './data-generate-command';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-data-generate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A ScreenSpot-like task file: click the red square of a 400 × 300 screen.
const taskFile = join(scratch, 'screenspot.jsonl');
beforeAll(async () => {
  // As runCli does before any command: the grounded envs and the crop tool they use.
  await registerBuiltinEnvs();
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#ffffff"/><rect x="300" y="40" width="30" height="20" fill="#ff0000"/></svg>';
  writeFileSync(join(scratch, 'screen.png'), (await renderSvg(svg)).data);
  const line = { id: 'click-red', dataset: 'ScreenSpot', taskFamily: 'grounding', images: ['screen.png'], question: 'Click the red button.', answer: [300, 40, 330, 60], answerType: 'point' };
  writeFileSync(taskFile, `${JSON.stringify(line)}\n`);
});

async function generate(args: string[]): Promise<{ exitCode: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const output: Output = { log: (line) => out.push(line), error: (line) => err.push(line) };
  let exitCode = -1;
  const program = new Command('saccade').exitOverride().addCommand(dataGenerateCommand(output, (code) => (exitCode = code)));
  await program.parseAsync(['generate', ...args], { from: 'user' });
  return { exitCode, out, err };
}

describe('saccade data generate', () => {
  test('--method mcts on the grounded visual-search env: an SFT file and a tree per task', async () => {
    const file = join(scratch, 'mcts', 'sft.jsonl');
    const { exitCode, out, err } = await generate(['--method', 'mcts', '--env', 'saccade/GroundedVisualSearch-v1', '--agent', 'noisy', '--output', file, '--tasks', '2', '--split', 'test', '--simulations', '4', '--json']);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const summary = JSON.parse(out.join('\n')) as { records: number; tasks: number; trees: string; generations: number };
    expect(summary).toMatchObject({ method: 'mcts', form: 'single-turn', tasks: 2, trees: join(scratch, 'mcts', 'sft.trees') });
    expect(err[0]).toBe('mcts on 2 tasks of procedural visual-search (test split, difficulty 0.5) with the noisy-grounding agent (single-turn)');
    const records = await readSftFile(file);
    expect(records).toHaveLength(summary.records);
    expect(records.every((record) => record.method === 'mcts' && record.images.every((image) => existsSync(image)))).toBe(true);
    const trees = readdirSync(summary.trees).sort();
    expect(trees).toEqual(['visual-search-test-2147483648.json', 'visual-search-test-2147483649.json']);
    expect(readTreeFile(join(summary.trees, trees[0]!)).settings).toMatchObject({ simulations: 4, childrenPerExpansion: 3, rolloutsPerChild: 2 });
  });

  test('--method best-of-n, multi-turn, on a ScreenSpot task file: the crops come back as turns', async () => {
    const file = join(scratch, 'screenspot-sft.jsonl');
    const { exitCode, out } = await generate(['--method', 'best-of-n', '--env', 'saccade/GroundedSearch-v1', '--task-file', taskFile, '--output', file, '--n', '6', '--form', 'multi-turn', '--seed', '2']);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(out.at(-1)).toMatch(/^wrote \d+ examples? to .*screenspot-sft\.jsonl; \d+ generations$/);
    for (const record of await readSftFile(file)) {
      expect(record).toMatchObject({ taskId: 'click-red', dataset: 'ScreenSpot', method: 'best-of-n', form: 'multi-turn' });
      expect(record.messages[2]!.content).toContain('"name": "search_coordinate"');
      expect(record.answer).toMatch(/^\(\d+, \d+\)$/);
    }
  });

  test('--agent policy: the built-in model from a checkpoint samples the responses', async () => {
    await initTensor();
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0, config: { maxSequenceLength: 1024 } });
    const checkpoint = join(scratch, 'checkpoint');
    await saveCheckpoint(checkpoint, { model });
    model.dispose();
    const file = join(scratch, 'policy-sft.jsonl');
    const { exitCode, out } = await generate(['--method', 'best-of-n', '--env', 'saccade/VisionQA-v1', '--task-file', taskFile, '--agent', 'policy', '--checkpoint', checkpoint, '--output', file, '--n', '2', '--max-tokens', '8', '--json']);
    expect(exitCode).toBe(EXIT_SUCCESS);
    // An untrained model writes no correct answer: the file is empty, the two generations counted.
    expect(JSON.parse(out.join('\n'))).toMatchObject({ tasks: 1, records: 0, generations: 2 });
    expect(await readSftFile(file)).toEqual([]);
  });

  test.each([
    [['--env', 'saccade/GroundedVisualSearch-v1', '--output', 'x.jsonl'], '--method: expected mcts or best-of-n, received "(none)"'],
    [['--method', 'mcts', '--env', 'saccade/FrozenLake-v1', '--output', 'x.jsonl'], '--env: Invalid argument env: expected one of saccade/GroundedVisualSearch-v1'],
    [['--method', 'mcts', '--env', 'saccade/GroundedSearch-v1', '--output', 'x.jsonl'], '--env: Invalid argument taskFile: expected a task file (JSONL'],
    [['--method', 'mcts', '--env', 'saccade/VisualSearch-v1', '--output', 'x.jsonl', '--form', 'both'], '--form: expected single-turn or multi-turn, received "both"'],
    [['--method', 'mcts', '--env', 'saccade/VisualSearch-v1', '--output', 'x.jsonl', '--agent', 'openai'], '--agent openai needs --base-url'],
    [['--method', 'mcts', '--env', 'saccade/VisualSearch-v1', '--output', 'x.jsonl', '--simulations', 'many'], '--simulations: expected an integer ≥ 1, received NaN'],
    [['--method', 'mcts', '--env', 'saccade/VisualSearch-v1'], '--output: expected the SFT file to write'],
  ])('%j is a usage error', async (args, message) => {
    const { exitCode, err } = await generate(args);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(err.join('\n')).toContain(message);
  });
});
