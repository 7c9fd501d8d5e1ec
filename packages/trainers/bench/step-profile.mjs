// Where a training step's time goes (`bench.mjs --profile`): real SFT and GRPO steps, played and
// trained by trainSft and trainGrpo as `saccade train` runs them, with the models package's
// PhaseTimer on. The first step of each phase warms kernels and Adam's slots and is left out; the
// held-out evaluation at step 0 (one seed) too. On the wasm backend a kernel runs when its op is
// called, so the wall time around a region is its compute: no syncs are added, results are those
// of an unprofiled run.
import { makeEnv, registerTool, ToolUseWrapper } from '@saccade/core';
import { registerGridEnvs } from '@saccade/env-grid';
import { registerProceduralEnvs } from '@saccade/env-procedural';
import { registerVqaEnvs } from '@saccade/env-vqa';
import { loadCheckpoint, PhaseTimer, phaseTable, formatPhaseTable, setPhaseTimer, timePhase, VisionLanguageModel } from '@saccade/models';
import { createPointCropTool } from '@saccade/tool-zoom';
import { trainGrpo, trainSft } from '@saccade/trainers';

/**
 * The two runs profiled. `default`: `saccade train` with no config (apps/runner/src/train-config.ts's
 * defaults, docs/training.md). `visual-search-grid`: apps/runner/recipes/visual-search-grid.yaml (its model
 * config in the grouped form, its tool settings). Kept in step with those files by hand.
 */
export const PROFILED_RUNS = {
  default: {
    envId: 'saccade/FrozenLake-v1',
    envOptions: { format: 'no_think', observation: 'vision', maxActionsPerTurn: 1 },
    maxTurns: 10,
    model: { preset: 'small', seed: 0 },
    view: 'image',
    historyWindow: 0,
    tools: [],
    toolOptions: {},
    trainSeeds: { start: 10_000, count: 8_000 },
    sft: { batchSize: 32, learningRate: 3e-3, warmupSteps: 20, maxTokens: 48 },
    grpo: { promptsPerStep: 16, groupSize: 8, learningRate: 1e-4, temperature: 1, maxTokens: 48, clipLow: 0.2, clipHigh: 0.28, score: 'success' },
  },
  'visual-search-grid': {
    envId: 'saccade/VisualSearch-v1',
    envOptions: { difficulty: 0, question: 'shape', targetColour: 'red', targetGrid: 8 },
    maxTurns: 4,
    model: {
      preset: 'small',
      seed: 0,
      config: { imageSize: 128, patchSize: 16, vision: { stem: { channels: 16, pool: 4, pooling: 'max' }, grid: null, pointer: true, readout: 'pointer' } },
    },
    view: 'no-system',
    historyWindow: 4,
    tools: ['search_coordinate'],
    toolOptions: { search_coordinate: { seenSize: { width: 8, height: 8 }, cropSize: 128, cells: true } },
    trainSeeds: { start: 10_000, count: 2_000 },
    sft: { batchSize: 32, learningRate: 3e-3, warmupSteps: 20, maxTokens: 96 },
    grpo: { promptsPerStep: 8, groupSize: 8, learningRate: 1e-4, temperature: 1, maxTokens: 96, clipLow: 0.2, clipHigh: 0.28, score: 'success' },
  },
};

/** An env whose reset and step (tool calls included) are timed phases; everything else passes through. */
function timedEnv(env) {
  return new Proxy(env, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key === 'reset') return (...args) => timePhase('env.reset', () => value.apply(target, args));
      if (key === 'step') return (...args) => timePhase('env.step', () => value.apply(target, args));
      return value.bind(target);
    },
  });
}

/** The runner's env factory (envFactory in apps/runner), each env timed. */
function createEnv(run) {
  return (prompt) =>
    timePhase('env.create', () => {
      const env = makeEnv(prompt.envId, prompt.envOptions ?? {}, { maxTurns: run.maxTurns });
      return timedEnv(run.tools.length > 0 ? new ToolUseWrapper(env, { tools: [...run.tools], maxTurns: run.maxTurns }) : env);
    });
}

