import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileFormatError, partialAssistantText, type Agent, type AgentActOptions } from '@saccade/spec';
import { makeEnv, TaskFileError } from '@saccade/core';
import { GROUNDED_SEARCH_ID } from '@saccade/env-grounded';
import { afterAll, describe, expect, it } from 'vitest';
import { squareTask } from '../../test/scenes';
import { GroundingFileError } from '../errors/grounding-file-error';
import { playChain } from '../generate/play-chain';
import { chainActions } from './chain-actions';
import { formatChain } from './chain-text';
import { linearizeTree } from './linearize-tree';
import { runMcts, uctScore, type MctsNode } from './mcts';
import { readTreeFile, writeTreeFile } from './tree-file';

/** A scripted agent: outputs for each (partial answer, stop), taken n at a time in order, and a record of the asks. */
function scripted(given: Record<string, string[]>): Agent & { asks: string[] } {
  const script = Object.fromEntries(Object.entries(given).map(([key, outputs]) => [key, [...outputs]]));
  const asks: string[] = [];
  return {
    specificationVersion: 'v1',
    id: 'scripted',
    asks,
    async act({ messages, n = 1, stop = [] }: AgentActOptions) {
      const key = `${partialAssistantText(messages) ?? ''}|${stop.join(',')}`;
      asks.push(key);
      const outputs = script[key]?.splice(0, n) ?? [];
      if (outputs.length !== n) throw new Error(`no script for ${JSON.stringify(key)} (n = ${n})`);
      return { outputs: outputs.map((text) => ({ text })) };
    },
  };
}

const task = { messages: [{ role: 'user' as const, content: 'Which colour?' }], score: (answer: string) => (answer === 'B' ? 1 : 0) };
const LEFT = '<think>\nLeft (10, 10).\n';
const RIGHT = '<think>\nRight (50, 10).\n';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-mcts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A node summary: step, visits, value (3 decimals), and its children. */
const shape = (node: MctsNode): unknown => ({
  step: node.step,
  ...(node.terminal ? { answer: node.answer } : {}),
  visits: node.visits,
  value: Math.round(node.value * 1000) / 1000,
  rollouts: node.rollouts.map((rollout) => rollout.reward),
  children: node.children.map(shape),
});

