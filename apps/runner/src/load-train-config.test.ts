import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveModelConfig, Tokenizer } from '@saccade/models';
import { afterAll, describe, expect, test } from 'vitest';
import type { RolloutPrompt } from '@saccade/rollout';
import { registerBuiltinEnvs } from './builtin-envs';
import { registerToolsNamed } from './builtin-tools';
import { envFactory } from './env-factory';
import { listRecipes, loadTrainConfig } from './load-train-config';

const scratch = mkdtempSync(join(tmpdir(), 'saccade-train-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('recipes', () => {
  test('frozenlake is the default run: the same config as no recipe', async () => {
    expect(await loadTrainConfig(undefined, {}, 'frozenlake')).toEqual(await loadTrainConfig(undefined, {}));
  });

  test('every shipped recipe is a valid config with a one-line description; flags override it', async () => {
    const recipes = listRecipes();
    expect(recipes.map((recipe) => recipe.name)).toEqual(['frozenlake', 'visual-search-grid', 'visual-search']);
    for (const recipe of recipes) {
      expect(recipe.description.length).toBeGreaterThan(20);
      await expect(loadTrainConfig(undefined, {}, recipe.name)).resolves.toBeDefined();
    }
    const ablation = await loadTrainConfig(undefined, { tools: [], sft: { steps: 7 } }, 'visual-search');
    expect(ablation.tools).toEqual([]);
    expect(ablation.sft).toMatchObject({ steps: 7, maxTokens: 96, batchSize: 32 });
    expect(ablation.env).toEqual({ id: 'saccade/VisualSearch-v1', options: { level: 'anywhere' }, maxTurns: 4 });
    // Every SFT example and GRPO prompt is a task of its own: the range holds more than the steps read.
    expect(ablation.seeds.train.count).toBeGreaterThan(ablation.sft.steps * ablation.sft.batchSize + ablation.grpo.steps * ablation.grpo.promptsPerStep);
    const grid = await loadTrainConfig(undefined, {}, 'visual-search-grid');
    expect(grid.env).toEqual({ id: 'saccade/VisualSearch-v1', options: { difficulty: 0, question: 'shape', targetColour: 'red', targetGrid: 8 }, maxTurns: 4 });
  });
});

describe('budgets', () => {
  test('the default run and every recipe are budgeted in steps, with no time guard unless a config sets one', async () => {
    const defaults = await loadTrainConfig(undefined, {});
    expect([defaults.sft.steps, defaults.grpo.steps, defaults.ppo.steps]).toEqual([400, 110, 100]);
    expect([defaults.sft.timeLimitSeconds, defaults.grpo.timeLimitSeconds, defaults.ppo.timeLimitSeconds]).toEqual([undefined, undefined, undefined]);
    const search = await loadTrainConfig(undefined, {}, 'visual-search-grid');
    expect([search.sft.steps, search.grpo.steps, search.sft.timeLimitSeconds, search.grpo.timeLimitSeconds]).toEqual([150, 20, undefined, undefined]);
    // --time-limit and --grpo-time-limit set the guards; a run's config.yaml keeps them for --resume.
    const guarded = await loadTrainConfig(undefined, { sft: { timeLimitSeconds: 1440 }, grpo: { timeLimitSeconds: 0.5 } }, 'visual-search-grid');
    expect([guarded.sft.timeLimitSeconds, guarded.grpo.timeLimitSeconds, guarded.sft.steps]).toEqual([1440, 0.5, 150]);
  });

  test.each([
    [{ sft: { timeLimitSeconds: 0 } }, 'sft.timeLimitSeconds: expected seconds > 0 (a time guard; leave the key out for none), received 0'],
    [{ grpo: { timeLimitSeconds: -30 } }, 'grpo.timeLimitSeconds: expected seconds > 0 (a time guard; leave the key out for none), received -30'],
    [{ ppo: { timeLimitSeconds: 'ten minutes' } }, 'ppo.timeLimitSeconds: expected seconds > 0 (a time guard; leave the key out for none), received "ten minutes"'],
    // --time-limit abc reaches the schema as Number('abc').
    [{ sft: { timeLimitSeconds: Number('abc') } }, 'sft.timeLimitSeconds: expected seconds > 0 (a time guard; leave the key out for none), received NaN'],
    [{ sft: { timeLimitSeconds: null } }, 'sft.timeLimitSeconds: expected seconds > 0 (a time guard; leave the key out for none), received null'],
    [{ grpo: { steps: 2.5 } }, 'grpo.steps: Invalid input: expected int, received number'],
  ])('%j is refused, naming the key and what it expects', async (overrides, issue) => {
    await expect(loadTrainConfig(undefined, overrides)).rejects.toMatchObject({ issues: [issue] });
  });
});

