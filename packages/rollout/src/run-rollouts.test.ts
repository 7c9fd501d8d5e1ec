import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerEnv, unregisterEnv } from '@saccade/core';
import { InvalidArgumentError, type AgentActOptions, type RunEvent, type Trajectory } from '@saccade/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountEnv, latencyAgent } from './__fixtures__/count-env';
import { createRolloutManager, runRollouts } from './run-rollouts';
import { openTrajectoryStore } from './trajectory-store';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'saccade-rollout-'));
  registerEnv({ id: 'test/Count-v1', create: (options: { length?: number; withImage?: boolean }) => new CountEnv(options) }, { override: true });
});
afterAll(async () => {
  unregisterEnv('test/Count-v1');
  await rm(directory, { recursive: true, force: true });
});

describe('runRollouts', () => {
  it('runs 1,000 concurrent episodes against a random-latency agent and stores each trajectory exactly once', async () => {
    const store = await openTrajectoryStore({ path: join(directory, 'thousand', 'rollouts.jsonl') });
    const agent = latencyAgent(4);
    const events: RunEvent[] = [];
    const prompts = Array.from({ length: 250 }, (_, seed) => ({ envId: 'test/Count-v1', seed, envOptions: { withImage: true } }));
    const result = await runRollouts({ prompts, groupSize: 4, agent, concurrency: 100, store, onEvent: (event) => events.push(event), step: 3 });
    await store.close();

    expect(result.trajectories).toHaveLength(1000);
    expect(result.cancelled).toBe(false);
    expect(result.trajectories.every((trajectory) => trajectory.error === undefined && trajectory.turns.length === 3)).toBe(true);
    expect(agent.peak).toBeLessThanOrEqual(100);
    expect(agent.peak).toBeGreaterThan(50);

    const lines = (await readFile(store.path, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(1000);
    const stored = lines.map((line) => JSON.parse(line) as Trajectory);
    const ids = stored.map((trajectory) => trajectory.id);
    expect(new Set(ids).size).toBe(1000);
    expect(new Set(ids)).toEqual(new Set(result.trajectories.map((trajectory) => trajectory.id)));

    // Groups: four episodes of one seed under one group id.
    const groups = new Map<string, Trajectory[]>();
    for (const trajectory of stored) groups.set(trajectory.groupId ?? '', [...(groups.get(trajectory.groupId ?? '') ?? []), trajectory]);
    expect(groups.size).toBe(250);
    for (const members of groups.values()) {
      expect(members).toHaveLength(4);
      expect(new Set(members.map((member) => member.seed)).size).toBe(1);
    }
    // One image per seed, each written once under its hash.
    expect(await readdir(join(directory, 'thousand', 'images'))).toHaveLength(250);
    expect(result.images.size).toBe(250);

    const count = (type: RunEvent['type']): number => events.filter((event) => event.type === type).length;
    expect([count('episode-start'), count('turn-end'), count('episode-end'), count('rollout-end')]).toEqual([1000, 3000, 1000, 1]);
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'rollout-end', step: 3, episodes: 1000 });
    expect(end?.type === 'rollout-end' && end.metrics).toMatchObject({ episodes: 1000, failed: 0, meanReward: 3, success: 1, meanTurns: 3 });
  });

  it('records timing, reward terms, finish reasons and the final observation of each turn', async () => {
    const { trajectories } = await runRollouts({ prompts: [{ envId: 'test/Count-v1', seed: 5 }], agent: latencyAgent(2), batchId: 'b' });
    const [trajectory] = trajectories;
    expect(trajectory).toMatchObject({ id: 'b-0-0', groupId: 'b-0', envId: 'test/Count-v1', seed: 5, agentId: 'latency', systemPrompt: 'Answer ok.' });
    expect(trajectory?.turns.map((turn) => turn.observation.text)).toEqual(['Turn 0.', 'Turn 1.', 'Turn 2.']);
    expect(trajectory?.finalObservation).toEqual({ text: 'Turn 3.', images: [] });
    for (const turn of trajectory?.turns ?? []) {
      expect(turn.timing.agentMs).toBeGreaterThanOrEqual(0);
      expect(turn.timing.envMs).toBeGreaterThanOrEqual(0);
      expect(turn.rewardTerms).toEqual({ ok: 1 });
      expect(turn.finishReason).toBe('stop');
    }
    expect(trajectory?.terminated).toBe(true);
    expect(Date.parse(trajectory?.endedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(trajectory?.startedAt ?? ''));
  });

  it('records a failing episode with its error and finishes the rest of the batch', async () => {
    const agent = latencyAgent(1);
    const down = { ...agent, act: () => Promise.reject(new Error('server down')) };
    const envs: CountEnv[] = [];
    const events: RunEvent[] = [];
    const result = await runRollouts({
      prompts: [0, 1, 2, 3].map((seed) => ({ envId: 'test/Count-v1', seed })),
      agent: ({ prompt }) => (prompt.seed === 2 ? down : agent),
      createEnv: (prompt) => {
        const env = new CountEnv({ throwOnTurn: prompt.seed === 3 ? 1 : undefined });
        envs.push(env);
        return env;
      },
      onEvent: (event) => events.push(event),
    });
    const [zero, one, two, three] = result.trajectories;
    expect(zero?.error).toBeUndefined();
    expect(one?.error).toBeUndefined();
    expect(two?.error).toEqual({ name: 'Error', message: 'server down' });
    expect(two?.turns).toHaveLength(0);
    expect(three?.error).toEqual({ name: 'Error', message: 'CountEnv broke on turn 1' });
    expect(three?.turns).toHaveLength(1);
    expect(result.metrics.failed).toBe(2);
    expect(envs.every((env) => env.closed === 1)).toBe(true);
    const ends = events.filter((event) => event.type === 'episode-end');
    expect(ends.filter((event) => event.type === 'episode-end' && event.error !== undefined)).toHaveLength(2);
  });

  it('retries a failing agent call agentRetries times', async () => {
    let calls = 0;
    const flaky = latencyAgent(0);
    const agent = { ...flaky, act: (options: AgentActOptions) => (++calls % 2 === 1 ? Promise.reject(new Error('flaky')) : flaky.act(options)) };
    const retried = await runRollouts({ prompts: [{ envId: 'test/Count-v1', seed: 0 }], agent, agentRetries: 1, retryDelayMs: 1 });
    expect(retried.trajectories[0]?.error).toBeUndefined();
    expect(calls).toBe(6);
    calls = 0;
    const unretried = await runRollouts({ prompts: [{ envId: 'test/Count-v1', seed: 0 }], agent });
    expect(unretried.trajectories[0]?.error?.message).toBe('flaky');
  });

  it('cuts episodes off at maxTurns as truncated', async () => {
    const { trajectories } = await runRollouts({ prompts: [{ envId: 'test/Count-v1', seed: 0, envOptions: { length: 10 } }], agent: latencyAgent(0), maxTurns: 2 });
    expect(trajectories[0]).toMatchObject({ terminated: false, truncated: true, totalReward: 2 });
    expect(trajectories[0]?.turns).toHaveLength(2);
  });

  it('shows the agent at most historyWindow earlier turns', async () => {
    const seen: number[] = [];
    const agent = latencyAgent(0, (options) => {
      seen.push(options.messages.length);
      return 'ok';
    });
    await runRollouts({ prompts: [{ envId: 'test/Count-v1', seed: 0, envOptions: { length: 4 } }], agent, historyWindow: 1 });
    // system + current; system + 1 exchange + current, …
    expect(seen).toEqual([2, 4, 4, 4]);
  });

  it('builds an agent per episode from a factory that sees its env', async () => {
    const contexts: string[] = [];
    const manager = createRolloutManager({
      agent: ({ env, episodeId, sampleIndex }) => {
        contexts.push(`${episodeId}:${sampleIndex}:${env.id}`);
        return { ...latencyAgent(0), id: `agent-${sampleIndex}` };
      },
    });
    const { trajectories } = await manager.run({ prompts: [{ envId: 'test/Count-v1', seed: 1 }], groupSize: 2, batchId: 'x' });
    expect(contexts.sort()).toEqual(['x-0-0:0:test/Count-v1', 'x-0-1:1:test/Count-v1']);
    expect(trajectories.map((trajectory) => trajectory.agentId)).toEqual(['agent-0', 'agent-1']);
  });

  it('stops on abort: no new episodes, those in flight recorded as failed', async () => {
    const controller = new AbortController();
    let ended = 0;
    const result = await runRollouts({
      prompts: Array.from({ length: 100 }, (_, seed) => ({ envId: 'test/Count-v1', seed })),
      agent: latencyAgent(3),
      concurrency: 4,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'episode-end' && ++ended === 5) controller.abort(new Error('stop now'));
      },
    });
    expect(result.cancelled).toBe(true);
    expect(result.trajectories.length).toBeLessThan(100);
    expect(result.trajectories.filter((trajectory) => trajectory.error === undefined).length).toBeGreaterThanOrEqual(5);
    expect(result.trajectories.filter((trajectory) => trajectory.error?.message === 'stop now').length).toBeGreaterThan(0);
  });

  it('stops starting episodes and rejects when the store fails', async () => {
    const store = await openTrajectoryStore({ path: join(directory, 'closed', 'rollouts.jsonl') });
    await store.close();
    const agent = latencyAgent(0);
    await expect(
      runRollouts({ prompts: Array.from({ length: 50 }, (_, seed) => ({ envId: 'test/Count-v1', seed })), agent, concurrency: 2, store }),
    ).rejects.toThrow(/expected an open store, but it was closed/);
    expect(agent.calls).toBeLessThanOrEqual(2 * 3);
  });

  it('refuses bad arguments with what it expected', async () => {
    await expect(runRollouts({ prompts: [{ envId: 'test/Count-v1' }], agent: latencyAgent(0), concurrency: 0 })).rejects.toThrow(
      'Invalid argument concurrency: expected an integer ≥ 1 or Infinity, received 0.',
    );
    await expect(runRollouts({ prompts: [{ seed: 1 } as never], agent: latencyAgent(0) })).rejects.toThrow(InvalidArgumentError);
    expect(() => createRolloutManager({ agent: {} as never })).toThrow(/an Agent or a function/);
    const { trajectories } = await runRollouts({ prompts: [{ envId: 'test/Missing-v1' }], agent: latencyAgent(0) });
    expect(trajectories[0]?.error?.name).toBe('Saccade_EnvNotFoundError');
  });
});
