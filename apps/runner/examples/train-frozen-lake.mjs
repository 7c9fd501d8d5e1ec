// Trains the tiny preset on FrozenLake for a minute and prints held-out success as it goes.
// Run after a build: node apps/runner/examples/train-frozen-lake.mjs
import { registerGridEnvs } from '@saccade/env-grid';
import { VisionLanguageModel } from '@saccade/models';
import { backendInfo, initTensor } from '@saccade/tensor';
import { trainSft } from '@saccade/trainers';

await initTensor();
console.log(`backend: ${backendInfo()?.name}`);
registerGridEnvs();
const model = VisionLanguageModel.create({ preset: 'tiny', seed: 0 });
const result = await trainSft(
  model,
  {
    envId: 'saccade/FrozenLake-v1',
    envOptions: { format: 'no_think', observation: 'vision' },
    view: 'image',
    historyWindow: 0,
    trainSeeds: { start: 10_000, count: 500 },
    evalSeeds: { start: 0, count: 100 },
    maxTurns: 3,
    steps: 200,
    batchSize: 32,
    learningRate: 1e-2,
    warmupSteps: 10,
    evalEvery: 50,
    timeLimitSeconds: 60,
    seed: 0,
  },
  (event) => {
    if (event.type === 'eval-end') console.log(`step ${event.step}: success ${(event.metrics.success * 100).toFixed(1)}%`);
  },
);
console.log(`${result.steps} steps in ${result.seconds.toFixed(0)} s`);
model.dispose();
