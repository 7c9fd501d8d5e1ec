import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OUTPUT_FORMATS, parseFormattedResponse } from '@saccade/core';
import { InvalidStateError, TrajectoryFileError, type Message, type Trajectory } from '@saccade/spec';
import { describe, expect, it } from 'vitest';
import { createMockAgent, MockAgent } from './mock-agent';
import { createRandomAgent } from './random-agent';
import { parseTrajectoriesJsonl } from './read-trajectories';
import { createReplayAgent } from './replay-agent';

const ACTIONS = ['Left', 'Down', 'Right', 'Up'];
const hello: Message[] = [{ role: 'user', content: 'Go' }];

function trajectory(id: string, actions: string[]): Trajectory {
  return {
    id,
    envId: 'saccade/FrozenLake-v1',
    seed: 1,
    agentId: 'test',
    turns: actions.map((action) => ({
      observation: { text: 'obs', images: [] },
      action,
      reward: 0,
      rewardTerms: {},
      terminated: false,
      truncated: false,
      info: {},
      timing: { agentMs: 1, envMs: 1 },
    })),
    totalReward: 0,
    terminated: true,
    truncated: false,
    startedAt: '2025-01-01T00:00:00.000Z',
  };
}

describe('createRandomAgent', () => {
  it.each(OUTPUT_FORMATS)('writes well-formed %s responses with 1 to maxActions known actions', async (format) => {
    const agent = createRandomAgent({ actions: ACTIONS, format, maxActions: 3, seed: 7 });
    const { outputs } = await agent.act({ messages: hello, n: 40 });
    const counts = new Set<number>();
    for (const { text } of outputs) {
      const parsed = parseFormattedResponse(text, { format, maxActions: 3 });
      expect(parsed.formatCorrect, text).toBe(true);
      expect(parsed.actions.every((action) => ACTIONS.includes(action))).toBe(true);
      counts.add(parsed.actions.length);
    }
    expect([...counts].sort()).toEqual([1, 2, 3]);
  });

  it('repeats itself for the same seed', async () => {
    const texts = async (seed: number) => (await createRandomAgent({ actions: ACTIONS, seed }).act({ messages: hello, n: 5 })).outputs.map((output) => output.text);
    expect(await texts(1)).toEqual(await texts(1));
    expect(await texts(1)).not.toEqual(await texts(2));
  });

  it('refuses an empty action list', () => {
    expect(() => createRandomAgent({ actions: [] })).toThrow(/actions/);
  });
});

describe('createReplayAgent', () => {
  it('plays the actions of the trajectories in order, then says it has none left', async () => {
    const agent = createReplayAgent({ trajectories: [trajectory('a', ['<answer>Left</answer>', '<answer>Up</answer>']), trajectory('b', ['<answer>Down</answer>'])] });
    const played: string[] = [];
    for (let index = 0; index < 3; index++) played.push((await agent.act({ messages: hello })).outputs[0]!.text);
    expect(played).toEqual(['<answer>Left</answer>', '<answer>Up</answer>', '<answer>Down</answer>']);
    expect(agent.remaining).toBe(0);
    await expect(agent.act({ messages: hello })).rejects.toThrow(/all 3 actions of 2 trajectories were played/);
  });

  it('reads a JSONL file and replays one episode by id', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'saccade-agents-'));
    const file = join(folder, 'trajectories.jsonl');
    writeFileSync(file, `${JSON.stringify(trajectory('a', ['x']))}\n\n${JSON.stringify(trajectory('b', ['y', 'z']))}\n`);
    const agent = createReplayAgent({ file });
    expect(agent.trajectories.map((item) => item.id)).toEqual(['a', 'b']);
    const episode = agent.episode('b');
    expect((await episode.act({ messages: hello, n: 2 })).outputs.map((output) => output.text)).toEqual(['y', 'y']);
    expect((await episode.act({ messages: hello })).outputs[0]?.text).toBe('z');
    expect(() => agent.episode(5)).toThrow(/index below 2/);
  });

  it('names the broken line of a file', () => {
    const good = JSON.stringify(trajectory('a', ['x']));
    const broken = () => parseTrajectoriesJsonl(`${good}\n{"id": "b", "turns": [\n`, 'runs/x.jsonl');
    expect(broken).toThrow(TrajectoryFileError);
    expect(broken).toThrow(/^runs\/x\.jsonl:2: not a trajectory: invalid JSON/);
    const wrongShape = () => parseTrajectoriesJsonl(`${good}\n${good}\n{"id": "c", "envId": "e", "seed": 1, "agentId": "a", "turns": [{"action": 3}]}`);
    expect(wrongShape).toThrow(/<string>:3: .*turns\.0/);
  });

  it('needs exactly one source', () => {
    expect(() => createReplayAgent({})).toThrow(/exactly one of file, trajectories or actions/);
    expect(() => createReplayAgent({ actions: ['x'], trajectories: [] })).toThrow(/exactly one of file, trajectories or actions/);
  });

  it('plays given actions, and continues a forced prefix with the rest of an action that starts with it', async () => {
    const agent = createReplayAgent({ actions: ['<think>Look.</think><tool_call>{}</tool_call>', '<think>Done.</think>\n<answer>B</answer>', '<answer>C</answer>'] });
    expect((await agent.act({ messages: hello })).outputs[0]!.text).toBe('<think>Look.</think><tool_call>{}</tool_call>');
    const forced: Message[] = [...hello, { role: 'assistant', content: '<think>Done.</think>\n<answer>' }];
    expect((await agent.act({ messages: forced })).outputs[0]!.text).toBe('B</answer>');
    // An action that does not start with the prefix is given whole.
    expect((await agent.act({ messages: forced })).outputs[0]!.text).toBe('<answer>C</answer>');
    await expect(agent.act({ messages: hello })).rejects.toThrow(/all 3 actions of the 3 given were played/);
    expect(() => createReplayAgent({ actions: [3 as unknown as string] })).toThrow(/an array of action strings/);
  });
});

describe('MockAgent', () => {
  it('records every call and replays canned answers in order', async () => {
    const agent = createMockAgent({
      responses: ['<answer>Left</answer>', { outputs: [{ text: 'full', tokens: [1, 2] }], usage: { inputTokens: 3 } }, (options, call) => `call ${call} saw ${options.messages.length}`],
    });
    expect((await agent.act({ messages: hello, n: 2, temperature: 0.5 })).outputs).toEqual([
      { text: '<answer>Left</answer>', finishReason: 'stop' },
      { text: '<answer>Left</answer>', finishReason: 'stop' },
    ]);
    expect((await agent.act({ messages: hello })).usage).toEqual({ inputTokens: 3 });
    expect((await agent.act({ messages: [...hello, ...hello] })).outputs[0]?.text).toBe('call 2 saw 2');
    expect(agent.calls).toHaveLength(3);
    expect(agent.calls[0]).toMatchObject({ messages: hello, n: 2, temperature: 0.5 });
    expect(agent.remaining).toBe(0);
  });

  it('throws canned errors and says how many answers it had when it runs out', async () => {
    const agent = new MockAgent({ responses: [new Error('server down')] });
    await expect(agent.act({ messages: hello })).rejects.toThrow('server down');
    const error = await agent.act({ messages: hello }).catch((caught: unknown) => caught);
    expect(InvalidStateError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('it was given 1 response and this is call 2');
    expect(agent.calls).toHaveLength(2);
  });
});
