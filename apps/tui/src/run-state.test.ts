import { describe, expect, test } from 'vitest';
import { fixtureEvents, fixtureTrajectories } from './__fixtures__/load-fixture';
import { addTrajectory, elapsedSeconds, etaSeconds, initialRunState, MAX_EPISODES, reduceRunState, type RunState } from './run-state';

const replay = (state: RunState = initialRunState()): RunState => fixtureEvents().reduce(reduceRunState, state);

describe('reduceRunState on the recorded run', () => {
  const state = replay();

  test('reads the run from run-start, its config and the backend log', () => {
    expect(state.info).toEqual({ name: 'fixture-grpo', envId: 'saccade/FrozenLake-v1', model: 'tiny', backend: 'wasm', totalSteps: 8, phases: [{ steps: 8 }] });
    expect(state.status).toBe('completed');
    expect(state.step).toBe(4);
    expect(state.lastCheckpoint).toEqual({ step: 4, path: 'checkpoints/4' });
  });

  test('charts every metric over steps, evaluations apart', () => {
    const points = (values: number[], steps = [1, 2, 3, 4]) => values.map((value, index) => ({ step: steps[index]!, value }));
    expect(state.series.loss).toEqual({ train: points([1, 0.5, 0.4, 0.25]), eval: [] });
    expect(state.series.kl).toEqual({ train: points([0.01, 0.02, 0.03, 0.04]), eval: [] });
    expect(state.series.entropy).toEqual({ train: points([1.75, 1.5, 1.25, 1]), eval: [] });
    expect(state.series.success.eval).toEqual(points([0.1, 0.3, 0.5], [0, 2, 4]));
    expect(state.series.reward.eval).toEqual(points([0.15, 0.4, 0.6], [0, 2, 4]));
    // Step 3's rollout-end has no reward or success: the mean of its two episodes (1.1 and 0.1).
    expect(state.series.reward.train.map((point) => point.step)).toEqual([1, 2, 3, 4]);
    expect(state.series.reward.train[2]!.value).toBeCloseTo(0.6, 12);
    expect(state.series.reward.train.map((point) => point.value).filter((_, index) => index !== 2)).toEqual([0.3, 0.45, 0.8]);
    expect(state.series.success.train).toEqual(points([0.5, 0.5, 0.5, 0.5]));
  });

  test('measures throughput, elapsed time and the ETA', () => {
    expect(state.tokensPerSecond).toBe(1400);
    // 8 episodes ended between 3 s and 34 s: 7 intervals in 31 s.
    expect(state.episodesPerSecond).toBe(7 / 31);
    expect(state.episodesDone).toBe(8);
    // Updates 1→4 took 8 s→38 s: 10 s a step, 4 steps left of 8.
    expect(etaSeconds(state)).toBe(40);
    // Finished: elapsed stops at the last event, whatever the clock says.
    expect(elapsedSeconds(state, Date.parse('2025-01-02T00:00:00Z'))).toBe(42);
    const running = { ...state, status: 'running' as const };
    expect(elapsedSeconds(running, Date.parse('2025-01-01T00:01:00Z'))).toBe(60);
  });

  test("keeps the newest update's sampler–trainer gap and the newest rollout's uniform groups", () => {
    let next = reduceRunState(state, { type: 'update-end', time: '2025-01-01T00:00:50Z', step: 5, metrics: { loss: 0.2, logprobGap: 2.5e-7 } });
    next = reduceRunState(next, { type: 'rollout-end', time: '2025-01-01T00:00:51Z', step: 6, episodes: 8, metrics: { uniformGroups: 0.25 } });
    expect(next.logprobGap).toBe(2.5e-7);
    expect(next.uniformGroups).toBe(0.25);
    // A later update without the metric keeps the last one seen.
    expect(reduceRunState(next, { type: 'update-end', time: '2025-01-01T00:00:52Z', step: 6, metrics: { loss: 0.1 } }).logprobGap).toBe(2.5e-7);
  });

  test('keeps the episodes with their turns and reward terms', () => {
    expect(state.episodes.map((episode) => episode.id)).toEqual(['ep-1-0', 'ep-1-1', 'ep-2-0', 'ep-2-1', 'ep-3-0', 'ep-3-1', 'ep-4-0', 'ep-4-1']);
    const last = state.episodes.at(-1)!;
    expect(last).toMatchObject({ envId: 'saccade/FrozenLake-v1', seed: 109, step: 4, totalReward: 0.1, success: false, terminated: true, truncated: false, done: true });
    expect(last.turns.map((turn) => [turn.turn, turn.reward, turn.rewardTerms])).toEqual([
      [0, 0, { format: 0, tool: 0 }],
      [1, 0.1, { format: 0.1, success: 0 }],
    ]);
  });

  test('logs run milestones, evaluations and warnings', () => {
    expect(state.log.map((line) => `${line.level} ${line.message}`)).toEqual([
      'info run fixture-grpo started',
      'info backend wasm (SIMD)',
      'info eval @ step 0: success 10.0%, mean reward 0.15, 20 episodes',
      'warn gradient norm clipped at 1.0',
      'info eval @ step 2: success 30.0%, mean reward 0.40, 20 episodes',
      'info eval @ step 4: success 50.0%, mean reward 0.60, 20 episodes',
      'info checkpoint saved: checkpoints/4',
      'info run completed',
    ]);
  });
});

