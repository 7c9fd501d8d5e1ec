// MCTS against sampling alone (best-of-n) at equal agent calls; prints one JSON object on stdout.
// Run after the build:  pnpm --filter @saccade/datagen bench [-- --tasks 40 --seed 0 --sweep]
// On procedural visual-search tasks (test split, 2048 px), the scripted noisy agent plays both:
// ViGoRL's MCTS (8 simulations, 3 children, 2 rollouts each, depth ≤ 10, c = 2.0) runs first on
// each task, and sampling gets exactly the generations MCTS spent there. --sweep repeats it for
// easier and harder agents and for other MCTS settings.
import { parseArgs } from 'node:util';
import { registerGroundingEnvs } from '@saccade/env-grounded';
import { createVisualSearchSource } from '@saccade/env-procedural';
import { compareSearchMethods, createNoisyGroundingAgent, TaskLookup } from '../dist/index.js';

// Sampling's responses are played in saccade/GroundedSearch-v1 from the env registry.
registerGroundingEnvs();

const { values } = parseArgs({
  options: { tasks: { type: 'string', default: '40' }, seed: { type: 'string', default: '0' }, sweep: { type: 'boolean', default: false } },
});
const taskCount = Number(values.tasks);
const seed = Number(values.seed);

const source = createVisualSearchSource({ split: 'test' });
const tasks = [];
for (let index = 0; index < taskCount; index++) tasks.push(await source.get(index));
const lookup = await TaskLookup.fromTasks(tasks);

async function measure(agent = {}, mcts = {}) {
  const started = performance.now();
  const result = await compareSearchMethods({ tasks, mcts, agentFor: (label) => createNoisyGroundingAgent({ lookup, seed: `${seed}:${label}`, ...agent }) });
  const round = (value) => Math.round(value * 1000) / 1000;
  const method = (stats) => ({ ...stats, chainAccuracy: round(stats.chainAccuracy), correctChainsPerGeneration: round(stats.correctChainsPerGeneration) });
  return {
    agent,
    mcts: result.settings,
    generationsPerMethod: result.generations,
    results: { mcts: method(result.mcts), sampling: method(result.sampling) },
    mctsAhead: {
      correctChains: result.mcts.correctChains >= result.sampling.correctChains,
      chainAccuracy: result.mcts.chainAccuracy >= result.sampling.chainAccuracy,
      tasksWithCorrectChain: result.mcts.tasksWithCorrectChain >= result.sampling.tasksWithCorrectChain,
      groundedCorrectChains: result.mcts.groundedCorrectChains >= result.sampling.groundedCorrectChains,
      sftChains: result.mcts.sftChains >= result.sampling.sftChains,
    },
    seconds: round((performance.now() - started) / 1000),
  };
}

const report = { bench: 'grounding', tasks: taskCount, seed, default: await measure() };
if (values.sweep) {
  report.sweep = [];
  for (const [agent, mcts] of [
    [{ hitProbability: 0.1, regionProbability: 0.3 }, {}],
    [{ hitProbability: 0.01, regionProbability: 0.05, regionRadius: 150, refineProbability: 0.7, accuracyWhenUnseen: 0.05 }, {}],
    [{}, { rolloutsPerChild: 4 }],
    [{}, { explorationConstant: 0.5 }],
    [{}, { simulations: 16 }],
  ]) {
    report.sweep.push(await measure(agent, mcts));
  }
}
console.log(JSON.stringify(report, null, 2));