describe('RL settings', () => {
  test("the advantage mask, GRPO's options and the demonstrator take their documented defaults and refuse what they do not know", async () => {
    const defaults = await loadTrainConfig(undefined, {});
    expect(defaults.advantageMask).toBe('loss');
    expect(defaults.sft.demonstrator).toBe('oracle');
    expect(defaults.grpo).toMatchObject({ rewardVarianceTopP: 1, maxSampledBatches: 1, maskTruncatedEpisodes: false, maxLogprobGap: 1e-3, aggregation: 'token-mean', shuffleScores: false, topEntropyQuantile: 1, maskUngroundedAnswers: false });
    expect(defaults.ppo.topEntropyQuantile).toBe(1);
    await expect(loadTrainConfig(undefined, { grpo: { topEntropyQuantile: 0 } })).rejects.toThrow(/topEntropyQuantile/);
    expect(defaults.episodeStore).toEqual({ trainEvery: 10, evaluations: true, maxMegabytes: 300 });
    const chosen = await loadTrainConfig(undefined, { advantageMask: 'generated', sft: { demonstrator: 'random' }, grpo: { aggregation: 'token-sum-norm', normalizeStd: false, rewardVarianceTopP: 0.25, shuffleScores: true } });
    expect(chosen.advantageMask).toBe('generated');
    expect(chosen.sft.demonstrator).toBe('random');
    expect(chosen.grpo).toMatchObject({ aggregation: 'token-sum-norm', normalizeStd: false, rewardVarianceTopP: 0.25, shuffleScores: true });
    await expect(loadTrainConfig(undefined, { advantageMask: 'all' as never })).rejects.toThrow(/advantageMask/);
    await expect(loadTrainConfig(undefined, { grpo: { rewardVarianceTopP: 0 } })).rejects.toThrow(/rewardVarianceTopP/);
  });

  test('the sampled evaluation is off by default; a temperature and a number of samples turn it on; a greedy temperature or a fractional count is refused', async () => {
    expect((await loadTrainConfig(undefined, {})).evalSampling).toBeUndefined();
    expect((await loadTrainConfig(undefined, { evalSampling: { temperature: 0.7, samples: 4 } })).evalSampling).toEqual({ temperature: 0.7, samples: 4 });
    await expect(loadTrainConfig(undefined, { evalSampling: { temperature: 0, samples: 4 } })).rejects.toThrow(/evalSampling/);
    await expect(loadTrainConfig(undefined, { evalSampling: { temperature: 0.7, samples: 1.5 } })).rejects.toThrow(/evalSampling/);
  });

  test('warm-ups default to none and the tool rewards to none; the tool rewards reach the episode env', async () => {
    const defaults = await loadTrainConfig(undefined, {});
    expect([defaults.grpo.warmupSteps, defaults.ppo.warmupSteps, defaults.toolRewards]).toEqual([0, 0, {}]);
    const chosen = await loadTrainConfig(undefined, { toolRewards: { invalidCall: -0.1, toolBonus: 0.5 }, grpo: { warmupSteps: 10 } }, 'visual-search');
    expect(chosen.grpo.warmupSteps).toBe(10);
    await registerBuiltinEnvs();
    await registerToolsNamed(chosen.tools);
    const env = envFactory({ maxTurns: chosen.env.maxTurns, tools: chosen.tools, toolRewards: chosen.toolRewards })({ envId: chosen.env.id, envOptions: chosen.env.options ?? {}, seed: 0 } as RolloutPrompt);
    await env.reset({ seed: 0 });
    expect(await env.step('<tool_call>{"name": "searc_coordinate", "arguments": {"coordinate": [3, 3]}}</tool_call>')).toMatchObject({ reward: -0.1, info: { valid: false, rewardTerms: { invalid_call: -0.1 } } });
    await expect(loadTrainConfig(undefined, { toolRewards: { bonus: 1 } as never })).rejects.toThrow(/toolRewards/);
  });

  test('the two-look example: its looking oracle crops the overview, then closer into that crop, then answers; the noisy-looking demonstrator is a choice', async () => {
    const twoLook = await loadTrainConfig(fileURLToPath(new URL('../examples/visual-search-two-look.yaml', import.meta.url)), {}, 'visual-search');
    expect([twoLook.lookingOracle, twoLook.toolOptions['search_coordinate']]).toEqual([{ minTargetPixels: 16 }, { seenSize: { width: 8, height: 8 }, cropSize: 128, cells: true, frame: 'latest' }]);
    expect((await loadTrainConfig(undefined, {})).lookingOracle).toEqual({});
    await registerBuiltinEnvs();
    await registerToolsNamed(twoLook.tools, twoLook.toolOptions);
    const env = envFactory({ maxTurns: twoLook.env.maxTurns, tools: twoLook.tools, lookingOracle: twoLook.lookingOracle })({ envId: twoLook.env.id, envOptions: twoLook.env.options ?? {}, seed: 0 } as RolloutPrompt);
    const { info } = await env.reset({ seed: 0 });
    const regions: number[][] = [];
    for (;;) {
      const result = await env.step(await env.oracleResponse!());
      for (const call of (result.info['toolCalls'] as { region: number[] }[] | undefined) ?? []) regions.push(call.region.map(Math.round));
      if (result.terminated || result.truncated) {
        expect(result.reward).toBe(1);
        break;
      }
    }
    // Task 0's 12-px target [1214, 1371, 1226, 1383]: the 364-px crop of its overview cell, then the 65-px crop of its cell of that crop.
    expect(info['targetBox']).toEqual([1214, 1371, 1226, 1383]);
    expect(regions).toEqual([[970, 1226, 1334, 1590], [1187, 1352, 1253, 1418]]);
    await env.close();
    // The recipe's crop again, for the tests after this one.
    await registerToolsNamed(['search_coordinate']);
    const noisy = await loadTrainConfig(undefined, { sft: { demonstrator: 'noisy-looking', demonstrationSamples: 4, noisyLooking: { hitProbability: 0.3 } } });
    expect([noisy.sft.demonstrator, noisy.sft.demonstrationSamples, noisy.sft.noisyLooking]).toEqual(['noisy-looking', 4, { hitProbability: 0.3 }]);
    await expect(loadTrainConfig(undefined, { lookingOracle: { minTargetPixels: -1 } })).rejects.toThrow(/lookingOracle/);
    await expect(loadTrainConfig(undefined, { sft: { demonstrationSamples: 0 } })).rejects.toThrow(/demonstrationSamples/);
  });
});

