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
