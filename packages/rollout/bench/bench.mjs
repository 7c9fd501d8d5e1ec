// Rollout manager benchmarks; prints one JSON object on stdout. Run after the build:
//   pnpm --filter @saccade/rollout bench
// 1. Framework overhead per turn: a text env and an agent that answer at once, so that the time per
//    turn is the manager's own (prompt building, timing, events, trajectory records). Target < 0.5 ms.
// 2. Throughput: 256 episodes in flight against an agent with 100 ms latency. Ideal: every wave of
//    256 turns takes 100 ms. Target ≥ 90 % of ideal.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTrajectoryStore, runRollouts } from '../dist/index.js';

/** A text env: `length` turns, reward 1 each, a short observation. */
function createTextEnv(length) {
  let turn = 0;
  return {
    specificationVersion: 'v1',
    id: 'bench/Text-v1',
    async reset() {
      turn = 0;
      return { observation: { text: 'You see a corridor. Answer <answer>Forward</answer>.', images: [] }, info: {} };
    },
    async step() {
      turn++;
      return {
        observation: { text: `Step ${turn}: you see a corridor.`, images: [] },
        reward: 1,
        terminated: turn >= length,
        truncated: false,
        info: { rewardTerms: { format: 0.5, progress: 0.5 }, metrics: { success: turn >= length } },
      };
    },
    systemPrompt: () => 'Walk to the end of the corridor.',
    async close() {},
  };
}

function agentWithLatency(ms) {
  const output = { outputs: [{ text: '<answer>Forward</answer>', finishReason: 'stop' }] };
  return {
    specificationVersion: 'v1',
    id: `latency-${ms}`,
    act: ms === 0 ? async () => output : () => new Promise((resolve) => setTimeout(() => resolve(output), ms)),
  };
}

const prompts = (count) => Array.from({ length: count }, (_, seed) => ({ envId: 'bench/Text-v1', seed }));

/** The same env and agent calls without the manager: what the turns cost by themselves. */
async function bareLoop(episodes, turns) {
  const agent = agentWithLatency(0);
  const start = performance.now();
  for (let episode = 0; episode < episodes; episode++) {
    const env = createTextEnv(turns);
    await env.reset({ seed: episode });
    for (let turn = 0; turn < turns; turn++) {
      await agent.act({ messages: [] });
      if ((await env.step('<answer>Forward</answer>')).terminated) break;
    }
    await env.close();
  }
  return (performance.now() - start) / (episodes * turns);
}

async function overhead({ episodes, turns, concurrency, store, events }) {
  const received = [];
  const start = performance.now();
  const result = await runRollouts({
    prompts: prompts(episodes),
    agent: agentWithLatency(0),
    createEnv: () => createTextEnv(turns),
    concurrency,
    maxTurns: turns,
    ...(store ? { store } : {}),
    ...(events ? { onEvent: (event) => received.push(event) } : {}),
  });
  const ms = performance.now() - start;
  const totalTurns = result.trajectories.reduce((sum, trajectory) => sum + trajectory.turns.length, 0);
  return ms / totalTurns;
}

async function throughput({ episodes, concurrency, turns, latencyMs }) {
  const start = performance.now();
  const result = await runRollouts({
    prompts: prompts(episodes),
    agent: agentWithLatency(latencyMs),
    createEnv: () => createTextEnv(turns),
    concurrency,
    maxTurns: turns,
  });
  const ms = performance.now() - start;
  const ideal = Math.ceil(episodes / concurrency) * turns * latencyMs;
  return { episodes, concurrency, turns, latencyMs, ms: round(ms), idealMs: ideal, efficiency: round(ideal / ms, 4), failed: result.metrics.failed };
}

const round = (value, digits = 4) => Number(value.toFixed(digits));

// Warm up the JIT before measuring.
await overhead({ episodes: 500, turns: 10, concurrency: 64 });
await bareLoop(500, 10);

const directory = await mkdtemp(join(tmpdir(), 'saccade-rollout-bench-'));
try {
  const bare = await bareLoop(2000, 10);
  const sequential = await overhead({ episodes: 2000, turns: 10, concurrency: 1 });
  const concurrent = await overhead({ episodes: 2000, turns: 10, concurrency: 64 });
  const withEvents = await overhead({ episodes: 2000, turns: 10, concurrency: 64, events: true });
  const store = await openTrajectoryStore({ path: join(directory, 'rollouts.jsonl') });
  const withStore = await overhead({ episodes: 2000, turns: 10, concurrency: 64, store });
  await store.close();
  const wide = await throughput({ episodes: 512, concurrency: 256, turns: 5, latencyMs: 100 });
  const result = {
    node: process.version,
    overheadPerTurnMs: {
      target: 0.5,
      bareLoopPerTurnMs: round(bare),
      concurrency1: round(sequential - bare),
      concurrency64: round(concurrent - bare),
      concurrency64WithEvents: round(withEvents - bare),
      concurrency64WithStore: round(withStore - bare),
    },
    throughput: { target: 0.9, ...wide },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  await rm(directory, { recursive: true, force: true });
}
