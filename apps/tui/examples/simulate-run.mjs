#!/usr/bin/env node
// A stand-in trainer: writes a live run folder (events.jsonl, trajectories, images) a step at a
// time and obeys control.jsonl (pause, resume, checkpoint, stop) the way a trainer should.
//   node apps/tui/examples/simulate-run.mjs <run folder> [--steps N] [--interval ms]
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, encodePng } from '@saccade/image';

const [folder, ...rest] = process.argv.slice(2);
if (!folder) {
  console.error('usage: simulate-run.mjs <run folder> [--steps N] [--interval ms]');
  process.exit(2);
}
const option = (name, fallback) => {
  const index = rest.indexOf(name);
  return index >= 0 ? Number(rest[index + 1]) : fallback;
};
const totalSteps = option('--steps', 200);
const interval = option('--interval', 300);

mkdirSync(join(folder, 'trajectories'), { recursive: true });
mkdirSync(join(folder, 'images'), { recursive: true });
const now = () => new Date().toISOString();
const emit = (event) => appendFileSync(join(folder, 'events.jsonl'), `${JSON.stringify({ time: now(), ...event })}\n`);

// A 4×4 board image per start state, the agent's cell in red.
async function boardImage(agent) {
  const pixels = Buffer.alloc(32 * 32 * 3);
  for (let y = 0; y < 32; y++)
    for (let x = 0; x < 32; x++) {
      const cell = Math.floor(y / 8) * 4 + Math.floor(x / 8);
      const rgb = cell === agent ? [220, 40, 40] : cell === 15 ? [30, 180, 60] : [5, 6, 9].includes(cell) ? [250, 250, 250] : [40, 90, 200];
      pixels.set(rgb, (y * 32 + x) * 3);
    }
  const png = (await encodePng({ data: pixels, width: 32, height: 32, channels: 3 })).data;
  const hash = contentHash(png);
  if (!existsSync(join(folder, 'images', `${hash}.png`))) writeFileSync(join(folder, 'images', `${hash}.png`), png);
  return { hash, mediaType: 'image/png', width: 32, height: 32 };
}

// The control file: read the lines appended since the last look.
let controlOffset = 0;
function readCommands() {
  const file = join(folder, 'control.jsonl');
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const complete = text.slice(controlOffset, text.lastIndexOf('\n') + 1);
  controlOffset += Buffer.byteLength(complete);
  return complete
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line).command];
      } catch {
        return [];
      }
    });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
emit({ type: 'run-start', runName: 'simulated', config: { env: { id: 'saccade/FrozenLake-v1' }, model: { preset: 'tiny' }, grpo: { steps: totalSteps } } });
emit({ type: 'log', level: 'info', message: 'simulated run: backend cpu', data: { backend: 'cpu' } });
let paused = false;
let stopped = false;
for (let step = 1; step <= totalSteps && !stopped; step++) {
  for (const command of readCommands()) {
    if (command === 'pause') paused = true;
    if (command === 'resume') paused = false;
    if (command === 'stop') stopped = true;
    if (command === 'checkpoint') emit({ type: 'checkpoint-saved', step: step - 1, path: `checkpoints/${step - 1}` });
    emit({ type: 'log', level: 'info', message: `control: ${command}` });
  }
  if (stopped) break;
  if (paused) {
    step--;
    await sleep(interval);
    continue;
  }
  const progress = step / totalSteps;
  const trajectories = [];
  for (let index = 0; index < 2; index++) {
    const episodeId = `step${step}-${index}`;
    const success = Math.sin(step * 1.7 + index) < progress * 2 - 0.6;
    const reward = (success ? 1 : 0) + 0.1;
    const image = await boardImage((step + index) % 4);
    emit({ type: 'episode-start', episodeId, envId: 'saccade/FrozenLake-v1', seed: step * 2 + index, step });
    const action = `<think>step ${step}</think><tool_call>{"name": "zoom", "arguments": {"box": [0, 0, 16, 16]}}</tool_call>`;
    emit({ type: 'turn-end', episodeId, turn: 0, reward: 0, rewardTerms: { format: 0 }, action, step });
    emit({ type: 'turn-end', episodeId, turn: 1, reward, rewardTerms: { format: 0.1, success: reward - 0.1 }, action: '<answer>Down,Right</answer>', step });
    emit({ type: 'episode-end', episodeId, totalReward: reward, turns: 2, terminated: true, truncated: false, success, step });
    trajectories.push({
      id: episodeId,
      envId: 'saccade/FrozenLake-v1',
      seed: step * 2 + index,
      agentId: 'simulated',
      turns: [
        { observation: { text: `Step ${step}: reach the goal. <image>`, images: [image] }, action, reward: 0, rewardTerms: { format: 0 }, terminated: false, truncated: false, info: {}, timing: { agentMs: 1, envMs: 1 } },
        { observation: { text: '<tool_response>zoomed in</tool_response> <image>', images: [image] }, action: '<answer>Down,Right</answer>', reward, rewardTerms: { format: 0.1, success: reward - 0.1 }, terminated: true, truncated: false, info: { success }, timing: { agentMs: 1, envMs: 1 } },
      ],
      totalReward: reward,
      terminated: true,
      truncated: false,
      startedAt: now(),
    });
  }
  appendFileSync(join(folder, 'trajectories', 'rollouts.jsonl'), trajectories.map((trajectory) => `${JSON.stringify(trajectory)}\n`).join(''));
  emit({ type: 'rollout-end', step, episodes: 2, metrics: {} });
  emit({ type: 'update-end', step, metrics: { loss: 2 * Math.exp(-3 * progress) + 0.05 * Math.sin(step), kl: 0.02 * progress, entropy: 2 - progress, tokensPerSecond: 1200 + 50 * Math.sin(step) } });
  if (step % 5 === 0) emit({ type: 'eval-end', step, metrics: { episodes: 20, success: Math.min(1, progress * 1.2), meanReward: Math.min(1.1, progress * 1.3) } });
  await sleep(interval);
}
emit({ type: 'run-end', status: stopped ? 'cancelled' : 'completed' });