describe('model config', () => {
  test('the example configs load and their models resolve: Sokoban-sized small, the grounded search one with a longer context', async () => {
    const example = (name: string) => loadTrainConfig(fileURLToPath(new URL(`../examples/${name}`, import.meta.url)), {});
    const tokenizer = new Tokenizer();
    const sokoban = resolveModelConfig((await example('train-sokoban.yaml')).model, tokenizer);
    expect(sokoban).toMatchObject({ imageSize: 48, patchSize: 8, vision: { stem: null, grid: { layers: 8, cellPatches: 2 }, spatialMerge: 1, pointer: false, readout: null } });
    expect(resolveModelConfig((await example('train-grounded-search.yaml')).model, tokenizer)).toMatchObject({ imageSize: 64, maxSequenceLength: 2048, vision: { grid: { layers: 8, cellPatches: 2 } } });
    // The look-alikes search on top of the visual-search recipe: its env options and model switch merge into the recipe's.
    const search = await loadTrainConfig(fileURLToPath(new URL('../examples/visual-search-lookalikes.yaml', import.meta.url)), {}, 'visual-search');
    expect(search.env).toEqual({ id: 'saccade/VisualSearch-v1', options: { level: 'lookalikes', oracleDecoys: 2 }, maxTurns: 4 });
    // Its 180 SFT steps, the decoy looks out of the loss, over the recipe's other SFT settings.
    expect(search.sft).toMatchObject({ steps: 180, evalEvery: 60, maskMissedLooks: true, batchSize: 32, learningRate: 0.003, maxTokens: 96 });
    expect(resolveModelConfig(search.model, tokenizer)).toMatchObject({ imageSize: 128, maxSequenceLength: 1024, vision: { stem: { channels: 16, pool: 4, pooling: 'max', kernel: 5 }, pointer: true, readout: 'conv', pointerImage: 'first' } });
  });

  test('the GRPO example: the recipe stopped at 60 SFT steps, then 240 GRPO steps with the grounding reward, the invalid-call cost and SFT\'s Adam', async () => {
    const grpo = await loadTrainConfig(fileURLToPath(new URL('../examples/visual-search-grpo.yaml', import.meta.url)), {}, 'visual-search');
    expect(grpo.env).toEqual({ id: 'saccade/VisualSearch-v1', options: { level: 'anywhere' }, maxTurns: 4 });
    expect(grpo.algorithm).toBe('grpo');
    expect(grpo.sft).toMatchObject({ steps: 60, evalEvery: 40, batchSize: 32, learningRate: 0.003 });
    expect(grpo.toolRewards).toEqual({ targetHit: 0.5, invalidCall: -0.5 });
    expect(grpo.grpo).toMatchObject({
      steps: 240, evalEvery: 10, advantageEstimator: 'grpo', promptsPerStep: 8, groupSize: 8, maxTokens: 96,
      temperature: 0.7, learningRate: 0.0003, optimizerState: 'sft', score: 'return', maskUngroundedAnswers: true,
    });
  });

  test("the grounded example: the recipe's task, crop and model on ViGoRL's env, its points in the model's 8 × 8 frame, no run-level tools", async () => {
    const grounded = await loadTrainConfig(fileURLToPath(new URL('../examples/visual-search-grounded.yaml', import.meta.url)), {}, 'visual-search');
    expect(grounded.env).toEqual({
      id: 'saccade/GroundedVisualSearch-v1',
      options: { level: 'anywhere', seenSize: { width: 8, height: 8 }, cells: true, crop: { cropSize: 128 }, maxCrops: 3 },
      maxTurns: 4,
    });
    expect(grounded.tools).toEqual([]);
    expect(grounded.sft).toMatchObject({ steps: 120, batchSize: 32, learningRate: 0.003, maxTokens: 160 });
    expect(grounded.grpo).toMatchObject({ steps: 20, maxTokens: 160 });
    expect(resolveModelConfig(grounded.model, new Tokenizer())).toMatchObject({ imageSize: 128, patchSize: 16, maxSequenceLength: 1024, vision: { pointer: true, readout: 'conv' } });
  });

  test("a run's config.yaml in the flat form (runs made before the vision switches were grouped) gives the grouped recipe's model; a bad value names its field", async () => {
    const file = join(scratch, 'flat.yaml');
    // The visual-search-grid recipe's model section as runs made before the grouping recorded it.
    writeFileSync(file, 'model:\n  preset: small\n  seed: 0\n  config: { imageSize: 128, patchSize: 16, gridLayers: 0, gridPointer: true, stemChannels: 16, stemPool: 4, stemPooling: max, imageReadout: pointer }\n');
    const flat = await loadTrainConfig(file, {});
    const grouped = await loadTrainConfig(undefined, {}, 'visual-search-grid');
    const tokenizer = new Tokenizer();
    const resolved = resolveModelConfig(grouped.model, tokenizer);
    expect(resolveModelConfig(flat.model, tokenizer)).toEqual(resolved);
    expect(resolved).toMatchObject({ imageSize: 128, patchSize: 16, vision: { stem: { channels: 16, pool: 4, pooling: 'max' }, grid: null, spatialMerge: 1, pointer: true, readout: 'pointer' } });

    const bad = join(scratch, 'bad.yaml');
    writeFileSync(bad, 'model: { config: { vision: { stem: { channels: 16, pooling: median } } } }\n');
    await expect(loadTrainConfig(bad, {})).rejects.toMatchObject({
      issues: ["model.config.vision.stem.pooling: ModelConfig.vision.stem.pooling must be 'mean' or 'max'; got median."],
    });
    writeFileSync(bad, 'model: { config: { stemChannels: 16, stemPooling: median } }\n');
    await expect(loadTrainConfig(bad, {})).rejects.toMatchObject({ issues: ["model.config.stemPooling: ModelConfig.stemPooling must be 'mean' or 'max'; got median."] });
    // A grouped recipe changed in the flat form is refused, saying where the field goes now.
    await expect(loadTrainConfig(undefined, { model: { config: { stemPool: 2 } } }, 'visual-search')).rejects.toMatchObject({
      issues: ['model.config.stemPool: ModelConfig mixes the grouped form (vision) with the flat form\'s stemPool: write stemPool as vision.stem.pool.'],
    });
  });
});