/** Registers what the runs need: the grid, procedural and VQA envs (VisualSearch plays its tasks in VisionQA), the point-crop tool with the run's settings (as `saccade train` does from toolOptions). */
function registerRun(run) {
  registerGridEnvs();
  registerProceduralEnvs();
  registerVqaEnvs();
  for (const name of run.tools) {
    if (name !== 'search_coordinate') throw new Error(`The profile knows how to register search_coordinate only; the run names ${name}.`);
    const settings = run.toolOptions[name] ?? {};
    registerTool(createPointCropTool({ ...settings, name }), { override: true, create: (more) => createPointCropTool({ ...settings, ...more, name }) });
  }
}

/**
 * Per-step phase tables of one training phase: `train(onEvent)` runs it; a step's window runs from
 * the previous `update-end` (the first from the step-0 `eval-end`) to its own.
 */
async function profilePhase(train, warmup) {
  const timer = new PhaseTimer();
  const windows = [];
  let started = 0;
  let rollout;
  let preparation;
  const onEvent = (event) => {
    if (event.type === 'log' && /demonstrations ready$/.test(event.message)) {
      // SFT's demonstrations: played and tokenised once, before the first step.
      preparation = { ms: timer.now() - started, examples: event.data?.examples, ...timer.take() };
    } else if (event.type === 'eval-end' && event.step === 0) {
      timer.take();
      started = timer.now();
    } else if (event.type === 'rollout-end') {
      rollout = { ...event.metrics, episodes: event.episodes };
    } else if (event.type === 'update-end') {
      const now = timer.now();
      windows.push({ wallMs: now - started, ...timer.take(), update: event.metrics, rollout });
      started = now;
      rollout = undefined;
    }
  };
  setPhaseTimer(timer);
  started = timer.now();
  try {
    await train(onEvent);
  } finally {
    setPhaseTimer(undefined);
    timer.close();
  }
  return { steps: windows.slice(warmup), preparation };
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

/** Mean of each numeric metric over the steps. */
function meanMetrics(list) {
  const keys = [...new Set(list.flatMap((metrics) => Object.keys(metrics ?? {})))];
  return Object.fromEntries(keys.map((key) => [key, mean(list.map((metrics) => metrics?.[key]).filter(Number.isFinite))]));
}

/** The workers' phases per step, per worker. */
function workerTable(steps, workers) {
  if (workers === 0) return {};
  const paths = [...new Set(steps.flatMap((step) => Object.keys(step.workers)))];
  return Object.fromEntries(paths.map((path) => [path, Math.round(mean(steps.map((step) => (step.workers[path]?.ms ?? 0) / workers)) * 10) / 10]));
}

function rounded(table) {
  return {
    msPerStep: Math.round(table.msPerStep),
    phases: Object.fromEntries(Object.entries(table.phases).map(([path, row]) => [path, { ms: Math.round(row.ms * 10) / 10, share: Math.round(row.share * 1000) / 1000 }])),
  };
}

async function modelFor(run, checkpoint) {
  if (checkpoint === undefined) return VisionLanguageModel.create({ preset: run.model.preset, seed: run.model.seed, ...(run.model.config ? { config: run.model.config } : {}) });
  const expected = VisionLanguageModel.create({ preset: run.model.preset, seed: run.model.seed, ...(run.model.config ? { config: run.model.config } : {}) });
  const { model } = await loadCheckpoint(checkpoint, { expectedConfig: expected.config });
  expected.dispose();
  return model;
}

/**
 * Profiles SFT then GRPO steps of one run. Options: sftSteps, grpoSteps (measured, after one
 * warm-up step each), workers, checkpoint (a checkpoint folder to start from, e.g. a trained
 * SFT policy), skipUniformGroups (GRPO's default true drops groups whose episodes all scored
 * alike; the profile keeps them unless told, so that a fresh policy's step trains on a full batch).
 */
export async function profileRun(name, options) {
  const run = PROFILED_RUNS[name];
  if (!run) throw new Error(`Unknown run ${name}; expected one of ${Object.keys(PROFILED_RUNS).join(', ')}.`);
  registerRun(run);
  const model = await modelFor(run, options.checkpoint);
  const common = {
    envId: run.envId,
    envOptions: run.envOptions,
    createEnv: createEnv(run),
    view: run.view,
    historyWindow: run.historyWindow,
    maxTurns: run.maxTurns,
    trainSeeds: run.trainSeeds,
    // One held-out seed: the step-0 evaluation only warms generation up.
    evalSeeds: { start: 0, count: 1 },
    evalEvery: 1e9,
    seed: 0,
    ...(options.workers === undefined ? {} : { workers: options.workers }),
  };
  const warmup = 1;
  const result = { config: model.config, parameters: model.parameterCount, start: options.checkpoint ?? 'fresh weights' };

  let sft;
  if (options.sftSteps > 0) {
    const profiled = await profilePhase(
      (onEvent) => trainSft(model, { ...common, ...run.sft, steps: warmup + options.sftSteps }, onEvent),
      warmup,
    );
    const table = phaseTable(profiled.steps);
    const tokens = mean(profiled.steps.map((step) => (step.update.tokensPerSecond * (step.phases.update?.ms ?? 0)) / 1000));
    sft = {
      steps: profiled.steps.length,
      batch: run.sft.batchSize,
      tokensPerStep: Math.round(tokens),
      tokensPerSecond: Math.round((tokens * 1000) / table.msPerStep),
      ...rounded(table),
      workers: workerTable(profiled.steps, options.threads - 1),
      demonstrations: profiled.preparation && {
        examples: profiled.preparation.examples,
        ms: Math.round(profiled.preparation.ms),
        phases: Object.fromEntries(Object.entries(profiled.preparation.phases).map(([path, total]) => [path, Math.round(total.ms)])),
      },
    };
    process.stderr.write(`${formatPhaseTable(table, `sft ${name}`).join('\n')}\n`);
  }

  let grpo;
  if (options.grpoSteps > 0) {
    const profiled = await profilePhase(
      (onEvent) =>
        trainGrpo(
          model,
          { ...common, ...run.grpo, steps: warmup + options.grpoSteps, skipUniformGroups: options.skipUniformGroups ?? false, maxLogprobGap: Infinity },
          onEvent,
        ),
      warmup,
    );
    const table = phaseTable(profiled.steps);
    const trained = mean(profiled.steps.map((step) => step.update.tokensPerSecond * step.update.updateSeconds));
    const rollout = meanMetrics(profiled.steps.map((step) => step.rollout));
    const generated = (rollout.episodes ?? 0) * (rollout.meanTurns ?? 0) * (rollout.responseTokens ?? 0);
    const phaseMs = (path) => table.phases[path]?.ms ?? 0;
    grpo = {
      steps: profiled.steps.length,
      episodes: rollout.episodes,
      meanTurns: rollout.meanTurns,
      responseTokens: rollout.responseTokens,
      trainedSequences: rollout.trainedSequences,
      success: rollout.success,
      // The split nobody had measured: playing the batch against updating on it.
      split: { play: Math.round((1000 * phaseMs('play')) / table.msPerStep) / 1000, update: Math.round((1000 * (table.msPerStep - phaseMs('play'))) / table.msPerStep) / 1000 },
      trainedTokensPerStep: Math.round(trained),
      tokensPerSecond: Math.round((trained * 1000) / table.msPerStep),
      generatedTokensPerSecond: Math.round((generated * 1000) / Math.max(phaseMs('play/generate'), 1)),
      ...rounded(table),
      workers: workerTable(profiled.steps, options.threads - 1),
    };
    process.stderr.write(`${formatPhaseTable(table, `grpo ${name} (${Math.round(rollout.episodes ?? 0)} episodes, ${(rollout.meanTurns ?? 0).toFixed(1)} turns, ${(rollout.responseTokens ?? 0).toFixed(0)} tokens a turn)`).join('\n')}\n`);
  }
  model.dispose();
  return { ...result, ...(sft ? { sft } : {}), ...(grpo ? { grpo } : {}) };
}

/** `{ sft: {run: table}, grpo: {run: table} }` over the runs named. */
export async function profileSteps(options) {
  const sft = {};
  const grpo = {};
  const runs = {};
  for (const name of options.runs) {
    const checkpoint = options.checkpoints[name];
    const profiled = await profileRun(name, { ...options, ...(checkpoint ? { checkpoint } : {}) });
    const { sft: sftTable, grpo: grpoTable, ...about } = profiled;
    runs[name] = about;
    if (sftTable) sft[name] = sftTable;
    if (grpoTable) grpo[name] = grpoTable;
  }
  return { runs, sft, grpo };
}
