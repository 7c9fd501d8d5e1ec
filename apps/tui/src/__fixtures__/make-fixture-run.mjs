// Writes the recorded run in ./run (events.jsonl, trajectories, images) that the tests replay.
// Re-run after changing it: node src/__fixtures__/make-fixture-run.mjs (from apps/tui).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentHash, encodePng } from '@saccade/image';

const folder = join(dirname(fileURLToPath(import.meta.url)), 'run');
rmSync(folder, { recursive: true, force: true });
mkdirSync(join(folder, 'trajectories'), { recursive: true });
mkdirSync(join(folder, 'images'), { recursive: true });

// A 4×4 FrozenLake-like board, 8 pixels a cell: blue ice, white holes, green goal, red agent.
const colours = { ice: [40, 90, 200], hole: [250, 250, 250], goal: [30, 180, 60], agent: [220, 40, 40] };
const board = ['AIII', 'IHIH', 'IIIH', 'HIIG'];
const pixels = Buffer.alloc(32 * 32 * 3);
for (let y = 0; y < 32; y++)
  for (let x = 0; x < 32; x++) {
    const cell = board[Math.floor(y / 8)][Math.floor(x / 8)];
    const rgb = { A: colours.agent, I: colours.ice, H: colours.hole, G: colours.goal }[cell];
    pixels.set(rgb, (y * 32 + x) * 3);
  }
const png = (await encodePng({ data: pixels, width: 32, height: 32, channels: 3 })).data;
const hash = contentHash(png);
writeFileSync(join(folder, 'images', `${hash}.png`), png);

const start = Date.parse('2025-01-01T00:00:00.000Z');
const at = (seconds) => new Date(start + seconds * 1000).toISOString();
const events = [];
const trajectories = [];
const emit = (seconds, event) => events.push({ time: at(seconds), ...event });

emit(0, {
  type: 'run-start',
  runName: 'fixture-grpo',
  config: { env: { id: 'saccade/FrozenLake-v1' }, model: { preset: 'tiny' }, grpo: { steps: 8 } },
});
emit(0, { type: 'log', level: 'info', message: 'backend wasm (SIMD)', data: { backend: 'wasm' } });
emit(2, { type: 'eval-end', step: 0, metrics: { episodes: 20, success: 0.1, meanReward: 0.15, formatRate: 0.5 } });

const actions = [
  '<think>The goal is bottom right.</think><tool_call>{"name": "zoom", "arguments": {"box": [0, 0, 16, 16]}}</tool_call>',
  '<answer>Right,Right,Down,Down,Down,Right</answer>',
];
for (let step = 1; step <= 4; step++) {
  const base = 2 + (step - 1) * 10;
  for (let index = 0; index < 2; index++) {
    const episodeId = `ep-${step}-${index}`;
    const success = (step + index) % 2 === 0;
    emit(base + index, { type: 'episode-start', episodeId, envId: 'saccade/FrozenLake-v1', seed: 100 + step * 2 + index, step });
    emit(base + index + 0.5, { type: 'turn-end', episodeId, turn: 0, reward: 0, rewardTerms: { format: 0, tool: 0 }, action: actions[0], step });
    const final = success ? 1 : 0;
    emit(base + index + 1, {
      type: 'turn-end',
      episodeId,
      turn: 1,
      reward: final + 0.1,
      rewardTerms: { format: 0.1, success: final },
      action: actions[1],
      step,
    });
    emit(base + index + 1, { type: 'episode-end', episodeId, totalReward: final + 0.1, turns: 2, terminated: true, truncated: false, success, step });
    trajectories.push({
      id: episodeId,
      envId: 'saccade/FrozenLake-v1',
      seed: 100 + step * 2 + index,
      agentId: 'policy',
      groupId: `group-${step}`,
      turns: [
        {
          observation: { text: 'You are on a frozen lake. <image> Reach the goal without falling into a hole.', images: [{ hash, mediaType: 'image/png', width: 32, height: 32 }] },
          action: actions[0],
          reward: 0,
          rewardTerms: { format: 0, tool: 0 },
          terminated: false,
          truncated: false,
          info: {},
          timing: { agentMs: 40, envMs: 2 },
        },
        {
          observation: { text: '<tool_response>zoomed: the agent stands at the top left</tool_response> <image>', images: [{ hash, mediaType: 'image/png', width: 32, height: 32 }] },
          action: actions[1],
          reward: final + 0.1,
          rewardTerms: { format: 0.1, success: final },
          terminated: true,
          truncated: false,
          info: { success },
          timing: { agentMs: 35, envMs: 1 },
        },
      ],
      totalReward: final + 0.1,
      terminated: true,
      truncated: false,
      startedAt: at(base + index),
      endedAt: at(base + index + 1),
    });
  }
  // Step 3's rollout reports no reward or success: the UI takes them from its episodes.
  const rollout = { 1: { meanReward: 0.3, success: 0.5 }, 2: { meanReward: 0.45, success: 0.5 }, 3: {}, 4: { meanReward: 0.8, success: 0.5 } }[step];
  emit(base + 4, { type: 'rollout-end', step, episodes: 2, metrics: { ...rollout, tokensPerSecond: 900 } });
  const update = { 1: [1, 0.01, 1.75], 2: [0.5, 0.02, 1.5], 3: [0.4, 0.03, 1.25], 4: [0.25, 0.04, 1] }[step];
  emit(base + 6, { type: 'update-end', step, metrics: { loss: update[0], kl: update[1], entropy: update[2], tokensPerSecond: 1000 + step * 100, gradientNorm: 0.5 } });
  if (step === 2) emit(base + 6, { type: 'log', level: 'warn', message: 'gradient norm clipped at 1.0' });
  const evaluation = { 2: { success: 0.3, meanReward: 0.4 }, 4: { success: 0.5, meanReward: 0.6 } }[step];
  if (evaluation) emit(base + 8, { type: 'eval-end', step, metrics: { episodes: 20, ...evaluation, formatRate: 0.9 } });
}
emit(42, { type: 'checkpoint-saved', step: 4, path: 'checkpoints/4' });
emit(42, { type: 'run-end', status: 'completed', step: 4 });

writeFileSync(join(folder, 'events.jsonl'), events.map((event) => JSON.stringify(event)).join('\n') + '\n');
writeFileSync(join(folder, 'trajectories', 'rollout-0001.jsonl'), trajectories.map((t) => JSON.stringify(t)).join('\n') + '\n');
console.log(`${events.length} events, ${trajectories.length} trajectories, image ${hash.slice(0, 12)}`);
