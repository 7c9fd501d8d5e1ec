import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAdvantage } from './episode-tokens';
import { listTrees, readTreeFile } from './mcts-trees';
import { findRunFolders, RunIndex } from './run-index';
import { writeMctsTree } from '../../test/mcts-tree';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function temporary(): string {
  const folder = mkdtempSync(join(tmpdir(), 'saccade-viewer-index-'));
  folders.push(folder);
  return folder;
}

function trajectory(id: string, seed: number, success: boolean, action: string, tool?: string) {
  return {
    id,
    envId: 'saccade/VisionQA-v1',
    seed,
    agentId: 'qwen',
    groupId: `g${seed % 2}`,
    turns: [
      {
        observation: { text: 'q', images: [] },
        action,
        reward: success ? 1 : 0,
        rewardTerms: {},
        terminated: true,
        truncated: false,
        info: { metrics: { success }, ...(tool ? { toolCalls: [{ name: tool, ok: true }] } : {}) },
        timing: { agentMs: 1, envMs: 1 },
      },
    ],
    totalReward: success ? 1 : 0,
    terminated: true,
    truncated: false,
    startedAt: `2026-01-01T00:00:0${seed}.000Z`,
  };
}

describe('RunIndex', () => {
  it('indexes a run folder, follows appended episodes and reads an episode back by its line', async () => {
    const run = join(temporary(), 'eval-a');
    mkdirSync(join(run, 'trajectories'), { recursive: true });
    const file = join(run, 'trajectories', 'episodes.jsonl');
    writeFileSync(join(run, 'events.jsonl'), `${JSON.stringify({ type: 'run-start', time: '2026-01-01T00:00:00.000Z', runName: 'eval-a', config: { command: 'eval' } })}\n`);
    writeFileSync(file, `${JSON.stringify(trajectory('a', 0, true, 'The answer is <answer>RED</answer>', 'image_zoom_in_tool'))}\n${JSON.stringify(trajectory('b', 1, false, 'blue'))}\n`);
    writeFileSync(join(run, 'metrics.jsonl'), '{"kind":"eval","step":1,"success":0.5}\nnot json\n');
    const index = new RunIndex(run);
    // Requests that overlap refresh at once: each line is read once.
    await Promise.all([index.refresh(), index.refresh()]);
    expect(index.info()).toMatchObject({ name: 'eval-a', kind: 'eval', status: 'running', episodes: 2, successes: 1, toolCalls: 1, envIds: ['saccade/VisionQA-v1'], agentIds: ['qwen'] });
    // The 95 % Wilson interval of 1 success in 2.
    const [low, high] = index.info().successInterval!;
    expect(low).toBeCloseTo(0.0945, 4);
    expect(high).toBeCloseTo(0.9055, 4);
    expect(index.metrics()).toEqual([{ kind: 'eval', step: 1, success: 0.5 }]);
    expect(index.episodes().map((episode) => [episode.index, episode.id, episode.success, episode.tools])).toEqual([
      [0, 'a', true, ['image_zoom_in_tool']],
      [1, 'b', false, []],
    ]);
    appendFileSync(file, `${JSON.stringify(trajectory('c', 2, false, 'a red square'))}\n`);
    appendFileSync(join(run, 'events.jsonl'), `${JSON.stringify({ type: 'run-end', time: '2026-01-01T00:01:00.000Z', status: 'completed' })}\n`);
    await index.refresh();
    expect(index.episodes(2).map((episode) => episode.id)).toEqual(['c']);
    expect(JSON.parse(index.episodesJson(1)).map((episode: { id: string }) => episode.id)).toEqual(['b', 'c']);
    expect(index.info().status).toBe('completed');
    expect(index.search('red')).toEqual([0, 2]);
    expect(index.search('RED square')).toEqual([2]);
    expect(index.groupRewards('g0')).toEqual([1, 0]);
    expect((await index.trajectory('c'))?.trajectory.turns[0]?.action).toBe('a red square');
    expect(await index.trajectory('missing')).toBeUndefined();
  });

  it('serves only image files named by a content hash', () => {
    const run = temporary();
    mkdirSync(join(run, 'trajectories', 'images'), { recursive: true });
    const hash = 'ab'.repeat(32);
    writeFileSync(join(run, 'trajectories', 'images', `${hash}.png`), 'png');
    const index = new RunIndex(run);
    expect(index.imagePath(`${hash}.png`)).toBe(join(run, 'trajectories', 'images', `${hash}.png`));
    expect(index.imagePath('../events.jsonl')).toBeUndefined();
    expect(index.imagePath(`${hash}.svg`)).toBeUndefined();
  });

  it('finds the runs under a folder and refuses a path that is not one', () => {
    const root = temporary();
    mkdirSync(join(root, 'b', 'trajectories'), { recursive: true });
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a', 'events.jsonl'), '');
    mkdirSync(join(root, 'not-a-run'));
    expect(findRunFolders(root).map((run) => run.name)).toEqual(['a', 'b']);
    expect(findRunFolders(join(root, 'a'))).toEqual([{ name: 'a', path: join(root, 'a') }]);
    expect(() => findRunFolders(join(root, 'missing'))).toThrow(`saccade view: expected a run folder or a folder of runs, but ${join(root, 'missing')} is not a folder.`);
  });
});

describe('MCTS trees', () => {
  it('lists the tree files of a data generate output and reads one, nothing outside it', async () => {
    const root = temporary();
    const data = join(root, 'vs-data');
    writeMctsTree(data);
    expect(findRunFolders(root)).toEqual([{ name: 'vs-data', path: data }]);
    const index = new RunIndex(data);
    await index.refresh();
    expect(index.info().kind).toBe('data');
    expect(listTrees(data)).toEqual([
      { file: 'vs-mcts.jsonl.trees/visual-search-7.json', taskId: 'visual-search-7', dataset: 'Procedural-VisualSearch', question: 'What colour is the ring?', answer: 'green', agentId: 'noisy-grounding', nodes: 4, rootValue: 0.5, rootVisits: 4 },
    ]);
    expect((readTreeFile(data, 'vs-mcts.jsonl.trees/visual-search-7.json') as { task: { id: string } }).task.id).toBe('visual-search-7');
    expect(readTreeFile(data, 'vs-mcts.jsonl.trees/notes.json')).toBeUndefined();
    expect(readTreeFile(data, '../vs-data/vs-mcts.jsonl.trees/visual-search-7.json')).toBeUndefined();
  });
});

describe('statistics', () => {
  it('gives the GRPO advantage', () => {
    // Rewards 1, 0, 0, 1: mean 0.5, std 0.5.
    expect(groupAdvantage(1, [1, 0, 0, 1])).toBeCloseTo(0.999998, 6);
    expect(groupAdvantage(0, [1, 0, 0, 1])).toBeCloseTo(-0.999998, 6);
  });
});
