#!/usr/bin/env node
// The UI on a run this process drives: events from an emitter, keys to a control object.
//   node apps/tui/examples/in-process.mjs
import { EventEmitter } from 'node:events';
import { renderTrainingTui } from '@saccade/tui';

const events = new EventEmitter();
let paused = false;
let stopped = false;
const emit = (event) => events.emit('event', { time: new Date().toISOString(), ...event });
const tui = renderTrainingTui({
  events,
  runInfo: { name: 'in-process demo', envId: 'demo/Curve-v1', model: 'none', backend: 'js', totalSteps: 60 },
  control: {
    pause: () => void (paused = true),
    resume: () => void (paused = false),
    saveCheckpoint: () => emit({ type: 'checkpoint-saved', step: 0, path: 'checkpoints/now' }),
    stop: () => void (stopped = true),
  },
});

emit({ type: 'run-start', runName: 'in-process demo' });
for (let step = 1; step <= 60 && !stopped; step++) {
  while (paused && !stopped) await new Promise((resolve) => setTimeout(resolve, 100));
  const episodeId = `episode-${step}`;
  emit({ type: 'episode-start', episodeId, envId: 'demo/Curve-v1', seed: step, step });
  emit({ type: 'turn-end', episodeId, turn: 0, reward: step / 60, rewardTerms: { progress: step / 60 }, action: `<answer>${step}</answer>`, step });
  emit({ type: 'episode-end', episodeId, totalReward: step / 60, turns: 1, terminated: true, truncated: false, success: step > 30, step });
  emit({ type: 'update-end', step, metrics: { loss: 1 / Math.sqrt(step), kl: step / 600, entropy: 2 - step / 60, tokensPerSecond: 500 } });
  if (step % 10 === 0) emit({ type: 'eval-end', step, metrics: { success: step / 60, meanReward: step / 60, episodes: 10 } });
  await new Promise((resolve) => setTimeout(resolve, 100));
}
emit({ type: 'run-end', status: stopped ? 'cancelled' : 'completed', step: 60 });
const { stopRequested } = await tui.waitUntilExit();
console.log(stopRequested ? 'stopped from the UI' : 'run finished');
