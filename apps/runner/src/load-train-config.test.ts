import { describe, expect, test } from 'vitest';
import { listRecipes, loadTrainConfig } from './load-train-config';

describe('recipes', () => {
  test('frozenlake is the default run: the same config as no recipe', async () => {
    expect(await loadTrainConfig(undefined, {}, 'frozenlake')).toEqual(await loadTrainConfig(undefined, {}));
  });

  test('every shipped recipe is a valid config with a one-line description; flags override it', async () => {
    const recipes = listRecipes();
    expect(recipes.map((recipe) => recipe.name)).toEqual(['frozenlake', 'visual-search']);
    for (const recipe of recipes) {
      expect(recipe.description.length).toBeGreaterThan(20);
      await expect(loadTrainConfig(undefined, {}, recipe.name)).resolves.toBeDefined();
    }
    const ablation = await loadTrainConfig(undefined, { tools: [], sft: { steps: 7 } }, 'visual-search');
    expect(ablation.tools).toEqual([]);
    expect(ablation.sft).toMatchObject({ steps: 7, maxTokens: 96, batchSize: 32 });
    expect(ablation.env).toEqual({ id: 'saccade/VisualSearch-v1', options: { difficulty: 0, question: 'shape', targetColour: 'red', targetGrid: 8 }, maxTurns: 4 });
  });
});

describe('RL settings', () => {
  test("the advantage mask, GRPO's options and the demonstrator take their documented defaults and refuse what they do not know", async () => {
    const defaults = await loadTrainConfig(undefined, {});
    expect(defaults.advantageMask).toBe('loss');
    expect(defaults.sft.demonstrator).toBe('oracle');
    expect(defaults.grpo).toMatchObject({ rewardVarianceTopP: 1, maxSampledBatches: 1, maskTruncatedEpisodes: false, maxLogprobGap: 1e-3, aggregation: 'token-mean' });
    expect(defaults.episodeStore).toEqual({ trainEvery: 10, evaluations: true, maxMegabytes: 300 });
    const chosen = await loadTrainConfig(undefined, { advantageMask: 'generated', sft: { demonstrator: 'random' }, grpo: { aggregation: 'token-sum-norm', normalizeStd: false, rewardVarianceTopP: 0.25 } });
    expect(chosen.advantageMask).toBe('generated');
    expect(chosen.sft.demonstrator).toBe('random');
    expect(chosen.grpo).toMatchObject({ aggregation: 'token-sum-norm', normalizeStd: false, rewardVarianceTopP: 0.25 });
    await expect(loadTrainConfig(undefined, { advantageMask: 'all' as never })).rejects.toThrow(/advantageMask/);
    await expect(loadTrainConfig(undefined, { grpo: { rewardVarianceTopP: 0 } })).rejects.toThrow(/rewardVarianceTopP/);
  });
});