describe('runMcts (ViGoRL)', () => {
  it('selects by UCT, expands, rolls out, backs up running means and prunes repeated points (a tree by hand)', async () => {
    const agent = scripted({
      '<think>\n|\n': ['Left (10, 10).\n', 'Right (50, 10).\n'],
      [`${LEFT}|</answer>`]: ['</think>\n<answer>A</answer>', 'Up (10, 5).\n</think>\n<answer>B</answer>'],
      [`${RIGHT}|</answer>`]: ['</think>\n<answer>B</answer>', '</think>\n<answer>B</answer>'],
      // Under Right: a step that repeats (50, 10) is dropped; an answer is a terminal child.
      [`${RIGHT}|\n`]: ['Right again (50, 10).\n', '</think><answer>B</answer>'],
    });
    const result = await runMcts(agent, task, { simulations: 3, childrenPerExpansion: 2, rolloutsPerChild: 2, maxDepth: 2 });
    // Sim 1: root → Left (rollouts 0, 1), Right (1, 1). Sim 2: UCT picks Right (1 + 2·sqrt(ln 5 / 3) > 0.5 + …),
    // its expansion keeps the terminal B (two free rollouts). Sim 3: Right again, then its terminal: backed up, no call.
    expect(shape(result.root)).toEqual({
      step: '',
      visits: 7,
      value: 0.857,
      rollouts: [],
      children: [
        { step: 'Left (10, 10).', visits: 2, value: 0.5, rollouts: [0, 1], children: [] },
        { step: 'Right (50, 10).', visits: 5, value: 1, rollouts: [1, 1], children: [{ step: '', answer: 'B', visits: 3, value: 1, rollouts: [1, 1], children: [] }] },
      ],
    });
    expect(result.usage).toEqual({ actCalls: 4, generations: 8 });
    expect(result.root.children[0]!.rollouts[1]).toEqual({ steps: ['Left (10, 10).', 'Up (10, 5).'], answer: 'B', reward: 1, forced: false });
  });

  it('UCT is Q + c·sqrt(ln(N_parent + 1) / (N_child + 1))', () => {
    expect(uctScore({ visits: 4 }, { value: 0.5, visits: 2 }, 2)).toBeCloseTo(0.5 + 2 * Math.sqrt(Math.log(5) / 3), 12);
    expect(uctScore({ visits: 0 }, { value: 0, visits: 0 }, 2)).toBe(0);
  });

  it('at the depth limit the expansion answers, and a rollout that runs past it is cut and asked for the answer', async () => {
    const agent = scripted({
      '<think>\n|\n': ['Left (10, 10).\n'],
      [`${LEFT}|</answer>`]: ['Up (10, 5).\n</think>\n<answer>A</answer>'],
      [`${LEFT}</think>\n<answer>|</answer>`]: ['B</answer>', 'C</answer>'],
    });
    const result = await runMcts(agent, task, { simulations: 2, childrenPerExpansion: 1, rolloutsPerChild: 1, maxDepth: 1 });
    // The rollout's step "Up" is past the limit: cut, and the forced answer (B) asked for.
    expect(result.root.children[0]!.rollouts).toEqual([{ steps: ['Left (10, 10).'], answer: 'B', reward: 1, forced: true }]);
    // Sim 2 expands Left at depth 1: its child is the forced answer C, a wrong terminal.
    expect(agent.asks).toEqual(['<think>\n|\n', `${LEFT}|</answer>`, `${LEFT}</think>\n<answer>|</answer>`, `${LEFT}</think>\n<answer>|</answer>`]);
    expect(shape(result.root.children[0]!)).toEqual({ step: 'Left (10, 10).', visits: 2, value: 0.5, rollouts: [1], children: [{ step: '', answer: 'C', visits: 1, value: 0, rollouts: [0], children: [] }] });
  });
});

