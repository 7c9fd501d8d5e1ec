import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomAgent } from '@saccade/agents';
import { makeEnv } from '@saccade/core';
import { writeTinySmolVlm } from '@saccade/agent-transformers/testing';
import { saveCheckpoint, VisionLanguageModel } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli } from '../create-program';
import { EXIT_SUCCESS, EXIT_USAGE } from '../exit-codes';
import type { Output } from '../output';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-eval-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function capture(): Output & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (line) => out.push(line), error: (line) => err.push(line) };
}

interface Summary {
  status: string;
  episodes: number;
  successes: number;
  success: number;
  interval: [number, number];
  failed: number;
  families: Record<string, { success: number; episodes: number }>;
  endings: { success: number; terminated: number; truncated: number; errored: number };
  neverSolved: number[];
}

const readSummary = (folder: string): Summary => JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as Summary;

describe('saccade eval', () => {
  test('the oracle solves 100 FrozenLake episodes: success 1.0, printed and written with its interval', async () => {
    const output = capture();
    const { exitCode } = await runCli(['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'oracle', '--episodes', '100', '--out', scratch, '--name', 'oracle'], output);
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    expect(output.out).toContain('success 100.0% (100/100, 95% CI 96.3%–100.0%), mean reward 10.72, 1.44 turns/episode, format 100.0%');
    const folder = join(scratch, 'oracle');
    expect(readSummary(folder)).toMatchObject({ status: 'completed', episodes: 100, successes: 100, success: 1, failed: 0 });
    for (const file of ['config.yaml', 'events.jsonl', 'metrics.jsonl', 'trajectories/episodes.jsonl', 'plots/accuracy.svg', 'plots/accuracy.png']) {
      expect(existsSync(join(folder, file)), file).toBe(true);
    }
    expect(readFileSync(join(folder, 'trajectories', 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(100);
    expect(readFileSync(join(folder, 'plots', 'accuracy.svg'), 'utf8')).toContain('data-bar="saccade/FrozenLake-v1"');
  });

  test('the random agent scores what its episodes, played one by one outside the runner, score', async () => {
    // Each episode's agent is seeded "<seed>:<sample>" and answers in the env's format (free_think, up to 3 moves).
    let expected = 0;
    for (let seed = 0; seed < 100; seed++) {
      const env = makeEnv('saccade/FrozenLake-v1');
      const agent = createRandomAgent({ actions: ['Left', 'Down', 'Right', 'Up'], format: 'free_think', maxActions: 3, separator: ',', seed: `${seed}:0` });
      await env.reset({ seed });
      for (;;) {
        const { outputs } = await agent.act({ messages: [] });
        const step = await env.step(outputs[0]!.text);
        if (step.terminated || step.truncated) {
          if (step.info.metrics?.['success'] === true) expected++;
          break;
        }
      }
      await env.close();
    }
    expect(expected).toBe(16); // pinned too: a change of the env or the agent shows here first

    const output = capture();
    const { exitCode } = await runCli(['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'random', '--episodes', '100', '--out', scratch, '--name', 'random', '--json'], output);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const printed = JSON.parse(output.out.join('\n')) as Summary;
    expect(printed).toMatchObject({ status: 'completed', episodes: 100, successes: expected, success: expected / 100 });
    // One sample a seed: every failed seed is never solved; a random walk ends in a hole or at the turn limit, never in an error.
    expect(printed.endings).toMatchObject({ success: expected, errored: 0 });
    expect(printed.endings.terminated + printed.endings.truncated).toBe(100 - expected);
    expect(printed.neverSolved).toHaveLength(100 - expected);
    expect(readSummary(join(scratch, 'random'))).toMatchObject({ successes: expected });
  });

  test('a task file: each task once, success per task family, pass@k with samples', async () => {
    const tasks = join(scratch, 'tasks.jsonl');
    writeFileSync(
      tasks,
      [
        { id: 'a', dataset: 'test', taskFamily: 'arithmetic', images: [], question: 'What is 2 + 2?', answer: '4', answerType: 'number' },
        { id: 'b', dataset: 'test', taskFamily: 'arithmetic', images: [], question: 'What is 3 + 3?', answer: '6', answerType: 'number' },
        { id: 'c', dataset: 'test', taskFamily: 'logic', images: [], question: 'Is the sky green?', answer: 'no', answerType: 'yes-no' },
      ]
        .map((task) => JSON.stringify(task))
        .join('\n'),
    );
    const output = capture();
    const { exitCode } = await runCli(['eval', '--tasks', tasks, '--agent', 'oracle', '--samples', '2', '--out', scratch, '--name', 'tasks'], output);
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    const summary = readSummary(join(scratch, 'tasks')) as Summary & { passAtK: Record<string, number> };
    expect(summary).toMatchObject({ episodes: 6, success: 1 });
    expect(Object.keys(summary.families)).toEqual(['arithmetic', 'logic']);
    expect(summary.families['arithmetic']).toMatchObject({ episodes: 4, success: 1 });
    expect(summary.passAtK).toEqual({ '1': 1, '2': 1 });
    expect(output.out).toContain('pass@1 100.0%  pass@2 100.0%');
  });

  test('--agent policy plays a checkpoint of the built-in model, showing it the images only', async () => {
    await initTensor();
    const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
    const checkpoint = join(scratch, 'checkpoint');
    await saveCheckpoint(checkpoint, { model });
    model.dispose();
    const output = capture();
    const { exitCode } = await runCli(['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'policy', '--checkpoint', checkpoint, '--episodes', '2', '--max-tokens', '4', '--out', scratch, '--name', 'policy'], output);
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    // An untrained model: no success, but every episode played to the turn limit without an error.
    expect(readSummary(join(scratch, 'policy'))).toMatchObject({ episodes: 2, failed: 0 });
    const first = JSON.parse(readFileSync(join(scratch, 'policy', 'trajectories', 'episodes.jsonl'), 'utf8').split('\n')[0]!) as { agentId: string; turns: unknown[] };
    expect(first.agentId).toBe('policy');
    expect(first.turns).toHaveLength(3);
  });

  test('--agent transformers plays a local ONNX model folder; a wrong --dtype is a usage error', async () => {
    const folder = writeTinySmolVlm(join(scratch, 'TinySmolVLM'));
    const output = capture();
    const { exitCode } = await runCli(['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'transformers', '--model-path', folder, '--episodes', '2', '--max-tokens', '4', '--out', scratch, '--name', 'onnx'], output);
    expect(output.err).toEqual([]);
    expect(exitCode).toBe(EXIT_SUCCESS);
    // A tiny random model: no success, but both episodes played to the end without an error.
    expect(readSummary(join(scratch, 'onnx'))).toMatchObject({ episodes: 2, failed: 0 });
    const first = JSON.parse(readFileSync(join(scratch, 'onnx', 'trajectories', 'episodes.jsonl'), 'utf8').split('\n')[0]!) as { agentId: string };
    expect(first.agentId).toBe('transformers:TinySmolVLM');
    const wrong = capture();
    const refused = await runCli(['eval', '--env', 'saccade/FrozenLake-v1', '--agent', 'transformers', '--model-path', folder, '--dtype', 'fp12', '--out', scratch], wrong);
    expect(refused.exitCode).toBe(EXIT_USAGE);
    expect(wrong.err.join('\n')).toContain('--dtype expected one of auto, fp32, fp16');
  });

  test.each([
    [['--env', 'saccade/FrozenLak-v1', '--agent', 'oracle'], 'saccade/FrozenLake-v1'],
    [['--env', 'saccade/FrozenLake-v1', '--agent', 'openai'], 'needs --base-url'],
    [['--env', 'saccade/FrozenLake-v1', '--agent', 'genius'], 'agent.kind'],
    [['--env', 'saccade/FrozenLake-v1', '--tasks', 'x.jsonl', '--agent', 'oracle'], 'give one of them'],
    [['--env', 'saccade/FrozenLake-v1'], '--agent: expected oracle | random | openai | policy | transformers'],
    [['--env', 'saccade/FrozenLake-v1', '--agent', 'transformers'], 'needs --model-path'],
    [['--env', 'saccade/FrozenLake-v1', '--agent', 'transformers', '--model-path', '/nowhere/SmolVLM'], '/nowhere/SmolVLM'],
    [['--env', 'saccade/FrozenLake-v1', '--agent', 'oracle', '--tools', 'telescope'], 'telescope'],
    [['--env', 'saccade/GroundedVisualSearch-v1', '--agent', 'oracle', '--tools', 'search_coordinate,image_zoom_in_tool'], 'saccade/GroundedVisualSearch-v1 calls search_coordinate in its own tool loop'],
  ])('%j is a usage error that says what to fix', async (args, message) => {
    const output = capture();
    const { exitCode } = await runCli(['eval', ...args, '--out', scratch], output);
    expect(exitCode).toBe(EXIT_USAGE);
    expect(output.err.join('\n')).toContain(message);
  });
});
