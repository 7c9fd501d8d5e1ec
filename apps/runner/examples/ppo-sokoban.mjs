// PPO with a critic and bi-level GAE on Sokoban (6×6, 1 box, from images), after a short SFT on
// the solver's demonstrations so that PPO starts from a policy that sometimes succeeds. Evaluates
// held-out success and mean return on the same seeds before and after PPO, and prints one JSON
// line with the figures (also written to $PPO_SOKOBAN_OUT when set).
// Run after a build: node apps/runner/examples/ppo-sokoban.mjs
// Sizes can be changed from the environment: SFT_SECONDS, PPO_SECONDS, PPO_STEPS, PPO_LR, CRITIC_LR,
// VALUE_WARMUP, EVAL_SEEDS, EPISODES. SFT_CHECKPOINT=<folder>: save the SFT policy there, or start
// from it when it exists (to compare PPO settings from the same start without redoing SFT).
import { registerGridEnvs } from '@saccade/env-grid';
import { loadCheckpoint, saveCheckpoint, VisionLanguageModel } from '@saccade/models';
import { initTensor } from '@saccade/tensor';
import { createPolicyEpisodes, evaluatePolicy, trainPpo, trainSft } from '@saccade/trainers';
import { existsSync, writeFileSync } from 'node:fs';

const number = (name, fallback) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const started = performance.now();
const minutes = () => (performance.now() - started) / 60_000;

await initTensor();
registerGridEnvs();
const envId = 'saccade/Sokoban-v1';
// 8 px cells: the 6×6 room renders at 48×48, one 8 px patch per cell (no patch straddles two).
const envOptions = { format: 'no_think', observation: 'vision', cellSize: 8, maxActionsPerTurn: 2, maxSolutionSteps: 4 };
const maxTurns = 3;
const evalSeeds = { start: 0, count: number('EVAL_SEEDS', 100) };
const common = { envId, envOptions, view: 'image', historyWindow: 0, evalSeeds, maxTurns, seed: 0 };
const model = VisionLanguageModel.create({ preset: 'small', seed: 0, config: { imageSize: 48, patchSize: 8, vision: { grid: { cellPatches: 1 } } } });

const log = (event) => {
  if (event.type === 'eval-end') {
    const { success, meanReward, formatRate } = event.metrics;
    console.log(`[${minutes().toFixed(1)} min] eval step ${event.step}: success ${(success * 100).toFixed(1)}%, return ${meanReward.toFixed(2)}, format ${(formatRate * 100).toFixed(0)}%`);
  } else if (event.type === 'update-end' && 'valueLoss' in event.metrics) {
    const m = event.metrics;
    console.log(
      `[${minutes().toFixed(1)} min] ppo step ${event.step}: value loss ${m.valueLoss.toFixed(3)}, explained var ${m.explainedVariance.toFixed(2)}, clip ${m.clipFraction.toFixed(3)}, adv ${m.advantageMean.toFixed(2)}±${m.advantageStd.toFixed(2)}${m.valueWarmup ? ' (critic warm-up)' : ''}`,
    );
  } else if (event.type === 'rollout-end') {
    console.log(`[${minutes().toFixed(1)} min] rollout ${event.step}: success ${(event.metrics.success * 100).toFixed(1)}%, return ${event.metrics.meanReward.toFixed(2)}`);
  }
};

// 1. SFT on the solver's demonstrations (a non-trivial start), or the saved SFT policy.
const checkpoint = process.env.SFT_CHECKPOINT;
let sft;
if (checkpoint && existsSync(checkpoint)) {
  const loaded = await loadCheckpoint(checkpoint, { expectedConfig: model.config });
  model.setWeights(loaded.model.getWeights());
  loaded.model.dispose();
  loaded.optimizer?.dispose();
  sft = { steps: loaded.metadata?.step ?? 1, reused: checkpoint };
} else {
  sft = await trainSft(
    model,
    { ...common, trainSeeds: { start: 10_000, count: 1_500 }, steps: number('SFT_STEPS', 400), batchSize: 32, learningRate: 3e-3, warmupSteps: 20, evalEvery: 1_000, timeLimitSeconds: number('SFT_SECONDS', 360) },
    log,
  );
  if (checkpoint) {
    await saveCheckpoint(checkpoint, { model, metadata: { step: sft.steps, phase: 'sft', complete: true } });
  }
}
const sftMinutes = minutes();

// 2. The start: held-out greedy evaluation of the SFT policy.
const episodes = await createPolicyEpisodes(model, common, model);
const start = await evaluatePolicy(episodes, Array.from({ length: evalSeeds.count }, (_, i) => evalSeeds.start + i));
console.log(`[${minutes().toFixed(1)} min] start: success ${(start.success * 100).toFixed(1)}%, return ${start.meanReward.toFixed(2)}`);

// 3. PPO + bi-level GAE from there (training seeds disjoint from the evaluation seeds).
const ppoSettings = {
  ...common,
  trainSeeds: { start: 20_000, count: 5_000 },
  startStep: sft.steps,
  phaseStart: sft.steps,
  steps: sft.steps + number('PPO_STEPS', 40),
  episodesPerStep: number('EPISODES', 32),
  advantageEstimator: 'bi-level',
  gammaTurn: 0.95,
  gammaToken: 1,
  lambda: 1,
  rewardScale: 0.1,
  learningRate: number('PPO_LR', 1e-4),
  ...(process.env.CRITIC_LR === 'none' ? {} : { criticLearningRate: number('CRITIC_LR', 3e-3) }),
  epochs: 2,
  miniBatches: 2,
  clipLow: 0.2,
  clipHigh: 0.2,
  valueCoefficient: 0.5,
  valueClip: 0,
  valueWarmupSteps: number('VALUE_WARMUP', 3),
  entropyCoefficient: 0,
  maxTokens: 32,
  evalEvery: 1_000,
  timeLimitSeconds: number('PPO_SECONDS', 330),
};
const ppo = await trainPpo(model, ppoSettings, log);
const end = ppo.evaluations.at(-1);
const summary = {
  env: envId,
  envOptions,
  maxTurns,
  evalSeeds,
  sft: { steps: sft.steps, minutes: Number(sftMinutes.toFixed(2)), ...(sft.reused ? { reused: sft.reused } : {}) },
  start: { success: start.success, meanReturn: start.meanReward, formatRate: start.formatRate },
  end: { success: end.success, meanReturn: end.meanReward, formatRate: end.formatRate },
  ppo: {
    steps: ppo.steps - sft.steps,
    minutes: Number((ppo.seconds / 60).toFixed(2)),
    episodesPerStep: ppoSettings.episodesPerStep,
    learningRate: ppoSettings.learningRate,
    criticLearningRate: ppoSettings.criticLearningRate ?? null,
    valueWarmupSteps: ppoSettings.valueWarmupSteps,
  },
  totalMinutes: Number(minutes().toFixed(2)),
};
console.log(JSON.stringify(summary));
if (process.env.PPO_SOKOBAN_OUT) writeFileSync(process.env.PPO_SOKOBAN_OUT, `${JSON.stringify(summary, null, 2)}\n`);
model.dispose();