describe('linearisation and tree files', () => {
  async function handTree() {
    const agent = scripted({
      '<think>\n|\n': ['Left (10, 10).\n', 'Right (50, 10).\n'],
      [`${LEFT}|</answer>`]: ['</think>\n<answer>A</answer>', 'Up (10, 5).\n</think>\n<answer>B</answer>'],
      [`${RIGHT}|</answer>`]: ['</think>\n<answer>B</answer>', '</think>\n<answer>B</answer>'],
      [`${RIGHT}|\n`]: ['Right again (50, 10).\n', '</think><answer>B</answer>'],
    });
    return runMcts(agent, task, { simulations: 3, childrenPerExpansion: 2, rolloutsPerChild: 2, maxDepth: 2 });
  }

  it('turns (wrong, correct) rollout pairs into "Wait, this seems off…" chains, and keeps each correct rollout once', async () => {
    const chains = linearizeTree((await handTree()).root);
    expect(chains).toEqual([
      { steps: ['Left (10, 10).', "Wait, this seems off. Let's try something else.", 'Left (10, 10).', 'Up (10, 5).'], answer: 'B', backtracks: 1, depth: 1 },
      { steps: ['Left (10, 10).', 'Up (10, 5).'], answer: 'B', backtracks: 0, depth: 1 },
      { steps: ['Right (50, 10).'], answer: 'B', backtracks: 0, depth: 1 },
    ]);
    expect(formatChain(chains[0]!)).toBe("<think>\nLeft (10, 10).\nWait, this seems off. Let's try something else.\nLeft (10, 10).\nUp (10, 5).\n</think>\n<answer>B</answer>");
  });

  it('makes the multi-turn form: one crop per new point, the rest of the thinking carried to the next turn, played in the env', async () => {
    const [backtracking] = linearizeTree((await handTree()).root);
    const tasks = [await squareTask('square-1', 400, 300)];
    const imageSize = { width: 800, height: 600 };
    expect(chainActions(backtracking!, { imageSize })).toEqual([
      '<think>Left (10, 10).</think>\n<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [10, 10]}}\n</tool_call>',
      "<think>Wait, this seems off. Let's try something else. Left (10, 10). Up (10, 5).</think>\n<tool_call>\n{\"name\": \"search_coordinate\", \"arguments\": {\"coordinate\": [10, 5]}}\n</tool_call>",
      "<think>Based on all the information I've gathered, I'll now provide my final answer.</think>\n<answer>B</answer>",
    ]);
    // The chain's turns played by a replay agent in the registered env: the chat after the task's first turn.
    const played = await playChain(makeEnv(GROUNDED_SEARCH_ID, { tasks }), backtracking!, { taskIndex: 0, imageSize });
    const dialogue = { messages: played.messages.slice(2), crops: played.images.slice(1), points: (played.final.info.points as number[][]).map(([x, y]) => ({ x, y })) };
    expect(dialogue.messages).toEqual([
      { role: 'assistant', content: '<think>Left (10, 10).</think>\n<tool_call>\n{"name": "search_coordinate", "arguments": {"coordinate": [10, 10]}}\n</tool_call>' },
      { role: 'user', content: '<observation>\nHere is the crop of the image centered on the coordinate:\n<image>\n</observation>' },
      {
        role: 'assistant',
        content: "<think>Wait, this seems off. Let's try something else. Left (10, 10). Up (10, 5).</think>\n<tool_call>\n{\"name\": \"search_coordinate\", \"arguments\": {\"coordinate\": [10, 5]}}\n</tool_call>",
      },
      { role: 'user', content: '<observation>\nHere is the crop of the image centered on the coordinate:\n<image>\n</observation>' },
      { role: 'assistant', content: "<think>Based on all the information I've gathered, I'll now provide my final answer.</think>\n<answer>B</answer>" },
    ]);
    expect(dialogue.points).toEqual([{ x: 10, y: 10 }, { x: 10, y: 5 }]);
    expect(dialogue.crops.map((crop) => [crop.width, crop.height])).toEqual([[672, 672], [672, 672]]);
    // With a budget of one crop, the answer after it is the forced one (the env asks for it; the replay continues it).
    const short = await playChain(makeEnv(GROUNDED_SEARCH_ID, { tasks, maxCrops: 1 }), backtracking!, { taskIndex: 0, imageSize, maxCrops: 1 });
    expect(short.messages.at(-1)).toEqual({ role: 'assistant', content: "<think> Based on all the information I've gathered, I'll now provide my final answer. </think>\n<answer>B</answer>" });
    expect(short.messages[3]!.content).toBe('<observation>\nHere is the crop of the image centered on the coordinate:\n<image>\n</observation>\nYou have used all 1 crop; give your final answer now.');
    // The square is green (B): the played chain is right and well formed.
    expect(short.final.info.rewardTerms).toEqual({ accuracy: 0.6, format: 0.4, cropBonus: 0 });
  });

  it('saves and reads tree files, and names the bad field of a broken one', async () => {
    const result = await handTree();
    const file = join(scratch, 'tree.json');
    const tree = {
      format: 'saccade-mcts-tree' as const,
      version: 1 as const,
      task: { id: 't', dataset: 'V*Bench', question: 'Which colour?', answer: 'green', choices: ['red', 'green'], imageSize: { width: 800, height: 600 } },
      agentId: 'scripted',
      settings: result.settings,
      usage: result.usage,
      root: result.root,
    };
    writeTreeFile(file, tree);
    expect(readTreeFile(file)).toEqual(tree);
    writeFileSync(file, JSON.stringify({ ...tree, root: { ...tree.root, children: [{ step: 3 }] } }));
    const error = (() => {
      try {
        readTreeFile(file);
      } catch (caught) {
        return caught;
      }
    })();
    expect(GroundingFileError.isInstance(error)).toBe(true);
    // The shared file error of @saccade/spec recognises it too; a task file error does not.
    expect([FileFormatError.isInstance(error), TaskFileError.isInstance(error)]).toEqual([true, false]);
    expect((error as Error).message).toBe(`${file}: field "root.children[0].step": expected Invalid input: expected string, received number, received 3`);
  });
});