describe('reduceRunState', () => {
  test("an evaluation of a policy with tools logs how it looked: calls, invalid share, crops on the target", () => {
    const metrics = { success: 0.34, meanReward: 0.34, episodes: 200, toolCallsPerEpisode: 1, invalidCallRate: 0, targetHitRate: 0.045, successWithHit: 5 / 9, successWithoutHit: 0.33 };
    const state = reduceRunState(initialRunState(), { type: 'eval-end', time: '2026-01-01T00:00:00Z', step: 75, metrics });
    expect(state.log.map((line) => line.message)).toEqual([
      'eval @ step 75: success 34.0%, mean reward 0.34, 200 episodes, tool calls 1.00/episode (0.0% invalid), crop hit the target in 4.5% (success 55.6% with a hit, 33.0% without)',
    ]);
    const sampled = reduceRunState(initialRunState(), { type: 'eval-end', time: '2026-01-01T00:00:00Z', step: 80, metrics: { success: 0.34, meanReward: 0.34, episodes: 200, sampledSuccess: 0.25, sampledSamples: 4, sampledTemperature: 0.7 } });
    expect(sampled.log.map((line) => line.message)).toEqual(['eval @ step 80: success 34.0%, sampled 25.0% (mean@4 at temperature 0.7), mean reward 0.34, 200 episodes']);
    // Prompts cut to fit the context are said; none cut, nothing said.
    const cut = (truncatedPrompts: number) => reduceRunState(initialRunState(), { type: 'eval-end', time: '2026-01-01T00:00:00Z', step: 240, metrics: { success: 0.555, meanReward: 0.55, episodes: 200, truncatedPrompts } }).log.map((line) => line.message);
    expect(cut(0.0546)).toEqual(['eval @ step 240: success 55.5%, mean reward 0.55, 200 episodes, 5.5% of prompts cut to fit the context']);
    expect(cut(0)).toEqual(['eval @ step 240: success 55.5%, mean reward 0.55, 200 episodes']);
  });

  test('a sampled evaluation charts beside the greedy one: sampledSuccess on the success chart, sampledMeanReward on the reward chart', () => {
    const events: { step: number; metrics: Record<string, number> }[] = [
      { step: 60, metrics: { success: 0.465, meanReward: 0.465, sampledSuccess: 0.355, sampledMeanReward: 0.4, sampledSamples: 4, sampledTemperature: 0.7 } },
      { step: 70, metrics: { success: 0.72, meanReward: 0.72, sampledSuccess: 0.361, sampledMeanReward: 0.41, sampledSamples: 4, sampledTemperature: 0.7 } },
      { step: 80, metrics: { success: 0.34, meanReward: 0.34 } },
    ];
    const state = events.reduce((current, { step, metrics }) => reduceRunState(current, { type: 'eval-end', time: '2026-01-01T00:00:00Z', step, metrics }), initialRunState());
    expect(state.series.success).toEqual({ train: [], eval: [{ step: 60, value: 0.465 }, { step: 70, value: 0.72 }, { step: 80, value: 0.34 }], sampled: [{ step: 60, value: 0.355 }, { step: 70, value: 0.361 }] });
    expect(state.series.reward.sampled).toEqual([{ step: 60, value: 0.4 }, { step: 70, value: 0.41 }]);
    // Its count and temperature are no chart's metric.
    expect(state.series.loss).toEqual({ train: [], eval: [] });
  });

  test('is pure: the old state is left as it was', () => {
    const before = initialRunState();
    const snapshot = JSON.stringify(before);
    reduceRunState(before, { type: 'update-end', time: '2025-01-01T00:00:01Z', step: 1, metrics: { loss: 2 } });
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  test('caller run info wins over the config', () => {
    const state = reduceRunState(initialRunState({ name: 'mine', backend: 'tfjs-node-gpu' }), {
      type: 'run-start',
      time: '2025-01-01T00:00:00Z',
      runName: 'theirs',
      config: { env: { id: 'a/B-v1' }, model: { preset: 'small' }, sft: { steps: 300 } },
    });
    expect(state.info).toEqual({ name: 'mine', backend: 'tfjs-node-gpu', envId: 'a/B-v1', model: 'small', totalSteps: 300, phases: [{ steps: 300 }] });
  });

  test("a train config's phases: steps added up, and an ETA within GRPO's time limit", () => {
    let state = reduceRunState(initialRunState(), {
      type: 'run-start',
      time: '2025-01-01T00:00:00Z',
      runName: 'phases',
      config: { sft: { steps: 400, timeLimitSeconds: 540 }, grpo: { steps: 200, timeLimitSeconds: 330 } },
    });
    expect(state.info.totalSteps).toBe(600);
    const update = (step: number, at: string, seconds: number) => {
      state = reduceRunState(state, { type: 'update-end', time: `2025-01-01T00:${at}Z`, step, metrics: { loss: 1, seconds } });
    };
    // SFT: 0.5 s a step, 300 steps left (150 s), then GRPO's 330 s.
    update(99, '00:50', 50);
    update(100, '00:50.5', 50.5);
    expect(etaSeconds(state)).toBe(480);
    // GRPO after SFT stopped at step 380, 3 s a step: its time limit (324 s left) ends it first.
    update(381, '04:00', 3);
    expect(etaSeconds(state)).toBeUndefined();
    update(382, '04:03', 6);
    expect(state.phaseIndex).toBe(1);
    expect(etaSeconds(state)).toBe(324);
  });

  test('keeps the newest episodes only', () => {
    let state = initialRunState();
    for (let index = 0; index < MAX_EPISODES + 5; index++) {
      state = reduceRunState(state, { type: 'episode-start', time: '2025-01-01T00:00:00Z', episodeId: `e${index}`, envId: 'x', seed: index });
    }
    expect(state.episodes).toHaveLength(MAX_EPISODES);
    expect(state.episodes[0]!.id).toBe('e5');
  });

  test('a repeated step replaces its point instead of adding one', () => {
    let state = initialRunState();
    state = reduceRunState(state, { type: 'update-end', time: '2025-01-01T00:00:01Z', step: 1, metrics: { loss: 2 } });
    state = reduceRunState(state, { type: 'update-end', time: '2025-01-01T00:00:02Z', step: 1, metrics: { loss: 1.5 } });
    expect(state.series.loss.train).toEqual([{ step: 1, value: 1.5 }]);
  });
});

describe('addTrajectory', () => {
  test('adds the question, observations and images that events do not carry', () => {
    const state = fixtureTrajectories().reduce(addTrajectory, replay());
    const last = state.episodes.at(-1)!;
    expect(last.prompt).toBe('You are on a frozen lake. <image> Reach the goal without falling into a hole.');
    expect(last.promptImages).toEqual([{ hash: 'ff49209c4b7bc24fe599eed0476cf66b979690d0ff6586d4880e450709bbb48e', mediaType: 'image/png', width: 32, height: 32 }]);
    expect(last.turns[1]!.observation).toBe('<tool_response>zoomed: the agent stands at the top left</tool_response> <image>');
    // Event values stay: the trajectory does not undo what the run reported.
    expect(last.totalReward).toBe(0.1);
    expect(last.turns[1]!.rewardTerms).toEqual({ format: 0.1, success: 0 });
  });

  test('a trajectory without events becomes an episode of its own', () => {
    const [first] = fixtureTrajectories();
    const state = addTrajectory(initialRunState(), first!);
    expect(state.episodes).toHaveLength(1);
    expect(state.episodes[0]).toMatchObject({ id: 'ep-1-0', seed: 102, totalReward: 0.1, success: false, done: true });
  });
});
