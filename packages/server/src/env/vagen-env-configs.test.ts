import { registerGridEnvs } from '@saccade/env-grid';
import { registerProceduralEnvs } from '@saccade/env-procedural';
import { beforeAll, expect, it } from 'vitest';
import { resolveEnvConfig } from './vagen-env-configs';
import { toVagenInfo } from './vagen-serialisation';

beforeAll(() => {
  registerGridEnvs();
  registerProceduralEnvs();
});

it("maps VAGEN's config keys to Saccade options", () => {
  expect(resolveEnvConfig('frozenlake', { is_slippery: true, size: 5, p: 0.7, render_mode: 'text', max_actions_per_step: 2, action_sep: '|', prompt_format: 'no_think', format_reward: 1, desc: [['S', 'F'], ['H', 'G']], special_token_list: [] })).toEqual({
    envId: 'saccade/FrozenLake-v1',
    options: { slippery: true, size: 5, frozenProbability: 0.7, observation: 'text', maxActionsPerTurn: 2, actionSeparator: '|', format: 'no_think', formatReward: 1, map: ['SF', 'HG'] },
    maxTurns: null,
    imagePlaceholder: '<image>',
    ignoredKeys: ['special_token_list'],
  });
  expect(resolveEnvConfig('sokoban', { dim_room: [7, 8], num_boxes: 2, min_actions_to_succeed: 6, max_steps: 100, max_turns: 5, cellSize: 32 })).toMatchObject({
    envId: 'saccade/Sokoban-v1',
    options: { height: 7, width: 8, boxes: 2, maxSolutionSteps: 6, cellSize: 32 },
    maxTurns: 5,
    ignoredKeys: ['max_steps'],
  });
  expect(resolveEnvConfig('svg', { format_reward: 0.5, split: 'test', dataset_name: 'starvector/svg-icons-simple' })).toMatchObject({
    envId: 'saccade/SvgReconstruction-v1',
    options: { formatReward: 0.5, split: 'test' },
  });
  expect(resolveEnvConfig('saccade/Sokoban-v1', { boxes: 1, image_placeholder: '<img>' })).toMatchObject({ options: { boxes: 1 }, maxTurns: undefined, imagePlaceholder: '<img>' });
  expect(() => resolveEnvConfig('frozenlake', { p: 2 })).toThrow(/env_config.p: expected a probability/);
});

it("splits metrics into VAGEN's turn and trajectory metrics", () => {
  expect(toVagenInfo({ metrics: { action_is_valid: true, action_is_effective: false, success: true }, rewardTerms: { format: 0.5 } })).toEqual({
    rewardTerms: { format: 0.5 },
    metrics: { turn_metrics: { action_is_valid: true, action_is_effective: false }, traj_metrics: { success: true } },
  });
});
